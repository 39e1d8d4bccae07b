/* The assembled Pmat as a stencil (HJStencil): full extraction and the value-only refresh. One pass over the rows
   (extract/pass.cxx) fills the planes; here the checks doc/algorithm.md asks for are made collective (a Pmat that does
   not fit the DMDA, entries outside the width-1 box, a zero diagonal or singular block), the star/box kind is decided
   over all ranks, and the per-rank flags (constant coefficients, directions without couplings) are set. */
#include "extract/pass.h"
#include "arith/point.hpp"
#include "arith/extract.hpp"

namespace
{
/* One reduction of what the passes found; the errors name the first offending grid point of this rank (st is freed
   first). *gbox: some rank met a coupling the kind lacks (or asked for a re-extraction through nofit). */
PetscErrorCode ReduceFlags(Mat A, const HJLayout *L, HJStencil *st, const HJExtractResult *res, PetscBool nofit, PetscBool *gbox)
{
  MPI_Comm       comm;
  const PetscInt flags[3] = {res->wide[0] >= 0, res->singular >= 0, res->box || nofit};
  PetscInt       gflags[3];

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MPIU_Allreduce(flags, gflags, 3, MPIU_INT, MPI_MAX, comm));
  *gbox = (PetscBool)gflags[2];
  if (!gflags[0] && !gflags[1]) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const PetscInt bad[4] = {flags[0] ? res->wide[0] : res->singular, res->wide[1], res->wide[2], res->wide[3]};
    PetscCall(HJStencilDestroy(st));
    PetscCall(HJStencilReportBad(comm, L, flags, gflags, bad));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* this rank's flags for st's final kind: directions without couplings, constant coefficients */
void SetFlags(const HJLayout *L, HJStencil *st, const HJExtractResult *res)
{
  const PetscInt N = L->nlocal;

  for (PetscInt d = 0; d < 3; d++) st->zerodir[d] = (PetscBool)(L->dof == 1 && d < L->dim && N > 0 && !((res->dirmask >> d) & 1));
  st->constant = res->constant;
  st->cinvdiag = N ? st->invdiag[0] : 1.0;
  for (PetscInt s = 0; s < st->noff; s++) {
    const PetscInt c = HJExtractCodeOfSlot(L->dim, st->kind, s);
    st->ccoef[s]     = res->found[c] ? res->cc[c] : 0;
  }
}

PetscErrorCode Info(Mat A, const HJLayout *L, const HJStencil *st, const char *how)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(A, "stencil %s: dim %" PetscInt_FMT ", dof %" PetscInt_FMT ", %s, %" PetscInt_FMT " offsets, %s coefficients%s%s%s\n", how, L->dim, L->dof, st->kind == hj::STAR ? "star" : "box", st->noff, st->constant ? "constant" : "variable", st->zerodir[0] ? "; no x couplings on this rank" : "", st->zerodir[1] ? "; no y couplings on this rank" : "", st->zerodir[2] ? "; no z couplings on this rank" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode HJStencilDropDevice(HJStencil *st)
{
  PetscFunctionBegin;
  if (st->device && st->devicedestroy) PetscCall((*st->devicedestroy)(&st->device));
  st->device = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJStencilDestroy(HJStencil *st)
{
  PetscFunctionBegin;
  PetscCall(HJStencilDropDevice(st));
  PetscCall(PetscFree(st->coef));
  PetscCall(PetscFree(st->invdiag));
  PetscCall(PetscMemzero(st, sizeof(*st)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pass starts in STAR and switches to BOX at the first nonzero only a box has; a rank that stayed STAR while
   another switched expands its planes afterwards (the kind is the same on every rank). */
PetscErrorCode HJStencilExtract(Mat A, const HJLayout *L, HJStencil *st)
{
  const PetscInt  N = L->nlocal, dof = L->dof;
  HJExtractResult res;
  PetscBool       gbox;

  PetscFunctionBegin;
  PetscCall(HJStencilCheckPmat(A, L));
  PetscCall(HJStencilDestroy(st));
  st->kind = hj::STAR;
  st->noff = hj::NumOffsets((int)L->dim, hj::STAR);
  st->dof  = dof;
  PetscCall(PetscMalloc1((size_t)st->noff * N * dof * dof, &st->coef));
  PetscCall(PetscMalloc1((size_t)N * dof * dof, &st->invdiag));
  PetscCall(HJExtractPass(A, L, st, PETSC_TRUE, &res));
  PetscCall(ReduceFlags(A, L, st, &res, PETSC_FALSE, &gbox));
  if (gbox) PetscCall(HJExtractExpandToBox(L, st, N));
  SetFlags(L, st, &res);
  PetscCall(Info(A, L, st, "extracted"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Same pass into st's own arrays with its kind fixed. A nonzero at an offset the kind lacks (on any rank) frees st and
   says *fits = PETSC_FALSE: the caller extracts afresh. */
PetscErrorCode HJStencilExtractValues(Mat A, const HJLayout *L, HJStencil *st, PetscBool *fits)
{
  HJExtractResult res;
  PetscBool       have = (PetscBool)(st->coef && st->invdiag && st->dof == L->dof), gnofit;

  PetscFunctionBegin;
  *fits = PETSC_FALSE;
  PetscCall(HJStencilCheckPmat(A, L));
  PetscCall(HJStencilDropDevice(st)); /* a backend's device copy: its values are about to be stale */
  if (have) PetscCall(HJExtractPass(A, L, st, PETSC_FALSE, &res));
  else { /* nothing to refresh here; still take part in the reduction */ PetscCall(PetscMemzero(&res, sizeof(res)));
    res.wide[0] = res.singular = -1;
  }
  PetscCall(ReduceFlags(A, L, st, &res, (PetscBool)!have, &gnofit));
  if (gnofit) {
    PetscCall(PetscInfo(A, "stencil values do not fit the extracted stencil (a coupling its kind lacks, or nothing extracted on some rank): extract afresh\n"));
    PetscCall(HJStencilDestroy(st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  SetFlags(L, st, &res);
  *fits = PETSC_TRUE;
  PetscCall(Info(A, L, st, "values refreshed in place"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Pmat has the DMDA's layout and rows that can be read (collective: a rank whose Pmat does not fit must not leave
   the others waiting in a reduction); the host and the device extraction check this first. */
PetscErrorCode HJStencilCheckPmat(Mat A, const HJLayout *L)
{
  MPI_Comm  comm;
  PetscInt  m, n, N = L->nlocal, dof = L->dof;
  PetscBool hasrow, assembled;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetLocalSize(A, &m, &n));
  { /* a rank whose Pmat does not fit must not leave the others waiting in a reduction */
    PetscInt bad = (m != N * dof || n != N * dof), gbad;
    PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
    PetscCheck(!gbad, comm, PETSC_ERR_ARG_SIZ, "PCHJACOBI: the Pmat's local rows x columns (%" PetscInt_FMT " x %" PetscInt_FMT " here%s) do not match the DMDA's %" PetscInt_FMT " points x %" PetscInt_FMT " fields; the Pmat must have the DMDA's layout (create it with DMCreateMatrix())", m, n, bad ? "" : "; another rank differs", N, dof);
  }
  PetscCall(MatHasOperation(A, MATOP_GET_ROW, &hasrow));
  PetscCall(MatAssembled(A, &assembled));
  PetscCheck(hasrow && assembled, comm, PETSC_ERR_SUP, "PCHJACOBI reads the Pmat's entries, but the Pmat of type %s %s; give an assembled AIJ matrix (DMCreateMatrix()) as the Pmat (the Amat may be a MATSHELL)", ((PetscObject)A)->type_name, hasrow ? "is not assembled" : "has no MatGetRow()");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The errors of doc/algorithm.md "Operator", raised on every rank (gflags: the flags reduced over the ranks) with the
   same words from the host and the device extraction. flags[0]: an entry outside the width-1 box on this rank, in the
   row of owned point bad[0] at offset bad[1..3]; flags[1]: a zero or missing diagonal (dof = 1) or a singular diagonal
   block (dof > 1) at owned point bad[0] (when flags[0] is not set). */
PetscErrorCode HJStencilReportBad(MPI_Comm comm, const HJLayout *L, const PetscInt flags[2], const PetscInt gflags[2], const PetscInt bad[4])
{
  char           where[128] = " on another rank";
  const PetscInt dof        = L->dof;

  PetscFunctionBegin;
  if (!gflags[0] && !gflags[1]) PetscFunctionReturn(PETSC_SUCCESS);
  if (flags[0] || flags[1]) {
    const PetscInt u = bad[0], i = L->xs[0] + u % L->xm[0], j = L->xs[1] + (u / L->xm[0]) % L->xm[1], k = L->xs[2] + u / (L->xm[0] * L->xm[1]);
    if (flags[0]) PetscCall(PetscSNPrintf(where, sizeof(where), " (row of grid point (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "), offset (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "))", i, j, k, bad[1], bad[2], bad[3]));
    else PetscCall(PetscSNPrintf(where, sizeof(where), " (grid point (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "))", i, j, k));
  }
  PetscCheck(!gflags[0], comm, PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI needs a stencil of width 1, but the Pmat has a nonzero entry outside the 3^dim box%s; use a stencil-width-1 operator or another preconditioner", flags[0] ? where : " on another rank");
  PetscCheck(dof == 1, comm, PETSC_ERR_MAT_LU_ZRPVT, "PCHJACOBI solves with the %" PetscInt_FMT " x %" PetscInt_FMT " diagonal block of each grid point (dof = %" PetscInt_FMT "), but the Pmat has a singular diagonal block%s; fix the operator or use a preconditioner that does not need the diagonal blocks", dof, dof, dof, flags[1] ? where : " on another rank");
  SETERRQ(comm, PETSC_ERR_MAT_LU_ZRPVT, "PCHJACOBI divides by the diagonal, but the Pmat has a zero (or missing) diagonal entry%s; fix the operator or use a preconditioner that does not need the diagonal", flags[1] ? where : " on another rank");
}

PetscBool HJStencilInteriorRow(const HJLayout *L, const HJStencil *st, const long long ilo[3], const long long ihi[3], PetscScalar *row)
{
  const long long N = L->nlocal, xm0 = L->xm[0], xm1 = L->xm[1], u0 = ilo[0] + xm0 * (ilo[1] + xm1 * ilo[2]);

  if (st->dof != 1 || !st->coef || st->constant || ilo[0] >= ihi[0] || ilo[1] >= ihi[1] || ilo[2] >= ihi[2]) return PETSC_FALSE;
  for (long long k = ilo[2]; k < ihi[2]; k++)
    for (long long j = ilo[1]; j < ihi[1]; j++)
      for (long long i = ilo[0]; i < ihi[0]; i++)
        if (!hj::SameRow(st->coef, st->invdiag, N, (int)st->noff, i + xm0 * (j + xm1 * k), u0)) return PETSC_FALSE;
  for (PetscInt s = 0; s < st->noff; s++) row[s] = st->coef[s * N + u0];
  row[st->noff] = st->invdiag[u0];
  return PETSC_TRUE;
}
