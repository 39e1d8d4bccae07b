/* Host backend: ALGORITHM.md tile by tile on the CPU. It is the reference the CUDA backend is tested against
   and the backend of CPU-only PETSc builds. */
#include "host/hjhost.h"
#include <petschjacobi/private/hjindex.hpp>
#include <utility>

namespace
{
struct HostData {
  PetscInt     npadded = 0, nbuf = 0;                 /* scalars (dof per point) */
  PetscScalar *xpad = nullptr, *ypad = nullptr; /* padded arrays (layer: ghosts, zero outside the domain) */
  PetscScalar *buf0 = nullptr, *buf1 = nullptr; /* one tile with its halo, ping-pong */
  PetscInt    *tileids = nullptr, ninterior = 0, ntiles = 0; /* HJTileSplitCreate: interior tiles first; NULL: no exchange */
};

/* One cycle: every tile of the owned box from xpad (halo frozen) into ypad's interior. Every array holds DOF values
   per point (index c + DOF*point); DOF = 1 is the scalar update, DOF > 1 the point-block one.
   TRANSPOSE: the transposed correction N^T b of ALGORITHM.md "One cycle as a matrix" (st is then A^T's stencil):
   per tile, b on the points T owns and zero on the rest of W(T), k sweeps from y = 0 with a zero halo (xpad is not
   read), and the whole of W(T) added into ypad's interior, which the caller zeroed (overlapping tiles add). The
   sweeps are the same point update: k damped sweeps with A_TT^T from zero are B_T^T (D^-T (I - w A^T D^-T)^j =
   (I - w D^-T A^T)^j D^-T), so only what goes in and what comes out differ.
   The tiles run are ids[first..last) (tile id ti + nt0*(tj + nt1*tk)), or ids NULL: the ids first..last themselves;
   a cycle may run its tiles in two parts (the interior ones during the ghost exchange), in any order: each reads xpad
   and writes its own points of ypad. */
template <int DIM, int KIND, int DOF, bool TRANSPOSE>
void HostCycle(const HJLayout *L, const HJStencil *st, const PetscInt t[3], const PetscInt o[3], PetscInt k, const PetscReal *w, const PetscScalar *b, const PetscScalar *xpad, PetscScalar *ypad, PetscScalar *buf0, PetscScalar *buf1, const PetscInt *ids, PetscInt first, PetscInt last)
{
  const PetscInt    N = L->nlocal, *xm = L->xm, *ext = L->ext;
  const long long   nt[3]     = {hj::NumTiles(xm[0], t[0], o[0]), hj::NumTiles(xm[1], t[1], o[1]), hj::NumTiles(xm[2], t[2], o[2])};
  const PetscScalar zero[DOF] = {}; /* TRANSPOSE: b on the points of W(T) that T does not own */

  for (PetscInt n = first; n < last; n++) {
    const long long   id = ids ? ids[n] : n, ti = hj::TileCoord(id, nt[0], nt[1], 0), tj = hj::TileCoord(id, nt[0], nt[1], 1), tk = hj::TileCoord(id, nt[0], nt[1], 2);
    const hj::TileBox tb = hj::MakeTileBox<DIM>(hj::TileRange(xm[0], t[0], o[0], ti), hj::TileRange(xm[1], t[1], o[1], tj), hj::TileRange(xm[2], t[2], o[2], tk));
    /* buffer coordinates (W(T) and its halo): the buffers and xpad (not read when TRANSPOSE: xpad is NULL);
       W(T) coordinates: b, the planes (u: a point's index in them) and ypad */
    const auto        sb = tb.Buffer<DOF>(buf0); /* scalar offsets, the same in buf1 */
    const auto        xv = tb.PaddedHalo<DOF>(xpad, ext[0], ext[1]);
    const auto        bv = tb.Work(hj::Unpadded<DOF>(b, xm[0], xm[1]));
    const auto        uv = tb.Work(hj::Unpadded(b, xm[0], xm[1]));
    const auto        yv = tb.Work(hj::Padded<DOF>(ypad, DIM, ext[0], ext[1]));
    const long long   sy = sb.s1, sz = sb.s2(); /* buffer strides in points */
    for (int bk = 0; bk < tb.s[2]; bk++)
      for (int bj = 0; bj < tb.s[1]; bj++)
        for (int bi = 0; bi < tb.s[0]; bi++)
          for (int f = 0; f < DOF; f++) buf0[sb.Index(bi, bj, bk) + f] = buf1[sb.Index(bi, bj, bk) + f] = TRANSPOSE ? 0 : xv(bi, bj, bk, f);
    for (PetscInt it = 0; it < k; it++) {
      const PetscScalar omega = w[it]; /* this sweep's weight (hjweights.cxx) */
      for (int kk = 0; kk < tb.w[2]; kk++)
        for (int jj = 0; jj < tb.w[1]; jj++)
          for (int ii = 0; ii < tb.w[0]; ii++) {
            const long long u   = uv.Index(ii, jj, kk);
            const int       q   = sb.Index(ii + tb.pad[0], jj + tb.pad[1], kk + tb.pad[2]);
            const bool      own = !TRANSPOSE || tb.Owned(ii, jj, kk);
            if constexpr (DOF == 1) buf1[q] = hj::PointUpdate<DIM, KIND>(buf0 + q, sy, sz, own ? b[u] : zero[0], st->invdiag[u], omega, [&](int s) { return st->coef[(long long)s * N + u]; });
            else hj::BlockPointUpdate<DIM, KIND, DOF>(buf0 + q, sy, sz, own ? bv.ptr(ii, jj, kk) : zero, st->invdiag + DOF * DOF * u, omega, [&](int s) { return st->coef + ((long long)s * N + u) * DOF * DOF; }, buf1 + q);
          }
      std::swap(buf0, buf1);
    }
    int lo[3], hi[3]; /* the points written, W(T) coordinates: T's owned region, or (TRANSPOSE) all of W(T) */
    for (int d = 0; d < 3; d++) {
      lo[d] = TRANSPOSE ? 0 : tb.o0[d];
      hi[d] = TRANSPOSE ? tb.w[d] : tb.o1[d];
    }
    for (int kk = lo[2]; kk < hi[2]; kk++)
      for (int jj = lo[1]; jj < hi[1]; jj++)
        for (int ii = lo[0]; ii < hi[0]; ii++) {
          const PetscScalar *v = buf0 + sb.Index(ii + tb.pad[0], jj + tb.pad[1], kk + tb.pad[2]);
          PetscScalar       *y = yv.ptr(ii, jj, kk);
          for (int f = 0; f < DOF; f++) {
            if (TRANSPOSE) y[f] += v[f];
            else y[f] = v[f];
          }
        }
  }
}

using CycleFn = void (*)(const HJLayout *, const HJStencil *, const PetscInt[3], const PetscInt[3], PetscInt, const PetscReal *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, const PetscInt *, PetscInt, PetscInt);
/* the one run-time -> template dispatch of this backend: [transpose][dof-1][dim-1][kind] */
#define HJ_HOST_CYCLES(DOF, TR) \
  { \
    {HostCycle<1, hj::STAR, DOF, TR>, HostCycle<1, hj::BOX, DOF, TR>}, {HostCycle<2, hj::STAR, DOF, TR>, HostCycle<2, hj::BOX, DOF, TR>}, {HostCycle<3, hj::STAR, DOF, TR>, HostCycle<3, hj::BOX, DOF, TR>} \
  }
#define HJ_HOST_CYCLES_DOF(TR) \
  { \
    HJ_HOST_CYCLES(1, TR), HJ_HOST_CYCLES(2, TR), HJ_HOST_CYCLES(3, TR), HJ_HOST_CYCLES(4, TR), HJ_HOST_CYCLES(5, TR), HJ_HOST_CYCLES(6, TR), HJ_HOST_CYCLES(7, TR), HJ_HOST_CYCLES(8, TR) \
  }
const CycleFn HostCycles[2][HJ_MAX_DOF][3][2] = {HJ_HOST_CYCLES_DOF(false), HJ_HOST_CYCLES_DOF(true)};
static_assert(HJ_MAX_DOF == 8, "HostCycles lists one row per dof");
#undef HJ_HOST_CYCLES_DOF
#undef HJ_HOST_CYCLES

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
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  HostData       *h  = (HostData *)*data;
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what a cycle and a transposed correction start with: the host data (a CUDA backend's fallback makes it at its first
   use) and the effective tile and overlap. The host runs in PetscScalar precision (PCSetUp refuses single for the host
   backend; a CUDA backend's fallback for host vectors runs native and says so) */
PetscErrorCode HostBegin(PC pc, void **data, HostData **h, PetscInt t[3], PetscInt o[3])
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (!*data) PetscCall(HostDataSetUp(pc, data));
  *h = (HostData *)*data;
  for (PetscInt d = 0; d < 3; d++) HJTileOf(hj, d, &t[d], &o[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostSetUp(PC pc)
{
  PetscFunctionBegin;
  PetscCall(HostDataSetUp(pc, &((PC_HJacobi *)pc->data)->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostReset(PC pc)
{
  PetscFunctionBegin;
  PetscCall(HJHostDataDestroy(&((PC_HJacobi *)pc->data)->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host backend reads the Pmat on the host (hjstencil.cxx); a values-only refresh keeps the stencil's kind. */
PetscErrorCode HostExtract(PC pc, Mat A, HJStencil *st, PetscBool valuesonly)
{
  PC_HJacobi *hj   = (PC_HJacobi *)pc->data;
  PetscBool   fits = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(hj->extract != HJ_EXTRACT_DEVICE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_extract device needs the CUDA backend and an aijcusparse Pmat; this PC runs the host backend (use -pc_hjacobi_extract auto or host)");
  if (valuesonly && !st->ondevice) PetscCall(HJStencilExtractValues(A, &hj->layout, st, &fits));
  if (!fits) PetscCall(HJStencilExtract(A, &hj->layout, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostView(PC pc, PetscViewer viewer)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  const HostData *h  = (const HostData *)hj->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  host backend: tiles swept on the CPU, one ghost exchange per cycle\n"));
  if (h && h->tileids) PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: %" PetscInt_FMT " of %" PetscInt_FMT " tiles read no ghost value (%s)\n", h->ninterior, h->ntiles, HJOverlapComm(hj) ? "run during the exchange" : "not used: -pc_hjacobi_overlap_comm false"));
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
    PetscCall(PetscFree(h->tileids));
    delete h;
    *data = nullptr;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJHostCyclesWithData(PC pc, void **data, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  const HJLayout    *L  = &hj->layout;
  HostData          *h = nullptr;
  const PetscScalar *ba;
  PetscScalar       *xa;
  PetscInt           t[3], o[3];

  PetscFunctionBegin;
  PetscCall(HostBegin(pc, data, &h, t, o));
  PetscCall(VecGetArrayRead(b, &ba));
  if (zeroguess) {
    PetscCall(VecGetArrayWrite(x, &xa));
    PetscCall(PetscArrayzero(h->xpad, L->npadded * L->dof));
  } else {
    PetscCall(VecGetArray(x, &xa));
    CopyInterior<true>(L, h->xpad, xa);
  }
  const CycleFn cycle = HostCycles[0][L->dof - 1][L->dim - 1][st->kind];
  PetscCheck(hj->wt.n == hj->subits, PETSC_COMM_SELF, PETSC_ERR_ORDER, "PCHJACOBI: %" PetscInt_FMT " sweep weights for k = %" PetscInt_FMT ": set the PC up again", hj->wt.n, hj->subits);
  for (PetscInt c = 0; c < n; c++) {
    const PetscBool exchange = (PetscBool)(hj->ghostsf && !(zeroguess && c == 0)); /* from zero the halo is zero: no exchange (as on the GPU, so ranks agree) */
    const PetscBool split    = (PetscBool)(exchange && HJOverlapComm(hj) && h->tileids);
    PetscInt        done     = 0; /* tiles run before the rest: the interior ones, while the exchange is under way */

    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastBegin(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (split && h->ninterior) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
      cycle(L, st, t, o, hj->subits, hj->wt.w, ba, h->xpad, h->ypad, h->buf0, h->buf1, h->tileids, 0, h->ninterior);
      PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
      done = h->ninterior;
    }
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
    if (split) cycle(L, st, t, o, hj->subits, hj->wt.w, ba, h->xpad, h->ypad, h->buf0, h->buf1, h->tileids, done, h->ntiles);
    else cycle(L, st, t, o, hj->subits, hj->wt.w, ba, h->xpad, h->ypad, h->buf0, h->buf1, nullptr, 0, h->ntiles);
    std::swap(h->xpad, h->ypad);
    PetscCall(PetscLogFlops((2.0 * st->noff * L->dof + 2.0 * L->dof + 2.0) * L->dof * hj->subits * L->nlocal));
    PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
  }
  CopyInterior<false>(L, h->xpad, xa);
  PetscCall(VecRestoreArrayRead(b, &ba));
  if (zeroguess) PetscCall(VecRestoreArrayWrite(x, &xa));
  else PetscCall(VecRestoreArray(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x <- N^T r (x <- x + N^T r with add): the correction of one transposed cycle (ALGORITHM.md "PCApplyTranspose"),
   stT the stencil of A^T. Tiles do not cross ranks and the halo is zero: no ghost exchange. */
PetscErrorCode HJHostCorrectTWithData(PC pc, void **data, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  const HJLayout    *L  = &hj->layout;
  HostData          *h = nullptr;
  const PetscScalar *ra;
  PetscScalar       *xa;
  PetscInt           t[3], o[3];

  PetscFunctionBegin;
  PetscCall(HostBegin(pc, data, &h, t, o));
  PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(PetscArrayzero(h->ypad, L->npadded * L->dof)); /* the layer outside the domain stays zero too */
  HostCycles[1][L->dof - 1][L->dim - 1][stT->kind](L, stT, t, o, hj->subits, hj->wt.w, ra, NULL, h->ypad, h->buf0, h->buf1, nullptr, 0, h->ntiles);
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
  PetscCall(PetscLogFlops((2.0 * stT->noff * L->dof + 2.0 * L->dof + 2.0) * L->dof * hj->subits * L->nlocal));
  PetscCall(PetscLogEventEnd(PCHJACOBI_Cycle, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HostCyclesOp(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PetscFunctionBegin;
  PetscCall(HJHostCyclesWithData(pc, &((PC_HJacobi *)pc->data)->data, st, b, x, n, zeroguess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HostCorrectTOp(PC pc, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  PetscFunctionBegin;
  PetscCall(HJHostCorrectTWithData(pc, &((PC_HJacobi *)pc->data)->data, stT, r, x, add));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* name, type, device, vector types (any), options, extract, setup, cycles, reset, view, transposed correction; the
   transpose, D^{-1} and start vector of the omega estimate are the core's host ones */
const HJBackendOps HJBackendHost = {"host", PC_HJACOBI_BACKEND_HOST, PETSC_FALSE, NULL, NULL, HostExtract, HostSetUp, HostCyclesOp, HostReset, HostView, HostCorrectTOp, NULL, NULL, NULL, NULL};
