/* Shared helpers of the petsc-hjacobi test programs: a random DMDA operator and an independent, literal
   implementation of doc/algorithm.md (plain loops over the gathered matrix, PETSc global ordering).
   Nothing here includes the library's private headers: the reference must not share code with it. */
#pragma once

#include <petscdmda.h>
#include <petscksp.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* Every message the test programs themselves print or raise carries "hjtest", so that expect.sh can tell a
   library error from a test failure. */

typedef struct {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  DM          da;
  PetscInt    dim, dof, sw;  /* dimension, fields per point, DMDA stencil width */
  PetscInt    M[3];          /* grid points per dimension (1 in unused dimensions) */
  PetscInt    m[3];          /* ranks per dimension */
  PetscInt   *lr[3], *ls[3]; /* ownership ranges per dimension and their prefix sums */
  PetscInt    N;             /* grid points */
  PetscInt   *petsc_of_nat;  /* natural index i + M0*(j + M1*k) -> PETSc index (grid point) */
  PetscBool   periodic, box, stardmda, symmetric, dirichlet_boundary, wide;
  PetscBool   zero_y;           /* every coupling along y is an explicitly stored zero (independent rows, B2) */
  PetscBool   constant;         /* couplings depend only on the offset, one diagonal value (Dirichlet rows aside) */
  PetscInt    perturb_row;      /* natural index of a row whose first coupling is scaled by 1.5, -1: none */
  PetscInt    perturb_diag_row; /* natural index of a row whose diagonal is scaled by 1.5, -1: none */
  PetscInt    corner_row;       /* natural index of a row that has the box couplings also when the others are star, -1: none */
  PetscBool   dirichlet_cdiag;  /* constant operators: Dirichlet rows take the constant diagonal too (only couplings differ) */
  PetscReal   dirichlet_fraction;
  PetscInt    seed;                            /* pattern seed (Dirichlet rows); values take their own seed */
  PetscInt    zero_diag_row, missing_diag_row; /* natural index of a row with a zero / absent diagonal, -1: none */
  char        dmkind[16];                      /* "da" (DMCreateMatrix), "none" (MatCreate, no DM), "shell" (a DMShell on the PC) */
  PetscBool   prealloc_only;
} HJProblem;

#define HJ_MAX_SWEEPS 64 /* the reference keeps the weights of at most this many sweeps */

typedef struct {
  PetscInt            t[3], o[3], k, c;
  PetscReal           w;                  /* omega (the weight of every sweep when the weights are constant) */
  PCHJacobiWeightType wtype;              /* the weights in use after setup: constant, chebyshev or chebyshev_squared */
  PetscReal           lo, hi;             /* the Chebyshev interval in use (0 for constant weights) */
  PetscReal           wts[HJ_MAX_SWEEPS]; /* wts[j]: the weight of sweep j (0-based), in the order the PC runs them */
} HJParams;

typedef struct {
  PetscInt     n;
  PetscInt    *ia, *ja;
  PetscScalar *a;
} HJCSR;

PetscErrorCode HJProblemCreate(MPI_Comm, HJProblem *);
PetscErrorCode HJProblemDestroy(HJProblem *);
PetscErrorCode HJProblemCreateMatrix(HJProblem *, Mat *);
PetscErrorCode HJProblemAssemble(HJProblem *, PetscInt, Mat);
PetscErrorCode HJProblemFillVec(HJProblem *, PetscInt, Vec);
PetscErrorCode HJProblemView(HJProblem *, const HJParams *);

PetscErrorCode HJParamsGet(PC, HJProblem *, PetscBool, HJParams *);

PetscErrorCode HJGatherMatrix(Mat, PetscBool, HJCSR *);
PetscErrorCode HJCSRDestroy(HJCSR *);
PetscErrorCode HJGatherVec(Vec, PetscScalar **);
PetscErrorCode HJRefCycles(HJProblem *, const HJCSR *, const HJParams *, const PetscScalar *, PetscScalar *, PetscInt);
/* x = M^T b's cycles from x (doc/algorithm.md "PCApplyTranspose") with the gathered A^T */
PetscErrorCode HJRefTransposeCycles(HJProblem *, const HJCSR *, const HJParams *, const PetscScalar *, PetscScalar *, PetscInt);
PetscErrorCode HJTileRanges(PetscInt, PetscInt, PetscInt, PetscInt *, PetscInt[], PetscInt[], PetscInt[], PetscInt[]);

PetscErrorCode HJCompareRef(Vec, const PetscScalar *, PetscReal *);
PetscErrorCode HJCompareVec(Vec, Vec, PetscReal *);
PetscErrorCode HJReport(MPI_Comm, const char *, PetscReal, PetscReal, PetscBool, PetscInt *, PetscInt *);
