# test_refresh: the values-only refresh (same Pmat, same pattern, new values) gives what a fresh PC gives, for
# PCApply, Richardson and PCApplyTranspose, and differs from the old output; "fits": the new values need another
# stencil kind (full extraction); "pattern": new nonzeros. ctest -R refresh. Included from test/CMakeLists.txt.
set(RF test_refresh)
hj_case(refresh_2d_values        1 host ${RF} -pc_hjacobi_omega 0.9 -mode values -dim 2 -da_grid_x 19 -da_grid_y 14 ${T5O2K3} -pc_hjacobi_cycles 2 -refreshes 3
  ON host cuda GPU -da_grid_x 37 -da_grid_y 29 -pc_hjacobi_tile 8)
hj_test(refresh_3d_box_constant  1 host ${RF} -pc_hjacobi_omega 0.9 -mode values -constant -dim 3 -kind box -n 9 ${T4O2K2})
hj_case(refresh_2d_fits          1 host ${RF} -pc_hjacobi_omega 0.9 -mode fits -dim 2 -kind star -da_stencil box -n 13 ${T5O2K2}
  ON host cuda GPU -n 21 -pc_hjacobi_tile 8)
hj_case(refresh_2d_pattern       1 host ${RF} -pc_hjacobi_omega 0.9 -mode pattern -dim 2 -kind star -da_stencil star -prealloc_only -n 13 ${T5O2K2}
  ON host cuda GPU -n 21 -pc_hjacobi_tile 8)
hj_test(refresh_np2_3d_dof3      2 mpi  ${RF} -pc_hjacobi_omega 0.9 -mode values -dof 3 -dim 3 -periodic -n 7 ${T4O2K2})
hj_test(refresh_np4_2d_fits      4 mpi  ${RF} -pc_hjacobi_omega 0.9 -mode fits -dim 2 -kind star -da_stencil box -n 14 ${P2x2} ${T4O2K2})
if(HJACOBI_WITH_CUDA)
  # values-only refresh on the device (and the device stencil's transpose), as on the host
  hj_case(refresh_2d_single 1 cuda ${RF} -pc_hjacobi_omega 0.9 -mode values -pc_hjacobi_inner_precision single -tol 1e-6 -dim 2 -n 33 ${T8O2K3} ON cuda)
  hj_case(refresh_3d_constant 1 cuda ${RF} -pc_hjacobi_omega 0.9 -mode values -constant -dim 3 -kind box -n 13 ${T4O2K2} ON cuda)
  hj_case(refresh_np2_dof4 2 "cuda;mpi;dof" ${RF} -pc_hjacobi_omega 0.9 -mode values -dof 4 -dim 2 -n 19 ${T6O2K2} ON cuda)
  hj_case(refresh_np4_fits 4 "cuda;mpi" ${RF} -pc_hjacobi_omega 0.9 -mode fits -dim 2 -kind star -da_stencil box -n 18 ${P2x2} ${T4O2K2} ON cuda)
endif()
