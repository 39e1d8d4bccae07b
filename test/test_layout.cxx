/* The layout of the backend contract as this compiler sees it: test_layout (C++) and test_layout_cu (the same file
   through nvcc) must print the same line, or the core (C++) and the CUDA backend read the description of the sweeps
   (HJSweeps, which holds the stencils) at different offsets (complex PetscScalar: std::complex in C++, thrust::complex
   with a larger alignment in CUDA; HJ_SCALAR_ALIGN) */
#include <petschjacobi/private/hjbackend.h>
#include <cstdio>

int main()
{
  std::printf("HJSweeps %zu bytes: st at %zu, stT at %zu, ghostsf at %zu, w at %zu, backendopts at %zu; HJStencil %zu bytes, ccoef at %zu\n", sizeof(HJSweeps), offsetof(HJSweeps, st), offsetof(HJSweeps, stT), offsetof(HJSweeps, ghostsf), offsetof(HJSweeps, w), offsetof(HJSweeps, backendopts), sizeof(HJStencil), offsetof(HJStencil, ccoef));
  return 0;
}
