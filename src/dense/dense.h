/* The dense inverse of a small operator (src/dense/dense.cxx), for PCHJDENSE (src/pc/hjdense/hjdense.cxx): formed from
   an inner PC, checked against it, and for a singular operator pinned on its null space and projected. */
#pragma once

#include <petscpc.h>
#include <petschjacobi/compat.h>

#define HJD_MAX_SIZE     1024 /* -pc_hjdense_max_size's default: the largest operator (rows) whose inverse is formed */
#define HJD_CHECK_FACTOR 100  /* the dense product is taken when its residual is within this factor of the inner PC's ... */

/* the n x n inverse the inner PC (set up) applies, column by column (MATSEQDENSE) */
PETSC_INTERN PetscErrorCode HJDenseForm(PC inner, PetscInt n, Mat *inverse);
/* the relative residuals of X and of the inner PC on a consistent right-hand side, and whether X is accepted */
PETSC_INTERN PetscErrorCode HJDenseCheck(PC inner, Mat A, Mat X, PetscReal rel[2], PetscBool *accept);
/* an orthonormal basis Z (n x m, column-major) of the null space attached to A, or of the constants where A's rows sum
   to zero; m = 0: none */
PETSC_INTERN PetscErrorCode HJDenseNullBasis(Mat A, PetscInt n, PetscInt *m, PetscScalar **Z);
PETSC_INTERN PetscErrorCode HJDenseConstants(Mat A, PetscInt n, PetscInt *m, PetscScalar **Z);
/* B: A with one row per null vector pinned (a_kk added to its diagonal) */
PETSC_INTERN PetscErrorCode HJDensePin(Mat A, PetscInt n, PetscInt m, const PetscScalar *Z, Mat *B);
/* X <- P X P, P = I - Z Z^H */
PETSC_INTERN PetscErrorCode HJDenseProject(Mat X, PetscInt n, PetscInt m, const PetscScalar *Z);
