/* Private to src/: the one pass over the Pmat's rows that fills an HJStencil (extract/pass.cxx), used by the entry
   points HJStencilExtract/HJStencilExtractValues (extract/stencil.cxx), which add the collective checks and errors.
   An offset (ox,oy,oz) in {-1,0,1}^3 is named by its code (ox+1) + 3(oy+1) + 9(oz+1); 13 is the point itself. */
#pragma once

#include <petschjacobi/private/pchjacobiimpl.h>

#define HJ_CODE_CENTRE 13

/* What one pass found on this rank. */
typedef struct {
  PetscInt    wide[4];   /* first nonzero outside the width-1 box: owned point u and offset; wide[0] = -1 if none */
  PetscInt    singular;  /* first owned point whose diagonal is zero (dof = 1) or whose block is singular; -1 if none */
  PetscBool   box;       /* a nonzero coupling at an offset only the box stencil has */
  PetscInt    dirmask;   /* bit d: a nonzero coupling along direction d */
  PetscBool   constant;  /* dof = 1: see HJStencil.constant, over every offset of the box of this dimension */
  PetscScalar cc[27];    /* the constant value of each code (where found[code]) */
  PetscBool   found[27]; /* some owned point has its neighbour at that code in the domain */
} HJExtractResult;

/* One pass in grid order over the owned points: writes st->coef (every plane of st->kind, every point) and
   st->invdiag, which must be allocated for st->kind. adapt: st->kind must be STAR on entry and becomes BOX (planes
   reallocated) at the first nonzero coupling only a box has; otherwise such a coupling sets res->box and is dropped. */
PETSC_INTERN PetscErrorCode HJExtractPass(Mat, const HJLayout *, HJStencil *, PetscBool adapt, HJExtractResult *);
/* st (STAR, complete for its first nrows points) becomes BOX: star planes copied, the other offsets zero. */
PETSC_INTERN PetscErrorCode HJExtractExpandToBox(const HJLayout *, HJStencil *, PetscInt nrows);
/* the code of offset s of a stencil kind (hj::Offset) */
PETSC_INTERN PetscInt HJExtractCodeOfSlot(PetscInt dim, PetscInt kind, PetscInt s);
