/* The stencil transfers of PCHJMG: a level's interpolation P (DMCreateInterpolation of two DMDAs refined by 2: Q1,
   trilinear) applied point by point instead of as a sparse product, on the host or by CUDA kernels (src/cuda/
   transfer.cu) on CUDA vectors, the restriction P^T likewise (no transposed SpMV). P is checked entry by entry against
   the weights of src/arith/transfer.hpp before it is replaced, never assumed: any other interpolation (Q0, a ratio
   other than 2, one given with PCMGSetInterpolation()) keeps PETSc's product. One rank per level. */
#include "mg/transfer.h"
#include <petscdmda.h>
#include <petsc/private/matimpl.h>
#include <petschjacobi/private/pchjacobiimpl.h>

namespace
{
template <class T>
struct HostGrid { /* a whole grid's array, x fastest, dof values per point */
  const T  *a;
  long long m0, m1;
  int       dof;
  T         operator()(long long i, long long j, long long k, int c) const { return a[(i + m0 * (j + m1 * k)) * dof + c]; }
};

/* Row by row: the columns of a row (src/arith/transfer.hpp) once into a line, then the row's points from the line */
template <int DIM>
void TransferLoops(const hj::TransferGrid &g, bool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, PetscScalar *line)
{
  const long long            *m   = transpose ? g.mc : g.mf; /* the output's grid */
  const long long             nin = transpose ? g.mf[0] : g.mc[0];
  const int                   dof = g.dof;
  const HostGrid<PetscScalar> in  = {x, nin, transpose ? g.mf[1] : g.mc[1], dof};

  for (long long k = 0; k < m[2]; k++)
    for (long long j = 0; j < m[1]; j++) {
      const long long row = m[0] * (j + m[1] * k) * dof;
      hj::Parents     py = {}, pz = {};
      if (!transpose) hj::RowParents<DIM>(g, j, k, &py, &pz);
      for (int c = 0; c < dof; c++) {
        const auto col = [&](long long q) { return line[q]; };
        if (transpose)
          for (long long q = 0; q < nin; q++) line[q] = hj::RestrictColumn<DIM, PetscScalar>(in, g, q, j, k, c);
        else
          for (long long q = 0; q < nin; q++) line[q] = hj::InterpolateColumn<DIM, PetscScalar>(in, py, pz, q, c);
        for (long long i = 0; i < m[0]; i++) {
          const long long   u = row + i * dof + c;
          const PetscScalar v = transpose ? hj::RestrictFromColumns<PetscScalar>(col, g, i) : hj::InterpolateFromColumns<PetscScalar>(col, hj::FineParents(i, g.mc[0], g.periodic[0]), py.w * pz.w);
          w[u]                = y ? y[u] + v : v;
        }
      }
    }
}

/* the shell's context */
typedef struct {
  Mat              P; /* the level's interpolation (a reference): MatMatMult and every product PCMG does not ask for */
  hj::TransferGrid g;
  PetscInt         dim;
  PetscInt         nnz;      /* entries of P (flop counts) */
  PetscInt         nstencil; /* products by the stencil transfers */
  PetscInt         nproduct; /* by P's own product (vectors of mixed memory) */
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

PetscErrorCode IsDeviceVec(Vec v, PetscBool *dev)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, dev, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w = y + op(P) x (y NULL: w = op(P) x); y may be w */
PetscErrorCode TransferApply(Mat T, PetscBool transpose, Vec x, Vec y, Vec w)
{
  HJTransfer *sh;
  PetscBool   dx, dy = PETSC_FALSE, dw;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(T, &sh));
  PetscCall(IsDeviceVec(x, &dx));
  PetscCall(IsDeviceVec(w, &dw));
  if (y) PetscCall(IsDeviceVec(y, &dy));
  const PetscBool device = (PetscBool)(dx && dw && (!y || dy));
#if !defined(HJACOBI_WITH_CUDA)
  if (device) { /* CUDA vectors, and this build has no CUDA kernels: P's product (PETSc's device one) */
    sh->nproduct++;
    if (transpose) PetscCall(y ? MatMultTransposeAdd(sh->P, x, y, w) : MatMultTranspose(sh->P, x, w));
    else PetscCall(y ? MatMultAdd(sh->P, x, y, w) : MatMult(sh->P, x, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  if (!device && (dx || dw || dy)) { /* host and device vectors mixed: P's product moves what it needs */
    sh->nproduct++;
    if (transpose) PetscCall(y ? MatMultTransposeAdd(sh->P, x, y, w) : MatMultTranspose(sh->P, x, w));
    else PetscCall(y ? MatMultAdd(sh->P, x, y, w) : MatMult(sh->P, x, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const PetscScalar *xa, *ya = NULL;
  PetscScalar       *wa;
  const double       flops = 2.0 * sh->nnz * sh->g.dof + (y ? (double)(transpose ? T->cmap->n : T->rmap->n) : 0.0);

  PetscCall(PetscLogEventBegin(HJMG_Transfer, T, x, w, 0));
#if defined(HJACOBI_WITH_CUDA)
  if (device) {
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    if (y == w) PetscCall(VecCUDAGetArray(w, &wa));
    else {
      if (y) PetscCall(VecCUDAGetArrayRead(y, &ya));
      PetscCall(VecCUDAGetArrayWrite(w, &wa));
    }
    PetscCall(HJTransferCUDA(&sh->g, sh->dim, transpose, xa, y == w ? wa : ya, wa));
    PetscCall(PetscLogGpuFlops(flops));
    if (y == w) PetscCall(VecCUDARestoreArray(w, &wa));
    else {
      if (y) PetscCall(VecCUDARestoreArrayRead(y, &ya));
      PetscCall(VecCUDARestoreArrayWrite(w, &wa));
    }
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
  } else
#endif
  {
    PetscCall(VecGetArrayRead(x, &xa));
    if (y == w) PetscCall(VecGetArray(w, &wa));
    else {
      if (y) PetscCall(VecGetArrayRead(y, &ya));
      PetscCall(VecGetArrayWrite(w, &wa));
    }
    PetscCall(HJTransferHost(&sh->g, sh->dim, transpose, xa, y == w ? wa : ya, wa));
    PetscCall(PetscLogFlops(flops));
    if (y == w) PetscCall(VecRestoreArray(w, &wa));
    else {
      if (y) PetscCall(VecRestoreArrayRead(y, &ya));
      PetscCall(VecRestoreArrayWrite(w, &wa));
    }
    PetscCall(VecRestoreArrayRead(x, &xa));
  }
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
  PetscCall(PetscFree(sh));
  PetscCall(PetscObjectComposeFunction((PetscObject)T, "HJMGTransfer_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the grid pair of two DMDAs, when the fine one is the coarse one refined by 2 in every direction (else why) */
PetscErrorCode GridPair(DM coarse, DM fine, hj::TransferGrid *g, PetscInt *dim, const char **why)
{
  PetscBool      dac, daf;
  PetscInt       dc, df, Mc[3], Mf[3], dofc, doff;
  DMBoundaryType bc[3], bf[3];

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)coarse, DMDA, &dac));
  PetscCall(PetscObjectTypeCompare((PetscObject)fine, DMDA, &daf));
  if (!dac || !daf) {
    *why = "the level and the next coarser one are not both DMDAs";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDAGetInfo(coarse, &dc, &Mc[0], &Mc[1], &Mc[2], NULL, NULL, NULL, &dofc, NULL, &bc[0], &bc[1], &bc[2], NULL));
  PetscCall(DMDAGetInfo(fine, &df, &Mf[0], &Mf[1], &Mf[2], NULL, NULL, NULL, &doff, NULL, &bf[0], &bf[1], &bf[2], NULL));
  if (dc != df || dofc != doff) {
    *why = "the two DMDAs differ in dimension or dof";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *dim   = df;
  g->dof = (int)doff;
  for (PetscInt d = 0; d < 3; d++) {
    const int periodic = d < df && bf[d] == DM_BOUNDARY_PERIODIC;

    g->mf[d]       = d < df ? Mf[d] : 1;
    g->mc[d]       = d < df ? Mc[d] : 1;
    g->periodic[d] = periodic;
    if (d >= df) continue;
    if (bc[d] != bf[d] || (periodic ? Mf[d] != 2 * Mc[d] : Mf[d] != 2 * (Mc[d] - 1) + 1)) *why = "the fine DMDA is not the coarse one refined by 2 in every direction";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P entry by entry against the Q1 weights: every stored entry is its weight and every row sums to 1 (so no weight is
   missing). P is a sequential AIJ, with dof > 1 either a MAIJ of the points' AIJ (PETSc's DMDA interpolation) or the
   AIJ of the values themselves (row dof f + c, column dof F + c': what CUDA builds of PETSc convert that MAIJ to) */
PetscErrorCode CheckQ1(Mat P, const hj::TransferGrid *g, PetscInt *nnz, const char **why)
{
  Mat                A = P;
  PetscBool          maij, aij, done;
  PetscInt           n, rows, cols, dof;
  const PetscInt     nf = g->mf[0] * g->mf[1] * g->mf[2], nc = g->mc[0] * g->mc[1] * g->mc[2];
  const PetscInt    *ia, *ja;
  const PetscScalar *a;
  const PetscReal    tol = 1e-12;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATSEQMAIJ, &maij));
  if (maij) PetscCall(MatMAIJGetAIJ(P, &A));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &aij));
  if (!aij) {
    *why = "the interpolation is not a sequential AIJ matrix (or a MAIJ of one)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  dof = maij ? 1 : g->dof; /* values per point in A's rows and columns */
  PetscCall(MatGetSize(A, &rows, &cols));
  if (rows != nf * dof || cols != nc * dof || (maij && rows * g->dof != P->rmap->N)) {
    *why = "the interpolation's sizes are not the DMDAs'";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  if (!done) {
    *why = "the interpolation's rows cannot be read (MatGetRowIJ)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqAIJGetArrayRead(A, &a));
  for (PetscInt r = 0; r < rows && !*why; r++) {
    const PetscInt  f = r / dof, c = r % dof;
    const long long i = f % g->mf[0], j = (f / g->mf[0]) % g->mf[1], k = f / (g->mf[0] * g->mf[1]);
    PetscScalar     sum = 0;

    for (PetscInt e = ia[r]; e < ia[r + 1]; e++) {
      const PetscInt  F = ja[e] / dof, cc = ja[e] % dof;
      const long long I = F % g->mc[0], J = (F / g->mc[0]) % g->mc[1], K = F / (g->mc[0] * g->mc[1]);
      const double    w = cc != c ? 0.0 : hj::TransferWeight(i, I, g->mf[0], g->mc[0], g->periodic[0]) * hj::TransferWeight(j, J, g->mf[1], g->mc[1], g->periodic[1]) * hj::TransferWeight(k, K, g->mf[2], g->mc[2], g->periodic[2]);

      if (PetscAbsScalar(a[e] - w) > tol) {
        PetscCall(PetscInfo(P, "P[%" PetscInt_FMT ", %" PetscInt_FMT "] = %g, the Q1 weight is %g\n", r, ja[e], (double)PetscRealPart(a[e]), w));
        *why = "the interpolation is not the Q1 interpolation of the two DMDAs (-info shows the first entry that differs)";
        break;
      }
      sum += a[e];
    }
    if (!*why && PetscAbsScalar(sum - 1.0) > tol) {
      PetscCall(PetscInfo(P, "row %" PetscInt_FMT " of P sums to %g, the Q1 weights to 1\n", r, (double)PetscRealPart(sum)));
      *why = "the interpolation is not the Q1 interpolation of the two DMDAs (-info shows the first row that differs)";
    }
  }
  *nnz = ia[rows] / dof; /* entries per value (the flop counts) */
  PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode HJTransferHost(const hj::TransferGrid *g, PetscInt dim, PetscBool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  PetscScalar *line;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(transpose ? g->mf[0] : g->mc[0], &line));
  switch (dim) {
  case 1:
    TransferLoops<1>(*g, transpose, x, y, w, line);
    break;
  case 2:
    TransferLoops<2>(*g, transpose, x, y, w, line);
    break;
  case 3:
    TransferLoops<3>(*g, transpose, x, y, w, line);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "No transfer for dimension %" PetscInt_FMT, dim);
  }
  PetscCall(PetscFree(line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGTransferCreate(Mat P, DM coarse, DM fine, PetscInt level, Mat *T, const char **why)
{
  hj::TransferGrid g   = {};
  PetscInt         dim = 0, nnz = 0;
  PetscMPIInt      size;
  HJTransfer      *sh;
  VecType          vtype;
  char             name[64];

  PetscFunctionBegin;
  *T   = NULL;
  *why = NULL;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)P), &size));
  if (size > 1) *why = "several ranks (one rank per level only, for now)";
  else if (!coarse || !fine) *why = "the level has no DM (interpolation given without a DMDA)";
  if (!*why) PetscCall(GridPair(coarse, fine, &g, &dim, why));
  if (!*why) PetscCall(CheckQ1(P, &g, &nnz, why));
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);

  PetscCall(PetscNew(&sh));
  PetscCall(PetscObjectReference((PetscObject)P));
  sh->P   = P;
  sh->g   = g;
  sh->dim = dim;
  sh->nnz = nnz;
  PetscCall(MatCreateShell(PETSC_COMM_SELF, P->rmap->n, P->cmap->n, P->rmap->N, P->cmap->N, sh, T));
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
