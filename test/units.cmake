# The arithmetic headers' own programs (no PETSc solve): test_index (64-bit index arithmetic of large grids), test_view
# (arith/index.hpp), test_tilefit (arith/tilefit.hpp) and test_layout (the backend contract laid out alike by the host and CUDA
# compilers). Included from test/CMakeLists.txt.
add_executable(test_index test_index.cxx)
target_include_directories(test_index PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
set_target_properties(test_index PROPERTIES CXX_STANDARD 17)
add_test(NAME rob_index_64bit COMMAND test_index)
set_tests_properties(rob_index_64bit PROPERTIES LABELS robustness FAIL_REGULAR_EXPRESSION "hjtest FAIL" TIMEOUT 60)
# the index helpers (arith/index.hpp: hj::View, hj::TileBox) against the literal layouts, every tile of odd boxes, 64-bit
add_executable(test_view test_view.cxx)
target_include_directories(test_view PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
set_target_properties(test_view PROPERTIES CXX_STANDARD 17)
add_test(NAME rob_index_views COMMAND test_view)
set_tests_properties(rob_index_views PROPERTIES LABELS "robustness;host" FAIL_REGULAR_EXPRESSION "hjtest FAIL" PASS_REGULAR_EXPRESSION "hjtest PASS all checks" TIMEOUT 60)
# what a tile of the CUDA tile kernels holds (arith/tilefit.hpp: the fit PCSetUp checks on the GPU, the largest tiles its
# error names) and that every default tile fits a GPU with 96 KiB of shared memory per block; no GPU needed
add_executable(test_tilefit test_tilefit.cxx)
target_include_directories(test_tilefit PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
set_target_properties(test_tilefit PROPERTIES CXX_STANDARD 17)
add_test(NAME rob_tile_fit COMMAND test_tilefit)
set_tests_properties(rob_tile_fit PROPERTIES LABELS "robustness;host" FAIL_REGULAR_EXPRESSION "hjtest FAIL" PASS_REGULAR_EXPRESSION "hjtest PASS all checks" TIMEOUT 60)
if(HJACOBI_WITH_CUDA) # the host and CUDA compilers lay out the PC context the same (no GPU needed)
  foreach(lang cxx cu)
    add_executable(test_layout_${lang} test_layout.${lang})
    target_link_libraries(test_layout_${lang} PRIVATE PkgConfig::PETSC)
    target_include_directories(test_layout_${lang} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${HJACOBI_MPI_INCLUDES})
  endforeach()
  add_test(NAME layout_host_cuda COMMAND bash -c "a=$($<TARGET_FILE:test_layout_cxx>) && b=$($<TARGET_FILE:test_layout_cu>) && echo \"C++: $a\" && echo \"CUDA: $b\" && [ \"$a\" = \"$b\" ]")
  set_tests_properties(layout_host_cuda PROPERTIES LABELS "host;complex")
endif()
# the compact star forest of the CUDA backend's staged exchange (grid/compact.hpp) against PetscSF's own broadcast, on
# random graphs (own rank, shared roots, ranks with no roots or no leaves, scattered leaves), 1 to 4 ranks; no GPU needed
hjacobi_add_executable(test_compact test_compact.cxx)
target_include_directories(test_compact PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
set_target_properties(test_compact PROPERTIES CXX_STANDARD 17)
foreach(np 1 2 3 4)
  hjacobi_add_test(NAME compact_sf_np${np} NP ${np} LABELS "host;mpi" PASS "hjtest PASS all" FAIL "hjtest FAIL" TIMEOUT 120 COMMAND $<TARGET_FILE:test_compact>)
endforeach()
