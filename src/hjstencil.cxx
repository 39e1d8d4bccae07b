/* The assembled Pmat as a stencil (HJStencil): per-point coefficients of every width-1 offset, structure of arrays,
   with the checks ALGORITHM.md asks for (entries outside the width-1 box, zero diagonal) and constant detection. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petschjacobi/private/hjpoint.hpp>
#include <petschjacobi/private/hjextract.hpp>

namespace
{
/* Calls f(r, pt, cf, value) for every stored entry of every local row r (r = dof*u + c: field c of owned point u),
   pt being the column's grid point and cf its field. */
template <class F>
PetscErrorCode ForEachEntry(Mat A, const HJLayout *L, F &&f)
{
  PetscBool   isseq, ismpi;
  const auto *xs = L->xs, *xm = L->xm;
  const auto  dof        = L->dof;
  auto        localpoint = [&](PetscInt col, PetscInt pt[3], PetscInt *cf) {
    const PetscInt c = col / dof;
    *cf              = col % dof;
    pt[0]            = xs[0] + c % xm[0];
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
        PetscInt pt[3], cf;
        PetscCall(colpoint(ja[e], pt, &cf));
        PetscCall(f(u, pt, cf, aa[e]));
      }
    PetscCall(MatSeqAIJRestoreArrayRead(S, &aa));
    PetscCall(MatRestoreRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    PetscFunctionReturn(PETSC_SUCCESS);
  };

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isseq));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &ismpi));
  if (isseq) {
    PetscCall(csr(A, [&](PetscInt c, PetscInt pt[3], PetscInt *cf) -> PetscErrorCode {
      localpoint(c, pt, cf);
      return PETSC_SUCCESS;
    }));
  } else if (ismpi) {
    Mat             Ad, Ao;
    const PetscInt *garray;
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(csr(Ad, [&](PetscInt c, PetscInt pt[3], PetscInt *cf) -> PetscErrorCode {
      localpoint(c, pt, cf);
      return PETSC_SUCCESS;
    }));
    PetscCall(csr(Ao, [&](PetscInt c, PetscInt pt[3], PetscInt *cf) -> PetscErrorCode { return HJLayoutPointOfGlobal(L, garray[c], pt, cf); }));
  } else { /* any other type with MatGetRow (BAIJ with block size 1, SELL, ...) */
    PetscInt rstart, rend;
    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    for (PetscInt r = rstart; r < rend; r++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
      for (PetscInt e = 0; e < ncols; e++) {
        PetscInt pt[3], cf;
        PetscCall(HJLayoutPointOfGlobal(L, cols[e], pt, &cf));
        PetscCall(f(r - rstart, pt, cf, vals[e]));
      }
      PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an offset between grid points, taken the short way round in periodic directions (hjextract.hpp: as the device) */
PetscInt Wrap(const HJLayout *L, PetscInt d, PetscInt off)
{
  return (PetscInt)hj::Wrap(L->bnd[d] == DM_BOUNDARY_PERIODIC, L->M[d], off);
}

/* index of offset (dx,dy,dz) in the stencil's order (hj::Offset), -1 for the centre or an offset the kind lacks */
PetscInt OffsetIndex(PetscInt dim, PetscInt kind, const PetscInt off[3])
{
  return hj::OffsetSlot((int)dim, (int)kind, (int)off[0], (int)off[1], (int)off[2]);
}

/* the Gauss-Jordan inversion the device extraction uses too (hjextract.hpp) */
bool InvertBlock(PetscInt n, const PetscScalar *A, PetscScalar *inv)
{
  return hj::InvertBlock((int)n, A, inv);
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
  PetscInt    dim = L->dim, N = L->nlocal, dof = L->dof, bs2 = dof * dof;
  PetscInt    bad[4] = {-1, -1, -1, -1}; /* first entry outside the width-1 box: row point and offset */
  PetscBool   box = PETSC_FALSE, *hasdiag;
  PetscScalar *diag, *inv = NULL;
  PetscInt    flags[3], gflags[3];

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(HJStencilCheckPmat(A, L));
  PetscCall(HJStencilDestroy(st));
  PetscCall(PetscCalloc2(N * bs2, &diag, N * dof, &hasdiag));

  /* pass 1: diagonal (blocks), width check, stencil kind */
  PetscCall(ForEachEntry(A, L, [&](PetscInt r, const PetscInt pt[3], PetscInt cf, PetscScalar v) -> PetscErrorCode {
    const PetscInt u = r / dof, c1 = r % dof;
    const PetscInt rp[3] = {L->xs[0] + u % L->xm[0], L->xs[1] + (u / L->xm[0]) % L->xm[1], L->xs[2] + u / (L->xm[0] * L->xm[1])};
    PetscInt       off[3], wide = 0, nz = 0;
    for (PetscInt d = 0; d < 3; d++) {
      off[d] = Wrap(L, d, pt[d] - rp[d]);
      wide |= PetscAbsInt(off[d]) > 1;
      nz += off[d] != 0;
    }
    if (nz == 0) {
      diag[u * bs2 + c1 * dof + cf] += v;
      if (cf == c1) hasdiag[r] = PETSC_TRUE;
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
  if (dof == 1) {
    for (PetscInt u = 0; u < N; u++)
      if (!hasdiag[u] || diag[u] == (PetscScalar)0) {
        flags[1] = 1;
        if (!flags[0]) bad[0] = u;
        break;
      }
  } else { /* the inverse of every diagonal block (ALGORITHM.md: the division becomes a block solve) */
    PetscCall(PetscMalloc1(N * bs2, &inv));
    for (PetscInt u = 0; u < N; u++)
      if (!InvertBlock(dof, diag + u * bs2, inv + u * bs2)) {
        flags[1] = 1;
        if (!flags[0]) bad[0] = u;
        break;
      }
  }
  flags[2] = box;
  PetscCall(MPIU_Allreduce(flags, gflags, 3, MPIU_INT, MPI_MAX, comm));
  if (gflags[0] || gflags[1]) {
    PetscCall(PetscFree2(diag, hasdiag));
    PetscCall(PetscFree(inv));
    PetscCall(HJStencilReportBad(comm, L, flags, gflags, bad));
  }

  /* pass 2: coefficient planes of the chosen kind */
  st->kind = gflags[2] ? hj::BOX : hj::STAR;
  st->noff = hj::NumOffsets((int)dim, (int)st->kind);
  st->dof  = dof;
  PetscCall(PetscCalloc1((size_t)st->noff * N * bs2, &st->coef));
  if (dof == 1) {
    PetscCall(PetscMalloc1(N, &st->invdiag));
    for (PetscInt u = 0; u < N; u++) st->invdiag[u] = 1.0 / diag[u];
  } else st->invdiag = inv;
  PetscCall(PetscFree2(diag, hasdiag));
  PetscCall(ForEachEntry(A, L, [&](PetscInt r, const PetscInt pt[3], PetscInt cf, PetscScalar v) -> PetscErrorCode {
    const PetscInt u = r / dof, c1 = r % dof;
    const PetscInt rp[3] = {L->xs[0] + u % L->xm[0], L->xs[1] + (u / L->xm[0]) % L->xm[1], L->xs[2] + u / (L->xm[0] * L->xm[1])};
    const PetscInt off[3] = {Wrap(L, 0, pt[0] - rp[0]), Wrap(L, 1, pt[1] - rp[1]), Wrap(L, 2, pt[2] - rp[2])};
    const PetscInt s      = OffsetIndex(dim, st->kind, off);
    if (s >= 0) st->coef[((size_t)s * N + u) * bs2 + c1 * dof + cf] += v; /* the centre and zero entries outside the box are skipped */
    return PETSC_SUCCESS;
  }));

  /* directions without couplings on this rank */
  for (PetscInt d = 0; d < 3; d++) {
    st->zerodir[d] = (PetscBool)(dof == 1 && d < dim && N > 0);
    for (PetscInt s = 0; s < st->noff && st->zerodir[d]; s++) {
      if (!hj::Offset((int)dim, (int)st->kind, (int)s, (int)d)) continue;
      for (PetscInt u = 0; u < N && st->zerodir[d]; u++) st->zerodir[d] = (PetscBool)(st->coef[(size_t)s * N + u] == (PetscScalar)0);
    }
  }

  /* constant coefficients: the same value wherever the neighbour lies in the domain (outside it the padded array is 0) */
  st->constant = (PetscBool)(dof == 1); /* no compact form for blocks */
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
  PetscCall(PetscInfo(A, "stencil: dim %" PetscInt_FMT ", dof %" PetscInt_FMT ", %s, %" PetscInt_FMT " offsets, %s coefficients%s%s%s\n", dim, dof, st->kind == hj::STAR ? "star" : "box", st->noff, st->constant ? "constant" : "variable", st->zerodir[0] ? "; no x couplings on this rank" : "",
                      st->zerodir[1] ? "; no y couplings on this rank" : "", st->zerodir[2] ? "; no z couplings on this rank" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The errors of ALGORITHM.md "Operator", raised on every rank (gflags: the flags reduced over the ranks) with the same
   words from the host and the device extraction. flags[0]: an entry outside the width-1 box on this rank, in the row of
   owned point bad[0] at offset bad[1..3]; flags[1]: a zero or missing diagonal (dof = 1) or a singular diagonal block
   (dof > 1) at owned point bad[0] (when flags[0] is not set). */
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

/* Same nonzero pattern, new values: refill st keeping its kind; *fits is false (on every rank) when the values need
   another kind (a nonzero at a box offset of a star stencil), and the caller then extracts afresh.
   For now a full extraction (the fast value pass is the host-extraction work, issue 11 item 3). */
PetscErrorCode HJStencilExtractValues(Mat A, const HJLayout *L, HJStencil *st, PetscBool *fits)
{
  const PetscInt kind = st->kind;

  PetscFunctionBegin;
  PetscCall(HJStencilExtract(A, L, st));
  *fits = (PetscBool)(st->kind == kind);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Pmat fits the layout and can be read (collective: a rank whose Pmat does not fit must not leave the others
   waiting in a reduction); both extractions check this first. */
PetscErrorCode HJStencilCheckPmat(Mat A, const HJLayout *L)
{
  MPI_Comm comm;
  PetscInt m, n, N = L->nlocal, dof = L->dof;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetLocalSize(A, &m, &n));
  { /* collective: a rank whose Pmat does not fit must not leave the others waiting in a reduction */
    PetscInt bad = (m != N * dof || n != N * dof), gbad;
    PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MAX, comm));
    PetscCheck(!gbad, comm, PETSC_ERR_ARG_SIZ, "PCHJACOBI: the Pmat's local rows x columns (%" PetscInt_FMT " x %" PetscInt_FMT " here%s) do not match the DMDA's %" PetscInt_FMT " points x %" PetscInt_FMT " fields; the Pmat must have the DMDA's layout (create it with DMCreateMatrix())", m, n, bad ? "" : "; another rank differs", N, dof);
  }
  {
    PetscBool hasrow, assembled;
    PetscCall(MatHasOperation(A, MATOP_GET_ROW, &hasrow));
    PetscCall(MatAssembled(A, &assembled));
    PetscCheck(hasrow && assembled, comm, PETSC_ERR_SUP, "PCHJACOBI reads the Pmat's entries, but the Pmat of type %s %s; give an assembled AIJ matrix (DMCreateMatrix()) as the Pmat (the Amat may be a MATSHELL)", ((PetscObject)A)->type_name, hasrow ? "is not assembled" : "has no MatGetRow()");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
