/* The assembled Pmat as a stencil (HJStencil): per-point coefficients of every width-1 offset, structure of arrays,
   with the checks ALGORITHM.md asks for (entries outside the width-1 box, zero diagonal) and constant detection. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petschjacobi/private/hjpoint.hpp>

namespace
{
/* Calls f(u, pt, value) for every stored entry of every local row u, pt being the column's grid point. */
template <class F>
PetscErrorCode ForEachEntry(Mat A, const HJLayout *L, F &&f)
{
  PetscBool   isseq, ismpi;
  const auto *xs = L->xs, *xm = L->xm;
  auto        localpoint = [&](PetscInt c, PetscInt pt[3]) {
    pt[0] = xs[0] + c % xm[0];
    pt[1] = xs[1] + (c / xm[0]) % xm[1];
    pt[2] = xs[2] + c / (xm[0] * xm[1]);
  };
  /* CSR of a SeqAIJ; colpoint maps its column indices to grid points */
  auto csr = [&](Mat S, auto colpoint) -> PetscErrorCode {
    const PetscInt    *ia, *ja;
    const PetscScalar *aa;
    PetscInt           n;
    PetscBool          done;

    PetscFunctionBegin;
    PetscCall(MatGetRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot read the rows of the Pmat");
    PetscCall(MatSeqAIJGetArrayRead(S, &aa));
    for (PetscInt u = 0; u < n; u++)
      for (PetscInt e = ia[u]; e < ia[u + 1]; e++) {
        PetscInt pt[3];
        PetscCall(colpoint(ja[e], pt));
        PetscCall(f(u, pt, aa[e]));
      }
    PetscCall(MatSeqAIJRestoreArrayRead(S, &aa));
    PetscCall(MatRestoreRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    PetscFunctionReturn(PETSC_SUCCESS);
  };

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isseq));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &ismpi));
  if (isseq) {
    PetscCall(csr(A, [&](PetscInt c, PetscInt pt[3]) -> PetscErrorCode {
      localpoint(c, pt);
      return PETSC_SUCCESS;
    }));
  } else if (ismpi) {
    Mat             Ad, Ao;
    const PetscInt *garray;
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(csr(Ad, [&](PetscInt c, PetscInt pt[3]) -> PetscErrorCode {
      localpoint(c, pt);
      return PETSC_SUCCESS;
    }));
    PetscCall(csr(Ao, [&](PetscInt c, PetscInt pt[3]) -> PetscErrorCode { return HJLayoutPointOfGlobal(L, garray[c], pt); }));
  } else { /* any other type with MatGetRow (BAIJ with block size 1, SELL, ...) */
    PetscInt rstart, rend;
    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    for (PetscInt r = rstart; r < rend; r++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
      for (PetscInt e = 0; e < ncols; e++) {
        PetscInt pt[3];
        PetscCall(HJLayoutPointOfGlobal(L, cols[e], pt));
        PetscCall(f(r - rstart, pt, vals[e]));
      }
      PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an offset between grid points, taken the short way round in periodic directions */
PetscInt Wrap(const HJLayout *L, PetscInt d, PetscInt off)
{
  if (L->bnd[d] != DM_BOUNDARY_PERIODIC) return off;
  if (off > L->M[d] / 2) return off - L->M[d];
  if (off < -(L->M[d] / 2)) return off + L->M[d];
  return off;
}

/* index of offset (dx,dy,dz) in the stencil's order (hj::Offset), -1 for the centre or an offset the kind lacks */
PetscInt OffsetIndex(PetscInt dim, PetscInt kind, const PetscInt off[3])
{
  const PetscInt n = hj::NumOffsets((int)dim, (int)kind);
  for (PetscInt s = 0; s < n; s++)
    if (off[0] == hj::Offset((int)dim, (int)kind, (int)s, 0) && off[1] == hj::Offset((int)dim, (int)kind, (int)s, 1) && off[2] == hj::Offset((int)dim, (int)kind, (int)s, 2)) return s;
  return -1;
}
} // namespace

PetscErrorCode HJStencilDestroy(HJStencil *st)
{
  PetscFunctionBegin;
  if (st->device && st->devicedestroy) PetscCall((*st->devicedestroy)(&st->device));
  PetscCall(PetscFree(st->coef));
  PetscCall(PetscFree(st->invdiag));
  PetscCall(PetscMemzero(st, sizeof(*st)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJStencilExtract(Mat A, const HJLayout *L, HJStencil *st)
{
  MPI_Comm    comm;
  PetscInt    m, n, dim = L->dim, N = L->nlocal;
  PetscInt    bad[4] = {-1, -1, -1, -1}; /* first entry outside the width-1 box: row point and offset */
  PetscBool   box = PETSC_FALSE, *hasdiag;
  PetscScalar *diag;
  PetscInt    flags[3], gflags[3];

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(m == N && n == N, comm, PETSC_ERR_ARG_SIZ, "PCHJACOBI: the Pmat has %" PetscInt_FMT " x %" PetscInt_FMT " local rows x columns but its DMDA owns %" PetscInt_FMT " points; the Pmat must have the DMDA's layout (create it with DMCreateMatrix())", m, n, N);
  {
    PetscBool hasrow, assembled;
    PetscCall(MatHasOperation(A, MATOP_GET_ROW, &hasrow));
    PetscCall(MatAssembled(A, &assembled));
    PetscCheck(hasrow && assembled, comm, PETSC_ERR_SUP, "PCHJACOBI reads the Pmat's entries, but the Pmat of type %s %s; give an assembled AIJ matrix (DMCreateMatrix()) as the Pmat (the Amat may be a MATSHELL)", ((PetscObject)A)->type_name, hasrow ? "is not assembled" : "has no MatGetRow()");
  }
  PetscCall(HJStencilDestroy(st));
  PetscCall(PetscCalloc2(N, &diag, N, &hasdiag));

  /* pass 1: diagonal, width check, stencil kind */
  PetscCall(ForEachEntry(A, L, [&](PetscInt u, const PetscInt pt[3], PetscScalar v) -> PetscErrorCode {
    const PetscInt rp[3] = {L->xs[0] + u % L->xm[0], L->xs[1] + (u / L->xm[0]) % L->xm[1], L->xs[2] + u / (L->xm[0] * L->xm[1])};
    PetscInt       off[3], wide = 0, nz = 0;
    for (PetscInt d = 0; d < 3; d++) {
      off[d] = Wrap(L, d, pt[d] - rp[d]);
      wide |= PetscAbsInt(off[d]) > 1;
      nz += off[d] != 0;
    }
    if (nz == 0) {
      diag[u] += v;
      hasdiag[u] = PETSC_TRUE;
    } else if (v != (PetscScalar)0) {
      if (wide && bad[0] < 0) {
        bad[0] = u;
        bad[1] = off[0];
        bad[2] = off[1];
        bad[3] = off[2];
      }
      if (nz > 1) box = PETSC_TRUE;
    }
    return PETSC_SUCCESS;
  }));
  flags[0] = bad[0] >= 0;
  flags[1] = 0;
  for (PetscInt u = 0; u < N; u++)
    if (!hasdiag[u] || diag[u] == (PetscScalar)0) {
      flags[1] = 1;
      if (!flags[0]) bad[0] = u;
      break;
    }
  flags[2] = box;
  PetscCall(MPIU_Allreduce(flags, gflags, 3, MPIU_INT, MPI_MAX, comm));
  if (gflags[0] || gflags[1]) {
    char where[128] = " on another rank";
    if (bad[0] >= 0) {
      const PetscInt u = bad[0], i = L->xs[0] + u % L->xm[0], j = L->xs[1] + (u / L->xm[0]) % L->xm[1], k = L->xs[2] + u / (L->xm[0] * L->xm[1]);
      if (flags[0]) PetscCall(PetscSNPrintf(where, sizeof(where), " (row of grid point (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "), offset (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "))", i, j, k, bad[1], bad[2], bad[3]));
      else PetscCall(PetscSNPrintf(where, sizeof(where), " (grid point (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "))", i, j, k));
    }
    PetscCall(PetscFree2(diag, hasdiag));
    PetscCheck(!gflags[0], comm, PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI needs a stencil of width 1, but the Pmat has a nonzero entry outside the 3^dim box%s; use a stencil-width-1 operator or another preconditioner", flags[0] ? where : " on another rank");
    SETERRQ(comm, PETSC_ERR_MAT_LU_ZRPVT, "PCHJACOBI divides by the diagonal, but the Pmat has a zero (or missing) diagonal entry%s; fix the operator or use a preconditioner that does not need the diagonal", flags[1] ? where : " on another rank");
  }

  /* pass 2: coefficient planes of the chosen kind */
  st->kind = gflags[2] ? hj::BOX : hj::STAR;
  st->noff = hj::NumOffsets((int)dim, (int)st->kind);
  PetscCall(PetscCalloc1((size_t)st->noff * N, &st->coef));
  PetscCall(PetscMalloc1(N, &st->invdiag));
  for (PetscInt u = 0; u < N; u++) st->invdiag[u] = 1.0 / diag[u];
  PetscCall(PetscFree2(diag, hasdiag));
  PetscCall(ForEachEntry(A, L, [&](PetscInt u, const PetscInt pt[3], PetscScalar v) -> PetscErrorCode {
    const PetscInt rp[3] = {L->xs[0] + u % L->xm[0], L->xs[1] + (u / L->xm[0]) % L->xm[1], L->xs[2] + u / (L->xm[0] * L->xm[1])};
    const PetscInt off[3] = {Wrap(L, 0, pt[0] - rp[0]), Wrap(L, 1, pt[1] - rp[1]), Wrap(L, 2, pt[2] - rp[2])};
    const PetscInt s      = OffsetIndex(dim, st->kind, off);
    if (s >= 0) st->coef[(size_t)s * N + u] += v; /* the centre and zero entries outside the box are skipped */
    return PETSC_SUCCESS;
  }));

  /* constant coefficients: the same value wherever the neighbour lies in the domain (outside it the padded array is 0) */
  st->constant = PETSC_TRUE;
  st->cinvdiag = N ? st->invdiag[0] : 1.0;
  for (PetscInt u = 0; u < N && st->constant; u++) st->constant = (PetscBool)(st->invdiag[u] == st->cinvdiag);
  for (PetscInt s = 0; s < st->noff && st->constant; s++) {
    PetscBool found = PETSC_FALSE;
    for (PetscInt u = 0; u < N && st->constant; u++) {
      const PetscInt p[3] = {L->xs[0] + u % L->xm[0], L->xs[1] + (u / L->xm[0]) % L->xm[1], L->xs[2] + u / (L->xm[0] * L->xm[1])};
      PetscBool      in   = PETSC_TRUE;
      for (PetscInt d = 0; d < 3; d++) {
        const PetscInt q = p[d] + hj::Offset((int)dim, (int)st->kind, (int)s, (int)d);
        in               = (PetscBool)(in && (L->bnd[d] == DM_BOUNDARY_PERIODIC || (q >= 0 && q < L->M[d])));
      }
      if (!in) continue;
      if (!found) {
        st->ccoef[s] = st->coef[(size_t)s * N + u];
        found        = PETSC_TRUE;
      } else if (st->coef[(size_t)s * N + u] != st->ccoef[s]) st->constant = PETSC_FALSE;
    }
    if (!found) st->ccoef[s] = 0;
  }
  PetscCall(PetscInfo(A, "stencil: dim %" PetscInt_FMT ", %s, %" PetscInt_FMT " offsets, %s coefficients\n", dim, st->kind == hj::STAR ? "star" : "box", st->noff, st->constant ? "constant" : "variable"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
