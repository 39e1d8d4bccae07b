# test_richardson: KSPRICHARDSON + hjacobi stops as its generic loop would (PCApplyRichardson with the KSP's
# tolerances: true residual every m iterations), on the host and on the device (the residual checks then run on CUDA
# vectors). Included from test/CMakeLists.txt.
hj_case(rich_tol_2d        1 host ${RI} -dim 2 -da_grid_x 31 -da_grid_y 27 ${T8O2K3} -pc_hjacobi_omega 0.8
  ON host cuda GPU -da_grid_x 47 -da_grid_y 39 -pc_hjacobi_tile 16 -rtol 1e-6)
hj_test(rich_tol_3d_box_m1 1 host ${RI} -dim 3 -kind box -n 11 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 2 -pc_hjacobi_cycles 2 -pc_hjacobi_omega 0.7 -pc_hjacobi_richardson_check 1 -rtol 1e-6)
hj_test(rich_tol_np2_2d_m5 2 mpi ${RI} -dim 2 -da_grid_x 29 -da_grid_y 33 ${T6O2K2} -pc_hjacobi_omega 0.9 -pc_hjacobi_richardson_check 5)
hj_test(rich_tol_np4_3d    4 mpi ${RI} -dim 3 -n 10 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 3 -pc_hjacobi_omega 0.8 -pc_hjacobi_richardson_check 3)
if(HJACOBI_WITH_CUDA)
  hj_case(rich_tol_np2_3d 2 "cuda;mpi" ${RI} -dim 3 -n 13 -pc_hjacobi_tile 4 -pc_hjacobi_subiterations 2 -pc_hjacobi_omega 0.8 -pc_hjacobi_richardson_check 3 ON cuda)
endif()
