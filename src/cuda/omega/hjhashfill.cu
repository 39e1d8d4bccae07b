/* The omega estimate's start vector written on the device (hjomega.cxx FillStart): no host loop over the grid and no
   upload at setup. Same values as the host (hj::StartValue). */
#include <petscdevice_cuda.h>
#include "cuda/hjcuda.h"
#include <petschjacobi/private/hjhash.hpp>

namespace
{
__global__ void FillStartKernel(PetscScalar *a, long long n, long long xs0, long long xs1, long long xs2, long long xm0, long long xm1, long long M0, long long M1, int dof)
{
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
    const long long u = e / dof, i = u % xm0, j = (u / xm0) % xm1, k = u / (xm0 * xm1);
    a[e]              = (PetscScalar)hj::StartValue(xs0, xs1, xs2, i, j, k, M0, M1, dof, (int)(e % dof));
  }
}
} // namespace

PetscErrorCode HJFillStart_CUDA(const HJLayout *L, PetscScalar *a)
{
  const long long n = (long long)L->nlocal * L->dof;
  cudaStream_t    stream;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  FillStartKernel<<<(unsigned)PetscMin((n + 255) / 256, 65535LL), 256, 0, stream>>>(a, n, L->xs[0], L->xs[1], L->xs[2], L->xm[0], L->xm[1], L->M[0], L->M[1], (int)L->dof);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}
