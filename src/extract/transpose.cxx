/* A^T's stencil from A's by re-indexing (no MatTranspose): a^T_s(p) = a_{-s}(p+s)^T where p+s is a point of this rank
   (periodic wrap included), 0 where it is not. Those are the couplings the tile sweeps of PCApplyTranspose use
   (doc/algorithm.md "One cycle as a matrix": A_TT^T with a zero halo); couplings to other ranks' points live in
   their rows. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "arith/extract.hpp"

/* the re-indexing itself, on host arrays; stT's arrays are allocated (same kind, noff and dof as st) */
static void TransposeHost(const HJLayout *L, const HJStencil *st, HJStencil *stT)
{
  const PetscInt N = L->nlocal, dof = st->dof, bs2 = dof * dof, dim = L->dim;
  long long      xs[3], xm[3], M[3];
  bool           per[3];

  for (PetscInt d = 0; d < 3; d++) {
    xs[d]  = L->xs[d];
    xm[d]  = L->xm[d];
    M[d]   = L->M[d];
    per[d] = L->bnd[d] == DM_BOUNDARY_PERIODIC;
  }
  for (PetscInt u = 0; u < N; u++) hj::TransposeBlock((int)dof, st->invdiag + u * bs2, stT->invdiag + u * bs2);
  for (PetscInt s = 0; s < st->noff; s++) {
    const int      off[3] = {hj::Offset((int)dim, (int)st->kind, (int)s, 0), hj::Offset((int)dim, (int)st->kind, (int)s, 1), hj::Offset((int)dim, (int)st->kind, (int)s, 2)};
    const PetscInt ms     = hj::OffsetSlot((int)dim, (int)st->kind, -off[0], -off[1], -off[2]);
    for (PetscInt u = 0; u < N; u++) {
      const long long g[3] = {xs[0] + u % L->xm[0], xs[1] + (u / L->xm[0]) % L->xm[1], xs[2] + u / (L->xm[0] * L->xm[1])};
      const long long uq   = hj::TransposeSource(g, off, xs, xm, M, per);
      hj::TransposeBlock((int)dof, uq < 0 ? (const PetscScalar *)NULL : st->coef + ((size_t)ms * N + uq) * bs2, stT->coef + ((size_t)s * N + u) * bs2);
    }
  }
}

PetscErrorCode HJStencilTransposeOnHost(const HJLayout *L, const HJStencil *st, HJStencil *stT)
{
  const size_t nd = (size_t)L->nlocal * st->dof * st->dof;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nd * st->noff, &stT->coef));
  PetscCall(PetscMalloc1(nd, &stT->invdiag));
  TransposeHost(L, st, stT);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hj->sw.stT from hj->sw.st, where st lives (the backend in use re-indexes a stencil it keeps on the device). stT has no
   compact constant form and claims no direction without couplings: both are optimisations of A's kernels, and a
   re-indexed stencil is correct without. */
PetscErrorCode HJStencilTranspose(PC pc)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  const HJLayout *L  = &hj->sw.layout;
  HJStencil      *st = &hj->sw.st, *stT = &hj->sw.stT;

  PetscFunctionBegin;
  PetscCheck(st->noff, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCHJACOBI: the stencil of A is not extracted yet (call PCSetUp() first)");
  PetscCall(HJStencilDestroy(stT));
  stT->kind = st->kind;
  stT->noff = st->noff;
  stT->dof  = st->dof;
  if (hj->ops && hj->ops->transpose) PetscCall((*hj->ops->transpose)(pc, st, stT));
  else {
    PetscCheck(!st->ondevice, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "A device stencil and a backend that cannot transpose it");
    PetscCall(HJStencilTransposeOnHost(L, st, stT));
  }
  hj->hasT = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
