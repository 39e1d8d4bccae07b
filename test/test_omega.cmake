# test_omega: the automatic omega on operators whose spectrum is known. Included from test/CMakeLists.txt.
# The choice on operators whose spectrum is known (test_omega: the 2 x 2 point groups of a 2D box DMDA are independent,
# D^{-1}A has 4 chosen eigenvalues, each spread over 8 values within 1%), checked against the exact eigenvalues: the
# contraction limit |1 - omega theta| <= 0.9 binds (1 +- 1.5i, twice); no omega contracts every eigenvalue (0.5 +- i and
# 1.5 +- 3i: the fallback); an eigenvalue with real part <= 0 (-0.5: the fallback, with its reason); new nonzeros in the
# same Pmat (estimated again); the C API takes PETSC_DECIDE and refuses omega outside (0, 2). ctest -R omega_known
set(OM $<TARGET_FILE:test_omega> -malloc_dump)
set(OMNO "hjtest FAIL" "[0-9]+ bytes [A-Za-z_]+\\(\\) at")
hj_expect_test(NAME omega_known_limited LABELS "host;omega" MATCH "limited so that every Ritz value contracts" "hjtest PASS all" NOMATCH ${OMNO} COMMAND ${OM} -pc_view)
hj_expect_test(NAME omega_known_limited_np2 NP 2 LABELS "mpi;omega" MATCH "limited so that every Ritz value contracts" "hjtest PASS all" NOMATCH ${OMNO} COMMAND ${OM} -n 10 -pc_view)
hj_expect_test(NAME omega_known_no_omega LABELS "host;omega" MATCH "no omega gives .1 - omega theta. <= 0\\.9 on every Ritz value" "fallback: k = 1, omega 1" "hjtest PASS all" NOMATCH ${OMNO}
  COMMAND ${OM} -block1 0.5,1 -block2 1.5,3 -expect_fallback -pc_view)
hj_expect_test(NAME omega_known_indefinite LABELS "host;omega" MATCH "Ritz value -0\\.[0-9]+[+-]0i has real part <= 0: no damping makes the sweeps contract"
  "fallback: k = 1, omega 1" "hjtest PASS all" NOMATCH ${OMNO}
  COMMAND ${OM} -block1 1,-1.5 -block2 1,-0.5 -expect_fallback -pc_view)
hj_expect_test(NAME omega_known_new_nonzeros LABELS "host;omega" MATCH "omega estimated again" "hjtest PASS all" NOMATCH ${OMNO} COMMAND ${OM} -first_pairs)
