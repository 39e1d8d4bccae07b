/* The CUDA backend's residual r = b - A x from the stencil (HJBackendOps.residual; solve/residual.cxx decides when it
   is the operator): x into the backend's padded array and the ghost exchange exactly as a cycle starts (PadCopy, then
   the PetscSF broadcast in place on device memory), then one kernel on PETSc's stream (cuda/kernels/residual.cuh: the
   march for 3D star stencils, else one thread per owned point). */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"
#include "arith/dispatch.hpp"
#include "cuda/kernels/residual.cuh"

namespace
{
using hjcuda::ResidualArgs;
using hjcuda::kResidualBlock;
using ResidualFn = void (*)(const ResidualArgs<PetscScalar>);
struct ResidualEntries { /* [dim-1][kind][var][direct] */
  template <int D, int K, int V, int X>
  static constexpr ResidualFn Get()
  {
    return &hjcuda::ResidualKernel<D + 1, K, (bool)V, (bool)X, PetscScalar>;
  }
};
struct MarchEntries { /* [var][direct] */
  template <int V, int X>
  static constexpr ResidualFn Get()
  {
    return &hjcuda::ResidualMarchKernel<(bool)V, (bool)X, PetscScalar>;
  }
};
} // namespace

PetscErrorCode HJResidual_CUDA(PC pc, const HJStencil *st, Vec b, Vec x, Vec r)
{
  HJSweeps          *hj = HJSweepsOf(pc);
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *xa, *ba;
  PetscScalar       *ra;
  cudaStream_t       stream;
  const PetscBool    var = (PetscBool)!st->constant;

  PetscFunctionBegin;
  PetscCheck(st->dof == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "The CUDA residual needs a dof-1 stencil");
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCheck(r != x && r != b, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_IDN, "r must differ from b and x");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (var) PetscCall(HJCudaStencilEnsure(const_cast<HJStencil *>(st), ly->nlocal, PETSC_FALSE, stream)); /* uploaded at setup already (A's plan) */
  const HJCudaStencil *d = (const HJCudaStencil *)st->device;
  PetscCheck(!var || (d && d->coef && d->invdiag), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The stencil has no device planes");

  /* 1. xpad interior <- x, then its ghost layer from the neighbours: a cycle's start (cuda/cycle.cu). The layer outside
     the domain is zero forever (setup), and neither writes it. Without any ghost value (no SF: one rank, no periodic
     direction) the kernel reads x in place instead (direct). */
  const hjcuda::Box box    = {ly->xm[0], ly->xm[1], ly->xm[2], ly->ext[0], ly->ext[1]};
  const PetscBool   direct = (PetscBool)!hj->ghostsf;
  PetscCall(VecCUDAGetArrayRead(x, &xa));
  if (!direct) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(hjcuda::PadCopy((int)ly->dim, 1, box, xa, cu->xpad, stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(HJCudaExchangeReady(pc));
    PetscCall(HJCudaExchangeBegin(&cu->ex, hj->ghostsf, cu->xpad, stream));
    PetscCall(HJCudaExchangeEnd(&cu->ex, hj->ghostsf, cu->xpad, stream));
  }

  /* 2. r = b - A x */
  PetscCall(VecCUDAGetArrayRead(b, &ba));
  PetscCall(VecCUDAGetArrayWrite(r, &ra));
  if (ly->nlocal > 0) {
    ResidualArgs<PetscScalar> a = {};
    /* the march for 3D star stencils (its blocks and extents in int), else one thread per point */
    const long long  mblocks = hjcuda::MarchBlocks<3>(ly->xm[0], ly->xm[1], ly->xm[2], hjcuda::kResidualRun);
    const PetscBool  march   = (PetscBool)(ly->dim == 3 && st->kind == hj::STAR && mblocks < INT_MAX && ly->xm[0] <= hjcuda::kMarchMaxExtent && ly->xm[1] <= hjcuda::kMarchMaxExtent && ly->xm[2] <= hjcuda::kMarchMaxExtent);
    const ResidualFn kernel  = march ? hj::DispatchTable<MarchEntries, 2, 2>::At((int)var, (int)direct) : hj::DispatchTable<ResidualEntries, 3, 2, 2, 2>::At((int)ly->dim - 1, (int)st->kind, (int)var, (int)direct);

    PetscCheck(kernel, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No residual kernel for dim %" PetscInt_FMT ", kind %" PetscInt_FMT, ly->dim, st->kind);
    a.xpad               = cu->xpad;
    a.x                  = xa;
    a.b                  = ba;
    a.r                  = ra;
    a.coef               = var ? d->coef : nullptr;
    a.invdiag            = var ? d->invdiag : nullptr;
    const HJCudaPlan *pl = &cu->plan; /* A's plan: whether the rows inside the boundary shell are one row, and which */
    a.cint               = var && pl->valid && pl->L.var && pl->L.cint && pl->L.coefT == d->coef;
    for (PetscInt s = 0; s < 26; s++) a.crow[s] = a.cint ? pl->L.cstT.c[s] : (s < st->noff ? st->ccoef[s] : PetscScalar(0));
    a.cdiag = a.cint ? PetscScalar(1) / pl->L.cstT.invdiag : (var ? PetscScalar(0) : PetscScalar(1) / st->cinvdiag);
    for (int q = 0; q < 3; q++) {
      a.ilo[q] = a.cint ? pl->L.ilo[q] : 0;
      a.ihi[q] = a.cint ? pl->L.ihi[q] : 0;
    }
    a.xm0    = ly->xm[0];
    a.xm1    = ly->xm[1];
    a.xm2    = ly->xm[2];
    a.ext0   = ly->ext[0];
    a.ext1   = ly->ext[1];
    a.nlocal = ly->nlocal;

    const long long gx = (a.xm0 * a.xm1 + kResidualBlock - 1) / kResidualBlock;
    const dim3      block(kResidualBlock, 1, 1), grid(march ? (unsigned)mblocks : (unsigned)PetscMin(gx, (long long)INT_MAX), 1, march ? 1 : (unsigned)PetscMin(a.xm2, 65535LL));
    PetscCall(PetscLogGpuTimeBegin());
    kernel<<<grid, block, 0, stream>>>(a);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops((2.0 * st->noff + (var ? 4.0 : 3.0)) * ly->nlocal));
  }
  PetscCall(VecCUDARestoreArrayWrite(r, &ra));
  PetscCall(VecCUDARestoreArrayRead(b, &ba));
  PetscCall(VecCUDARestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}
