# test_smoothing: hjacobi smooths. High-frequency error modes shrink by a bounded factor per cycle, the smoothest mode
# hardly changes. Damped Jacobi (omega 0.8) has smoothing factor 0.6 per sweep on this operator. Included from
# test/CMakeLists.txt.
hjacobi_add_executable(test_smoothing test_smoothing.c)
hjacobi_add_test(NAME smooth_k1_w08 LABELS "host;smoothing" FAIL "smoothing FAIL" PASS "smoothing PASS"
  COMMAND $<TARGET_FILE:test_smoothing> -n 33 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 1 -pc_hjacobi_omega 0.8 -bound 0.61)
hjacobi_add_test(NAME smooth_k2_w08 LABELS "host;smoothing" FAIL "smoothing FAIL" PASS "smoothing PASS"
  COMMAND $<TARGET_FILE:test_smoothing> -n 33 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 2 -pc_hjacobi_omega 0.8 -bound 0.45)
hjacobi_add_test(NAME smooth_k4_w08_np2 NP 2 LABELS "host;smoothing;mpi" FAIL "smoothing FAIL" PASS "smoothing PASS"
  COMMAND $<TARGET_FILE:test_smoothing> -n 33 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -bound 0.45)
# the check can fail: undamped Jacobi (omega 1) does not damp the checkerboard mode
hj_expect_test(NAME smooth_w1_fails ERROR LABELS "host;smoothing" MATCH "does not smooth"
  COMMAND $<TARGET_FILE:test_smoothing> -n 33 -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 2 -pc_hjacobi_omega 1 -bound 0.6)
