# Tests that run a tool over the build: valgrind over two test programs, and the install (tools/check-install.sh).
# Included from test/CMakeLists.txt.

# ------------------------------------------------------------------------------------------------------------
# valgrind (ctest -L valgrind, one rank, ~10 s): memory errors or definitely-lost blocks with a libpetsc-hjacobi
# frame (OpenMPI's and PETSc's own reports are filtered out by valgrind.sh; not the fuzzer: PETSc's option parsing
# leaks when it stops on an error, with our PCSetFromOptions on the stack)
find_program(HJACOBI_VALGRIND valgrind)
if(HJACOBI_VALGRIND)
  foreach(t "rob_valgrind_ref_3d_box;test_reference;-dim;3;-kind;box;-n;7;-pc_hjacobi_tile;4;-pc_hjacobi_overlap;2;-pc_hjacobi_subiterations;2"
            "rob_valgrind_change_2d;test_change;-dim;2;-n;9;-kind;box;-da_stencil;star;-prealloc_only")
    list(POP_FRONT t name exe)
    add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/valgrind.sh $<TARGET_FILE:${exe}> ${t})
    set_tests_properties(${name} PROPERTIES LABELS "robustness;valgrind" TIMEOUT 120 FAIL_REGULAR_EXPRESSION "valgrind.sh: FAIL|hjtest FAIL"
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  endforeach()
endif()

# ------------------------------------------------------------------------------------------------------------
# Install (ctest -L install): tools/check-install.sh installs this build into a temporary prefix, builds
# test/consumer/consumer.c through pkg-config and through the CMake package, runs it on 1 and 2 ranks, moves the
# prefix elsewhere and does it all again.
add_test(NAME install_consumer COMMAND bash ${PROJECT_SOURCE_DIR}/tools/check-install.sh ${PROJECT_BINARY_DIR})
set_tests_properties(install_consumer PROPERTIES LABELS install PROCESSORS 2 TIMEOUT 300
  PASS_REGULAR_EXPRESSION "check-install PASS" FAIL_REGULAR_EXPRESSION "check-install FAIL" ENVIRONMENT "MPIEXEC=${HJACOBI_MPIEXEC}")
