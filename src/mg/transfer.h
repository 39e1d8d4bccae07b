/* Private: the stencil transfers of a level (src/mg/transfer.cxx) and the backends that apply them (host loops there,
   CUDA kernels in src/cuda/transfer.cu). */
#pragma once

#include <petscdm.h>
#include "arith/transfer.hpp"

/* w = y + op(P) x, or w = op(P) x where y is NULL; op(P) = P (interpolation: x coarse, w fine) or P^T (transpose:
   restriction, x fine, w coarse). y and w hold the owned box of the output's grid, x the input's box
   (hj::TransferGrid: the whole grids on one rank). The host loops take host arrays, the CUDA kernels device arrays
   (on PETSc's stream). */
PETSC_INTERN PetscErrorCode HJTransferHost(const hj::TransferGrid *, PetscInt dim, PetscBool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, PetscScalar *line); /* line: the input's x range of scalars */
#if defined(HJACOBI_WITH_CUDA)
PETSC_INTERN PetscErrorCode HJTransferCUDA(const hj::TransferGrid *, PetscInt dim, PetscBool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w);
#endif

/* A level's interpolation as a MATSHELL of P's sizes whose products are the stencil transfers when P is checked to be
   the Q1 interpolation of its two DMDAs (HJMGTransferCreate: NULL and the reason otherwise) */
PETSC_INTERN PetscErrorCode HJMGTransferCreate(Mat P, DM coarse, DM fine, PetscInt level, Mat *T, const char **why);
/* T's interpolation (NULL when T is not a stencil transfer) and how many products each path computed */
PETSC_INTERN PetscErrorCode HJMGTransferGet(Mat T, Mat *P, PetscInt *nstencil, PetscInt *nproduct);
