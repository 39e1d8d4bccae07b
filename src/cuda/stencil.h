/* The device copy of one HJStencil (HJStencil.device), shared by the CUDA backend (cuda/stencil.cu: upload; the plan
   and the kernels read it) and the device extraction (extract/extract.cu: written in place from the aijcusparse
   Pmat). */
#pragma once

#include "cuda/backend.h"

struct HJCudaPattern; /* cuda/extract/extract.cu: what the device extraction keeps per nonzero pattern */

typedef struct {
  PetscBool      constant;
  PetscInt       noff, nlocal, dof;
  PetscScalar   *coef, *invdiag;   /* [noff][nlocal][dof*dof] (one plane per offset), [nlocal][dof*dof] */
  float         *coeff, *invdiagf; /* float copies for the single-precision inner mode, made when first needed */
  PetscScalar   *diag;             /* dof > 1, single-precision inner mode: the diagonal blocks (inverted back from invdiag) */
  PetscBool      floatstale;       /* coef/invdiag got new values: remake coeff/invdiagf (and diag) before their next use */
  HJCudaPattern *pattern;          /* extracted on the device: its pattern tables (NULL for an uploaded stencil) */
} HJCudaStencil;

PETSC_INTERN PetscErrorCode HJCudaStencilDestroy(void **);
PETSC_INTERN PetscErrorCode HJCudaPatternDestroy(HJCudaPattern **);
/* the last argument: the rank whose allocation of the planes fails (test hook -pc_hjacobi_debug_fail_alloc), -1 none */
PETSC_INTERN PetscErrorCode HJCudaExtractFull(Mat, const HJLayout *, HJStencil *, PetscInt);
/* cuda/plan/interior.cu: whether the points of the owned-coordinate box [ilo, ihi) all have one row (dof 1, variable planes),
   and that row (ref: noff coefficients, then the inverse diagonal); CUDA sources only */
#if defined(__CUDACC__)
/* cuda/extract/devalloc.cu: device allocations made on every rank, then checked on all at once (a failure stops every rank) */
typedef struct {
  size_t      bytes;  /* asked for by the group on this rank */
  cudaError_t err;    /* the first failure, cudaSuccess if none */
  PetscBool   inject; /* test hook: fail this rank's group */
} HJDeviceAllocGroup;
PETSC_INTERN void           HJDeviceAllocGroupAdd(HJDeviceAllocGroup *, void **, size_t);
PETSC_INTERN PetscErrorCode HJDeviceAllocGroupCheck(MPI_Comm, const HJDeviceAllocGroup *, const char *);
PETSC_INTERN PetscErrorCode HJCudaStencilInterior(const HJCudaStencil *, const long long[3], const long long[3], long long, long long, cudaStream_t, PetscBool *, PetscScalar *);
/* cuda/plan/rowclass.cu: the row classes of a variable 3D star stencil (dof 1) whose interior row is ref: a class byte per
   point and a table of hj::kRowClasses rows (device arrays, NULL when the rows take more values) */
PETSC_INTERN PetscErrorCode HJCudaRowClasses(const HJCudaStencil *, const PetscScalar *, cudaStream_t, unsigned char **, PetscScalar **, PetscInt *);
#endif
