# Tests that run the project's examples (examples/mg3d.c): the automatic omega against the best fixed one, PCMG on
# the GPU, and the weights' role in PCMG. Included from test/CMakeLists.txt.

# ------------------------------------------------------------------------------------------------------------
# Poisson (B3 in 2D and 3D): mg3d's first solve uses the default omega, the -sweep entries the fixed ones; the
# default must need at most 5% more V-cycles than the best of 0.6 ... 1.0 (best_omega.sh); on the host and the GPU
set(SWEEP -sweep 4:0.6:2,4:0.7:2,4:0.8:2,4:0.9:2,4:1.0:2)
foreach(g "2d;-dim;2;-da_grid_x;129;-da_grid_y;129" "3d;-dim;3;-da_grid_x;33;-da_grid_y;33;-da_grid_z;33")
  list(POP_FRONT g tag)
  add_test(NAME omega_mg3d_best_${tag} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/best_omega.sh 5 -- $<TARGET_FILE:mg3d> ${g} ${SWEEP})
  set_tests_properties(omega_mg3d_best_${tag} PROPERTIES LABELS "host;omega" TIMEOUT 120 PASS_REGULAR_EXPRESSION "best_omega: PASS")
endforeach()
if(HJACOBI_WITH_CUDA)
  add_test(NAME cuda_omega_mg3d_best_2d COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/best_omega.sh 5 -- $<TARGET_FILE:mg3d> ${CU} -dim 2 -da_grid_x 129 -da_grid_y 129 ${SWEEP})
  set_tests_properties(cuda_omega_mg3d_best_2d PROPERTIES LABELS "cuda;omega" TIMEOUT 120 PASS_REGULAR_EXPRESSION "best_omega: PASS")
endif()

# ------------------------------------------------------------------------------------------------------------
# PCMG on the GPU: every smoother on the device (no host fallback)
if(HJACOBI_WITH_CUDA)
  # Every smoother of a GPU PCMG runs on the device, with and without distinct up-smoothers (-pc_mg_distinct_smoothup:
  # a second hjacobi PC per level, on the same CUDA vectors, whose values PCMG may have left on the host: they are
  # moved to the device, the work is not moved to the host): the tile kernels ran, the host fallback never (no
  # PCHJacobiFallback event in -log_view, no "host vectors" line in -ksp_view). ctest -L cuda -R cuda_mg3d_device
  foreach(up IN ITEMS "" -pc_mg_distinct_smoothup)
    set(tag cuda_mg3d_device)
    if(up)
      set(tag cuda_mg3d_device_distinct_smoothup)
    endif()
    hj_expect_test(NAME ${tag} LABELS "cuda;smoothing" MATCH "PCHJacobi(TileKern|ClassicK)" "KSPSolve" NOMATCH "PCHJacobiFallback" "host vectors:"
      COMMAND $<TARGET_FILE:mg3d> ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 ${up} -ksp_view -log_view)
  endforeach()
endif()

# ------------------------------------------------------------------------------------------------------------
# The weights' role
# The role: PCMG's level smoothers (prefix mg_levels_) keep constant weights with auto, the coarse solve and an outer
# hjacobi take chebyshev_squared (mg3d, 17^3 and symmetric 33^3, 3 levels, viewed; the nonsymmetric coarse 5^3 has a
# Ritz pair 1.15 +- 1.15i and keeps constant weights)
hj_expect_test(NAME wts_auto_constant_mg LABELS "host;weights" MATCH "sweep weights constant, omega in every sweep .auto: the default of a multigrid smoother" "CONVERGED_RTOL"
  NOMATCH "sweep weights chebyshev"
  COMMAND $<TARGET_FILE:mg3d> -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_mg_levels 3 -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_subiterations 4 -ksp_view -ksp_converged_reason)
hj_expect_test(NAME wts_auto_chsq_mg_coarse LABELS "host;weights" MATCH "sweep weights chebyshev_squared on" "CONVERGED_RTOL"
  COMMAND $<TARGET_FILE:mg3d> -symmetric -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 3 -mg_coarse_ksp_type cg -mg_coarse_pc_type hjacobi -ksp_view -ksp_converged_reason)
