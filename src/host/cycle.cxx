/* The host backend's cycle, written for CPUs as the CUDA one is for shared memory: a tile and its halo sit in two
   scratch buffers that stay in the core's cache (L1/L2 play the part of shared memory), and every sweep runs row by
   row: a unit-stride loop over the points of one row of the tile, with the row's neighbour rows, right-hand side and
   coefficient planes as pointers formed once per row, so the loop has no index arithmetic, branch or call left and
   the compiler vectorizes it (the point update is hj::PointUpdate, the CUDA kernels' own). Rows whose coefficients are
   known to equal one row (HJHostConstRows: a constant stencil, or the rows inside the boundary shell) read no
   coefficient plane. The first sweep reads the padded array itself and the last writes the tile's owned points
   straight into the output, so a cycle moves x, b, y and the planes once, however large k is; only the halo of the
   buffers the sweeps read is copied. The order of the arithmetic is the reference's, point by point. */
#include "host/cycle.h"
#include "arith/index.hpp"

/* the row loops carry no dependence (a sweep reads one buffer and writes another): let the compiler vectorize them
   without run-time alias checks, whatever flags PETSc and the user chose */
#if defined(__clang__)
  #define HJ_ROW_LOOP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
  #define HJ_ROW_LOOP _Pragma("GCC ivdep") _Pragma("GCC unroll 4")
#else
  #define HJ_ROW_LOOP
#endif

namespace
{
using S = PetscScalar;

/* one row of n points of one sweep, dof 1: y[i] from the source x (strides sy, sz in points), b, the planes c[s] and
   the inverse diagonal dinv, all at the row's first point */
template <int DIM, int KIND>
inline void SweepRow(int n, S *__restrict y, const S *__restrict x, long long sy, long long sz, const S *__restrict b, const S *const *c, const S *__restrict dinv, S w)
{
  constexpr int NO = hj::NumOffsets(DIM, KIND);
  const S      *xs[NO], *cs[NO];
  for (int s = 0; s < NO; s++) {
    xs[s] = x + (hj::Offset(DIM, KIND, s, 0) + sy * hj::Offset(DIM, KIND, s, 1) + sz * hj::Offset(DIM, KIND, s, 2));
    cs[s] = c[s];
  }
  HJ_ROW_LOOP
  for (int i = 0; i < n; i++) y[i] = hj::PointUpdate<DIM, KIND>([&](int s) { return xs[s][i]; }, x[i], b[i], dinv[i], w, [&](int s) { return cs[s][i]; });
}

/* the same row with one coefficient row a[] and inverse diagonal dinv for every point: no plane read */
template <int DIM, int KIND>
inline void SweepRowConst(int n, S *__restrict y, const S *__restrict x, long long sy, long long sz, const S *__restrict b, const S *a, S dinv, S w)
{
  constexpr int NO = hj::NumOffsets(DIM, KIND);
  const S      *xs[NO];
  S             ac[NO];
  for (int s = 0; s < NO; s++) {
    xs[s] = x + (hj::Offset(DIM, KIND, s, 0) + sy * hj::Offset(DIM, KIND, s, 1) + sz * hj::Offset(DIM, KIND, s, 2));
    ac[s] = a[s];
  }
  HJ_ROW_LOOP
  for (int i = 0; i < n; i++) y[i] = hj::PointUpdate<DIM, KIND>([&](int s) { return xs[s][i]; }, x[i], b[i], dinv, w, [&](int s) { return ac[s]; });
}

/* n points of a row, each with its own row of coefficients (noff values, then the inverse diagonal) at rows + (NO + 1) i:
   the ends of a row of the box of constant rows (HJHostConstRows.xrows), in a scalar loop */
template <int DIM, int KIND>
inline void SweepPoints(int n, S *y, const S *x, long long sy, long long sz, const S *b, const S *rows, S w)
{
  constexpr int NO = hj::NumOffsets(DIM, KIND);
  for (int i = 0; i < n; i++) {
    const S *r  = rows + (NO + 1) * i;
    const S *xc = x + i;
    y[i]        = hj::PointUpdate<DIM, KIND>(hj::StridedNeighbours<DIM, KIND, S>{xc, sy, sz}, xc[0], b[i], r[NO], w, [&](int s) { return r[s]; });
  }
}

/* dof > 1: the point-block update of each point of the row (DOF values per point, blocks of DOF x DOF) */
template <int DIM, int KIND, int DOF>
inline void SweepRowBlock(int n, S *y, const S *x, long long sy, long long sz, const S *b, const S *const *c, const S *dinv, S w)
{
  for (int i = 0; i < n; i++)
    hj::BlockPointUpdate<DIM, KIND, DOF>(
      x + DOF * i, sy, sz, b + DOF * i, dinv + DOF * DOF * i, w, [&](int s) { return c[s] + DOF * DOF * i; }, y + DOF * i);
}

/* where a sweep reads or writes: a point's DOF values at p + DOF*(i + sy*j + sz*k), (i, j, k) in W(T) coordinates */
template <int DOF>
struct Place {
  S        *p;
  long long sy, sz; /* points */
  S        *at(long long i, long long j, long long k) const { return p + DOF * (i + sy * j + sz * k); }
};

/* one cycle over the tiles ids[first..last) (doc/algorithm.md "One cycle"; TRANSPOSE: "PCApplyTranspose", the
   correction N^T b from a zero start with a zero halo, all of W(T) added into ypad) */
template <int DIM, int KIND, int DOF, bool TRANSPOSE>
void Cycle(const HJHostCycleArgs *A, const PetscInt *ids, PetscInt first, PetscInt last)
{
  constexpr int          NO = hj::NumOffsets(DIM, KIND);
  const HJLayout        *L  = A->L;
  const HJStencil       *st = A->st;
  const long long        N = L->nlocal, xm[3] = {L->xm[0], L->xm[1], L->xm[2]}, ext[2] = {L->ext[0], L->ext[1]};
  const long long        nt[3] = {hj::NumTiles(xm[0], A->t[0], A->o[0]), hj::NumTiles(xm[1], A->t[1], A->o[1]), hj::NumTiles(xm[2], A->t[2], A->o[2])};
  const bool             all   = DOF == 1 && st->constant;                  /* every row is the compact one */
  const bool             some  = DOF == 1 && !all && A->cst && A->cst->use; /* the rows in a box are */
  const HJHostConstRows *cr    = A->cst;
  S                      crow[NO > 0 ? NO : 1], cdinv = 0;

  if (all) {
    for (int s = 0; s < NO; s++) crow[s] = st->ccoef[s];
    cdinv = st->cinvdiag;
  } else if (some) {
    for (int s = 0; s < NO; s++) crow[s] = cr->coef[s];
    cdinv = cr->invdiag;
  }
  const bool       zstart = TRANSPOSE || !A->xpad;                  /* from x = 0 with a zero halo */
  const Place<DOF> zsrc   = {const_cast<S *>(A->zero) + DOF, 0, 0}; /* reads as zero everywhere in a tile row and its halo */
  for (PetscInt n = first; n < last; n++) {
    const long long   id  = ids ? ids[n] : n;
    const hj::TileBox tb  = hj::MakeTileBox<DIM>(hj::TileRange(xm[0], A->t[0], A->o[0], hj::TileCoord(id, nt[0], nt[1], 0)), hj::TileRange(xm[1], A->t[1], A->o[1], hj::TileCoord(id, nt[0], nt[1], 1)), hj::TileRange(xm[2], A->t[2], A->o[2], hj::TileCoord(id, nt[0], nt[1], 2)));
    const long long   bsy = tb.s[0], bsz = (long long)tb.s[0] * tb.s[1];
    const long long   u0      = tb.w0[0] + xm[0] * (tb.w0[1] + xm[1] * tb.w0[2]);                                             /* W(T)'s first point, owned index */
    const long long   hb      = tb.pad[0] + bsy * tb.pad[1] + bsz * tb.pad[2];                                                /* W(T)'s first point in a buffer */
    const long long   hp      = (tb.w0[0] + tb.pad[0]) + ext[0] * ((tb.w0[1] + tb.pad[1]) + ext[1] * (tb.w0[2] + tb.pad[2])); /* ... in a padded array */
    S                *bufs[2] = {A->buf0, A->buf1};
    const Place<DOF>  bufp[2] = {
       {bufs[0] + DOF * hb, bsy, bsz},
       {bufs[1] + DOF * hb, bsy, bsz}
    };
    const Place<DOF> yp = {A->out + DOF * (tb.w0[0] + A->osy * tb.w0[1] + A->osz * tb.w0[2]), A->osy, A->osz};
    const Place<DOF> xp = zstart ? zsrc : Place<DOF>{const_cast<S *>(A->xpad) + DOF * hp, ext[0], ext[0] * ext[1]};
    const PetscInt   k  = A->k;

    /* the halo of the buffers the sweeps read (sweep it > 0 reads bufs[(it - 1) % 2]), frozen: x's values, or zero */
    for (int q = 0; q < 2 && q < k - 1; q++) {
      const Place<DOF> &hs = xp, &hd = bufp[q];
      for (int kk = -tb.pad[2]; kk < tb.w[2] + tb.pad[2]; kk++)
        for (int jj = -tb.pad[1]; jj < tb.w[1] + tb.pad[1]; jj++) {
          const bool whole = (DIM > 1 && (jj < 0 || jj == tb.w[1])) || (DIM > 2 && (kk < 0 || kk == tb.w[2]));
          const S   *x     = hs.at(-1, jj, kk);
          S         *y     = hd.at(-1, jj, kk);
          if (whole)
            for (long long i = 0; i < (long long)DOF * tb.s[0]; i++) y[i] = x[i];
          else
            for (int f = 0; f < DOF; f++) {
              y[f]                       = x[f];
              y[DOF * (tb.s[0] - 1) + f] = x[DOF * (tb.s[0] - 1) + f];
            }
        }
    }

    for (PetscInt it = 0; it < k; it++) {
      const S           w    = A->w[it]; /* this sweep's weight */
      const bool        last = !TRANSPOSE && it == k - 1;
      const Place<DOF> &src  = it == 0 ? xp : bufp[(it - 1) % 2];
      const Place<DOF> &dst  = last ? yp : bufp[it % 2];
      /* the points written: all of W(T), or in the last sweep T's owned points */
      const int lo[3] = {last ? tb.o0[0] : 0, last ? tb.o0[1] : 0, last ? tb.o0[2] : 0};
      const int hi[3] = {last ? tb.o1[0] : tb.w[0], last ? tb.o1[1] : tb.w[1], last ? tb.o1[2] : tb.w[2]};

      for (int kk = lo[2]; kk < hi[2]; kk++)
        for (int jj = lo[1]; jj < hi[1]; jj++) {
          const long long u   = u0 + xm[0] * (jj + xm[1] * kk); /* owned index of the row's point ii = 0 */
          const bool      own = !TRANSPOSE || (jj >= tb.o0[1] && jj < tb.o1[1] && kk >= tb.o0[2] && kk < tb.o1[2]);
          const bool      crw = some && tb.w0[1] + jj >= cr->lo[1] && tb.w0[1] + jj < cr->hi[1] && tb.w0[2] + kk >= cr->lo[2] && tb.w0[2] + kk < cr->hi[2];
          /* the points [a, e) of this row: b zero (TRANSPOSE, points T does not own) or b's; constant rows or planes */
          auto segment = [&](int a, int e, bool bzero, bool cst) {
            if (a >= e) return;
            S       *y  = dst.at(a, jj, kk);
            const S *x  = src.at(a, jj, kk);
            const S *bb = bzero ? A->zero : A->b + DOF * (u + a);
            if (DOF == 1 && (all || cst)) {
              SweepRowConst<DIM, KIND>(e - a, y, x, src.sy, src.sz, bb, crow, cdinv, w);
              return;
            }
            const S *c[NO > 0 ? NO : 1];
            for (int s = 0; s < NO; s++) c[s] = st->coef + ((long long)s * N + u + a) * DOF * DOF;
            if constexpr (DOF == 1) SweepRow<DIM, KIND>(e - a, y, x, src.sy, src.sz, bb, c, st->invdiag + u + a, w);
            else SweepRowBlock<DIM, KIND, DOF>(e - a, y, x, src.sy, src.sz, bb, c, st->invdiag + DOF * DOF * (u + a), w);
          };
          /* split by the box of constant rows along x: its part of the row in compact form, the ends (at most
             HJ_INTERIOR_SHELL points each) from their rows in xrows */
          auto split = [&](int a, int e, bool bzero) {
            if (!crw) {
              segment(a, e, bzero, false);
              return;
            }
            const int       c0   = (int)PetscMax((long long)a, PetscMin((long long)e, cr->lo[0] - tb.w0[0]));
            const int       c1   = (int)PetscMax((long long)c0, PetscMin((long long)e, cr->hi[0] - tb.w0[0]));
            const long long r    = (tb.w0[2] + kk - cr->lo[2]) * (cr->hi[1] - cr->lo[1]) + (tb.w0[1] + jj - cr->lo[1]);
            const S        *rows = cr->xrows + r * (cr->nlo + cr->nhi) * (NO + 1);
            if constexpr (DOF == 1) {
              if (a < c0) SweepPoints<DIM, KIND>(c0 - a, dst.at(a, jj, kk), src.at(a, jj, kk), src.sy, src.sz, bzero ? A->zero : A->b + u + a, rows + (tb.w0[0] + a) * (NO + 1), w);
              segment(c0, c1, bzero, true);
              if (c1 < e) SweepPoints<DIM, KIND>(e - c1, dst.at(c1, jj, kk), src.at(c1, jj, kk), src.sy, src.sz, bzero ? A->zero : A->b + u + c1, rows + (cr->nlo + tb.w0[0] + c1 - cr->hi[0]) * (NO + 1), w);
            }
          };
          if (!TRANSPOSE) split(lo[0], hi[0], false);
          else if (!own) split(lo[0], hi[0], true);
          else {
            split(lo[0], tb.o0[0], true);
            split(tb.o0[0], tb.o1[0], false);
            split(tb.o1[0], hi[0], true);
          }
        }
    }

    if (TRANSPOSE) { /* all of W(T) added into ypad (overlapping tiles add) */
      const Place<DOF> &res = bufp[(k - 1) % 2];
      for (int kk = 0; kk < tb.w[2]; kk++)
        for (int jj = 0; jj < tb.w[1]; jj++) {
          S       *y = yp.at(0, jj, kk);
          const S *v = res.at(0, jj, kk);
          HJ_ROW_LOOP
          for (long long i = 0; i < (long long)DOF * tb.w[0]; i++) y[i] += v[i];
        }
    }
  }
}

/* y = A x row by row (dof 1): the off-diagonal sum of hj::PointUpdate plus the diagonal, d = 1/(the inverse diagonal);
   RES: y = b - A x */
template <int DIM, int KIND, bool RES>
void Mult(const HJLayout *L, const HJStencil *st, const HJHostConstRows *cr, const S *xpad, const S *b, S *y)
{
  constexpr int   NO = hj::NumOffsets(DIM, KIND);
  const long long N = L->nlocal, xm0 = L->xm[0], xm1 = L->xm[1], sy = L->ext[0], sz = (long long)L->ext[0] * L->ext[1];
  const bool      all = st->constant, some = !all && cr && cr->use;
  S               ac[NO] = {}, dc = 0;

  if (all || some) {
    for (int s = 0; s < NO; s++) ac[s] = all ? st->ccoef[s] : cr->coef[s];
    dc = (S)1 / (all ? st->cinvdiag : cr->invdiag);
  }
  for (long long k = 0; k < L->xm[2]; k++)
    for (long long j = 0; j < xm1; j++) {
      const long long u  = xm0 * (j + xm1 * k);
      const S        *x  = xpad + (L->pad[0] + sy * (j + L->pad[1]) + sz * (k + L->pad[2]));
      S              *yr = y + u;
      const S        *br = RES ? b + u : nullptr;
      const S        *xs[NO];
      /* the point's result from its A x */
      auto out = [&](long long i, S ax) { return RES ? br[i] - ax : ax; };
      for (int s = 0; s < NO; s++) xs[s] = x + (hj::Offset(DIM, KIND, s, 0) + sy * hj::Offset(DIM, KIND, s, 1) + sz * hj::Offset(DIM, KIND, s, 2));
      const bool crw = some && j >= cr->lo[1] && j < cr->hi[1] && k >= cr->lo[2] && k < cr->hi[2];
      long long  c0 = xm0, c1 = xm0; /* [c0, c1): compact */
      if (all) c0 = 0;
      else if (crw) c0 = cr->lo[0], c1 = cr->hi[0];
      if (all || crw) {
        HJ_ROW_LOOP
        for (long long i = c0; i < c1; i++) yr[i] = out(i, hj::OffDiagonalSum<DIM, KIND, S>([&](int s) { return xs[s][i]; }, [&](int s) { return ac[s]; }) + dc * x[i]);
      }
      if (all) continue;
      if (crw) { /* the ends of a compact row, from their own rows */
        const long long r    = (k - cr->lo[2]) * (cr->hi[1] - cr->lo[1]) + (j - cr->lo[1]);
        const S        *rows = cr->xrows + r * (cr->nlo + cr->nhi) * (NO + 1);
        for (long long i = 0; i < xm0; i++) {
          if (i == c0) i = c1;
          if (i >= xm0) break;
          const S *q = rows + (i < c0 ? i : cr->nlo + i - c1) * (NO + 1);
          yr[i]      = out(i, hj::OffDiagonalSum<DIM, KIND, S>([&](int s) { return xs[s][i]; }, [&](int s) { return q[s]; }) + x[i] / q[NO]);
        }
        continue;
      }
      const S *cs[NO];
      for (int s = 0; s < NO; s++) cs[s] = st->coef + (long long)s * N + u;
      const S *dinv = st->invdiag + u;
      HJ_ROW_LOOP
      for (long long i = 0; i < xm0; i++) yr[i] = out(i, hj::OffDiagonalSum<DIM, KIND, S>([&](int s) { return xs[s][i]; }, [&](int s) { return cs[s][i]; }) + x[i] / dinv[i]);
    }
}

using CycleFn = void (*)(const HJHostCycleArgs *, const PetscInt *, PetscInt, PetscInt);
/* the one run-time -> template dispatch of this backend: [transpose][dof-1][dim-1][kind] */
#define HJ_HOST_CYCLES(DOF, TR) \
  { \
    {Cycle<1, hj::STAR, DOF, TR>, Cycle<1, hj::BOX, DOF, TR>}, {Cycle<2, hj::STAR, DOF, TR>, Cycle<2, hj::BOX, DOF, TR>}, \
    { \
      Cycle<3, hj::STAR, DOF, TR>, Cycle<3, hj::BOX, DOF, TR> \
    } \
  }
#define HJ_HOST_CYCLES_DOF(TR) \
  { \
    HJ_HOST_CYCLES(1, TR), HJ_HOST_CYCLES(2, TR), HJ_HOST_CYCLES(3, TR), HJ_HOST_CYCLES(4, TR), HJ_HOST_CYCLES(5, TR), HJ_HOST_CYCLES(6, TR), HJ_HOST_CYCLES(7, TR), HJ_HOST_CYCLES(8, TR) \
  }
const CycleFn Cycles[2][HJ_MAX_DOF][3][2] = {HJ_HOST_CYCLES_DOF(false), HJ_HOST_CYCLES_DOF(true)};
static_assert(HJ_MAX_DOF == 8, "Cycles lists one row per dof");
#undef HJ_HOST_CYCLES_DOF
#undef HJ_HOST_CYCLES
} // namespace

void HJHostStencilMult(const HJLayout *L, const HJStencil *st, const HJHostConstRows *cr, const PetscScalar *xpad, const PetscScalar *b, PetscScalar *y)
{
  using MultFn                     = void (*)(const HJLayout *, const HJStencil *, const HJHostConstRows *, const PetscScalar *, const PetscScalar *, PetscScalar *);
  static const MultFn fns[2][3][2] = {
    {{Mult<1, hj::STAR, false>, Mult<1, hj::BOX, false>}, {Mult<2, hj::STAR, false>, Mult<2, hj::BOX, false>}, {Mult<3, hj::STAR, false>, Mult<3, hj::BOX, false>}},
    {{Mult<1, hj::STAR, true>, Mult<1, hj::BOX, true>},   {Mult<2, hj::STAR, true>, Mult<2, hj::BOX, true>},   {Mult<3, hj::STAR, true>, Mult<3, hj::BOX, true>}  }
  };
  fns[b ? 1 : 0][L->dim - 1][st->kind](L, st, cr, xpad, b, y);
}

void HJHostCycle(const HJHostCycleArgs *A, PetscBool transpose, const PetscInt *ids, PetscInt first, PetscInt last)
{
  Cycles[transpose ? 1 : 0][A->L->dof - 1][A->L->dim - 1][A->st->kind](A, ids, first, last);
}
