/* Private: the stencil transfers of a level (src/mg/transfer.cxx), which the backends apply (HJBackendOps.transfer:
   host loops in src/host/transfer.cxx, CUDA kernels in src/cuda/transfer.cu). */
#pragma once

#include <petscdm.h>
#include "arith/transfer.hpp"

/* A level's interpolation as a MATSHELL of P's sizes whose products are the stencil transfers when P is checked to be
   the Q1 interpolation of its two DMDAs (HJMGTransferCreate: NULL and the reason otherwise) */
PETSC_INTERN PetscErrorCode HJMGTransferCreate(Mat P, DM coarse, DM fine, PetscInt level, Mat *T, const char **why);
/* T's interpolation (NULL when T is not a stencil transfer) and how many products each path computed */
PETSC_INTERN PetscErrorCode HJMGTransferGet(Mat T, Mat *P, PetscInt *nstencil, PetscInt *nproduct);
