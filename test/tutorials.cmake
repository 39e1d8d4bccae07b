# PETSc's own tutorials, unmodified, built only against PETSc: the plugin comes in through -dll_append (DLL). Included
# from test/CMakeLists.txt before the other test files (errors.cmake and weights.cmake run tutorials too).
set(_hj_tut "${PETSC_DIR}/share/petsc/examples/src/ksp/ksp/tutorials")
if(NOT EXISTS ${_hj_tut}/ex45.c)
  set(_hj_tut "/usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials") # Debian's libpetsc3.18-dev-examples
endif()
set(HJACOBI_PETSC_TUTORIALS "${_hj_tut}" CACHE PATH "PETSc's src/ksp/ksp/tutorials (for ex45.c and ex50.c)")
get_filename_component(_hj_snes_tut "${HJACOBI_PETSC_TUTORIALS}/../../../snes/tutorials" ABSOLUTE)
# ex42, ex28, ex67, ex48 (the automatic-omega tests): built only from the same PETSc version's sources (Debian's
# 3.18 examples do not compile against a newer PETSc, e.g. ex48's DMDASNESJacobian)
string(REGEX MATCH "/petsc/([0-9]+\\.[0-9]+)/" _hj_tut_ver "${HJACOBI_PETSC_TUTORIALS}/")
set(_hj_tut_same TRUE)
if(_hj_tut_ver AND NOT HJACOBI_PETSC_VERSION MATCHES "^${CMAKE_MATCH_1}")
  set(_hj_tut_same FALSE)
endif()
foreach(ex ex45 ex50 ex29 ex32 ex19 ex65 ex42 ex28 ex67 ex48)
  set(_src ${HJACOBI_PETSC_TUTORIALS}/${ex}.c)
  if(ex STREQUAL "ex19" OR ex STREQUAL "ex48")
    set(_src ${_hj_snes_tut}/${ex}.c) # SNES: ex19 the driven cavity (dof 4), ex48 hydrostatic ice (dof 2)
  endif()
  if(NOT _hj_tut_same AND ex MATCHES "^ex(42|28|67|48)$")
    message(STATUS "petsc-hjacobi tests: ${_src} is for another PETSc version than ${HJACOBI_PETSC_VERSION}; its tests are skipped")
    list(APPEND _hj_tut_other ${ex})
  elseif(EXISTS ${_src})
    add_executable(tutorial_${ex} ${_src})
    target_link_libraries(tutorial_${ex} PRIVATE PkgConfig::PETSC m)
    set_target_properties(tutorial_${ex} PROPERTIES BUILD_RPATH "${HJACOBI_PETSC_LIBDIR}")
    target_compile_options(tutorial_${ex} PRIVATE -w)
    list(APPEND _hj_tut_built ${ex})
  else()
    message(STATUS "petsc-hjacobi tests: ${_src} not found (Debian: libpetsc3.18-dev-examples); tutorial tests skipped")
    list(APPEND _hj_tut_missing ${ex})
  endif()
endforeach()
# The tutorial tests exist only where the sources were found: tutorial_sources says which were built, which are missing
# (then it fails: install PETSc's examples or set HJACOBI_PETSC_TUTORIALS) and which were skipped as another PETSc
# version's; .ci/run prints its line.
foreach(v built missing other)
  list(LENGTH _hj_tut_${v} _n_${v})
  string(JOIN " " _l_${v} ${_hj_tut_${v}})
endforeach()
add_test(NAME tutorial_sources COMMAND ${CMAKE_COMMAND} -E echo
  "tutorial sources: ${_n_built} built (${_l_built}), ${_n_missing} missing (${_l_missing}), ${_n_other} for another PETSc version (${_l_other}) in ${HJACOBI_PETSC_TUTORIALS}")
set_tests_properties(tutorial_sources PROPERTIES LABELS tutorial PASS_REGULAR_EXPRESSION "built \\([^)]*\\), 0 missing")

# ------------------------------------------------------------------------------------------------------------
# hjacobi as the PC and as the multigrid smoother
if(TARGET tutorial_ex50)
  set(E $<TARGET_FILE:tutorial_ex50>)
  hj_expect_test(NAME tut_ex50_hjacobi      LABELS tutorial MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND ${E} ${DLL} -pc_type hjacobi -ksp_converged_reason)
  hj_expect_test(NAME tut_ex50_hjacobi_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} -da_grid_x 23 -da_grid_y 19 -pc_type hjacobi -pc_hjacobi_tile 6 -pc_hjacobi_overlap 2 -ksp_converged_reason)
  hj_expect_test(NAME tut_ex50_cg_overlap0_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} -da_grid_x 33 -da_grid_y 33 -ksp_type cg -pc_type hjacobi -pc_hjacobi_overlap 0 -ksp_converged_reason)
  hj_expect_test(NAME tut_ex50_view         LABELS tutorial MATCH "type: hjacobi" "tile" "overlap" COMMAND ${E} ${DLL} -pc_type hjacobi -ksp_view)
  hj_expect_test(NAME tut_ex50_pc_view     LABELS tutorial MATCH "type: hjacobi" "tile" "backend" COMMAND ${E} ${DLL} -pc_type hjacobi -pc_view)
  hj_expect_test(NAME tut_ex50_help         LABELS tutorial MATCH "-pc_hjacobi_tile" "-pc_hjacobi_overlap" "-pc_hjacobi_subiterations" COMMAND ${E} ${DLL} -pc_type hjacobi -help)
endif()
if(TARGET tutorial_ex45)
  set(E $<TARGET_FILE:tutorial_ex45>)
  set(MG -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type hjacobi -ksp_converged_reason)
  hj_expect_test(NAME tut_ex45_mg           LABELS tutorial MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND ${E} ${DLL} ${MG})
  hj_expect_test(NAME tut_ex45_mg_np2       NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND ${E} ${DLL} ${MG})
  # Richardson smoother (the PCApplyRichardson fast path) on Galerkin coarse levels (27-point boxes on a star DMDA)
  # (-info :ksp: KSPRICHARDSON says "skipping optimized PCApplyRichardson()" when it does not take the fast path)
  hj_expect_test(NAME tut_ex45_mg_galerkin_richardson_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED" "skipping optimized"
    COMMAND ${E} ${DLL} ${MG} -info :ksp -pc_mg_galerkin pmat -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_hjacobi_tile 4
    -mg_levels_pc_hjacobi_overlap 2 -mg_levels_pc_hjacobi_subiterations 2)
  hj_expect_test(NAME tut_ex45_mg_view      LABELS tutorial MATCH "type: hjacobi" COMMAND ${E} ${DLL} ${MG} -ksp_view)
endif()
# PETSc's SNES ex19 (lid-driven cavity: velocity, vorticity and temperature, a 2D DMDA with dof = 4, Jacobian by
# colored finite differences): Newton with PCMG and the point-block hjacobi smoother on every level
# ksp ex65: the KSP's DM is a DMSHELL, the matrices come from DMCreateMatrix() on a DMDA: hjacobi takes the Pmat's DMDA
if(TARGET tutorial_ex65)
  set(E $<TARGET_FILE:tutorial_ex65>)
  hj_expect_test(NAME tut_ex65_hjacobi LABELS tutorial MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND ${E} ${DLL} -pc_type hjacobi -ksp_converged_reason)
  hj_expect_test(NAME tut_ex65_mg_hjacobi_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} -pc_type mg -da_refine 3 -mg_levels_pc_type hjacobi -ksp_converged_reason)
endif()
if(TARGET tutorial_ex45)
  set(E $<TARGET_FILE:tutorial_ex45>)
  set(G -da_grid_x 9 -da_grid_y 8 -da_grid_z 7 -ksp_converged_reason)
  # the paper's solver honours -ksp_rtol (true residual every 4 iterations): CONVERGED_RTOL long before -ksp_max_it
  hj_expect_test(NAME tut_ex45_richardson_rtol_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED_RTOL iterations [0-9]+" NOMATCH "DIVERGED" "iterations 10000"
    COMMAND ${E} ${DLL} -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type richardson -pc_type hjacobi -pc_hjacobi_omega 0.8 -ksp_rtol 1e-3 -ksp_converged_reason)
  hj_expect_test(NAME tut_ex45_asm_dm_subdomains_np2 NP 2 LABELS "tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND ${E} ${DLL} ${G} -pc_type asm -pc_asm_dm_subdomains -sub_pc_type hjacobi)
endif()
if(TARGET tutorial_ex19)
  set(E $<TARGET_FILE:tutorial_ex19>)
  set(SN -snes_converged_reason -ksp_converged_reason -pc_type mg)
  hj_expect_test(NAME tut_ex19_mg_hjacobi LABELS "tutorial;dof" MATCH "Nonlinear solve converged" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} ${SN} -da_refine 3 -mg_levels_pc_type hjacobi)
  hj_expect_test(NAME tut_ex19_mg_richardson_hjacobi_np2 NP 2 LABELS "tutorial;dof;mpi" MATCH "Nonlinear solve converged" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} ${SN} -da_refine 4 -lidvelocity 100 -grashof 1e2 -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi
    -mg_levels_pc_hjacobi_omega 0.8 -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_hjacobi_overlap 2)
  hj_expect_test(NAME tut_ex19_mg_galerkin_np4 NP 4 LABELS "tutorial;dof;mpi" MATCH "Nonlinear solve converged" NOMATCH "DIVERGED"
    COMMAND ${E} ${DLL} ${SN} -da_refine 4 -pc_mg_galerkin pmat -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8)
  hj_expect_test(NAME tut_ex19_view LABELS "tutorial;dof" MATCH "type: hjacobi" "4 fields per grid point"
    COMMAND ${E} ${DLL} ${SN} -da_refine 2 -mg_levels_pc_type hjacobi -snes_view)
endif()

# ------------------------------------------------------------------------------------------------------------
# BiCG applies M^T: with overlap 2 the old transpose (forward cycles with A^T) made it diverge (DIVERGED_DTOL)
if(TARGET tutorial_ex45)
  set(BICG -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type bicg -pc_type hjacobi -pc_hjacobi_overlap 2 -ksp_converged_reason)
  hj_expect_test(NAME tut_ex45_bicg_overlap2 LABELS "tutorial;transpose" MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${BICG})
  hj_expect_test(NAME tut_ex45_bicg_overlap2_np2 NP 2 LABELS "tutorial;transpose;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED" COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${BICG})
endif()

# ------------------------------------------------------------------------------------------------------------
# omega chosen from the operator (the default; label omega): hjacobi's defaults against PCJACOBI/PCPBJACOBI
# (compare_its.sh: total linear iterations <= RATIO x the reference's, every solve's final true relative residual
# <= TOL or the reference's worst, nothing diverged), on 1 and 2 ranks; what -pc_view says; the fallback; the
# estimate reused by Newton
foreach(np 1 2)
  if(TARGET tutorial_ex28) # dof 2, D^{-1}A = I + skew: Ritz values 1 +- 2.8i, no damping contracts: PCJACOBI fallback
    hj_compare_test(omega_ex28_np${np} ${np} 2 1e-5 REF $<TARGET_FILE:tutorial_ex28> ${DLL} -da_grid_x 129 -pc_type jacobi ${TRUE_RES}
                                                    TEST $<TARGET_FILE:tutorial_ex28> ${DLL} -da_grid_x 129 -pc_type hjacobi ${TRUE_RES})
  endif()
  if(TARGET tutorial_ex67) # singular periodic 1D Laplacian: PCJACOBI needs 1 iteration (the right-hand side is one
    # eigenvector), hjacobi ~20 (its periodic seam is a tile boundary): a bound, and no false convergence (0.1.0: 7.8e-3).
    # The automatic omega with constant weights (the default weights, chebyshev_squared here, are wts_ex67_default_np*)
    hj_compare_test(omega_ex67_np${np} ${np} max:60 1e-5 REF $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type jacobi ${TRUE_RES}
                                                         TEST $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type hjacobi -pc_hjacobi_weights constant ${TRUE_RES})
    # The same with the default (auto) weights (chebyshev_squared), right-preconditioned. Left-preconditioned, GMRES
    # stops on the preconditioned residual, which bounds the true one only up to the condition number of MA: on one
    # rank (one tile of 64 points, the periodic seam a tile boundary) the Chebyshev tile solve has max/min singular
    # value 496 (-ksp_monitor_singular_value; constant weights 129) and GMRES stops at a true relative residual of
    # 5.1e-3 = 1e-5 x 496 (constant: 7.7e-6); right-preconditioned (GMRES minimises the true residual) it converges:
    # 8.9e-6 in 53 iterations per solve (ex67 solves twice). 2 ranks: 2.0e-6 in 28 left-preconditioned.
    hj_compare_test(wts_ex67_default_np${np} ${np} max:120 1e-5 REF $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type jacobi ${TRUE_RES}
                                                               TEST $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type hjacobi -ksp_pc_side right ${TRUE_RES})
    set_property(TEST wts_ex67_default_np${np} APPEND PROPERTY LABELS weights)
  endif()
  if(TARGET tutorial_ex42) # Stokes, dof 4 (Pmat: viscous block and pressure mass); 0.1.0 diverged. The default tile
    # covers a direction shorter than two default tiles (9 points: one tile; 8 + 1 gave 55 iterations): 15 against 21
    hj_compare_test(omega_ex42_np${np} ${np} 2 1e-5 REF $<TARGET_FILE:tutorial_ex42> ${DLL} -mx 8 -my 8 -mz 8 -stokes_pc_type pbjacobi -stokes_ksp_converged_reason -stokes_ksp_monitor_true_residual
                                                    TEST $<TARGET_FILE:tutorial_ex42> ${DLL} -mx 8 -my 8 -mz 8 -stokes_pc_type hjacobi -stokes_ksp_converged_reason -stokes_ksp_monitor_true_residual)
  endif()
  if(TARGET tutorial_ex48) # hydrostatic ice (dof 2): Newton with hjacobi as the PC, and as the PCMG smoother. Right
    # preconditioning for both PCs: GMRES then stops on the true residual, so both are compared at the same tolerance
    # (with left preconditioning 3.25's ex48 stopped hjacobi's GMRES at a true relative residual of 3.2e-5 in 167
    # iterations against PCPBJACOBI's 9.8e-6 in 513: the preconditioned norm, not the PC, decided)
    set(RIGHT -ksp_pc_side right)
    hj_compare_test(omega_ex48_np${np} ${np} 2 1e-5 REF $<TARGET_FILE:tutorial_ex48> ${DLL} -M 12 -P 5 -pc_type pbjacobi ${RIGHT} -snes_converged_reason ${TRUE_RES}
                                                    TEST $<TARGET_FILE:tutorial_ex48> ${DLL} -M 12 -P 5 -pc_type hjacobi ${RIGHT} -snes_converged_reason ${TRUE_RES})
    set(refine 2)
    if(np GREATER 1)
      set(refine 1) # a few seconds on 2 ranks
    endif()
    set(MG48 -M 6 -P 4 -da_refine ${refine} -thi_mat_type aij -pc_type mg -pc_mg_type full -snes_converged_reason ${TRUE_RES})
    hj_compare_test(omega_ex48_mg_np${np} ${np} 2 1e-5 REF $<TARGET_FILE:tutorial_ex48> ${DLL} ${MG48} -mg_levels_pc_type pbjacobi
                                                       TEST $<TARGET_FILE:tutorial_ex48> ${DLL} ${MG48} -mg_levels_pc_type hjacobi)
  endif()
endforeach()
if(TARGET tutorial_ex50)
  set(E $<TARGET_FILE:tutorial_ex50>)
  hj_expect_test(NAME omega_view_auto LABELS "tutorial;omega" MATCH "omega 0\\.[0-9]+ \\(auto\\): 10 Arnoldi steps" "omega = 2/" "PCHJacobiEstimate"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_view -log_view)
  hj_expect_test(NAME omega_view_given LABELS "tutorial;omega" MATCH "omega 0\\.55 \\(given\\)" NOMATCH "Arnoldi" "PCHJacobiEstimate +[1-9]"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_hjacobi_omega 0.55 -pc_view -log_view)
  hj_expect_test(NAME omega_help LABELS "tutorial;omega" MATCH "-pc_hjacobi_omega:? <now auto" "-pc_hjacobi_omega_recompute" COMMAND ${E} ${DLL} -pc_type hjacobi -help)
endif()
if(TARGET tutorial_ex28)
  hj_expect_test(NAME omega_fallback_view LABELS "tutorial;omega" MATCH "subiterations 1," "fallback: k = 1, omega 1" "far off the real axis"
    COMMAND $<TARGET_FILE:tutorial_ex28> ${DLL} -da_grid_x 33 -pc_type hjacobi -ksp_view)
  # k given by the user is kept by the fallback (with omega 1)
  hj_expect_test(NAME omega_fallback_user_k LABELS "tutorial;omega" MATCH "subiterations 3," "subiterations as set by the user"
    COMMAND $<TARGET_FILE:tutorial_ex28> ${DLL} -da_grid_x 33 -pc_type hjacobi -pc_hjacobi_subiterations 3 -ksp_view)
endif()
if(TARGET tutorial_ex19) # Newton: new Jacobian values in the same Pmat reuse the estimate, unless asked to recompute
  set(SN19 -da_refine 2 -pc_type mg -mg_levels_pc_type hjacobi -info :pc)
  hj_expect_test(NAME omega_reuse LABELS "tutorial;omega;dof" MATCH "new estimate" "reused estimate" COMMAND $<TARGET_FILE:tutorial_ex19> ${DLL} ${SN19})
  hj_expect_test(NAME omega_recompute LABELS "tutorial;omega;dof" MATCH "new estimate" NOMATCH "reused estimate"
    COMMAND $<TARGET_FILE:tutorial_ex19> ${DLL} ${SN19} -mg_levels_pc_hjacobi_omega_recompute)
endif()

# ------------------------------------------------------------------------------------------------------------
# Robustness: a null space (ex50, pure Neumann) with hjacobi as the multigrid smoother
if(TARGET tutorial_ex50)
  hj_expect_test(NAME rob_ex50_mg_hjacobi LABELS "robustness;tutorial" MATCH "CONVERGED" NOMATCH "DIVERGED" "[0-9]+ bytes [A-Za-z_]+\\(\\) at"
    COMMAND $<TARGET_FILE:tutorial_ex50> ${DLL} -da_grid_x 9 -da_grid_y 9 -da_refine 3 -pc_type mg -pc_mg_type full -ksp_type cg -mg_coarse_pc_type svd
    -mg_levels_ksp_type chebyshev -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_hjacobi_overlap 0 -ksp_converged_reason -malloc_dump)
  hj_expect_test(NAME rob_ex50_mg_hjacobi_richardson_np2 NP 2 LABELS "robustness;tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
    "[0-9]+ bytes [A-Za-z_]+\\(\\) at"
    COMMAND $<TARGET_FILE:tutorial_ex50> ${DLL} -da_grid_x 9 -da_grid_y 9 -da_refine 3 -pc_type mg -ksp_type fgmres -mg_coarse_pc_type redundant
    -mg_coarse_redundant_pc_type svd -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_overlap 2 -mg_levels_pc_hjacobi_omega 0.8
    -ksp_converged_reason -malloc_dump)
endif()

# ------------------------------------------------------------------------------------------------------------
# On the GPU (ctest -L cuda -R tut): multigrid, Newton with the point-block kernel, BiCG (MatMultTranspose on
# aijcusparse between the transposed cycles), the ex28 fallback with device vectors
if(HJACOBI_WITH_CUDA)
  if(TARGET tutorial_ex45)
    hj_expect_test(NAME cuda_tut_ex45_mg_np2 NP 2 LABELS "cuda;tutorial;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type hjacobi
      -mg_levels_pc_hjacobi_backend cuda -ksp_converged_reason)
    hj_expect_test(NAME cuda_tut_ex45_mg_galerkin_richardson NP 1 LABELS "cuda;tutorial" MATCH "CONVERGED" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${CU} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin pmat
      -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_backend cuda -mg_levels_pc_hjacobi_overlap 2 -ksp_converged_reason)
  endif()
  if(TARGET tutorial_ex19) # dof = 4: the point-block CUDA kernel as the PCMG smoother of Newton's linear systems
    hj_expect_test(NAME cuda_tut_ex19_mg NP 1 LABELS "cuda;tutorial;dof" MATCH "Nonlinear solve converged" "type: hjacobi" "in use: cuda" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex19> ${DLL} ${CU} -da_refine 4 -snes_converged_reason -ksp_converged_reason -pc_type mg -mg_levels_ksp_type richardson
      -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8 -mg_levels_pc_hjacobi_backend cuda -snes_view)
    hj_expect_test(NAME cuda_tut_ex19_mg_np2 NP 2 LABELS "cuda;tutorial;dof;mpi" MATCH "Nonlinear solve converged" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex19> ${DLL} ${CU} -da_refine 4 -lidvelocity 100 -grashof 1e2 -snes_converged_reason -pc_type mg -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_backend cuda)
  endif()
  if(TARGET tutorial_ex50)
    hj_expect_test(NAME cuda_tut_ex50 NP 1 LABELS "cuda;tutorial" MATCH "CONVERGED" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex50> ${DLL} ${CU} -da_grid_x 65 -da_grid_y 65 -pc_type hjacobi -pc_hjacobi_backend cuda -ksp_converged_reason)
  endif()
  if(TARGET tutorial_ex45) # MatMultTranspose on aijcusparse between the transposed cycles
    hj_expect_test(NAME cuda_tr_ex45_bicg NP 1 LABELS "cuda;tutorial;transpose" MATCH "CONVERGED" "in use: cuda" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${CU} ${BICG} -pc_hjacobi_cycles 2 -pc_hjacobi_backend cuda -ksp_view)
    hj_expect_test(NAME cuda_tr_ex45_bicg_np2 NP 2 LABELS "cuda;tutorial;transpose;mpi" MATCH "CONVERGED" NOMATCH "DIVERGED"
      COMMAND $<TARGET_FILE:tutorial_ex45> ${DLL} ${CU} ${BICG} -pc_hjacobi_subiterations 3 -pc_hjacobi_backend cuda)
  endif()
  if(TARGET tutorial_ex28)
    hj_compare_test(cuda_omega_ex28 1 2 1e-5 REF $<TARGET_FILE:tutorial_ex28> ${DLL} ${CU} -da_grid_x 129 -pc_type jacobi ${TRUE_RES}
                                              TEST $<TARGET_FILE:tutorial_ex28> ${DLL} ${CU} -da_grid_x 129 -pc_type hjacobi -pc_hjacobi_backend cuda ${TRUE_RES})
    set_tests_properties(cuda_omega_ex28 PROPERTIES LABELS "cuda;omega;tutorial")
  endif()
endif()
