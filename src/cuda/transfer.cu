/* hjmg's stencil transfers on the device (src/mg/transfer.cxx decides when they are the level's interpolation): one
   thread per output value, on PETSc's stream. The interpolation reads the
   coarse grid (an eighth of the fine one, cached) and writes the fine one; the restriction reads the 3^dim fine
   points around each coarse one (neighbouring threads share them through L1/L2). The point formulas are
   src/arith/transfer.hpp's, as the host loops. */
#include <petscdevice_cuda.h>
#include "mg/transfer.h"

namespace
{
constexpr int kTransferBlock = 256;

/* One thread per output point and component, numbered as the output array (x fastest, the dof values of a point
   together), so that every thread of every block has a point whatever the grid's width; IDX: 32-bit unsigned when
   the output has fewer than 2^32 values (its divisions are cheap), else 64-bit */
template <int DIM, bool TRANSPOSE, class T, class IDX>
__global__ void __launch_bounds__(kTransferBlock) TransferKernel(const hj::TransferGrid g, const T *x, const T *y, T *w, IDX n)
{
  const IDX  m0 = (IDX)g.om[0], m1 = (IDX)g.om[1], dof = (IDX)g.dof;
  const auto in = hj::InputOf(g, x);
  for (IDX u = blockIdx.x * (IDX)blockDim.x + threadIdx.x; u < n; u += (IDX)gridDim.x * blockDim.x) {
    const IDX       p = dof == 1 ? u : u / dof, c = u - p * dof;
    const IDX       li = p % m0, q = p / m0, lj = DIM > 1 ? q % m1 : 0, lk = DIM > 2 ? q / m1 : 0;
    const long long i = g.os[0] + (long long)li, j = g.os[1] + (long long)lj, k = g.os[2] + (long long)lk;
    const T         v = TRANSPOSE ? hj::RestrictPoint<DIM, T>(in, g, i, j, k, (int)c) : hj::InterpolatePoint<DIM, T>(in, g, i, j, k, (int)c);
    w[u]              = y ? y[u] + v : v;
  }
}

template <int DIM, bool TRANSPOSE, class IDX>
cudaError_t LaunchAs(const hj::TransferGrid &g, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, long long n, cudaStream_t stream)
{
  const long long blocks = (n + kTransferBlock - 1) / kTransferBlock;
  TransferKernel<DIM, TRANSPOSE, PetscScalar, IDX><<<(unsigned)(blocks < (1LL << 30) ? blocks : (1LL << 30)), kTransferBlock, 0, stream>>>(g, x, y, w, (IDX)n);
  return cudaGetLastError();
}

template <int DIM>
cudaError_t Launch(const hj::TransferGrid &g, bool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, cudaStream_t stream)
{
  const long long n      = g.om[0] * g.om[1] * g.om[2] * g.dof; /* the owned output box's values (the whole grid on one rank) */
  const bool      narrow = n < (1LL << 31);                     /* u + the grid stride stays below 2^32 */
  if (!n) return cudaSuccess;
  if (transpose) return narrow ? LaunchAs<DIM, true, unsigned>(g, x, y, w, n, stream) : LaunchAs<DIM, true, unsigned long long>(g, x, y, w, n, stream);
  return narrow ? LaunchAs<DIM, false, unsigned>(g, x, y, w, n, stream) : LaunchAs<DIM, false, unsigned long long>(g, x, y, w, n, stream);
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
