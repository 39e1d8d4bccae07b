# test_fuzz: option fuzzing (label robustness). Included from test/CMakeLists.txt.
# the fuzzer: 200 random cases per run, same seed on every rank; -malloc_debug: a good case that leaks fails
# (not under -malloc_dump: PETSc's own option parsing leaks when it stops on an error; the fuzzer checks good cases).
# Its expectations depend on the width of PetscInt (a tile of 3000000000 is an error with 32-bit indices, a legal,
# clipped tile with 64-bit ones); CI runs it with both (.ci/run step 3).
hjacobi_add_test(NAME rob_fuzz     NP 1 LABELS robustness FAIL "hjtest FAIL" TIMEOUT 120 COMMAND $<TARGET_FILE:test_fuzz> -cases 200 -fuzz_seed 2024 -malloc_debug)
hjacobi_add_test(NAME rob_fuzz_np2 NP 2 LABELS "robustness;mpi" FAIL "hjtest FAIL" TIMEOUT 120 COMMAND $<TARGET_FILE:test_fuzz> -cases 200 -fuzz_seed 7 -malloc_debug)
