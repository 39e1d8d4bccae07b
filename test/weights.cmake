# Defaults that do not mislead, and given Chebyshev intervals checked (labels weights, omega; included at the end of
# test/CMakeLists.txt, which defines hj_compare_test, hj_expect_test, DLL, TRUE_RES and RX).
#
# ksp ex67 (1D periodic, singular; left-preconditioned GMRES, rtol 1e-5) with no hjacobi options: the default weights
# (chebyshev_squared, k 4: degree 2) on the tile size's interval [hi/1700, hi] made M^-1 A nearly 0 in the middle of
# the spectrum, and GMRES stopped on its preconditioned norm at a true relative residual of 5.1e-3 on 1 rank; lo at
# the degree's floor: 3.3e-5 (2 ranks: 3.2e-5). PCJACOBI needs 1 iteration (the right-hand side is an eigenvector).
if(TARGET tutorial_ex67)
  foreach(np 1 2)
    hj_compare_test(wts_ex67_left_np${np} ${np} max:60 1e-4 REF $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type jacobi ${TRUE_RES}
                                                           TEST $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type hjacobi ${TRUE_RES})
    set_property(TEST wts_ex67_left_np${np} APPEND PROPERTY LABELS weights)
  endforeach()
endif()
# Helmholtz (complex builds only: the example exists there), GMRES + PCMG on the complex-shifted Laplacian with no
# hjacobi options against -mg_levels_pc_hjacobi_subiterations 1 -mg_levels_pc_hjacobi_omega 0.7: at most 1.25x the
# iterations. 129^2 at wavenumber 20 took 22 iterations per solve with the earlier rule (k 4 on the finer levels, point
# Jacobi on the coarser ones), 14 with k 1, omega 0.7 and with the smoother's upper rule.
if(TARGET helmholtz)
  foreach(np 1 2)
    set(HH $<TARGET_FILE:helmholtz> -da_grid_x 129 -da_grid_y 129 -k 20 ${TRUE_RES})
    hj_compare_test(wts_helmholtz_2d_np${np} ${np} 1.25 1e-5 REF ${HH} -mg_levels_pc_hjacobi_subiterations 1 -mg_levels_pc_hjacobi_omega 0.7 TEST ${HH})
    set_property(TEST wts_helmholtz_2d_np${np} APPEND PROPERTY LABELS "weights;complex")
  endforeach()
  # which rule chose what, on every level: the upper part of the spectrum (k 1)
  hj_expect_test(NAME omega_helmholtz_upper_view LABELS "omega;complex" MATCH "rule upper .a smoother.: Ritz value .* has real part <= 0" "rule upper .a smoother.: Ritz value .* has no conjugate"
    NOMATCH "fallback" "rule spectrum" COMMAND $<TARGET_FILE:helmholtz> -da_grid_x 129 -da_grid_y 129 -k 20 -ksp_view)
endif()
# A given interval whose weights cannot be represented is refused, naming the limits: 1e-300 (weights up to 1e300:
# GMRES ran 10000 iterations and ended above its start) and 1e300 (weights ~1e-300, M^-1 b ~ 0: CONVERGED_ATOL at
# iteration 0 with the residual unchanged); a hi below the estimate's bound (0.5, where D^{-1}A reaches ~2 on Poisson)
# is taken and said in -pc_view and -info.
if(TARGET tutorial_ex50)
  set(E $<TARGET_FILE:tutorial_ex50>)
  hj_expect_test(NAME err_wts_interval_overflow ERROR LABELS "errors;weights" MATCH "Chebyshev interval .1e-300, 2\\.?.: its weights 1/l .l in .lo, hi.. must lie in" "give 1.49[0-9]*e-08 <= lo < hi <= 6.7[0-9]*e\\+07"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_hjacobi_chebyshev_interval 1e-300,2 -ksp_converged_reason)
  hj_expect_test(NAME err_wts_interval_vanish ERROR LABELS "errors;weights" MATCH "Chebyshev interval .0\\.1, 1e\\+300.: its weights 1/l" "numerically zero"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_hjacobi_chebyshev_interval 0.1,1e300 -ksp_converged_reason)
  hj_expect_test(NAME wts_interval_hi_below LABELS "weights" INFO pc MATCH "warning: the given hi 0\\.5 is below the spectrum estimate's bound 2\\.[0-9]+" "hi given, below the estimate's bound"
    "the given Chebyshev hi 0\\.5 is below the spectrum estimate's bound" "CONVERGED|DIVERGED"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_hjacobi_chebyshev_interval 0.001,0.5 -pc_view -ksp_converged_reason -ksp_max_it 200)
  # within the limits and above the bound: taken, nothing said
  hj_expect_test(NAME wts_interval_given_ok LABELS "weights" MATCH "sweep weights chebyshev_squared on .0\\.01, 2\\.5." "CONVERGED" NOMATCH "below the spectrum estimate"
    COMMAND ${E} ${DLL} -pc_type hjacobi -pc_hjacobi_chebyshev_interval 0.01,2.5 -pc_view -ksp_converged_reason)
endif()
# The degree's floor of lo is said in -pc_view.
if(TARGET tutorial_ex67)
  hj_expect_test(NAME wts_view_degree_floor LABELS "weights" MATCH "lo the degree's floor" COMMAND $<TARGET_FILE:tutorial_ex67> ${DLL} -da_grid_x 64 -pc_type hjacobi -pc_view)
endif()
