/* The device copy of an HJStencil (HJCudaStencil, cuda/stencil.h): freed through HJStencil.devicedestroy, and made
   from the host arrays of a stencil extracted on the host, with the float planes of single inner precision. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"

PetscErrorCode HJCudaStencilDestroy(void **ptr)
{
  HJCudaStencil *d = (HJCudaStencil *)*ptr;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJCudaPatternDestroy(&d->pattern));
  PetscCallCUDA(cudaFree(d->coef));
  PetscCallCUDA(cudaFree(d->invdiag));
  PetscCallCUDA(cudaFree(d->coeff));
  PetscCallCUDA(cudaFree(d->invdiagf));
  PetscCallCUDA(cudaFree(d->diag));
  PetscCall(PetscFree(d));
  *ptr = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCudaStencilEnsure(HJStencil *st, PetscInt nlocal, PetscBool single, cudaStream_t stream)
{
  HJCudaStencil *d = (HJCudaStencil *)st->device;

  PetscFunctionBegin;
  PetscCheck(!st->ondevice || (d && d->nlocal == nlocal && d->noff == st->noff && d->dof == st->dof), PETSC_COMM_SELF, PETSC_ERR_PLIB, "A stencil extracted on the device does not fit the layout");
  if (d && (d->nlocal != nlocal || d->noff != st->noff || d->constant != st->constant || d->dof != st->dof)) { /* not a copy of this stencil */
    PetscCall(HJStencilDropDevice(st));
    d = NULL;
  }
  if (!d) {
    PetscCall(PetscNew(&d));
    d->constant = st->constant;
    d->noff     = st->noff;
    d->nlocal   = nlocal;
    d->dof      = st->dof;
    if (!st->constant) {
      const size_t nd = (size_t)nlocal * (size_t)(st->dof * st->dof), nc = (size_t)st->noff * nd;

      PetscCallCUDA(cudaMalloc((void **)&d->coef, nc * sizeof(PetscScalar)));
      PetscCallCUDA(cudaMalloc((void **)&d->invdiag, nd * sizeof(PetscScalar)));
      PetscCallCUDA(cudaMemcpyAsync(d->coef, st->coef, nc * sizeof(PetscScalar), cudaMemcpyHostToDevice, stream));
      PetscCallCUDA(cudaMemcpyAsync(d->invdiag, st->invdiag, nd * sizeof(PetscScalar), cudaMemcpyHostToDevice, stream));
      PetscCall(PetscLogCpuToGpu((PetscLogDouble)((nc + nd) * sizeof(PetscScalar))));
    }
    st->device        = d;
    st->devicedestroy = HJCudaStencilDestroy;
  }
  const PetscBool stale = d->floatstale; /* new values in coef/invdiag: their float copies and diag are out of date */
  if (single && !d->constant && (!d->coeff || stale) && sizeof(PetscScalar) != sizeof(float)) {
    const long long nd = (long long)d->nlocal * d->dof * d->dof, nc = (long long)d->noff * nd;

    if (!d->coeff) {
      PetscCallCUDA(cudaMalloc((void **)&d->coeff, (size_t)nc * sizeof(float)));
      PetscCallCUDA(cudaMalloc((void **)&d->invdiagf, (size_t)nd * sizeof(float)));
    }
    PetscCallCUDA(hjcuda::ConvertToFloat(nc, d->coef, d->coeff, stream));
    PetscCallCUDA(hjcuda::ConvertToFloat(nd, d->invdiag, d->invdiagf, stream));
  }
  if (single && d->dof > 1 && (!d->diag || stale) && sizeof(PetscScalar) != sizeof(float)) { /* the correction form's residual needs D(p) itself */
    const long long nd = (long long)d->nlocal * d->dof * d->dof;

    if (!d->diag) PetscCallCUDA(cudaMalloc((void **)&d->diag, (size_t)nd * sizeof(PetscScalar)));
    PetscCallCUDA(hjcuda::InvertBlocks((long long)d->nlocal, (int)d->dof, d->invdiag, d->diag, stream));
  }
  if (single) d->floatstale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
