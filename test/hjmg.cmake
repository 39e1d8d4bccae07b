# PCHJMG (-pc_type hjmg, src/mg/): PCMG with richardson + hjacobi level smoothers, the residual through the smoother,
# a stored transpose for GPU restriction. Label hjmg. Included from test/CMakeLists.txt after tutorials.cmake.
#
# hj_hjmg_same(<name> <np> <labels> REF <command> TEST <command>): same_solve.sh runs both on <np> ranks; they must
# give the same iteration counts (every KSP and SNES solve) and the same monitored norms to HJMG_RTOL: hjmg is the
# PCMG it stands for, and its residual through the smoother changes rounding only.
set(HJMG_RTOL 1e-6)
function(hj_hjmg_same name np labels)
  cmake_parse_arguments(T "" "RTOL" "REF;TEST" ${ARGN})
  if(NOT T_RTOL)
    set(T_RTOL ${HJMG_RTOL})
  endif()
  set(run ${HJACOBI_MPIEXEC} -n ${np})
  add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/same_solve.sh ${T_RTOL} -- ${run} ${T_REF} -- ${run} ${T_TEST})
  set_tests_properties(${name} PROPERTIES LABELS "hjmg;${labels}" PROCESSORS ${np} TIMEOUT 300 PASS_REGULAR_EXPRESSION "same_solve: PASS"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
endfunction()

hjacobi_add_executable(test_hjmg test_hjmg.c)
target_compile_options(test_hjmg PRIVATE -Wall)

set(HJMG_MON -ksp_converged_reason -ksp_monitor_true_residual)
set(HJMG_AS_MG -pc_type mg -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi) # what -pc_type hjmg stands for
set(M3 $<TARGET_FILE:mg3d> -da_grid_x 21 -da_grid_y 17 -da_grid_z 25 -pc_mg_levels 3 ${HJMG_MON}) # odd sizes, 3D
set(M2 $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 41 -da_grid_y 33 -pc_mg_levels 4 ${HJMG_MON})     # and 2D

# ------------------------------------------------------------------------------------------------------------
# hjmg = PCMG with the level options it stands for: mg3d (two solves each) in 3D and 2D on 1, 2 and 4 ranks
foreach(np 1 2 4)
  set(l "")
  if(np GREATER 1)
    set(l mpi)
  endif()
  hj_hjmg_same(hjmg_mg3d_3d_np${np} ${np} "${l}" REF ${M3} ${HJMG_AS_MG} TEST ${M3} -pc_type hjmg)
  hj_hjmg_same(hjmg_mg3d_2d_np${np} ${np} "${l}" REF ${M2} ${HJMG_AS_MG} TEST ${M2} -pc_type hjmg)
endforeach()
# -ksp_type richardson: PCMG's own iteration (PCApplyRichardson: no monitor, or KSPRICHARDSON would not call it), the
# same iterations and final residuals as the PCMG options hjmg stands for; -info shows PCMG's convergence test ran
set(M3R $<TARGET_FILE:mg3d> -da_grid_x 21 -da_grid_y 17 -da_grid_z 25 -pc_mg_levels 3 -ksp_type richardson -ksp_converged_reason)
foreach(np 1 2 4)
  hj_hjmg_same(hjmg_richardson_3d_np${np} ${np} mpi REF ${M3R} ${HJMG_AS_MG} TEST ${M3R} -pc_type hjmg)
endforeach()
hj_hjmg_same(hjmg_richardson_2d_np2 2 mpi REF $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 41 -da_grid_y 33 -ksp_type richardson -ksp_converged_reason ${HJMG_AS_MG} -pc_mg_levels 4
                                      TEST $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 41 -da_grid_y 33 -ksp_type richardson -ksp_converged_reason -pc_type hjmg)
hj_expect_test(NAME hjmg_richardson_pcmg LABELS hjmg MATCH "PCMGMCycle_Private.*Linear solver has converged. Residual norm" "ksp=richardson pc=hjmg .*relres=[0-9.]+e-(09|1[0-9]) reason=CONVERGED_RTOL"
  COMMAND ${M3R} -pc_type hjmg -info :pc)
# PCMG's options: distinct up-smoothers (hjmg's start as copies of the down-smoothers: richardson + hjacobi, where
# PCMG alone gives Chebyshev/SOR), Galerkin coarse operators, W-cycles, full multigrid
hj_hjmg_same(hjmg_mg3d_smoothup_np2 2 mpi REF ${M3} ${HJMG_AS_MG} -pc_mg_distinct_smoothup -mg_levels_up_ksp_type richardson -mg_levels_up_pc_type hjacobi
                                          TEST ${M3} -pc_type hjmg -pc_mg_distinct_smoothup)
hj_hjmg_same(hjmg_mg3d_galerkin_np2 2 mpi REF ${M3} ${HJMG_AS_MG} -pc_mg_galerkin both TEST ${M3} -pc_type hjmg -pc_mg_galerkin both)
hj_hjmg_same(hjmg_mg3d_wcycle_np2 2 mpi REF ${M2} ${HJMG_AS_MG} -pc_mg_cycle_type w TEST ${M2} -pc_type hjmg -pc_mg_cycle_type w)
hj_hjmg_same(hjmg_mg3d_full_np2 2 mpi REF ${M3} ${HJMG_AS_MG} -pc_mg_type full TEST ${M3} -pc_type hjmg -pc_mg_type full)
# the level options override hjmg's defaults: PCJACOBI smoothers (damped Richardson), hjmg then leaves PCMG's residual
hj_hjmg_same(hjmg_mg3d_jacobi_np2 2 mpi REF ${M3} -pc_type mg -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_pc_type jacobi
                                        TEST ${M3} -pc_type hjmg -mg_levels_ksp_richardson_scale 0.6 -mg_levels_pc_type jacobi)
# no -pc_mg_levels: hjmg halves the DMDA while it can, as mg3d chooses PCMG's levels (3 in 3D, 4 in 2D here)
set(M3A $<TARGET_FILE:mg3d> -da_grid_x 21 -da_grid_y 17 -da_grid_z 25 ${HJMG_MON})
set(M2A $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 41 -da_grid_y 33 ${HJMG_MON})
hj_hjmg_same(hjmg_mg3d_autolevels_3d_np2 2 mpi REF ${M3A} ${HJMG_AS_MG} TEST ${M3A} -pc_type hjmg)
hj_hjmg_same(hjmg_mg3d_autolevels_2d_np4 4 mpi REF ${M2A} ${HJMG_AS_MG} TEST ${M2A} -pc_type hjmg)
# the residual through the smoother (its stencil) against PCMG's MatResidual: the same iterations, rounding apart
hj_hjmg_same(hjmg_stencil_residual_3d_np2 2 mpi REF ${M3} -pc_type hjmg -pc_hjmg_stencil_residual false TEST ${M3} -pc_type hjmg)
hj_hjmg_same(hjmg_stencil_residual_2d_np4 4 mpi REF ${M2} -pc_type hjmg -pc_hjmg_stencil_residual false TEST ${M2} -pc_type hjmg)
# the stencil transfers (one rank) against the interpolation's products: the same iterations, rounding apart
hj_hjmg_same(hjmg_stencil_transfer_3d 1 "" REF ${M3} -pc_type hjmg -pc_hjmg_stencil_transfer false TEST ${M3} -pc_type hjmg)
hj_hjmg_same(hjmg_stencil_transfer_2d_wcycle 1 "" REF ${M2} -pc_type hjmg -pc_hjmg_stencil_transfer false -pc_mg_cycle_type w TEST ${M2} -pc_type hjmg -pc_mg_cycle_type w)
hj_hjmg_same(hjmg_stencil_transfer_3d_full 1 "" REF ${M3} -pc_type hjmg -pc_hjmg_stencil_transfer false -pc_mg_type full TEST ${M3} -pc_type hjmg -pc_mg_type full)

# PETSc's tutorials, unmodified: ksp ex45 (3D, KSPSetComputeOperators), snes ex19 (dof 4, Newton, levels from -da_refine)
if(TARGET tutorial_ex45)
  set(E45 $<TARGET_FILE:tutorial_ex45> ${DLL} -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_mg_levels 3 ${HJMG_MON})
  hj_hjmg_same(hjmg_ex45_np1 1 tutorial REF ${E45} ${HJMG_AS_MG} TEST ${E45} -pc_type hjmg)
  hj_hjmg_same(hjmg_ex45_np2 2 "tutorial;mpi" REF ${E45} ${HJMG_AS_MG} TEST ${E45} -pc_type hjmg)
  hj_hjmg_same(hjmg_ex45_galerkin_np2 2 "tutorial;mpi" REF ${E45} ${HJMG_AS_MG} -pc_mg_galerkin pmat TEST ${E45} -pc_type hjmg -pc_mg_galerkin pmat)
  # Richardson as the outer KSP (PCMG's PCApplyRichardson: the finest level's residual), BiCG (PCApplyTranspose: the
  # transposed residual)
  hj_hjmg_same(hjmg_ex45_richardson 1 tutorial REF ${E45} ${HJMG_AS_MG} -ksp_type richardson TEST ${E45} -pc_type hjmg -ksp_type richardson)
  hj_hjmg_same(hjmg_ex45_bicg 1 "tutorial;transpose" REF ${E45} ${HJMG_AS_MG} -ksp_type bicg TEST ${E45} -pc_type hjmg -ksp_type bicg)
  hj_hjmg_same(hjmg_ex45_stencil_residual_np2 2 "tutorial;mpi" REF ${E45} -pc_type hjmg -pc_hjmg_stencil_residual false TEST ${E45} -pc_type hjmg)
endif()
if(TARGET tutorial_ex19)
  set(E19 $<TARGET_FILE:tutorial_ex19> ${DLL} -da_refine 3 -snes_converged_reason -snes_monitor ${HJMG_MON})
  foreach(np 1 2 4)
    set(l "tutorial;dof")
    if(np GREATER 1)
      set(l "tutorial;dof;mpi")
    endif()
    hj_hjmg_same(hjmg_ex19_np${np} ${np} "${l}" REF ${E19} ${HJMG_AS_MG} TEST ${E19} -pc_type hjmg)
  endforeach()
  hj_hjmg_same(hjmg_ex19_stencil_residual_np2 2 "tutorial;dof;mpi" REF ${E19} -pc_type hjmg -pc_hjmg_stencil_residual false TEST ${E19} -pc_type hjmg)
  hj_hjmg_same(hjmg_ex19_stencil_transfer 1 "tutorial;dof" REF ${E19} -pc_type hjmg -pc_hjmg_stencil_transfer false TEST ${E19} -pc_type hjmg) # MAIJ, dof 4
endif()

# ------------------------------------------------------------------------------------------------------------
# What hjmg says: -pc_view (PCMG's view, hjmg's lines, the hjacobi smoothers), -help, -info, -pc_mg_log
set(V3 $<TARGET_FILE:mg3d> -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type hjmg -pc_mg_levels 3)
hj_expect_test(NAME hjmg_view LABELS hjmg MATCH "type: hjmg" "type is MULTIPLICATIVE, levels=3 cycles=v" "hjmg: richardson . hjacobi smoothers by default"
  "hjmg: residual through the hjacobi smoother .-pc_hjmg_stencil_residual true. on levels 1 2$" "interpolation and restriction on the stencil .-pc_hjmg_stencil_transfer true. on levels 1 2$" "restriction by a stored transpose .* on no level" "type: hjacobi" "type: richardson"
  COMMAND ${V3} -pc_view)
# after the solves, -ksp_view counts the residuals by path: on every level from the smoother's stencil (PCHJACOBI's
# "PCHJacobiResidual_C"), none by MatResidual
hj_expect_test(NAME hjmg_view_stencil_used LABELS hjmg MATCH "level 1: [1-9][0-9]* residuals from the smoother's stencil, 0 by MatResidual"
  "level 2: [1-9][0-9]* residuals from the smoother's stencil, 0 by MatResidual" COMMAND ${V3} -ksp_view)
# the view says per level what the next residual runs, before a solve (-pc_view at setup) and after: a matrix-free
# operator (-snes_mf_operator) on the finest level and dof 4 on the others take MatResidual, and no level is listed
if(TARGET tutorial_ex19)
  hj_expect_test(NAME hjmg_view_mf_operator LABELS "hjmg;tutorial" MATCH "-pc_hjmg_stencil_residual true. on no level"
    "level 2: 0 residuals from the smoother's stencil, [1-9][0-9]* by MatResidual; the next by MatResidual .the level's operator is not its smoother's Pmat"
    "level 1: 0 residuals from the smoother's stencil, [1-9][0-9]* by MatResidual; the next by MatResidual .dof > 1"
    COMMAND $<TARGET_FILE:tutorial_ex19> ${DLL} -da_refine 2 -pc_type hjmg -snes_mf_operator -snes_view)
endif()
hj_expect_test(NAME hjmg_view_before_solve LABELS hjmg MATCH "level 2: 0 residuals from the smoother's stencil, 0 by MatResidual; the next from the stencil" COMMAND ${V3} -pc_view)
# levels hjmg cannot build: refused in words, never PCMG's crash (0 levels) or bare coarsening error (too many)
hj_expect_test(NAME hjmg_err_levels_zero ERROR LABELS "hjmg;errors" MATCH "PCHJMG needs at least one level, not 0" COMMAND ${V3} -pc_mg_levels 0)
hj_expect_test(NAME hjmg_err_levels_negative ERROR LABELS "hjmg;errors" MATCH "PCHJMG needs at least one level, not -3" COMMAND ${V3} -pc_mg_levels -3)
hj_expect_test(NAME hjmg_err_levels_too_many ERROR LABELS "hjmg;errors" MATCH "PCHJMG: 6 levels .* are more than this DMDA allows: it coarsens into at most 4 levels .the coarsest 3 x 3 x 2.* give -pc_mg_levels 4 or fewer"
  COMMAND $<TARGET_FILE:mg3d> -da_grid_x 17 -da_grid_y 17 -da_grid_z 9 -pc_type hjmg -pc_mg_levels 6)
hj_expect_test(NAME hjmg_err_levels_ranks_np4 NP 4 ERROR LABELS "hjmg;errors;mpi" MATCH "PCHJMG: 3 levels .* are more than this DMDA allows: it coarsens into at most 2 levels .the coarsest 5 x 5 x 1"
  COMMAND $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 9 -da_grid_y 9 -da_processors_x 4 -da_processors_y 1 -pc_type hjmg -pc_mg_levels 3)
hj_expect_test(NAME hjmg_view_stencil_off LABELS hjmg MATCH "-pc_hjmg_stencil_residual false. on no level" NOMATCH "residuals from the smoother's stencil"
  COMMAND ${V3} -pc_hjmg_stencil_residual false -ksp_view)
hj_expect_test(NAME hjmg_view_override LABELS hjmg MATCH "type: hjmg" "type: jacobi" "-pc_hjmg_stencil_residual true. on no level"
  NOMATCH "type: hjacobi" COMMAND ${V3} -mg_levels_pc_type jacobi -pc_view)
hj_expect_test(NAME hjmg_view_smoothup LABELS hjmg MATCH "Up solver .post-smoother. on level 2" "PC Object: .mg_levels_2_up_."
  NOMATCH "type: (sor|chebyshev)" COMMAND ${V3} -pc_mg_distinct_smoothup -pc_view)
hj_expect_test(NAME hjmg_view_autolevels LABELS hjmg MATCH "levels=4 cycles=v" "hjmg: 4 levels chosen from the DMDA" COMMAND ${M2A} -pc_type hjmg -pc_view)
# host vectors: the rule alone (PCMG's coarse LU; 65^3: 5 levels down to 5^3)
hj_expect_test(NAME hjmg_view_autolevels_host LABELS hjmg MATCH "hjmg: 5 levels chosen from the DMDA .halved while it can;" "type: lu" NOMATCH "hjdense"
  COMMAND $<TARGET_FILE:mg3d> -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type hjmg -pc_view)
hj_expect_test(NAME hjmg_view_levels_given LABELS hjmg MATCH "levels=2 cycles=v" NOMATCH "levels chosen from the DMDA" COMMAND ${M2A} -pc_type hjmg -pc_mg_levels 2 -pc_view)
hj_expect_test(NAME hjmg_help LABELS hjmg MATCH "-pc_hjmg_stencil_residual" "-pc_hjmg_stencil_transfer" "-pc_hjmg_explicit_restriction" "-pc_mg_levels" "-mg_levels_pc_hjacobi_tile"
  COMMAND ${V3} -help)
hj_expect_test(NAME hjmg_info LABELS hjmg INFO pc MATCH "richardson . hjacobi smoothers by default" "level 2: residual through the hjacobi smoother"
  "level 2: interpolation and restriction on the stencil" COMMAND ${V3})
hj_expect_test(NAME hjmg_log LABELS hjmg MATCH "MGSmooth Level 2" "MGResid Level 2" "PCHJacobiCycle" "PCHJMGTransfer" COMMAND ${V3} -pc_mg_log -log_view)

# ------------------------------------------------------------------------------------------------------------
# PCHJDENSE (src/pc/hjdense/hjdense.cxx): a small operator's inverse as one dense product. Against the exact solution: one
# application solves mg3d's nonsymmetric operator to rounding, and its transpose (KSPSolveTranspose) A^T; inside PCREDUNDANT on 2 ranks, above -pc_hjdense_max_size (the inner
# LU itself), with another inner PC; as PCMG's coarse solve it gives PCMG's LU iterations and norms (3D; ex19, dof 4;
# Newton's new operators refactor; new operators, PCReset and -malloc_dump in hjmg_change_dense). On host vectors hjmg
# keeps PCMG's LU.
set(SD $<TARGET_FILE:mg3d> -da_grid_x 9 -da_grid_y 7 -da_grid_z 11 -pc_mg_levels 1 -malloc_debug -malloc_dump)
set(EXACT "its=1 .*relres=[0-9.]+e-1[3-9] ")
set(LEAK "${HJ_LEAK_FAIL}") # a block left at PetscFinalize (-malloc_dump)
hj_expect_test(NAME hjdense_exact LABELS hjmg MATCH "pc=hjdense ${EXACT}" "the 693 x 693 inverse, applied as one dense product on the host" "PC Object: .hjdense_." "type: lu"
  NOMATCH ${LEAK} COMMAND ${SD} -ksp_type preonly -pc_type hjdense -ksp_view)
hj_expect_test(NAME hjdense_transpose LABELS "hjmg;transpose" MATCH "ksp=preonly pc=hjdense ${EXACT}" "A.T x.. / ..b.. = " NOMATCH ${LEAK} COMMAND ${SD} -ksp_type preonly -pc_type hjdense -transpose)
hj_expect_test(NAME hjdense_redundant_np2 NP 2 LABELS "hjmg;mpi" MATCH "ksp=preonly pc=redundant ${EXACT}" "type: hjdense" "the 693 x 693 inverse" NOMATCH ${LEAK}
  COMMAND ${SD} -ksp_type preonly -pc_type redundant -redundant_pc_type hjdense -ksp_view)
hj_expect_test(NAME hjdense_max_size LABELS hjmg MATCH "pc=hjdense ${EXACT}" "693 rows > max size 10 .-pc_hjdense_max_size.: the inner PC applied directly" NOMATCH ${LEAK}
  COMMAND ${SD} -ksp_type preonly -pc_type hjdense -pc_hjdense_max_size 10 -ksp_view)
hj_expect_test(NAME hjdense_inner LABELS hjmg MATCH "formed by:" "type: jacobi" NOMATCH "relres=[0-9.]+e-1[3-9] " COMMAND ${SD} -ksp_type preonly -pc_type hjdense -hjdense_pc_type jacobi -ksp_view)
hj_expect_test(NAME hjdense_err_ranks NP 2 ERROR LABELS "hjmg;errors;mpi" MATCH "PCHJDENSE runs on one MPI rank .this PC has 2.; on several, put it inside PCREDUNDANT" COMMAND ${SD} -pc_type hjdense)
hj_expect_test(NAME hjdense_err_max_size ERROR LABELS "hjmg;errors" MATCH "-pc_hjdense_max_size -1 must be >= 0" COMMAND ${SD} -pc_type hjdense -pc_hjdense_max_size -1)
hj_hjmg_same(hjdense_coarse_3d 1 "" REF ${M3} -pc_type hjmg TEST ${M3} -pc_type hjmg -mg_coarse_pc_type hjdense)
hj_hjmg_same(hjdense_coarse_2d_wcycle 1 "" REF ${M2} -pc_type hjmg -pc_mg_cycle_type w TEST ${M2} -pc_type hjmg -pc_mg_cycle_type w -mg_coarse_pc_type hjdense)
hj_expect_test(NAME hjdense_coarse_view LABELS hjmg MATCH "PC Object: .mg_coarse_. 1 MPI process" "type: hjdense" "the 125 x 125 inverse, applied as one dense product on the host"
  COMMAND ${V3} -mg_coarse_pc_type hjdense -pc_view)
hj_expect_test(NAME hjmg_view_coarse_host LABELS hjmg MATCH "PC Object: .mg_coarse_. 1 MPI process" "type: lu" NOMATCH "hjdense" COMMAND ${V3} -pc_view)
if(TARGET tutorial_ex19)
  hj_hjmg_same(hjdense_coarse_ex19 1 "tutorial;dof" REF ${E19} -pc_type hjmg TEST ${E19} -pc_type hjmg -mg_coarse_pc_type hjdense)
endif()

# ------------------------------------------------------------------------------------------------------------
# Operators given with KSPSetOperators: new values, PCReset (every setup installs again; -malloc_dump finds no
# leak), and without any DM an error that says what hjmg needs
hj_case(hjmg_change 1 "hjmg" test_hjmg ON host cuda)
hj_case(hjmg_change_np2 2 "hjmg;mpi" test_hjmg ON host cuda)
hj_case(hjmg_change_dense 1 "hjmg" test_hjmg -mg_coarse_pc_type hjdense ON host cuda)
hj_expect_test(NAME hjmg_err_no_dm ERROR LABELS "hjmg;errors" MATCH "PCHJMG with 3 levels needs a DMDA to build the grid hierarchy"
  COMMAND $<TARGET_FILE:test_hjmg> -attach_dm 0)

# ------------------------------------------------------------------------------------------------------------
# On the GPU (ctest -L cuda -R hjmg): hjmg against PCMG on CUDA vectors, and the stored transpose of the interpolations
# (aijcusparse: every level's restriction is P^T)
if(HJACOBI_WITH_CUDA)
  # (on several ranks with CUDA vectors the coarse levels go to one rank by default, -pc_hjmg_gather_size; the tests of
  # other things on 2 ranks keep them where PCMG puts them, as the PCMG options they are compared with do)
  set(NOGATHER -pc_hjmg_gather_size 0)
  set(CM3 $<TARGET_FILE:mg3d> ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 ${HJMG_MON})
  hj_hjmg_same(cuda_hjmg_mg3d_3d 1 cuda RTOL 1e-4 REF ${CM3} ${HJMG_AS_MG} TEST ${CM3} -pc_type hjmg)
  hj_hjmg_same(cuda_hjmg_mg3d_3d_np2 2 "cuda;mpi" RTOL 1e-4 REF ${CM3} ${HJMG_AS_MG} TEST ${CM3} -pc_type hjmg ${NOGATHER})
  hj_hjmg_same(cuda_hjmg_explicit_restriction 1 cuda RTOL 1e-4 REF ${CM3} -pc_type hjmg -pc_hjmg_stencil_transfer false TEST ${CM3} -pc_type hjmg -pc_hjmg_stencil_transfer false -pc_hjmg_explicit_restriction true)
  hj_expect_test(NAME cuda_hjmg_view LABELS "cuda;hjmg" MATCH "type: hjmg" "interpolation and restriction on the stencil .-pc_hjmg_stencil_transfer true. on levels 1 2 3"
    "level 3: [1-9][0-9]* transfers on the stencil, 0 by the interpolation's product" "level 3: [1-9][0-9]* residuals from the smoother's stencil"
    "stored transpose of the interpolation .-pc_hjmg_explicit_restriction true, GPU AIJ only. on no level" COMMAND ${CM3} -pc_type hjmg -pc_hjmg_explicit_restriction true -ksp_view)
  hj_expect_test(NAME cuda_hjmg_view_explicit LABELS "cuda;hjmg" MATCH "stored transpose of the interpolation .-pc_hjmg_explicit_restriction true, GPU AIJ only. on levels 1 2 3"
    "stencil .-pc_hjmg_stencil_transfer false. on no level" COMMAND ${CM3} -pc_type hjmg -pc_hjmg_stencil_transfer false -pc_hjmg_explicit_restriction true -ksp_view)
  # the recorded V-cycle (-pc_hjmg_graph true, one rank; off by default): the same solves as PCMG's path to rounding, on the
  # caller's vectors (CG: the same two every PCApply) or on copies (FGMRES: other arrays every PCApply), in 3D and 2D;
  # a level that is not hjmg's own keeps PCMG's path, and -pc_view says why
  hj_hjmg_same(cuda_hjmg_graph_same 1 cuda RTOL 1e-9 REF ${CM3} -pc_type hjmg -pc_hjmg_graph false TEST ${CM3} -pc_type hjmg -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_same_cg 1 cuda RTOL 1e-9 REF ${CM3} -pc_type hjmg -ksp_type cg -pc_hjmg_graph false TEST ${CM3} -pc_type hjmg -ksp_type cg -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_same_2d 1 cuda RTOL 1e-9 REF ${M2} ${CU} -pc_type hjmg -pc_hjmg_graph false TEST ${M2} ${CU} -pc_type hjmg -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_same_wcycle 1 cuda RTOL 1e-9 REF ${CM3} -pc_type hjmg -pc_mg_cycle_type w -pc_hjmg_graph false TEST ${CM3} -pc_type hjmg -pc_mg_cycle_type w -pc_hjmg_graph true)
  hj_expect_test(NAME cuda_hjmg_graph_view LABELS "cuda;hjmg" MATCH "V-cycle recorded by the cuda backend and replayed .-pc_hjmg_graph true.: [1-9][0-9]* replays, 2 recordings, on copies of the caller's vectors"
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_view_cg LABELS "cuda;hjmg" MATCH "V-cycle recorded by the cuda backend and replayed .-pc_hjmg_graph true.: [1-9][0-9]* replays, 1 recordings, on the caller's vectors"
    COMMAND ${CM3} -pc_type hjmg -ksp_type cg -pc_hjmg_graph true -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_transfer LABELS "cuda;hjmg" MATCH "V-cycle by PCMG's path, not recorded .level 1: its interpolation and restriction are not the stencil transfers."
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -pc_hjmg_stencil_transfer false -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_coarse LABELS "cuda;hjmg" MATCH "V-cycle by PCMG's path, not recorded .level 0: the coarse solve is not preonly . hjdense."
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -mg_coarse_pc_type lu -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_scale LABELS "cuda;hjmg" MATCH "V-cycle by PCMG's path, not recorded .level [1-9]: its smoother's Richardson scale is not 1"
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -mg_levels_ksp_richardson_scale 0.9 -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_guess LABELS "cuda;hjmg" MATCH "V-cycle by PCMG's path, not recorded .level [1-9]: its smoother has an initial guess method"
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -mg_levels_ksp_guess_type fischer -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_default LABELS "cuda;hjmg" MATCH "V-cycle by PCMG's path, not recorded .-pc_hjmg_graph false."
    COMMAND ${CM3} -pc_type hjmg -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_off_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "V-cycle by PCMG's path, not recorded .several ranks"
    COMMAND ${CM3} -pc_type hjmg -pc_hjmg_graph true -ksp_view)
  # -ksp_type richardson with the recording (PCMG's iteration, each V-cycle replayed in two parts, PCMG's norm test
  # between them): the same iterations and true residuals (-ksp_view_final_residual) as PCMG's path (mg3d's first solve
  # records at its first V-cycle and replays, its second replays), V and W cycles, 3D and 2D, an absolute tolerance,
  # one met at the first V-cycle's test (nothing recorded: the next solve tries again), max_it 1 (the recording's
  # replay is the answer); a refusal by name
  set(CM3RG $<TARGET_FILE:mg3d> ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 -ksp_type richardson -ksp_converged_reason -ksp_view_final_residual -pc_type hjmg)
  set(CM2RG $<TARGET_FILE:mg3d> ${CU} -dim 2 -da_grid_x 41 -da_grid_y 33 -pc_mg_levels 4 -ksp_type richardson -ksp_converged_reason -ksp_view_final_residual -pc_type hjmg) # (no monitor: KSPRICHARDSON calls PCApplyRichardson)
  hj_hjmg_same(cuda_hjmg_graph_richardson 1 cuda RTOL 1e-9 REF ${CM3RG} -pc_hjmg_graph false TEST ${CM3RG} -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_richardson_wcycle 1 cuda RTOL 1e-9 REF ${CM3RG} -pc_mg_cycle_type w -pc_hjmg_graph false TEST ${CM3RG} -pc_mg_cycle_type w -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_richardson_2d 1 cuda RTOL 1e-9 REF ${CM2RG} -pc_hjmg_graph false TEST ${CM2RG} -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_richardson_early 1 cuda RTOL 1e-9 REF ${CM3RG} -ksp_rtol 0 -ksp_atol 1 -pc_hjmg_graph false TEST ${CM3RG} -ksp_rtol 0 -ksp_atol 1 -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_richardson_atol 1 cuda RTOL 1e-9 REF ${CM3RG} -ksp_rtol 0 -ksp_atol 1e-6 -pc_hjmg_graph false TEST ${CM3RG} -ksp_rtol 0 -ksp_atol 1e-6 -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_graph_richardson_its 1 cuda RTOL 1e-9 REF ${CM3RG} -ksp_max_it 1 -pc_hjmg_graph false TEST ${CM3RG} -ksp_max_it 1 -pc_hjmg_graph true)
  hj_expect_test(NAME cuda_hjmg_graph_richardson_view LABELS "cuda;hjmg" MATCH "Richardson iteration's V-cycles recorded by the cuda backend in two parts and replayed: [1-9][0-9]* V-cycles replayed, 1 recordings"
    "V-cycle recorded at the second PCApply" COMMAND ${CM3RG} -pc_hjmg_graph true -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_richardson_off LABELS "cuda;hjmg" MATCH "Richardson iteration .-ksp_type richardson. by PCMG's path, not recorded .level 0: the coarse solve is not preonly . hjdense."
    COMMAND ${CM3RG} -mg_coarse_pc_type lu -pc_hjmg_graph true -ksp_view)
  hj_expect_test(NAME cuda_hjmg_graph_richardson_info LABELS "cuda;hjmg" INFO pc MATCH "V-cycle recorded in two parts: a replay matches PCMG's path to" "Linear solver has converged"
    COMMAND ${CM3RG} -pc_hjmg_graph true)
  hj_hjmg_same(cuda_hjmg_stencil_transfer 1 cuda RTOL 1e-4 REF ${CM3} -pc_type hjmg -pc_hjmg_stencil_transfer false TEST ${CM3} -pc_type hjmg)
  # hjmg's coarse solve on one rank with CUDA vectors: PCHJDENSE on the device (PCMG's LU when asked for); the inverse
  # on the device solves exactly, and its transpose too
  hj_expect_test(NAME cuda_hjmg_coarse_dense LABELS "cuda;hjmg" MATCH "PC Object: .mg_coarse_. 1 MPI process" "type: hjdense" "the 125 x 125 inverse, applied as one dense product on the device"
    COMMAND ${CM3} -pc_type hjmg -pc_view)
  # -ksp_type richardson (PCMG's PCApplyRichardson) on CUDA vectors, 1 and 2 ranks
  set(CM3R $<TARGET_FILE:mg3d> ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 -ksp_type richardson -ksp_converged_reason)
  hj_hjmg_same(cuda_hjmg_richardson 1 cuda RTOL 1e-4 REF ${CM3R} ${HJMG_AS_MG} TEST ${CM3R} -pc_type hjmg)
  hj_hjmg_same(cuda_hjmg_richardson_np2 2 "cuda;mpi" RTOL 1e-4 REF ${CM3R} ${HJMG_AS_MG} TEST ${CM3R} -pc_type hjmg ${NOGATHER})
  # the levels hjmg chooses on CUDA vectors stop at the first grid hjdense inverts (65^3: 9^3, 729 rows, 4 levels where
  # host vectors get 5); a coarse solve the user chose, or a smaller -pc_hjdense_max_size, keeps the rule alone
  set(C65 $<TARGET_FILE:mg3d> ${CU} -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type hjmg)
  hj_expect_test(NAME cuda_hjmg_autolevels_dense LABELS "cuda;hjmg" MATCH "hjmg: 4 levels chosen from the DMDA .halved while it can, down to the first grid whose operator the coarse dense inverse takes: at most 1024 rows" "the 729 x 729 inverse, applied as one dense product on the device"
    "its=[1-9] .*reason=CONVERGED_RTOL" COMMAND ${C65} -pc_view)
  hj_expect_test(NAME cuda_hjmg_autolevels_dense_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "hjmg: 4 levels chosen from the DMDA" "type: redundant"
    "the 729 x 729 inverse, applied as one dense product on the device" "its=[1-9] .*reason=CONVERGED_RTOL" COMMAND ${C65} ${NOGATHER} -pc_view)
  hj_expect_test(NAME cuda_hjmg_autolevels_lu LABELS "cuda;hjmg" MATCH "hjmg: 5 levels chosen from the DMDA" "type: lu" NOMATCH "hjdense"
    COMMAND ${C65} -mg_coarse_pc_type lu -pc_view)
  hj_expect_test(NAME cuda_hjmg_autolevels_maxsize LABELS "cuda;hjmg" MATCH "hjmg: 5 levels chosen from the DMDA" "the 125 x 125 inverse"
    COMMAND ${C65} -mg_coarse_pc_hjdense_max_size 500 -pc_view)
  # any coarse PC or factor option keeps PCMG's LU as PCMG made it (its zero-pivot shift included)
  hj_expect_test(NAME cuda_hjmg_coarse_lu LABELS "cuda;hjmg" MATCH "PC Object: .mg_coarse_. 1 MPI process" "type: lu" "diagonal shift on blocks" NOMATCH "hjdense"
    COMMAND ${CM3} -pc_type hjmg -mg_coarse_pc_type lu -pc_view)
  hj_expect_test(NAME cuda_hjmg_coarse_lu_ordering LABELS "cuda;hjmg" MATCH "type: lu" "matrix ordering: natural" "diagonal shift on blocks" NOMATCH "hjdense"
    COMMAND ${CM3} -pc_type hjmg -mg_coarse_pc_factor_mat_ordering_type natural -pc_view)
  hj_hjmg_same(cuda_hjmg_coarse_dense_same 1 cuda RTOL 1e-4 REF ${CM3} -pc_type hjmg -mg_coarse_pc_type lu TEST ${CM3} -pc_type hjmg)
  # on 2 ranks inside PCMG's PCREDUNDANT (cuda_hjmg_mg3d_3d_np2 compares its solve with PCMG's); a redundant option keeps LU
  hj_expect_test(NAME cuda_hjmg_coarse_dense_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "type: redundant" "type: hjdense" "the 125 x 125 inverse, applied as one dense product on the device"
    COMMAND ${CM3} -pc_type hjmg ${NOGATHER} -pc_view)
  hj_expect_test(NAME cuda_hjmg_coarse_redundant_lu_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "type: redundant" "type: lu" NOMATCH "hjdense"
    COMMAND ${CM3} -pc_type hjmg -mg_coarse_redundant_pc_factor_mat_ordering_type nd -pc_view)
  hj_expect_test(NAME cuda_hjdense_exact LABELS "cuda;hjmg;transpose" MATCH "vec=seqcuda ksp=preonly pc=hjdense ${EXACT}" "the 693 x 693 inverse, applied as one dense product on the device"
    COMMAND ${SD} ${CU} -ksp_type preonly -pc_type hjdense -ksp_view)
  hj_expect_test(NAME cuda_hjdense_transpose LABELS "cuda;hjmg;transpose" MATCH "vec=seqcuda ksp=preonly pc=hjdense ${EXACT}" COMMAND ${SD} ${CU} -ksp_type preonly -pc_type hjdense -transpose)
  if(TARGET tutorial_ex45)
    set(CE45 $<TARGET_FILE:tutorial_ex45> ${DLL} ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 3 ${HJMG_MON})
    hj_hjmg_same(cuda_hjmg_ex45_np2 2 "cuda;tutorial;mpi" RTOL 1e-4 REF ${CE45} ${HJMG_AS_MG} TEST ${CE45} -pc_type hjmg ${NOGATHER})
  endif()
  if(TARGET tutorial_ex19)
    set(CE19 $<TARGET_FILE:tutorial_ex19> ${DLL} ${CU} -da_refine 4 -snes_converged_reason -snes_monitor ${HJMG_MON})
    hj_hjmg_same(cuda_hjmg_ex19 1 "cuda;tutorial;dof" RTOL 1e-4 REF ${CE19} ${HJMG_AS_MG} TEST ${CE19} -pc_type hjmg)
  endif()
endif()

# ------------------------------------------------------------------------------------------------------------
# The stencil transfers (src/mg/transfer.cxx, src/cuda/transfer.cu) against DMCreateInterpolation's P of the level's
# DMDAs, made by the test: P x, y + P x, P^T r, z + P^T r on random vectors, every level, after the first setup, new
# operator values (Galerkin products again) and PCReset; 1D/2D/3D, odd and even (periodic) sizes, dof 1 and 3 (MAIJ).
# Every level must be the stencil's (on several ranks, by default on device vectors and on host vectors only when asked
# for, through the DMDA's ghosted boxes, box-stencil twins of the level DMs); an interpolation given with one entry
# changed is refused (-perturb), on every rank. transfer_2d_default_np2: without the option, several ranks keep the
# products on host vectors and take the stencil on CUDA vectors.
hjacobi_add_executable(test_transfer test_transfer.c)
target_compile_options(test_transfer PRIVATE -Wall)
hj_case(transfer_3d 1 "hjmg" test_transfer -dim 3 ON host cuda)
hj_case(transfer_2d 1 "hjmg" test_transfer -dim 2 ON host cuda) # GPU: the restriction's 2D march (cuda/kernels/transfer.cuh)
hj_case(transfer_2d_dof3 1 "hjmg;dof" test_transfer -dim 2 -dof 3 -levels 4 ON host cuda)
hj_case(transfer_1d_periodic 1 "hjmg" test_transfer -dim 1 -periodic -levels 4 ON host cuda)
hj_case(transfer_3d_periodic_dof2 1 "hjmg;dof" test_transfer -dim 3 -periodic -dof 2 ON host cuda)
hj_case(transfer_2d_periodic 1 "hjmg" test_transfer -dim 2 -periodic -levels 3 ON host cuda)
hj_case(transfer_3d_perturb 1 "hjmg" test_transfer -dim 3 -perturb 2 ON host cuda)
# every interpolation given (PCMGSetInterpolation), as DMDA's MAIJ or as the AIJ of the values (-aij: what CUDA builds
# of PETSc convert the MAIJ to)
hj_case(transfer_3d_given 1 "hjmg" test_transfer -dim 3 -give ON host cuda)
hj_case(transfer_2d_dof3_aij 1 "hjmg;dof" test_transfer -dim 2 -dof 3 -levels 4 -aij ON host)
hj_case(transfer_3d_periodic_dof2_aij_perturb 1 "hjmg;dof" test_transfer -dim 3 -periodic -dof 2 -aij -perturb 1 ON host)
hj_case(transfer_3d_off 1 "hjmg" test_transfer -dim 3 -pc_hjmg_stencil_transfer false ON host)
hj_case(transfer_2d_np2 2 "hjmg;mpi" test_transfer -dim 2 -levels 3 -pc_hjmg_stencil_transfer true ON host cuda)
hj_case(transfer_3d_np4 4 "hjmg;mpi" test_transfer -dim 3 -dof 2 -pc_hjmg_stencil_transfer true ON host cuda)
# GPU: the march on ranks' boxes, the periodic neighbours in the ghosted input (nothing to wrap)
hj_case(transfer_3d_np2 2 "hjmg;mpi" test_transfer -dim 3 -pc_hjmg_stencil_transfer true ON host cuda)
hj_case(transfer_3d_periodic_np3 3 "hjmg;mpi" test_transfer -dim 3 -periodic -pc_hjmg_stencil_transfer true ON host cuda)
hj_case(transfer_2d_np3 3 "hjmg;mpi" test_transfer -dim 2 -levels 3 -pc_hjmg_stencil_transfer true ON host cuda) # uneven ownership: ghost width 2
hj_case(transfer_3d_periodic_np4 4 "hjmg;mpi" test_transfer -dim 3 -periodic -dof 2 -aij -pc_hjmg_stencil_transfer true ON host)
# (on CUDA vectors without -aij: PETSc 3.22 has no Galerkin product of an aijcusparse operator with a host AIJ interpolation)
hj_case(transfer_3d_periodic_dof2_np4 4 "hjmg;mpi" test_transfer -dim 3 -periodic -dof 2 -pc_hjmg_stencil_transfer true ON cuda)
# the default on several ranks: PETSc's products on host vectors, the stencil on CUDA vectors
hj_case(transfer_2d_default_np2 2 "hjmg;mpi" test_transfer -dim 2 -levels 3 ON host cuda)
hj_case(transfer_3d_default_np2 2 "hjmg;mpi" test_transfer -dim 3 ON cuda)
hj_case(transfer_2d_perturb_np2 2 "hjmg;mpi" test_transfer -dim 2 -perturb 1 -levels 3 -pc_hjmg_stencil_transfer true ON host)
# ownership given (1D, 17 and 9 points): halves that line up use the stencil; a rank whose coarse points restrict from
# fine points two layers beyond a one-point fine box is refused by every rank together (the box twin's ghost width would
# exceed that rank's owned width)
hj_case(transfer_1d_own_np2 2 "hjmg;mpi" test_transfer -dim 1 -levels 2 -own_fine 9,8 -own_coarse 5,4 -pc_hjmg_stencil_transfer true ON host)
hj_case(transfer_1d_narrow_np4 4 "hjmg;mpi" test_transfer -dim 1 -levels 2 -own_fine 5,6,1,5 -own_coarse 2,3,2,2 -expect_refused 1 -pc_hjmg_stencil_transfer true ON host)

# ------------------------------------------------------------------------------------------------------------
# The coarse levels gathered onto one rank (-pc_hjmg_gather_size, src/mg/gather.cxx): PCTELESCOPE with an inner hjmg
# below the size; the solve converges in the iterations of the levels on every rank (5 in 3D, 4 in 2D), on 2 and 4
# ranks, the inner levels rediscretized as the outer ones (mg3d's callback: no Galerkin product anywhere); a coarse
# solve the user chose stays; a transposed solve is an error that names the option
set(MG65 $<TARGET_FILE:mg3d> -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_mg_levels 5 -pc_type hjmg)
foreach(np 2 4)
  hj_expect_test(NAME hjmg_gather_np${np} NP ${np} LABELS "hjmg;mpi" MATCH "the 4 coarsest levels on one rank .from grid 33 x 33 x 33, fewer than 40000 points per rank"
    "type: telescope" "ranks=${np} .* its=5 .*reason=CONVERGED_RTOL" NOMATCH "^ *Using Galerkin computed" COMMAND ${MG65} -pc_hjmg_gather_size 40000 -ksp_view)
endforeach()
hj_expect_test(NAME hjmg_gather_2d_np2 NP 2 LABELS "hjmg;mpi" MATCH "the 5 coarsest levels on one rank .from grid 65 x 65 x 1" "its=4 .*reason=CONVERGED_RTOL"
  COMMAND $<TARGET_FILE:mg3d> -dim 2 -da_grid_x 129 -da_grid_y 129 -pc_mg_levels 6 -pc_type hjmg -pc_hjmg_gather_size 4000 -ksp_view)
hj_expect_test(NAME hjmg_gather_chosen_np2 NP 2 LABELS "hjmg;mpi" MATCH "type: redundant" "its=5 .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank" "telescope"
  COMMAND ${MG65} -pc_hjmg_gather_size 40000 -mg_coarse_pc_type redundant -ksp_view)
# with Galerkin coarse operators the gathered level's operator is the Galerkin one, permuted (PCTELESCOPE told to ignore
# the callback): the iterations of the levels on every rank (4; 5 when the callback rediscretized the gathered level)
hj_expect_test(NAME hjmg_gather_galerkin_np2 NP 2 LABELS "hjmg;mpi" MATCH "the 4 coarsest levels on one rank" "its=4 .*reason=CONVERGED_RTOL"
  COMMAND ${MG65} -pc_mg_galerkin pmat -pc_hjmg_gather_size 40000 -ksp_view)
hj_expect_test(NAME hjmg_gather_galerkin_ref_np2 NP 2 LABELS "hjmg;mpi" MATCH "its=4 .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank"
  COMMAND ${MG65} -pc_mg_galerkin pmat -ksp_view)
hj_expect_test(NAME hjmg_gather_chosen_factor_np2 NP 2 LABELS "hjmg;mpi" MATCH "type: redundant" "its=5 .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank" "telescope"
  COMMAND ${MG65} -pc_hjmg_gather_size 40000 -mg_coarse_redundant_pc_factor_mat_ordering_type nd -ksp_view)
# the recorded V-cycle needs device vectors whose backend records, on one rank: PCMG's path here, and -pc_view says why
hj_expect_test(NAME hjmg_graph_host LABELS "hjmg" MATCH "V-cycle by PCMG's path, not recorded .the vectors' backend records nothing .host vectors.."
  COMMAND ${M3} -pc_type hjmg -pc_hjmg_graph true -ksp_view)
hj_expect_test(NAME hjmg_graph_off LABELS "hjmg" MATCH "V-cycle by PCMG's path, not recorded .-pc_hjmg_graph false."
  COMMAND ${M3} -pc_type hjmg -pc_hjmg_graph false -ksp_view)
hj_expect_test(NAME hjmg_graph_before LABELS "hjmg" MATCH "V-cycle recorded at the second PCApply after a setup"
  COMMAND ${M3} -pc_type hjmg -pc_hjmg_graph true -pc_view)
# PCApplyTranspose is PCApply's adjoint with the levels gathered (test_hjmg: 17^3, 3 levels, the last 2 on one rank;
# on CUDA vectors its operator, given without KSPSetComputeOperators, keeps the levels on both ranks: PCTELESCOPE cannot
# repartition a GPU matrix without a DM callback)
hj_case(hjmg_gather_adjoint_np2 2 "hjmg;mpi;transpose" test_hjmg -pc_hjmg_gather_size 1000 ON host cuda)
hj_case(hjmg_gather_adjoint_np4 4 "hjmg;mpi;transpose" test_hjmg -pc_hjmg_gather_size 1000 ON host)
hj_expect_test(NAME hjmg_gather_off_np2 NP 2 LABELS "hjmg;mpi" MATCH "its=5 .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank" "telescope"
  COMMAND ${MG65} -ksp_view)
if(TARGET tutorial_ex45)
  # the transpose through the gathered levels (PCTELESCOPE's apply with the inner hjmg transposed): BiCG converges
  hj_expect_test(NAME hjmg_gather_bicg_np2 NP 2 LABELS "hjmg;mpi;transpose" MATCH "the 3 coarsest levels on one rank" "Linear solve converged due to CONVERGED_RTOL iterations [1-9]"
    COMMAND ${E45} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 -pc_type hjmg -ksp_type bicg -pc_hjmg_gather_size 40000 -ksp_converged_reason -ksp_view)
  hj_expect_test(NAME hjmg_gather_err_transpose_np2 NP 2 ERROR LABELS "hjmg;mpi;errors;transpose" MATCH "whose transpose hjmg gives only with a KSPPREONLY inner KSP"
    "-pc_hjmg_gather_size 0" COMMAND ${E45} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 -pc_type hjmg -ksp_type bicg -pc_hjmg_gather_size 40000
    -mg_coarse_telescope_ksp_type gmres)
endif()
if(HJACOBI_WITH_CUDA)
  # on the GPU: the inner hjmg on CUDA objects, its coarse solve hjdense
  hj_expect_test(NAME cuda_hjmg_gather_default_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "the 3 coarsest levels on one rank .from grid 33 x 33 x 33, fewer than 32768 points per rank"
    "type: telescope" "its=5 .*reason=CONVERGED_RTOL" NOMATCH "^ *Using Galerkin computed" COMMAND ${MG65} ${CU} -pc_mg_levels 4 -ksp_view)
  # a Galerkin coarse operator is not gathered on device vectors (PCTELESCOPE would permute it by a GPU MatPtAP)
  hj_expect_test(NAME cuda_hjmg_gather_galerkin_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "its=[1-9] .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank" "telescope"
    COMMAND ${MG65} ${CU} -pc_mg_levels 4 -pc_mg_galerkin pmat -ksp_view)
  # the coarse prefix's hjdense size chose the outer levels (65^3, 3 levels down to 17^3) and goes to the gathered
  # levels' coarse solve: a 4913-row inverse, the option used
  hj_expect_test(NAME cuda_hjmg_gather_maxsize_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "the 2 coarsest levels on one rank" "the 4913 x 4913 inverse" "its=[1-9] .*reason=CONVERGED_RTOL"
    NOMATCH "Option left.*hjdense_max_size" COMMAND ${C65} -mg_coarse_redundant_pc_hjdense_max_size 5000 -ksp_view -options_left)
  hj_expect_test(NAME cuda_hjmg_gather_chosen_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "type: redundant" "its=5 .*reason=CONVERGED_RTOL" NOMATCH "coarsest levels on one rank" "telescope"
    COMMAND ${MG65} ${CU} -pc_mg_levels 4 -mg_coarse_redundant_pc_factor_mat_ordering_type nd -ksp_view)
  hj_expect_test(NAME cuda_hjmg_gather_np2 NP 2 LABELS "cuda;hjmg;mpi" MATCH "the 4 coarsest levels on one rank" "type: telescope" "type: seqaijcusparse" "type: hjdense"
    "its=5 .*reason=CONVERGED_RTOL" NOMATCH "^ *Using Galerkin computed" COMMAND ${MG65} ${CU} -pc_hjmg_gather_size 40000 -ksp_view)
  if(TARGET tutorial_ex45)
    hj_expect_test(NAME cuda_hjmg_gather_bicg_np2 NP 2 LABELS "cuda;hjmg;mpi;transpose" MATCH "the 3 coarsest levels on one rank" "Linear solve converged due to CONVERGED_RTOL iterations [1-9]"
      COMMAND ${E45} ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_mg_levels 4 -pc_type hjmg -ksp_type bicg -pc_hjmg_gather_size 40000 -ksp_converged_reason -ksp_view)
  endif()
endif()
