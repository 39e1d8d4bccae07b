/* hjmg's stencil transfers on the device (src/mg/transfer.cxx decides when they are the level's interpolation): one
   thread per output point, x fastest, grid-stride loops over y and z, on PETSc's stream. The interpolation reads the
   coarse grid (an eighth of the fine one, cached) and writes the fine one; the restriction reads the 3^dim fine
   points around each coarse one (neighbouring threads share them through L1/L2). The point formulas are
   src/arith/transfer.hpp's, as the host loops. */
#include <petscdevice_cuda.h>
#include "mg/transfer.h"

namespace
{
constexpr int kTransferBlock = 256;

template <class T>
struct DeviceGrid {
  const T                     *a;
  long long                    m0, m1;
  int                          dof;
  __device__ __forceinline__ T operator()(long long i, long long j, long long k, int c) const { return a[(i + m0 * (j + m1 * k)) * dof + c]; }
};

template <int DIM, bool TRANSPOSE, class T>
__global__ void __launch_bounds__(kTransferBlock) TransferKernel(const hj::TransferGrid g, const T *x, const T *y, T *w)
{
  const long long *m = TRANSPOSE ? g.mc : g.mf;
  const long long  i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= m[0]) return;
  const DeviceGrid<T> in = {x, TRANSPOSE ? g.mf[0] : g.mc[0], TRANSPOSE ? g.mf[1] : g.mc[1], g.dof};
#pragma unroll 1
  for (long long k = blockIdx.z; k < m[2]; k += gridDim.z) {
#pragma unroll 1
    for (long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y; j < m[1]; j += (long long)gridDim.y * blockDim.y) {
      const long long u = (i + m[0] * (j + m[1] * k)) * g.dof;
      for (int c = 0; c < g.dof; c++) {
        const T v = TRANSPOSE ? hj::RestrictPoint<DIM, T>(in, g, i, j, k, c) : hj::InterpolatePoint<DIM, T>(in, g, i, j, k, c);
        w[u + c]  = y ? y[u + c] + v : v;
      }
    }
  }
}

template <int DIM>
cudaError_t Launch(const hj::TransferGrid &g, bool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, cudaStream_t stream)
{
  const long long *m  = transpose ? g.mc : g.mf;
  const long long  by = m[1] < 4 ? m[1] : 4;
  long long        bx = (m[0] + 31) / 32 * 32;
  if (bx > kTransferBlock / by / 32 * 32) bx = kTransferBlock / by / 32 * 32;
  const long long gy = (m[1] + by - 1) / by;
  const dim3      block((unsigned)bx, (unsigned)by, 1), grid((unsigned)((m[0] + bx - 1) / bx), (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(m[2] < 65535 ? m[2] : 65535));
  if (transpose) TransferKernel<DIM, true, PetscScalar><<<grid, block, 0, stream>>>(g, x, y, w);
  else TransferKernel<DIM, false, PetscScalar><<<grid, block, 0, stream>>>(g, x, y, w);
  return cudaGetLastError();
}
} // namespace

PetscErrorCode HJTransferCUDA(const hj::TransferGrid *g, PetscInt dim, PetscBool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogGpuTimeBegin());
  switch (dim) {
  case 1:
    PetscCallCUDA(Launch<1>(*g, transpose, x, y, w, stream));
    break;
  case 2:
    PetscCallCUDA(Launch<2>(*g, transpose, x, y, w, stream));
    break;
  case 3:
    PetscCallCUDA(Launch<3>(*g, transpose, x, y, w, stream));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "No transfer for dimension %" PetscInt_FMT, dim);
  }
  PetscCall(PetscLogGpuTimeEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}
