# PCHJDENSE and PCHJMG on singular operators (test_dense: variable-coefficient Laplacians, Neumann or periodic, the
# constants attached as the null space or not). Labels hjmg and dense.
#
# hjdense applied to right-hand sides in the operator's range against an independent reference: PCSVD (the
# pseudo-inverse) or PCLU applied directly, both outputs without their null-space component. relerr must be at
# rounding level; on this main's predecessor the inverse of a singular operator lost every digit (relerr 1e-1).
hjacobi_add_executable(test_dense test_dense.c)
target_compile_options(test_dense PRIVATE -Wall)
set(TD $<TARGET_FILE:test_dense> -malloc_debug -malloc_dump)
set(ROUND "relerr=[0-9.]+e-1[1-9] residual=[0-9.]+e-1[2-9]")
set(PINNED "pinned on its null space .MatSetNullSpace..; 1 row pinned.")
set(CONSTS "pinned on its null space .the constants: no null space attached, the rows sum to zero; 1 row pinned.")
set(DIRECT "the dense product would not give what the inner PC gives .*: the inner PC applied directly")
hj_expect_test(NAME dense_neumann_2d_svd LABELS "hjmg;dense" MATCH ${ROUND} ${PINNED} NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -pc_type hjdense -da_grid_x 11 -da_grid_y 7 -ksp_view)
hj_expect_test(NAME dense_neumann_3d_lu LABELS "hjmg;dense" MATCH ${ROUND} ${PINNED} NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -dim 3 -pc_type hjdense -ref_pc_type lu -ref_pc_factor_shift_type inblocks -ksp_view)
hj_expect_test(NAME dense_periodic_3d_transpose LABELS "hjmg;dense;transpose" MATCH ${ROUND} ${PINNED} NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -dim 3 -periodic -da_grid_x 6 -da_grid_y 4 -da_grid_z 8 -pc_type hjdense -transpose -ksp_view)
# no null space attached: the constants found (rows summing to zero), also where the inner LU alone fails (no shift)
hj_expect_test(NAME dense_periodic_constants LABELS "hjmg;dense" MATCH ${ROUND} ${CONSTS} NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -periodic -nullspace 0 -da_grid_x 8 -da_grid_y 10 -pc_type hjdense -ksp_view)
hj_expect_test(NAME dense_constants_noshift LABELS "hjmg;dense" MATCH "CONVERGED_RTOL its=1 truerel=[0-9.]+e-1[3-9]" ${CONSTS} NOMATCH ${LEAK}
  COMMAND ${TD} -check solve -nullspace 0 -pc_type hjdense -hjdense_pc_factor_shift_type none -ksp_view)
# a singular operator whose null space is neither attached nor the constants: the inner PC itself (the same answer
# to the last bit as LU applied directly); without a shift its zero pivot is the solve's failure
hj_expect_test(NAME dense_singular_direct LABELS "hjmg;dense" MATCH "relerr=0.00e.00 residual=[0-9.]+e-1[3-9]" ${DIRECT} NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -colscale -nullspace 0 -pc_type hjdense -ref_pc_type lu -ref_pc_factor_shift_type inblocks -ksp_view)
hj_expect_test(NAME dense_singular_zero_pivot LABELS "hjmg;dense" MATCH "DIVERGED_PC_FAILED" "no inverse: the inner PC failed at setup .FACTOR_NUMERIC_ZEROPIVOT." NOMATCH ${LEAK}
  COMMAND ${TD} -check solve -colscale -nullspace 0 -pc_type hjdense -hjdense_pc_factor_shift_type none -ksp_view)
# nonsingular: the inverse the inner PC forms, unpinned; another inner PC (Jacobi) is what it is, singular or not
hj_expect_test(NAME dense_nonsingular LABELS "hjmg;dense" MATCH "relerr=[0-9.]+e-1[4-9]" "the 63 x 63 inverse, applied as one dense product on the host" NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -shift 0.1 -pc_type hjdense -ref_pc_type lu -ksp_view)
hj_expect_test(NAME dense_inner_jacobi LABELS "hjmg;dense" MATCH "relerr=0.00e.00" "the 63 x 63 inverse, applied as one dense product on the host" NOMATCH ${LEAK}
  COMMAND ${TD} -check apply -pc_type hjdense -hjdense_pc_type jacobi -ref_pc_type jacobi -ksp_view)

# above 2048 rows the view warns that forming the inverse costs more than it saves, and says what the setup cost
hj_expect_test(NAME dense_large_warning LABELS "hjmg;dense" MATCH "hjdense: setup [0-9.e+-]+ s .the inner PC's setup and 4225 of its solves on the host. the inverse holds (136|272) MB."
  "WARNING 4225 rows: above 2048 forming the inverse costs more" "residual=[0-9.]+e-1[2-9]"
  COMMAND $<TARGET_FILE:test_dense> -check apply -da_grid_x 65 -da_grid_y 65 -pc_type hjdense -pc_hjdense_max_size 100000 -ref_pc_type none -ksp_view)

# GMRES + hjdense, and hjmg with hjdense as its coarse solve, on singular operators: the same iterations and true
# residuals as with LU in hjdense's place (ksp ex50, ex29 and ex32 with Neumann conditions; periodic; Galerkin coarse
# operators, which carry no null space)
set(DMON -ksp_converged_reason -ksp_monitor_true_residual)
hj_hjmg_same(dense_solve_neumann_2d 1 dense REF ${TD} -pc_type lu -pc_factor_shift_type inblocks ${DMON} TEST ${TD} -pc_type hjdense ${DMON})
hj_hjmg_same(dense_hjmg_periodic_2d 1 dense REF ${TD} -periodic -da_grid_x 32 -da_grid_y 32 -pc_type hjmg -ksp_rtol 1e-10 ${DMON}
                                             TEST ${TD} -periodic -da_grid_x 32 -da_grid_y 32 -pc_type hjmg -ksp_rtol 1e-10 -mg_coarse_pc_type hjdense ${DMON})
hj_hjmg_same(dense_hjmg_neumann_3d_galerkin 1 dense REF ${TD} -dim 3 -da_grid_x 17 -da_grid_y 9 -da_grid_z 17 -pc_type hjmg -pc_mg_galerkin both -ksp_rtol 1e-10 ${DMON}
                                                    TEST ${TD} -dim 3 -da_grid_x 17 -da_grid_y 9 -da_grid_z 17 -pc_type hjmg -pc_mg_galerkin both -ksp_rtol 1e-10 -mg_coarse_pc_type hjdense ${DMON})
hj_hjmg_same(dense_hjmg_neumann_np2 2 "dense;mpi" REF ${TD} -da_grid_x 33 -da_grid_y 33 -pc_type hjmg -ksp_rtol 1e-10 ${DMON}
                                                  TEST ${TD} -da_grid_x 33 -da_grid_y 33 -pc_type hjmg -ksp_rtol 1e-10 -mg_coarse_pc_type redundant -mg_coarse_redundant_pc_type hjdense ${DMON})
if(TARGET tutorial_ex50)
  set(E50 $<TARGET_FILE:tutorial_ex50> ${DLL} ${DMON})
  hj_hjmg_same(dense_ex50 1 "dense;tutorial" REF ${E50} -da_grid_x 9 -da_grid_y 9 -pc_type lu -pc_factor_shift_type inblocks TEST ${E50} -da_grid_x 9 -da_grid_y 9 -pc_type hjdense)
  hj_hjmg_same(dense_ex50_nonzero 1 "dense;tutorial" REF ${E50} -da_grid_x 9 -da_grid_y 9 -pc_type lu -pc_factor_shift_type nonzero
                                                     TEST ${E50} -da_grid_x 9 -da_grid_y 9 -pc_type hjdense -hjdense_pc_factor_shift_type nonzero)
  hj_hjmg_same(dense_ex50_hjmg 1 "dense;tutorial" REF ${E50} -da_refine 3 -pc_type hjmg -ksp_rtol 1e-10 TEST ${E50} -da_refine 3 -pc_type hjmg -ksp_rtol 1e-10 -mg_coarse_pc_type hjdense)
endif()
if(TARGET tutorial_ex29)
  set(E29 $<TARGET_FILE:tutorial_ex29> ${DLL} -bc_type neumann -da_refine 4 -pc_type hjmg -ksp_rtol 1e-10 ${DMON})
  hj_hjmg_same(dense_ex29_hjmg 1 "dense;tutorial" REF ${E29} TEST ${E29} -mg_coarse_pc_type hjdense)
endif()
if(TARGET tutorial_ex32)
  set(E32 $<TARGET_FILE:tutorial_ex32> ${DLL} -bc_type neumann -da_grid_x 12 -da_grid_y 12 -pc_mg_levels 3 -pc_type hjmg -ksp_rtol 1e-10 ${DMON})
  hj_hjmg_same(dense_ex32_hjmg 1 "dense;tutorial" REF ${E32} TEST ${E32} -mg_coarse_pc_type hjdense)
endif()

if(HJACOBI_WITH_CUDA)
  # on the GPU: the inverse on the device, and hjmg's default coarse solve there (hjdense) against PCMG's LU; where the
  # inner PC runs directly the reference (cuSPARSE's LU, another factorization) differs along the null space: residuals only
  hj_expect_test(NAME cuda_dense_neumann_3d LABELS "cuda;hjmg;dense" MATCH ${ROUND} ${PINNED} "applied as one dense product on the device"
    COMMAND ${TD} ${CU} -check apply -dim 3 -pc_type hjdense -ksp_view)
  hj_expect_test(NAME cuda_dense_periodic_constants LABELS "cuda;hjmg;dense" MATCH ${ROUND} ${CONSTS} "applied as one dense product on the device"
    COMMAND ${TD} ${CU} -check apply -periodic -nullspace 0 -da_grid_x 8 -da_grid_y 10 -pc_type hjdense -ksp_view)
  hj_expect_test(NAME cuda_dense_singular_direct LABELS "cuda;hjmg;dense" MATCH "residual=[0-9.]+e-1[3-9]" ${DIRECT}
    COMMAND ${TD} ${CU} -check apply -colscale -nullspace 0 -pc_type hjdense -ref_pc_type lu -ref_pc_factor_shift_type inblocks -ksp_view)
  hj_hjmg_same(cuda_dense_hjmg_periodic_3d 1 "cuda;dense" RTOL 1e-4 REF ${TD} ${CU} -dim 3 -periodic -da_grid_x 32 -da_grid_y 16 -da_grid_z 32 -pc_type hjmg -mg_coarse_pc_type lu -ksp_rtol 1e-10 ${DMON}
                                                              TEST ${TD} ${CU} -dim 3 -periodic -da_grid_x 32 -da_grid_y 16 -da_grid_z 32 -pc_type hjmg -ksp_rtol 1e-10 ${DMON})
  hj_hjmg_same(cuda_dense_hjmg_galerkin_np2 2 "cuda;dense;mpi" RTOL 1e-4 REF ${TD} ${CU} -dim 3 -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type hjmg -pc_mg_levels 3 -pc_mg_galerkin both -mg_coarse_pc_type redundant -mg_coarse_redundant_pc_type lu -ksp_rtol 1e-10 ${DMON}
                                                               TEST ${TD} ${CU} -dim 3 -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type hjmg -pc_mg_levels 3 -pc_mg_galerkin both -pc_hjmg_gather_size 0 -ksp_rtol 1e-10 ${DMON})
  if(TARGET tutorial_ex50)
    set(CE50 $<TARGET_FILE:tutorial_ex50> ${DLL} ${CU} -da_refine 5 -pc_type hjmg ${DMON})
    hj_hjmg_same(cuda_dense_ex50_hjmg 1 "cuda;dense;tutorial" RTOL 1e-4 REF ${CE50} -mg_coarse_pc_type lu TEST ${CE50})
    # the recorded V-cycle stays off where an operator carries a null space (KSPSolve removes it with reductions)
    hj_expect_test(NAME cuda_dense_ex50_hjmg_graph_off LABELS "cuda;dense;hjmg;tutorial" MATCH "V-cycle by PCMG's path, not recorded .level [0-9]+: its operator carries a null space"
      COMMAND ${CE50} -pc_hjmg_graph true -ksp_view)
    hj_hjmg_same(cuda_dense_ex50_hjmg_rtol 1 "cuda;dense;tutorial" RTOL 1e-4 REF ${CE50} -ksp_rtol 1e-10 -mg_coarse_pc_type lu TEST ${CE50} -ksp_rtol 1e-10)
  endif()
endif()
