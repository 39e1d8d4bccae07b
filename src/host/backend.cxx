/* Host backend: the data of a cycle (padded arrays, tile buffers, the tile split), the ghost exchange around the
   cycles, and the rows known constant; the tile cycle itself is host/cycle.cxx. It is the backend of CPU-only PETSc
   builds and of host vectors, and the CUDA backend's results are checked against it. */
#include "host/backend.h"
#include "host/cycle.h"
#include "arith/index.hpp"
#include <utility>

namespace
{
struct HostData {
  PetscInt     npadded = 0, nbuf = 0, nzero = 0;             /* scalars (dof per point) */
  PetscScalar *xpad = nullptr, *ypad = nullptr;              /* padded arrays (layer: ghosts, zero outside the domain) */
  PetscScalar *buf0 = nullptr, *buf1 = nullptr;              /* one tile with its halo, ping-pong */
  PetscScalar *zero    = nullptr;                            /* a tile row of zeros (the transposed correction's b off T) */
  PetscInt    *tileids = nullptr, ninterior = 0, ntiles = 0; /* HJTileSplitCreate: interior tiles first; NULL: no exchange */
  /* the rows known constant, for A's stencil [0] and A^T's [1]: found at the first cycle with that stencil after setup */
  const HJStencil *cstof[2] = {nullptr, nullptr};
  HJHostConstRows  cst[2]   = {};
};

/* the rows of st that the cycle may take in compact form: all (st->constant, the cycle's own test), else the rows
   inside the boundary shell when they are all one row (dof 1; the CUDA backend's plan makes the same test), with the
   rows of the points beyond that box's x ends copied point by point (HJHostConstRows.xrows) */
PetscErrorCode HostConstRows(const HJLayout *L, HostData *h, const HJStencil *st, int which, const HJHostConstRows **out)
{
  HJHostConstRows *c = &h->cst[which];

  PetscFunctionBegin;
  if (h->cstof[which] != st) {
    PetscScalar row[27];

    c->use = PETSC_FALSE;
    if (st->dof == 1 && !st->constant) {
      for (PetscInt shell = 1; shell <= HJ_INTERIOR_SHELL && !c->use; shell++) { /* the thinnest shell that works */
        HJLayoutInteriorBox(L, shell, c->lo, c->hi);
        c->use   = HJStencilInteriorRow(L, st, c->lo, c->hi, row);
        c->shell = shell;
      }
    }
    if (c->use) {
      const long long N = L->nlocal, nr = (c->hi[1] - c->lo[1]) * (c->hi[2] - c->lo[2]), no = st->noff;

      for (PetscInt s = 0; s < st->noff; s++) c->coef[s] = row[s];
      c->invdiag = row[st->noff];
      c->nlo     = (PetscInt)c->lo[0];
      c->nhi     = (PetscInt)(L->xm[0] - c->hi[0]);
      PetscCall(PetscFree(c->xrows));
      PetscCall(PetscMalloc1(PetscMax(1, nr * (c->nlo + c->nhi) * (no + 1)), &c->xrows));
      for (long long k = c->lo[2], r = 0; k < c->hi[2]; k++)
        for (long long j = c->lo[1]; j < c->hi[1]; j++, r++)
          for (PetscInt p = 0; p < c->nlo + c->nhi; p++) {
            const long long i = p < c->nlo ? p : c->hi[0] + p - c->nlo, u = i + L->xm[0] * (j + L->xm[1] * k);
            PetscScalar    *q = c->xrows + (r * (c->nlo + c->nhi) + p) * (no + 1);
            for (long long s = 0; s < no; s++) q[s] = st->coef[s * N + u];
            q[no] = st->invdiag[u];
          }
    }
    h->cstof[which] = st;
  }
  *out = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* copy between a vector's owned array and the interior of a padded array (dof values per point, a row of
   dof*xm0 consecutive scalars in both); ADD: x += interior */
template <bool TOPAD, bool ADD = false>
void CopyInterior(const HJLayout *L, PetscScalar *pad, PetscScalar *x)
{
  const long long dof = L->dof;
  const auto      pv = hj::Padded(pad, L->dim, L->ext[0], L->ext[1]), xv = hj::Unpadded(x, L->xm[0], L->xm[1]); /* in points */
  for (PetscInt k = 0; k < L->xm[2]; k++)
    for (PetscInt j = 0; j < L->xm[1]; j++) {
      PetscScalar *p = pad + dof * pv.Index(0, j, k);
      PetscScalar *v = x + dof * xv.Index(0, j, k);
      if (TOPAD) PetscArraycpy(p, v, dof * L->xm[0]);
      else if (ADD)
        for (long long i = 0; i < dof * L->xm[0]; i++) v[i] += p[i];
      else PetscArraycpy(v, p, dof * L->xm[0]);
    }
}

/* (Re)size *data to the PC's layout and tile (made when NULL), and split its tiles for the ghost exchange */
PetscErrorCode HostDataSetUp(PC pc, void **data)
{
  HJSweeps       *hj   = HJSweepsOf(pc);
  HostData       *h    = (HostData *)*data;
  PetscInt        nbuf = hj->layout.dof, npadded = hj->layout.npadded * hj->layout.dof, t[3], o[3];
  const PetscBool halo[3] = {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE}; /* the host reads the halo in every used direction */

  PetscFunctionBegin;
  if (!h) {
    h     = new HostData;
    *data = h;
  }
  for (PetscInt d = 0; d < 3; d++) {
    HJTileOf(hj, d, &t[d], &o[d]);
    nbuf *= PetscMin(t[d], hj->layout.xm[d]) + 2 * hj->layout.pad[d];
  }
  PetscCall(PetscFree(h->tileids));
  PetscCall(HJTileSplitCreate(&hj->layout, hj->ghostsf, t, o, halo, &h->ninterior, &h->ntiles, &h->tileids));
  if (h->npadded != npadded) {
    PetscCall(PetscFree(h->xpad));
    PetscCall(PetscFree(h->ypad));
    PetscCall(PetscCalloc1(npadded, &h->xpad)); /* two allocations: cycles swap them */
    PetscCall(PetscCalloc1(npadded, &h->ypad));
    h->npadded = npadded;
  }
  if (h->nbuf != nbuf) {
    PetscCall(PetscFree2(h->buf0, h->buf1));
    PetscCall(PetscMalloc2(nbuf, &h->buf0, nbuf, &h->buf1));
    h->nbuf = nbuf;
  }
  if (h->nzero != hj->layout.dof * (PetscMin(t[0], hj->layout.xm[0]) + 2)) { /* a tile row with its halo */
    h->nzero = hj->layout.dof * (PetscMin(t[0], hj->layout.xm[0]) + 2);
    PetscCall(PetscFree(h->zero));
    PetscCall(PetscCalloc1(h->nzero, &h->zero));
  }
  h->cstof[0] = h->cstof[1] = nullptr; /* the stencils may have new values: their constant rows are found again */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what a cycle and a transposed correction start with: the host data (a CUDA backend's fallback makes it at its first
   use) and the effective tile and overlap. The host runs in PetscScalar precision (PCSetUp refuses single for the host
   backend; a CUDA backend's fallback for host vectors runs native and says so) */
PetscErrorCode HostBegin(PC pc, void **data, HostData **h, PetscInt t[3], PetscInt o[3])
{
  HJSweeps *hj = HJSweepsOf(pc);

  PetscFunctionBegin;
  if (!*data) PetscCall(HostDataSetUp(pc, data));
  *h = (HostData *)*data;
  for (PetscInt d = 0; d < 3; d++) HJTileOf(hj, d, &t[d], &o[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJSetUp_Host(PC pc)
{
  PetscFunctionBegin;
  PetscCall(HostDataSetUp(pc, &HJSweepsOf(pc)->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJReset_Host(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiStencilMult_C", NULL));
  PetscCall(HJHostDataDestroy(&HJSweepsOf(pc)->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (b NULL) or y = b - A x from the stencil st (dof 1, host arrays) with the host data *data: x into xpad's
   interior, the ghost exchange, the rows (host/cycle.cxx). y differs from b and x. */
PetscErrorCode HostStencilApply(PC pc, void **data, const HJStencil *st, Vec b, Vec x, Vec y)
{
  HJSweeps              *hj  = HJSweepsOf(pc);
  const HJLayout        *L   = &hj->layout;
  HostData              *h   = nullptr;
  const HJHostConstRows *cst = nullptr;
  const PetscScalar     *xa, *ba = nullptr;
  PetscScalar           *ya;
  PetscInt               t[3], o[3];

  PetscFunctionBegin;
  PetscCheck(st->dof == 1 && st->coef, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "The host stencil product needs a dof-1 stencil on the host");
  PetscCheck(x != y && b != y, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_IDN, "The output must differ from x and b");
  PetscCall(HostBegin(pc, data, &h, t, o));
  PetscCall(HostConstRows(L, h, st, 0, &cst));
  PetscCall(VecGetArrayRead(x, &xa));
  CopyInterior<true>(L, h->xpad, const_cast<PetscScalar *>(xa));
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (hj->ghostsf) {
    PetscCall(PetscSFBcastBegin(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
  }
  if (b) PetscCall(VecGetArrayRead(b, &ba));
  PetscCall(VecGetArrayWrite(y, &ya));
  HJHostStencilMult(L, st, cst, h->xpad, ba, ya);
  PetscCall(VecRestoreArrayWrite(y, &ya));
  if (b) PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(PetscLogFlops((2.0 * st->noff + (b ? 3.0 : 2.0)) * L->nlocal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x from the stencil (dof 1; composed as "PCHJacobiStencilMult_C" for the spectrum estimate, which then needs no
   product of the assembled Pmat) */
PetscErrorCode HJStencilMult_Host(PC pc, Vec x, Vec y)
{
  HJSweeps *hj = HJSweepsOf(pc);

  PetscFunctionBegin;
  PetscCall(HostStencilApply(pc, &hj->data, &hj->st, nullptr, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host backend reads the Pmat on the host (extract/stencil.cxx); a values-only refresh keeps the stencil's kind. The
   stencil's product is offered to the core. */
PetscErrorCode HJExtract_Host(PC pc, Mat A, HJStencil *st, PetscBool valuesonly)
{
  HJSweeps *hj   = HJSweepsOf(pc);
  PetscBool fits = PETSC_FALSE;

  PetscFunctionBegin;
  if (hj->data) ((HostData *)hj->data)->cstof[0] = ((HostData *)hj->data)->cstof[1] = nullptr; /* new values */
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiStencilMult_C", HJStencilMult_Host));
  PetscCheck(hj->extract != HJ_EXTRACT_DEVICE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_extract device needs the CUDA backend and an aijcusparse Pmat; this PC runs the host backend (use -pc_hjacobi_extract auto or host)");
  if (valuesonly && !st->ondevice) PetscCall(HJStencilExtractValues(A, &hj->layout, st, &fits));
  if (!fits) PetscCall(HJStencilExtract(A, &hj->layout, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJView_Host(PC pc, PetscViewer viewer)
{
  HJSweeps *hj = HJSweepsOf(pc);
  HostData *h  = (HostData *)hj->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  host backend: tiles swept on the CPU row by row, one ghost exchange per cycle\n"));
  if (h && hj->st.noff && hj->st.dof == 1) { /* rank 0's: the rows read in compact form */
    const HJHostConstRows *c = nullptr;
    PetscCall(HostConstRows(&hj->layout, h, &hj->st, 0, &c));
    if (hj->st.constant) PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: constant stencil: no coefficient plane read\n"));
    else if (c->use) PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: one row inside the %" PetscInt_FMT "-point boundary shell: coefficient planes read in the shell only\n", c->shell));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: variable rows: coefficient planes read everywhere\n"));
  }
  if (h && h->tileids)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: %" PetscInt_FMT " of %" PetscInt_FMT " tiles read no ghost value (%s)\n", h->ninterior, h->ntiles, hj->overlapcomm ? "run during the exchange" : "not used: -pc_hjacobi_overlap_comm false"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode HJHostDataDestroy(void **data)
{
  HostData *h = (HostData *)*data;

  PetscFunctionBegin;
  if (h) {
    PetscCall(PetscFree(h->xpad));
    PetscCall(PetscFree(h->ypad));
    PetscCall(PetscFree2(h->buf0, h->buf1));
    PetscCall(PetscFree(h->zero));
    PetscCall(PetscFree(h->tileids));
    PetscCall(PetscFree(h->cst[0].xrows));
    PetscCall(PetscFree(h->cst[1].xrows));
    delete h;
    *data = nullptr;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJHostCyclesWithData(PC pc, void **data, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  HJSweeps          *hj = HJSweepsOf(pc);
  const HJLayout    *L  = &hj->layout;
  HostData          *h  = nullptr;
  const PetscScalar *ba;
  PetscScalar       *xa;
  PetscInt           t[3], o[3];

  PetscFunctionBegin;
  PetscCall(HostBegin(pc, data, &h, t, o));
  if (n <= 0) {
    if (zeroguess) PetscCall(VecZeroEntries(x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayRead(b, &ba));
  if (zeroguess) PetscCall(VecGetArrayWrite(x, &xa)); /* the first cycle reads no x (HJHostCycleArgs.xpad NULL) */
  else {
    PetscCall(VecGetArray(x, &xa));
    CopyInterior<true>(L, h->xpad, xa);
  }
  const HJHostConstRows *cst = nullptr;
  PetscCall(HostConstRows(L, h, st, 0, &cst));
  HJHostCycleArgs args = {
    L, st, cst, {t[0], t[1], t[2]},
       {o[0], o[1], o[2]},
       hj->k, hj->w, ba, nullptr, nullptr, 0, 0, h->buf0, h->buf1, h->zero
  };
  PetscCheck(hj->k == hj->k, PETSC_COMM_SELF, PETSC_ERR_ORDER, "PCHJACOBI: %" PetscInt_FMT " sweep weights for k = %" PetscInt_FMT ": set the PC up again", hj->k, hj->k);
  for (PetscInt c = 0; c < n; c++) {
    const PetscBool exchange = (PetscBool)(hj->ghostsf && !(zeroguess && c == 0)); /* from zero the halo is zero: no exchange (as on the GPU, so ranks agree) */
    const PetscBool split    = (PetscBool)(exchange && hj->overlapcomm && h->tileids);
    PetscInt        done     = 0; /* tiles run before the rest: the interior ones, while the exchange is under way */

    /* this cycle reads xpad (nothing from a zero guess) and writes ypad's interior, the last one x itself */
    args.xpad = zeroguess && c == 0 ? nullptr : h->xpad;
    if (c == n - 1) args.out = xa, args.osy = L->xm[0], args.osz = (long long)L->xm[0] * L->xm[1];
    else args.out = h->ypad + L->dof * (L->pad[0] + L->ext[0] * (L->pad[1] + L->ext[1] * L->pad[2])), args.osy = L->ext[0], args.osz = (long long)L->ext[0] * L->ext[1];
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastBegin(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (split && h->ninterior) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
      HJHostCycle(&args, PETSC_FALSE, h->tileids, 0, h->ninterior);
      PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
      done = h->ninterior;
    }
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
    if (split) HJHostCycle(&args, PETSC_FALSE, h->tileids, done, h->ntiles);
    else HJHostCycle(&args, PETSC_FALSE, nullptr, 0, h->ntiles);
    std::swap(h->xpad, h->ypad);
    PetscCall(PetscLogFlops((2.0 * st->noff * L->dof + 2.0 * L->dof + 2.0) * L->dof * hj->k * L->nlocal));
    PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
  }
  PetscCall(VecRestoreArrayRead(b, &ba));
  if (zeroguess) PetscCall(VecRestoreArrayWrite(x, &xa));
  else PetscCall(VecRestoreArray(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x <- N^T r (x <- x + N^T r with add): the correction of one transposed cycle (doc/algorithm.md "PCApplyTranspose"),
   stT the stencil of A^T. Tiles do not cross ranks and the halo is zero: no ghost exchange. */
PetscErrorCode HJHostCorrectTWithData(PC pc, void **data, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  HJSweeps          *hj = HJSweepsOf(pc);
  const HJLayout    *L  = &hj->layout;
  HostData          *h  = nullptr;
  const PetscScalar *ra;
  PetscScalar       *xa;
  PetscInt           t[3], o[3];

  PetscFunctionBegin;
  PetscCall(HostBegin(pc, data, &h, t, o));
  PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(PetscArrayzero(h->ypad, L->npadded * L->dof)); /* the layer outside the domain stays zero too */
  {
    const HJHostConstRows *cst = nullptr;
    PetscCall(HostConstRows(L, h, stT, 1, &cst));
    const HJHostCycleArgs args = {
      L, stT, cst, {t[0], t[1], t[2]},
         {o[0], o[1], o[2]},
         hj->k, hj->w, ra, nullptr, h->ypad + L->dof * (L->pad[0] + L->ext[0] * (L->pad[1] + L->ext[1] * L->pad[2])), L->ext[0], (long long)L->ext[0] * L->ext[1], h->buf0, h->buf1, h->zero
    };
    HJHostCycle(&args, PETSC_TRUE, nullptr, 0, h->ntiles);
  }
  PetscCall(VecRestoreArrayRead(r, &ra));
  if (add) {
    PetscCall(VecGetArray(x, &xa));
    CopyInterior<false, true>(L, h->ypad, xa);
    PetscCall(VecRestoreArray(x, &xa));
  } else {
    PetscCall(VecGetArrayWrite(x, &xa));
    CopyInterior<false>(L, h->ypad, xa);
    PetscCall(VecRestoreArrayWrite(x, &xa));
  }
  PetscCall(PetscLogFlops((2.0 * stT->noff * L->dof + 2.0 * L->dof + 2.0) * L->dof * hj->k * L->nlocal));
  PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJResidual_Host(PC pc, const HJStencil *st, Vec b, Vec x, Vec r)
{
  PetscFunctionBegin;
  PetscCall(HostStencilApply(pc, &HJSweepsOf(pc)->data, st, b, x, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCycles_Host(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PetscFunctionBegin;
  PetscCall(HJHostCyclesWithData(pc, &HJSweepsOf(pc)->data, st, b, x, n, zeroguess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCorrectT_Host(PC pc, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  PetscFunctionBegin;
  PetscCall(HJHostCorrectTWithData(pc, &HJSweepsOf(pc)->data, stT, r, x, add));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operations by name (hjbackend.h); the transpose, D^{-1} and start vector of the omega estimate are the core's
   host ones. Constant-initialised. */
static constexpr HJBackendOps HJBackendOpsHost()
{
  HJBackendOps ops{};

  ops.name     = "host";
  ops.type     = PC_HJACOBI_BACKEND_HOST;
  ops.device   = PETSC_FALSE;
  ops.vectypes = NULL; /* every vector type */
  ops.extract  = HJExtract_Host;
  ops.setup    = HJSetUp_Host;
  ops.cycles   = HJCycles_Host;
  ops.reset    = HJReset_Host;
  ops.view     = HJView_Host;
  ops.correctT = HJCorrectT_Host;
  ops.residual = HJResidual_Host;
  ops.transfer = HJTransfer_Host;
  return ops;
}
const HJBackendOps HJBackendHost = HJBackendOpsHost();
