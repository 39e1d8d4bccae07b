/* Host backend: ALGORITHM.md tile by tile on the CPU. It is the reference the CUDA backend is tested against
   and the backend of CPU-only PETSc builds. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petschjacobi/private/hjpoint.hpp>
#include <utility>

namespace
{
struct HostData {
  PetscInt     npadded = 0, nbuf = 0;                 /* scalars (dof per point) */
  PetscScalar *xpad = nullptr, *ypad = nullptr; /* padded arrays (layer: ghosts, zero outside the domain) */
  PetscScalar *buf0 = nullptr, *buf1 = nullptr; /* one tile with its halo, ping-pong */
};

/* One cycle: every tile of the owned box from xpad (halo frozen) into ypad's interior. Every array holds DOF values
   per point (index c + DOF*point); DOF = 1 is the scalar update, DOF > 1 the point-block one. */
template <int DIM, int KIND, int DOF>
void HostCycle(const HJLayout *L, const HJStencil *st, const PetscInt t[3], const PetscInt o[3], PetscInt k, PetscScalar omega, const PetscScalar *b, const PetscScalar *xpad, PetscScalar *ypad, PetscScalar *buf0, PetscScalar *buf1)
{
  const PetscInt  N = L->nlocal, *xm = L->xm, *ext = L->ext;
  const long long nt[3] = {hj::NumTiles(xm[0], t[0], o[0]), hj::NumTiles(xm[1], t[1], o[1]), hj::NumTiles(xm[2], t[2], o[2])};

  for (long long tk = 0; tk < nt[2]; tk++)
    for (long long tj = 0; tj < nt[1]; tj++)
      for (long long ti = 0; ti < nt[0]; ti++) {
        const hj::Range r[3] = {hj::TileRange(xm[0], t[0], o[0], ti), hj::TileRange(xm[1], t[1], o[1], tj), hj::TileRange(xm[2], t[2], o[2], tk)};
        long long       w[3], be[3];
        for (int d = 0; d < 3; d++) {
          w[d]  = r[d].w1 - r[d].w0;
          be[d] = w[d] + 2 * L->pad[d];
        }
        const long long sy = be[0], sz = be[0] * be[1];
        /* buffer position (bi,bj,bk) is padded position (w0 + bi, ...): the working region and its halo */
        for (long long bk = 0; bk < be[2]; bk++)
          for (long long bj = 0; bj < be[1]; bj++)
            for (long long bi = 0; bi < be[0]; bi++)
              for (int f = 0; f < DOF; f++) {
                const PetscScalar v                                = xpad[DOF * ((r[0].w0 + bi) + ext[0] * ((r[1].w0 + bj) + (long long)ext[1] * (r[2].w0 + bk))) + f];
                buf0[DOF * (bi + sy * bj + sz * bk) + f] = buf1[DOF * (bi + sy * bj + sz * bk) + f] = v;
              }
        for (PetscInt it = 0; it < k; it++) {
          for (long long kk = 0; kk < w[2]; kk++)
            for (long long jj = 0; jj < w[1]; jj++)
              for (long long ii = 0; ii < w[0]; ii++) {
                const long long u = (r[0].w0 + ii) + xm[0] * ((r[1].w0 + jj) + (long long)xm[1] * (r[2].w0 + kk));
                const long long q = (ii + L->pad[0]) + sy * (jj + L->pad[1]) + sz * (kk + L->pad[2]);
                if constexpr (DOF == 1) buf1[q] = hj::PointUpdate<DIM, KIND>(buf0 + q, sy, sz, b[u], st->invdiag[u], omega, [&](int s) { return st->coef[(long long)s * N + u]; });
                else hj::BlockPointUpdate<DIM, KIND, DOF>(buf0 + DOF * q, sy, sz, b + DOF * u, st->invdiag + DOF * DOF * u, omega, [&](int s) { return st->coef + ((long long)s * N + u) * DOF * DOF; }, buf1 + DOF * q);
              }
          std::swap(buf0, buf1);
        }
        for (long long kk = r[2].o0; kk < r[2].o1; kk++)
          for (long long jj = r[1].o0; jj < r[1].o1; jj++)
            for (long long ii = r[0].o0; ii < r[0].o1; ii++) {
              const long long q = (ii - r[0].w0 + L->pad[0]) + sy * (jj - r[1].w0 + L->pad[1]) + sz * (kk - r[2].w0 + L->pad[2]);
              for (int f = 0; f < DOF; f++) ypad[DOF * ((ii + L->pad[0]) + ext[0] * ((jj + L->pad[1]) + (long long)ext[1] * (kk + L->pad[2]))) + f] = buf0[DOF * q + f];
            }
      }
}

using CycleFn = void (*)(const HJLayout *, const HJStencil *, const PetscInt[3], const PetscInt[3], PetscInt, PetscScalar, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *);
/* the one run-time -> template dispatch of this backend: [dof-1][dim-1][kind] */
#define HJ_HOST_CYCLES(DOF) \
  { \
    {HostCycle<1, hj::STAR, DOF>, HostCycle<1, hj::BOX, DOF>}, {HostCycle<2, hj::STAR, DOF>, HostCycle<2, hj::BOX, DOF>}, {HostCycle<3, hj::STAR, DOF>, HostCycle<3, hj::BOX, DOF>} \
  }
const CycleFn HostCycles[HJ_MAX_DOF][3][2] = {HJ_HOST_CYCLES(1), HJ_HOST_CYCLES(2), HJ_HOST_CYCLES(3), HJ_HOST_CYCLES(4), HJ_HOST_CYCLES(5), HJ_HOST_CYCLES(6), HJ_HOST_CYCLES(7), HJ_HOST_CYCLES(8)};
static_assert(HJ_MAX_DOF == 8, "HostCycles lists one row per dof");
#undef HJ_HOST_CYCLES

/* copy between a vector's owned array and the interior of a padded array (dof values per point) */
template <bool TOPAD>
void CopyInterior(const HJLayout *L, PetscScalar *pad, PetscScalar *x)
{
  const long long dof = L->dof;
  for (PetscInt k = 0; k < L->xm[2]; k++)
    for (PetscInt j = 0; j < L->xm[1]; j++) {
      PetscScalar *p = pad + dof * (L->pad[0] + L->ext[0] * ((j + L->pad[1]) + (long long)L->ext[1] * (k + L->pad[2])));
      PetscScalar *v = x + dof * (L->xm[0] * (j + (long long)L->xm[1] * k));
      if (TOPAD) PetscArraycpy(p, v, dof * L->xm[0]);
      else PetscArraycpy(v, p, dof * L->xm[0]);
    }
}

PetscErrorCode HostSetUp(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HostData   *h  = (HostData *)hj->host;
  PetscInt    nbuf = hj->layout.dof, npadded = hj->layout.npadded * hj->layout.dof;

  PetscFunctionBegin;
  if (!h) {
    h        = new HostData;
    hj->host = h;
  }
  for (PetscInt d = 0; d < 3; d++) {
    PetscInt t, o;
    HJTileOf(hj, d, &t, &o);
    nbuf *= PetscMin(t, hj->layout.xm[d]) + 2 * hj->layout.pad[d];
  }
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

PetscErrorCode HostReset(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HostData   *h  = (HostData *)hj->host;

  PetscFunctionBegin;
  if (h) {
    PetscCall(PetscFree(h->xpad));
    PetscCall(PetscFree(h->ypad));
    PetscCall(PetscFree2(h->buf0, h->buf1));
    delete h;
    hj->host = nullptr;
  }
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
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  host backend: tiles swept on the CPU, one ghost exchange per cycle\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode HJHostCycles(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  const HJLayout    *L  = &hj->layout;
  HostData          *h;
  const PetscScalar *ba;
  PetscScalar       *xa;
  PetscInt           t[3], o[3];

  PetscFunctionBegin;
  PetscCheck(hj->inner == PC_HJACOBI_INNER_PRECISION_NATIVE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_inner_precision single is implemented by the CUDA backend only; the host backend runs in PetscScalar precision");
  if (!hj->host) PetscCall(HostSetUp(pc)); /* the CUDA backend falls back here for host vectors */
  h = (HostData *)hj->host;
  for (PetscInt d = 0; d < 3; d++) HJTileOf(hj, d, &t[d], &o[d]);
  PetscCall(VecGetArrayRead(b, &ba));
  if (zeroguess) {
    PetscCall(VecGetArrayWrite(x, &xa));
    PetscCall(PetscArrayzero(h->xpad, L->npadded * L->dof));
  } else {
    PetscCall(VecGetArray(x, &xa));
    CopyInterior<true>(L, h->xpad, xa);
  }
  for (PetscInt c = 0; c < n; c++) {
    if (hj->ghostsf && !(zeroguess && c == 0)) { /* from zero the halo is zero: no exchange (as on the GPU, so ranks agree) */
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastBegin(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, h->xpad, h->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    PetscCall(PetscLogEventBegin(PCHJACOBI_Cycle, pc, 0, 0, 0));
    HostCycles[L->dof - 1][L->dim - 1][st->kind](L, st, t, o, hj->subits, hj->omega, ba, h->xpad, h->ypad, h->buf0, h->buf1);
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

const HJBackendOps HJBackendHost = {"host", HostExtract, HostSetUp, HJHostCycles, HostReset, HostView};
