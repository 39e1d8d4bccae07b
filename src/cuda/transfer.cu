/* hjmg's stencil transfers on the device (HJBackendOps.transfer; src/mg/transfer.cxx decides when they are the level's interpolation), on
   PETSc's stream: the march of cuda/kernels/transfer.cuh for 3D grids and 2D restrictions of dof 1 with nothing to wrap
   (every level of mg3d and ex45), else one thread per output value. The point formulas and weights are
   src/arith/transfer.hpp's, as the host loops'. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"
#include "cuda/kernels/transfer.cuh"

namespace
{
using hjcuda::kTransferBlock;

template <int DIM, bool TRANSPOSE, class IDX>
cudaError_t LaunchAs(const hj::TransferGrid &g, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, long long n, cudaStream_t stream)
{
  const long long blocks = (n + kTransferBlock - 1) / kTransferBlock;
  hjcuda::TransferKernel<DIM, TRANSPOSE, PetscScalar, IDX><<<(unsigned)(blocks < (1LL << 30) ? blocks : (1LL << 30)), kTransferBlock, 0, stream>>>(g, x, y, w, (IDX)n);
  return cudaGetLastError();
}

template <int DIM, bool TRANSPOSE>
cudaError_t LaunchMarch(const hj::TransferGrid &g, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, cudaStream_t stream)
{
  const long long blocks = DIM == 3 ? hjcuda::MarchBlocks<3>(g.om[0], g.om[1], g.om[2], hjcuda::kTransferRun) : hjcuda::MarchBlocks<2>(g.om[0], 1, g.om[1], hjcuda::kTransferRun);
  hjcuda::TransferMarchKernel<DIM, TRANSPOSE, PetscScalar><<<(unsigned)blocks, kTransferBlock, 0, stream>>>(g, x, y, w);
  return cudaGetLastError();
}

template <int DIM>
cudaError_t Launch(const hj::TransferGrid &g, bool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, cudaStream_t stream)
{
  const long long n      = g.om[0] * g.om[1] * g.om[2] * g.dof; /* the owned output box's values (the whole grid on one rank) */
  const bool      narrow = n < (1LL << 31);                     /* u + the grid stride stays below 2^32 */
  if (!n) return cudaSuccess;
  if constexpr (DIM > 1) {
    if (hjcuda::TransferMarches(g, DIM, transpose)) {
      if (transpose) return LaunchMarch<DIM, true>(g, x, y, w, stream);
      if constexpr (DIM == 3) return LaunchMarch<3, false>(g, x, y, w, stream);
    }
  }
  if (transpose) return narrow ? LaunchAs<DIM, true, unsigned>(g, x, y, w, n, stream) : LaunchAs<DIM, true, unsigned long long>(g, x, y, w, n, stream);
  return narrow ? LaunchAs<DIM, false, unsigned>(g, x, y, w, n, stream) : LaunchAs<DIM, false, unsigned long long>(g, x, y, w, n, stream);
}
} // namespace

PetscErrorCode HJTransfer_CUDA(const hj::TransferGrid *g, PetscInt dim, PetscBool transpose, Vec x, Vec y, Vec w, PetscScalar *, PetscLogDouble flops)
{
  cudaStream_t       stream;
  const PetscScalar *xa, *ya = NULL;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No transfer for dimension %" PetscInt_FMT, dim);
  PetscCall(VecCUDAGetArrayRead(x, &xa));
  if (y == w) PetscCall(VecCUDAGetArray(w, &wa));
  else {
    if (y) PetscCall(VecCUDAGetArrayRead(y, &ya));
    PetscCall(VecCUDAGetArrayWrite(w, &wa));
  }
  if (y == w) ya = wa;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogGpuTimeBegin());
  if (dim == 1) PetscCallCUDA(Launch<1>(*g, transpose, xa, ya, wa, stream));
  else if (dim == 2) PetscCallCUDA(Launch<2>(*g, transpose, xa, ya, wa, stream));
  else PetscCallCUDA(Launch<3>(*g, transpose, xa, ya, wa, stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(flops));
  if (y == w) PetscCall(VecCUDARestoreArray(w, &wa));
  else {
    if (y) PetscCall(VecCUDARestoreArrayRead(y, &ya));
    PetscCall(VecCUDARestoreArrayWrite(w, &wa));
  }
  PetscCall(VecCUDARestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}
