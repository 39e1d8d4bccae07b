# The CUDA tile kernels on the host (no GPU, no CUDA toolkit): test/emulate runs TileKernel (1D rows, 2D, and 3D in
# emulate_cuda_kernels_3d), ColumnKernel (emulate_cuda_columns), TileKernelStrip (R = 4, 8) and TileKernelBlock with one std::thread per CUDA thread, native
# and single (correction form), against a literal cycle. The kernel headers are compiled as they are, with HJ_EMULATE:
# their device-only constructs are macros (src/cuda/kernels/device.h) that test/emulate/hjemulate.h defines for the
# host, and test/emulate/cuda_runtime.h comes before the toolkit's. ctest -R emulate_cuda_kernels
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS -std=c++20)
check_cxx_source_compiles("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); return 0; }" HJACOBI_HAVE_CXX20_BARRIER)
unset(CMAKE_REQUIRED_FLAGS)
if(HJACOBI_HAVE_CXX20_BARRIER)
  find_package(Threads REQUIRED)
  add_executable(test_emulate emulate/emulate.cpp)
  add_executable(test_emulate_3d emulate/tile3d.cpp)
  add_executable(test_emulate_columns emulate/columns3d.cpp)
  foreach(t test_emulate test_emulate_3d test_emulate_columns)
    target_include_directories(${t} BEFORE PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/emulate ${PROJECT_SOURCE_DIR}/src/cuda/kernels ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
    target_compile_definitions(${t} PRIVATE HJ_EMULATE)
    target_compile_features(${t} PRIVATE cxx_std_20)
    target_link_libraries(${t} PRIVATE Threads::Threads)
  endforeach()
  add_test(NAME emulate_cuda_kernels_3d COMMAND test_emulate_3d)
  set_tests_properties(emulate_cuda_kernels_3d PROPERTIES LABELS "host;emulation" FAIL_REGULAR_EXPRESSION "hjtest FAIL" PASS_REGULAR_EXPRESSION "hjtest PASS all checks" TIMEOUT 300)
  add_test(NAME emulate_cuda_columns COMMAND test_emulate_columns)
  set_tests_properties(emulate_cuda_columns PROPERTIES LABELS "host;emulation" FAIL_REGULAR_EXPRESSION "hjtest FAIL" PASS_REGULAR_EXPRESSION "hjtest PASS all checks" TIMEOUT 300)
  add_test(NAME emulate_cuda_kernels COMMAND test_emulate)
  set_tests_properties(emulate_cuda_kernels PROPERTIES LABELS "host;emulation" FAIL_REGULAR_EXPRESSION "hjtest FAIL" PASS_REGULAR_EXPRESSION "hjtest PASS all checks" TIMEOUT 120)
endif()
