/* The host backend's tile cycle (host/cycle.cxx): one cycle of doc/algorithm.md over a list of tiles, on the CPU.
   host/backend.cxx owns the data and the ghost exchange and calls it. */
#pragma once

#include <petschjacobi/private/hjbackend.h>

/* Rows whose coefficients equal one row (the stencil's constant form, or the rows inside the boundary shell,
   HJStencilInteriorRow): the cycle reads no coefficient plane for them */
typedef struct {
  PetscBool   use;               /* some rows are known constant */
  PetscInt    shell;             /* the box is the points at least `shell` from the non-periodic faces (HJLayoutInteriorBox) */
  long long   lo[3], hi[3];      /* owned coordinates of the box of constant rows */
  PetscScalar coef[26], invdiag; /* their row */
  /* the points of the box's rows (y, z inside it) outside it along x: nlo = lo[0] points before, nhi = xm - hi[0]
     after; their rows point by point (noff coefficients, then the inverse diagonal), so that a row of the box is one
     vector loop and two short scalar ones without a plane read: xrows[((r * (nlo + nhi)) + p) * (noff + 1) + s] for
     row r = (k - lo[2]) * (hi[1] - lo[1]) + (j - lo[1]), point p (i for i < lo[0], nlo + i - hi[0] for i >= hi[0]) */
  PetscScalar *xrows;
  PetscInt     nlo, nhi;
} HJHostConstRows;

/* what one cycle reads and writes */
typedef struct {
  const HJLayout        *L;
  const HJStencil       *st; /* A's stencil, or A^T's for the transposed correction */
  const HJHostConstRows *cst;
  PetscInt               t[3], o[3], k;
  const PetscReal       *w;           /* the k sweeps' weights */
  const PetscScalar     *b;           /* owned array */
  const PetscScalar     *xpad;        /* padded array (halo frozen); NULL: x = 0 with a zero halo (a zero guess's first cycle,
                                  and always for the transposed correction) */
  PetscScalar           *out;         /* the owned box's first point of the output (ypad's interior, or x itself): the owned
                                  points written (transposed correction: all of W(T) added) */
  long long              osy, osz;    /* its strides in points */
  PetscScalar           *buf0, *buf1; /* two tile buffers (W(T) and its halo) */
  const PetscScalar     *zero;        /* zeros: a tile row with its halo (dof values per point) */
} HJHostCycleArgs;

/* runs the tiles ids[first..last) (ids NULL: tile ids first..last) of one cycle; transpose: N^T b (ypad += ...) */
PETSC_INTERN void HJHostCycle(const HJHostCycleArgs *, PetscBool transpose, const PetscInt *ids, PetscInt first, PetscInt last);

/* y = A x on the owned box (dof 1), A the stencil st (rows of cst in compact form), x read from a padded array whose
   ghost layer is filled: the operator the stencil holds, for the products that need no assembled matrix (the spectrum
   estimate); with b (not NULL) the residual y = b - A x in the same pass */
PETSC_INTERN void HJHostStencilMult(const HJLayout *, const HJStencil *, const HJHostConstRows *, const PetscScalar *xpad, const PetscScalar *b, PetscScalar *y);
