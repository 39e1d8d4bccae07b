/* The layout of PC_HJacobi as this compiler sees it: test_layout (C++) and test_layout_cu (the same file through nvcc)
   must print the same line, or the host and CUDA halves of the library read each other's fields at the wrong offsets
   (complex PetscScalar: std::complex in C++, thrust::complex with a larger alignment in CUDA; HJ_SCALAR_ALIGN) */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <cstdio>

int main()
{
  std::printf("PC_HJacobi %zu bytes: st at %zu, stT at %zu, backendopts at %zu, abiend at %zu; HJStencil %zu bytes\n", sizeof(PC_HJacobi), offsetof(PC_HJacobi, st), offsetof(PC_HJacobi, stT), offsetof(PC_HJacobi, backendopts), offsetof(PC_HJacobi, abiend), sizeof(HJStencil));
  return 0;
}
