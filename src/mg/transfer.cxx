/* The stencil transfers of PCHJMG: a level's interpolation P (DMCreateInterpolation of two DMDAs refined by 2: Q1,
   trilinear) applied point by point instead of as a sparse product, by the backend of the vectors (host loops in
   src/host/transfer.cxx, CUDA kernels in src/cuda/transfer.cu), the restriction P^T likewise (no transposed SpMV). P is checked entry by entry against
   the weights of src/arith/transfer.hpp before it is replaced, never assumed: any other interpolation (Q0, a ratio
   other than 2, one given with PCMGSetInterpolation() that differs) keeps PETSc's product. On several ranks the input
   comes through the DMDA's local (ghosted) vector. */
#include "mg/transfer.h"
#include <petscdmda.h>
#include <petsc/private/matimpl.h>
#include <petschjacobi/private/pchjacobiimpl.h>

namespace
{
constexpr PetscInt kMaxReach = 4; /* ghost layers a rank's transfer may read beyond its owned box */

/* the shell's context */
typedef struct {
  Mat              P;      /* the level's interpolation (a reference): every product PCMG does not ask for */
  hj::TransferGrid g[2];   /* [0] interpolation (output: the fine owned box), [1] restriction (the coarse one) */
  DM               din[2]; /* several ranks: the DMDA of each input (coarse, fine; box-stencil twins), NULL on one rank */
  Vec              loc[2]; /* several ranks: its local (ghosted) vector, the input array of the kernels */
  PetscInt         dim;
  PetscInt         nnz;      /* entries of P per value (flop counts) */
  PetscInt         nstencil; /* products by the stencil transfers */
  PetscInt         nproduct; /* by P's own product (vectors of mixed memory) */
  PetscScalar     *line;     /* the host loops' row of column sums (the longer input x range of the two products) */
} HJTransfer;

PetscErrorCode TransferOf(Mat T, HJTransfer **sh)
{
  PetscErrorCode (*mark)(void) = NULL;

  PetscFunctionBegin;
  *sh = NULL;
  PetscCall(PetscObjectQueryFunction((PetscObject)T, "HJMGTransfer_C", &mark));
  if (mark) PetscCall(MatShellGetContext(T, sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProductOfP(HJTransfer *sh, PetscBool transpose, Vec x, Vec y, Vec w)
{
  PetscFunctionBegin;
  sh->nproduct++;
  if (y && y != w) { /* in place: PETSc 3.22's aijcusparse MatMultTransposeAdd(A, x, y, z) with z != y adds z's old values too */
    PetscCall(VecCopy(y, w));
    y = w;
  }
  if (transpose) PetscCall(y ? MatMultTransposeAdd(sh->P, x, y, w) : MatMultTranspose(sh->P, x, w));
  else PetscCall(y ? MatMultAdd(sh->P, x, y, w) : MatMult(sh->P, x, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w = y + op(P) x (y NULL: w = op(P) x); y may be w. Several ranks: x's ghosted box first (DMGlobalToLocal: PetscSF,
   on the device for CUDA vectors), the backend of the vectors reads that (HJBackendOps.transfer); vectors of different
   backends, or a backend without transfers: P's product */
PetscErrorCode TransferApply(Mat T, PetscBool transpose, Vec x, Vec y, Vec w)
{
  HJTransfer         *sh;
  const int           t = transpose ? 1 : 0;
  const HJBackendOps *ops;
  Vec                 in;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(T, &sh));
  {
    const Vec all[] = {x, y, w, sh->loc[t]};

    PetscCall(HJBackendOfVecs(4, all, &ops));
  }
  if (!ops || !ops->transfer) {
    PetscCall(ProductOfP(sh, transpose, x, y, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const double flops = 2.0 * sh->nnz * sh->g[t].dof + (y ? (double)(transpose ? T->cmap->n : T->rmap->n) : 0.0);

  PetscCall(PetscLogEventBegin(HJMG_Transfer, T, x, w, 0));
  in = x;
  if (sh->loc[t]) {
    PetscCall(DMGlobalToLocalBegin(sh->din[t], x, INSERT_VALUES, sh->loc[t]));
    PetscCall(DMGlobalToLocalEnd(sh->din[t], x, INSERT_VALUES, sh->loc[t]));
    in = sh->loc[t];
  }
  PetscCall((*ops->transfer)(&sh->g[t], sh->dim, transpose, in, y, w, sh->line, flops));
  PetscCall(PetscLogEventEnd(HJMG_Transfer, T, x, w, 0));
  sh->nstencil++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TransferMult(Mat T, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(TransferApply(T, PETSC_FALSE, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode TransferMultAdd(Mat T, Vec x, Vec y, Vec w)
{
  PetscFunctionBegin;
  PetscCall(TransferApply(T, PETSC_FALSE, x, y, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode TransferMultTranspose(Mat T, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(TransferApply(T, PETSC_TRUE, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode TransferMultTransposeAdd(Mat T, Vec x, Vec y, Vec w)
{
  PetscFunctionBegin;
  PetscCall(TransferApply(T, PETSC_TRUE, x, y, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TransferDestroy(Mat T)
{
  HJTransfer *sh;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(T, &sh));
  PetscCall(MatDestroy(&sh->P));
  PetscCall(PetscFree(sh->line));
  for (int t = 0; t < 2; t++) {
    PetscCall(VecDestroy(&sh->loc[t]));
    PetscCall(DMDestroy(&sh->din[t]));
  }
  PetscCall(PetscFree(sh));
  PetscCall(PetscObjectComposeFunction((PetscObject)T, "HJMGTransfer_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DMDA's view for the check and the boxes: global sizes, this rank's owned and ghosted boxes, and every rank's box
   (to place a column owned by another rank) */
typedef struct {
  PetscInt        dim, M[3], dof, procs[3], xs[3], xm[3], gs[3], gm[3];
  const PetscInt *l[3]; /* points per rank coordinate (DMDAGetOwnershipRanges) */
  DMBoundaryType  bnd[3];
} DAInfo;

PetscErrorCode GetDAInfo(DM da, DAInfo *d)
{
  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &d->dim, &d->M[0], &d->M[1], &d->M[2], &d->procs[0], &d->procs[1], &d->procs[2], &d->dof, NULL, &d->bnd[0], &d->bnd[1], &d->bnd[2], NULL));
  PetscCall(DMDAGetCorners(da, &d->xs[0], &d->xs[1], &d->xs[2], &d->xm[0], &d->xm[1], &d->xm[2]));
  PetscCall(DMDAGetGhostCorners(da, &d->gs[0], &d->gs[1], &d->gs[2], &d->gm[0], &d->gm[1], &d->gm[2]));
  PetscCall(DMDAGetOwnershipRanges(da, &d->l[0], &d->l[1], &d->l[2]));
  for (PetscInt q = d->dim; q < 3; q++) { /* unused directions: one point */
    d->M[q] = d->xm[q] = d->gm[q] = 1;
    d->xs[q] = d->gs[q] = 0;
    d->procs[q]         = 1;
    d->l[q]             = NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a DMDA whose local vectors get every ghost value of the box around the owned points (the interpolation reads
   diagonal neighbours: a star stencil's exchange leaves the ghosted box's corners unset) at least width deep: da itself
   when it is such a box stencil, else a box-stencil twin with the same grid, ranks, ownership and vector type */
PetscErrorCode BoxTwin(DM da, PetscInt width, DM *box)
{
  PetscInt        dim, M[3], p[3], dof, sw;
  DMBoundaryType  bt[3];
  DMDAStencilType st;
  const PetscInt *l[3];
  VecType         vt;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], &dof, &sw, &bt[0], &bt[1], &bt[2], &st));
  if ((dim == 1 || st == DMDA_STENCIL_BOX) && sw >= width) {
    PetscCall(PetscObjectReference((PetscObject)da));
    *box = da;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDAGetOwnershipRanges(da, &l[0], &l[1], &l[2]));
  PetscCall(DMDACreate(PetscObjectComm((PetscObject)da), box));
  PetscCall(DMSetDimension(*box, dim));
  PetscCall(DMDASetSizes(*box, M[0], M[1], M[2]));
  PetscCall(DMDASetNumProcs(*box, p[0], p[1], p[2]));
  PetscCall(DMDASetOwnershipRanges(*box, l[0], l[1], l[2]));
  PetscCall(DMDASetBoundaryType(*box, bt[0], bt[1], bt[2]));
  PetscCall(DMDASetDof(*box, dof));
  PetscCall(DMDASetStencilType(*box, DMDA_STENCIL_BOX));
  PetscCall(DMDASetStencilWidth(*box, width));
  PetscCall(DMGetVecType(da, &vt));
  PetscCall(DMSetVecType(*box, vt));
  PetscCall(DMSetUp(*box));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the grid pair of two DMDAs, when the fine one is the coarse one refined by 2 in every direction (else why), with the
   boxes of both products: one rank, the whole grids (periodic indices wrap); several, the owned box of the output (the
   input's boxes are set by the caller, InputBoxes) and reach[t]: how far beyond this rank's owned box of product t's
   input the owned outputs read (the ghost width its local vector needs) */
PetscErrorCode GridPair(const DAInfo *c, const DAInfo *f, PetscBool several, hj::TransferGrid g[2], PetscInt reach[2], const char **why)
{
  PetscFunctionBegin;
  *why     = NULL;
  reach[0] = reach[1] = 0;
  if (c->dim != f->dim || c->dof != f->dof) {
    *why = "the two DMDAs differ in dimension or dof";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int t = 0; t < 2; t++) {
    g[t].dof  = (int)f->dof;
    g[t].wrap = !several;
  }
  for (PetscInt d = 0; d < 3; d++) {
    const int periodic = d < f->dim && f->bnd[d] == DM_BOUNDARY_PERIODIC;

    for (int t = 0; t < 2; t++) {
      const DAInfo *out = t ? c : f, *in = t ? f : c;

      g[t].mf[d]       = f->M[d];
      g[t].mc[d]       = c->M[d];
      g[t].periodic[d] = periodic;
      g[t].os[d]       = several ? out->xs[d] : 0;
      g[t].om[d]       = several ? out->xm[d] : out->M[d];
      g[t].is[d]       = 0;
      g[t].im[d]       = in->M[d];
    }
    if (d >= f->dim) continue;
    if (c->bnd[d] != f->bnd[d] || (periodic ? f->M[d] != 2 * c->M[d] : f->M[d] != 2 * (c->M[d] - 1) + 1)) *why = "the fine DMDA is not the coarse one refined by 2 in every direction";
    if (!several || *why) continue;
    /* the coarse points the owned fine points interpolate from, the fine points the owned coarse points restrict from */
    const long long f0 = f->xs[d], f1 = f->xs[d] + f->xm[d] - 1, c0 = c->xs[d], c1 = c->xs[d] + c->xm[d] - 1;
    const long long lo0 = f0 >> 1, hi0 = (f1 >> 1) + (f1 & 1);
    long long       lo1 = 2 * c0 - 1, hi1 = 2 * c1 + 1;
    if (!periodic) {
      lo1 = PetscMax(lo1, 0);
      hi1 = PetscMin(hi1, (long long)f->M[d] - 1);
    }
    if (f->xm[d] > 0) reach[0] = PetscMax(reach[0], (PetscInt)PetscMax(c0 - lo0, hi0 - c1));
    if (c->xm[d] > 0) reach[1] = PetscMax(reach[1], (PetscInt)PetscMax(f0 - lo1, hi1 - f1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the grid point and component of column (or row) index g of a DMDA's global vector in PETSc's ordering, with vpp
   values per point; range: the ownership ranges of that index (per rank, in values) */
void PlaceIndex(const DAInfo *d, const PetscInt *range, PetscMPIInt size, PetscInt vpp, PetscInt g, long long p[3], PetscInt *comp)
{
  PetscMPIInt r        = 0;
  PetscInt    start[3] = {0, 0, 0}, n[3];

  if (size > 1) { /* the owner: ranges are nondecreasing */
    PetscMPIInt lo = 0, hi = size - 1;
    while (lo < hi) {
      const PetscMPIInt mid = (lo + hi + 1) / 2;
      if (range[mid] <= g) lo = mid;
      else hi = mid - 1;
    }
    r = lo;
  }
  const PetscInt rc[3] = {r % d->procs[0], (r / d->procs[0]) % d->procs[1], r / (d->procs[0] * d->procs[1])};
  for (PetscInt q = 0; q < 3; q++) {
    if (!d->l[q]) {
      n[q] = 1;
      continue;
    }
    for (PetscInt e = 0; e < rc[q]; e++) start[q] += d->l[q][e];
    n[q] = d->l[q][rc[q]];
  }
  const PetscInt local = g - range[r], point = local / vpp;
  *comp = local % vpp;
  p[0]  = start[0] + point % n[0];
  p[1]  = start[1] + (point / n[0]) % n[1];
  p[2]  = start[2] + point / (n[0] * n[1]);
}

/* the rows of one block of P (the diagonal block, or the off-diagonal one with its column map) against the Q1 weights:
   every stored entry is its weight; sums[r] accumulates the rows */
PetscErrorCode CheckBlock(Mat B, const PetscInt *colmap, PetscInt cstart, const DAInfo *f, const DAInfo *c, const PetscInt *crange, PetscMPIInt size, PetscInt vpp, const hj::TransferGrid *g, PetscScalar *sums, PetscInt *nnz, const char **why)
{
  PetscBool          done;
  PetscInt           n;
  const PetscInt    *ia, *ja;
  const PetscScalar *a;
  const PetscReal    tol = 1e-12;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  if (!done) {
    *why = "the interpolation's rows cannot be read (MatGetRowIJ)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqAIJGetArrayRead(B, &a));
  for (PetscInt r = 0; r < n && !*why; r++) {
    const PetscInt  fp = r / vpp, fc = r % vpp;
    const long long i = f->xs[0] + fp % f->xm[0], j = f->xs[1] + (fp / f->xm[0]) % f->xm[1], k = f->xs[2] + fp / (f->xm[0] * f->xm[1]);

    for (PetscInt e = ia[r]; e < ia[r + 1]; e++) {
      long long P3[3];
      PetscInt  cc;
      PlaceIndex(c, crange, size, vpp, colmap ? colmap[ja[e]] : cstart + ja[e], P3, &cc);
      const double w = cc != fc ? 0.0 : hj::TransferWeight(i, P3[0], g->mf[0], g->mc[0], g->periodic[0]) * hj::TransferWeight(j, P3[1], g->mf[1], g->mc[1], g->periodic[1]) * hj::TransferWeight(k, P3[2], g->mf[2], g->mc[2], g->periodic[2]);

      if (PetscAbsScalar(a[e] - w) > tol) {
        PetscCall(PetscInfo(B, "P at fine point (%lld, %lld, %lld) value %" PetscInt_FMT ", coarse point (%lld, %lld, %lld) value %" PetscInt_FMT ": %g, the Q1 weight is %g\n", i, j, k, fc, P3[0], P3[1], P3[2], cc, (double)PetscRealPart(a[e]), w));
        *why = "the interpolation is not the Q1 interpolation of the two DMDAs (-info shows the first entry that differs)";
        break;
      }
      sums[r] += a[e];
    }
  }
  *nnz += ia[n];
  PetscCall(MatSeqAIJRestoreArrayRead(B, &a));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P entry by entry against the Q1 weights: every stored entry is its weight and every row sums to 1 (so no weight is
   missing). P is an AIJ (sequential, or MPI: its diagonal and off-diagonal blocks), with dof > 1 either a MAIJ of the
   points' AIJ (PETSc's DMDA interpolation) or the AIJ of the values themselves (row dof f + c, column dof F + c': what
   CUDA builds of PETSc convert that MAIJ to). This rank's rows; the caller combines the ranks' answers. */
PetscErrorCode CheckQ1(Mat P, const DAInfo *f, const DAInfo *c, const hj::TransferGrid *g, PetscInt *nnz, const char **why)
{
  Mat             A = P, Ad = NULL, Ao = NULL;
  const PetscInt *colmap = NULL;
  PetscBool       maij, seq, mpi;
  PetscInt        vpp, rows, cstart;
  PetscMPIInt     size;
  PetscScalar    *sums;

  PetscFunctionBegin;
  *why = NULL;
  *nnz = 0;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)P), &size));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &maij, MATSEQMAIJ, MATMPIMAIJ, ""));
  if (maij) PetscCall(MatMAIJGetAIJ(P, &A));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &seq));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (!seq && !mpi) {
    *why = "the interpolation is not an AIJ matrix (or a MAIJ of one)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  vpp = maij ? 1 : g->dof; /* values per point in A's rows and columns */
  PetscCall(MatGetLocalSize(A, &rows, NULL));
  if (rows != f->xm[0] * f->xm[1] * f->xm[2] * vpp || A->cmap->n != c->xm[0] * c->xm[1] * c->xm[2] * vpp || A->rmap->N != g->mf[0] * g->mf[1] * g->mf[2] * vpp || A->cmap->N != g->mc[0] * g->mc[1] * g->mc[2] * vpp || P->rmap->n != f->xm[0] * f->xm[1] * f->xm[2] * g->dof ||
      P->cmap->n != c->xm[0] * c->xm[1] * c->xm[2] * g->dof) { /* P's own sizes too (a MAIJ's dof must be the DMDAs') */
    *why = "the interpolation's sizes or layout are not the DMDAs'";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &colmap));
  else Ad = A;
  cstart = A->cmap->rstart;
  PetscCall(PetscCalloc1(rows, &sums));
  PetscCall(CheckBlock(Ad, NULL, cstart, f, c, A->cmap->range, size, vpp, g, sums, nnz, why));
  if (!*why && Ao) PetscCall(CheckBlock(Ao, colmap, 0, f, c, A->cmap->range, size, vpp, g, sums, nnz, why));
  for (PetscInt r = 0; r < rows && !*why; r++)
    if (PetscAbsScalar(sums[r] - 1.0) > 1e-12) {
      PetscCall(PetscInfo(P, "local row %" PetscInt_FMT " of P sums to %g, the Q1 weights to 1\n", r, (double)PetscRealPart(sums[r])));
      *why = "the interpolation is not the Q1 interpolation of the two DMDAs (-info shows the first row that differs)";
    }
  PetscCall(PetscFree(sums));
  *nnz /= vpp; /* entries per value (the flop counts) */
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode HJMGTransferCreate(Mat P, DM coarse, DM fine, PetscInt level, Mat *T, const char **why)
{
  hj::TransferGrid g[2] = {};
  PetscInt         nnz  = 0, reach[2];
  PetscMPIInt      size;
  HJTransfer      *sh;
  VecType          vtype;
  DAInfo           c, f;
  PetscBool        dac = PETSC_FALSE, daf = PETSC_FALSE;
  char             name[64];
  MPI_Comm         comm = PetscObjectComm((PetscObject)P);

  PetscFunctionBegin;
  *T   = NULL;
  *why = NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (coarse) PetscCall(PetscObjectTypeCompare((PetscObject)coarse, DMDA, &dac));
  if (fine) PetscCall(PetscObjectTypeCompare((PetscObject)fine, DMDA, &daf));
  if (!coarse || !fine) *why = "the level has no DM (interpolation given without a DMDA)";
  else if (!dac || !daf) *why = "the level and the next coarser one are not both DMDAs";
  if (*why) PetscFunctionReturn(PETSC_SUCCESS); /* the same answer on every rank: the levels' DMs are collective */
  PetscCall(GetDAInfo(coarse, &c));
  PetscCall(GetDAInfo(fine, &f));
  PetscCall(GridPair(&c, &f, (PetscBool)(size > 1), g, reach, why));
  if (!*why) PetscCall(CheckQ1(P, &f, &c, &g[0], &nnz, why));
  { /* every rank's answer (the shell on all or none), the ghost widths the inputs need, and the narrowest owned box
       (a DMDA's ghost width may not exceed any rank's owned width: the twins' DMSetUp would fail on that rank) */
    PetscInt narrow[2] = {PETSC_MAX_INT, PETSC_MAX_INT};
    for (PetscInt d = 0; d < f.dim; d++) {
      narrow[0] = PetscMin(narrow[0], c.xm[d]);
      narrow[1] = PetscMin(narrow[1], f.xm[d]);
    }
    PetscInt mine[5] = {*why ? 1 : 0, reach[0], reach[1], -narrow[0], -narrow[1]}, all[5];
    PetscCallMPI(MPIU_Allreduce(mine, all, 5, MPIU_INT, MPI_MAX, comm));
    if (all[0] && !*why) *why = "another rank's part of the interpolation or of the grids is not the Q1 interpolation of the DMDAs (-info on that rank)";
    if (!*why && size > 1 && (PetscMax(all[1], all[2]) > kMaxReach || all[1] > -all[3] || all[2] > -all[4]))
      *why = "the ranks' coarse boxes lie too far from their fine boxes for their owned widths (the coarse DMDA is not a coarsening of the fine one's distribution)";
    reach[0] = PetscMax(all[1], 1);
    reach[1] = PetscMax(all[2], 1);
  }
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);

  PetscCall(PetscNew(&sh));
  PetscCall(PetscObjectReference((PetscObject)P));
  sh->P    = P;
  sh->g[0] = g[0];
  sh->g[1] = g[1];
  sh->dim  = f.dim;
  sh->nnz  = nnz;
  if (size > 1) { /* the inputs' ghosted boxes (local vectors): coarse for the interpolation, fine for the restriction */
    PetscCall(BoxTwin(coarse, reach[0], &sh->din[0]));
    PetscCall(BoxTwin(fine, reach[1], &sh->din[1]));
    for (int t = 0; t < 2; t++) {
      PetscInt gs[3], gm[3];

      PetscCall(DMCreateLocalVector(sh->din[t], &sh->loc[t]));
      PetscCall(DMDAGetGhostCorners(sh->din[t], &gs[0], &gs[1], &gs[2], &gm[0], &gm[1], &gm[2]));
      for (PetscInt d = 0; d < 3; d++) {
        sh->g[t].is[d] = d < f.dim ? gs[d] : 0;
        sh->g[t].im[d] = d < f.dim ? gm[d] : 1;
      }
    }
  }
  PetscCall(PetscMalloc1(PetscMax(sh->g[0].im[0], sh->g[1].im[0]), &sh->line)); /* once here, not in every product */
  PetscCall(MatCreateShell(comm, P->rmap->n, P->cmap->n, P->rmap->N, P->cmap->N, sh, T));
  PetscCall(MatGetVecType(P, &vtype));
  PetscCall(MatShellSetVecType(*T, vtype));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT, HJ_MATOP_FN(TransferMult)));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_ADD, HJ_MATOP_FN(TransferMultAdd)));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_TRANSPOSE, HJ_MATOP_FN(TransferMultTranspose)));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_TRANSPOSE_ADD, HJ_MATOP_FN(TransferMultTransposeAdd)));
  PetscCall(MatShellSetOperation(*T, MATOP_DESTROY, HJ_MATOP_FN(TransferDestroy)));
  PetscCall(PetscObjectComposeFunction((PetscObject)*T, "HJMGTransfer_C", TransferDestroy)); /* the mark TransferOf() tests */
  PetscCall(PetscSNPrintf(name, sizeof(name), "hjmg stencil interpolation of level %" PetscInt_FMT, level));
  PetscCall(PetscObjectSetName((PetscObject)*T, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGTransferGet(Mat T, Mat *P, PetscInt *nstencil, PetscInt *nproduct)
{
  HJTransfer *sh;

  PetscFunctionBegin;
  PetscCall(TransferOf(T, &sh));
  if (P) *P = sh ? sh->P : NULL;
  if (nstencil) *nstencil = sh ? sh->nstencil : 0;
  if (nproduct) *nproduct = sh ? sh->nproduct : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
