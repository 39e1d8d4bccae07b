/* The CUDA kernels of PCHJACOBI (doc/design.md, "One PCApply"): the hierarchical tile kernel, the fused classic
   sweep (k = 1) and two helpers. Templated on the dimension, the stencil kind, constant or variable coefficients,
   the global scalar T and the scalar S of the sub-iterations in shared memory. No PETSc here: this header is
   plain CUDA C++ so that it can be tested apart from PETSc.

   Arrays (all device memory):
     xpad, ypad  padded arrays, index (i+1) + ext0*((j+P1) + ext1*(k+P2)), P1 = DIM > 1, P2 = DIM > 2
     b, x        unpadded owned arrays, index i + xm0*(j + xm1*k)
     coef        [noff][nlocal] (one plane per stencil offset, unpadded index), invdiag [nlocal]
   Global offsets are 64-bit; offsets inside one tile or one shared-memory buffer are int. The indices are formed by
   the views of arith/index.hpp (hj::Padded, hj::Unpadded, hj::OutputView, hj::TileBox) and the load and write-back of a
   tile by cuda/kernels/tile.cuh (LoadTile, WriteBack). */
#pragma once

#include "arith/point.hpp"
#include <type_traits>
#include "device.h"
#include "launch.h"
#include "tile.cuh"

namespace hjcuda
{
/* Sub-iterations in a scalar S of lower precision than the global T run in correction form: each cycle forms the
   residual r = b - A x of the tile's working region once, in T from T's x (halo frozen), iterates the correction
   delta from zero in S with the halo's correction zero (hj::PointUpdate with b := r, y := delta: step 3 of
   doc/algorithm.md's cycle for y = x + delta), and writes x + delta in T. Only delta is rounded to S, so the cycle
   keeps the precision of T's x however large x is; iterating x itself in S would round x to S every cycle and stall a
   Richardson solve at a residual near S's epsilon times |A| |x| (issue 15). From a zero x (xzero) the residual is b
   and nothing changes. With S = T the kernels iterate y = x itself as before (no residual pass). */
template <class T, class S>
constexpr bool kCorrection = !std::is_same<S, T>::value;

/* Dynamic shared memory, shared by every instantiation (hence untyped). */
HJ_DYNAMIC_SHARED(hj_smem);

/* Coefficient accessors passed to hj::PointUpdate: a(s) is the coefficient of offset s at this point. */
template <class S>
struct ConstCoef {
  const S                     *c;
  __device__ __forceinline__ S operator()(int s) const { return c[s]; }
};
template <class S>
struct GlobalCoef { /* read from the planes in global memory (read-only path) every time */
  const S                     *coef;
  long long                    nlocal, u;
  __device__ __forceinline__ S operator()(int s) const
  {
    if constexpr (hj::IsComplex<S>::value) { /* a complex value through the read-only path as two reals */
      using R    = decltype(S().real());
      const R *p = reinterpret_cast<const R *>(coef + s * nlocal + u);
      return S(__ldg(p), __ldg(p + 1));
    } else return __ldg(coef + s * nlocal + u);
  }
};
template <class S>
struct ZeroCoef {
  __device__ __forceinline__ S operator()(int) const { return S(0); }
};

/* The tile id (ti + nt0*(tj + nt1*tk)) this block updates. A launch covers all tiles (P.tileids null: block b is tile
   b) or a subset listed in P.tileids: a cycle launches the tiles that read no ghost value while the ghost exchange is
   under way and the others after it (grid/split.cxx), and the tiles inside the box of one row with the constant-stencil
   instantiation (cuda/plan/plan.cu). Every tile kernel finds its tile here. */
template <class TP>
__device__ __forceinline__ unsigned TileId(const TP &P)
{
  return P.tileids ? P.tileids[blockIdx.x] : blockIdx.x;
}

/* range[d] <- the tile of this block in direction d < ND (TileId -> tile (ti,tj,tk), x fastest; with ND = 2 the
   grid has one tile in z): ND threads compute them with hj::TileRange (64-bit) and share them through range, which
   is shared memory; the barrier makes them visible to the whole block. */
template <int ND, class TP>
__device__ __forceinline__ void TileRanges(const TP &P, hj::Range *range)
{
  if (threadIdx.x < ND) {
    const int       d   = threadIdx.x;
    const unsigned  bid = TileId(P), n0 = (unsigned)P.ntiles[0], n1 = (unsigned)P.ntiles[1];
    const unsigned  ti = hj::TileCoord(bid, n0, n1, d);
    const long long m  = d == 0 ? P.box.xm0 : (d == 1 ? P.box.xm1 : P.box.xm2);
    range[d]           = hj::TileRange(m, P.t[d], P.o[d], ti);
  }
  __syncthreads();
}

/* The row of W(T) that in-plane row j of the thread order maps to. A warp's 8-byte shared-memory access is served in
   two halves of 16 threads, each in one wavefront when its 16 values lie in 16 different 8-byte bank pairs (offsets
   distinct mod 16). With rows 8 points wide the buffer's row stride is 10, and two consecutive rows (offsets a..a+7
   and a+10..a+17) share two bank pairs: every access of a sweep takes 4 wavefronts instead of 2. Rows j and j + 4
   are 40 = 8 mod 16 apart, so a half-warp on rows (m, m + 4) is conflict-free: thread rows 2m, 2m + 1 of each group of
   8 take rows m, m + 4. Only the order of the threads changes (each point's update is the same), so results do not.
   Other widths keep the natural order (16-wide rows fill a half-warp by themselves). */
__device__ __forceinline__ int InterleaveRows(int j, int wx, int wy)
{
  return (wx == 8 && (wy & 7) == 0) ? (j & ~7) | ((j & 7) >> 1) | ((j & 1) << 2) : j;
}

/*
  The hierarchical tile kernel: one thread block per tile T (TileId -> tile (ti,tj,tk), x fastest).
  0. Three threads compute the tile's ranges with hj::TileRange (64-bit) and share them: hj::TileBox tb.
  1. Load W(T) plus the one-point halo H(T) from xpad into two shared buffers (LoadTile; the halo is then frozen).
  2. Each thread owns up to PPT points of W(T) (point p = q*blockDim.x + threadIdx.x in x-fastest order over the
     clipped W(T)); it keeps their shared-memory offset, b, invdiag and, when they take at most kCachedCoefBytes
     (STAR up to PPT = 4 in double, BOX 2D up to 4, BOX 3D 1), their variable coefficients in registers (arrays
     indexed only by the unrolled q); other coefficients are read from global memory (L1/L2) in every sweep.
  3. k Jacobi sweeps, ping-pong between the buffers: sweep `it` reads buf[it&1] and writes buf[(it+1)&1] at W(T)
     points only. One __syncthreads() per sweep suffices: it orders the writes of sweep it before the reads of
     sweep it+1, and the reads of sweep it before the writes of sweep it+1 (which go to the buffer sweep it read).
     The last sweep needs none: its results stay in registers.
  4. Each thread writes the values of its points that T owns (tb.Owned) to y (ypad's interior or x: WriteBack);
     consecutive threads hold consecutive points of a row, so the writes are coalesced.
  P.transpose (with P.xzero; coefficients of A^T): the transposed correction N^T b of doc/algorithm.md
  "PCApplyTranspose": step 2 keeps b only on the points T owns (zero on the rest of W(T)), steps 1 and 3 are unchanged
  (from y = 0 with a zero halo, k sweeps with A_TT^T are B_T^T), and step 4 adds every point of W(T) into y.
  S = float with T = double is the single-precision inner mode, in correction form (kCorrection): step 1 fills both
  buffers with zeros (the correction and its frozen halo), step 2 forms each point's residual in T from x in xpad
  (neighbours through L1/L2, coefficients from the T planes, a rolled loop so that its loads do not take the sweeps'
  registers) and keeps it in S as the point's right-hand side, step 3 is unchanged, and step 4 writes x + delta in T.
  (The residual's loop is rolled so that the correction form spills nowhere and leaves the native instantiations as
  they were: bench/TUNING.md "Notes from the source".)
*/
template <int DIM, int KIND, bool VAR, class T, class S, int PPT>
__global__ void __launch_bounds__(kTileMaxThreads) TileKernel(const TileParams<T, S> P)
{
  constexpr int  NOFF = hj::NumOffsets(DIM, KIND);
  constexpr int  P1 = DIM > 1, P2 = DIM > 2;                                 /* ghost layer in y, z */
  constexpr bool CACHED = VAR && NOFF * PPT * sizeof(S) <= kCachedCoefBytes; /* coefficients in registers */
  constexpr bool CORR   = kCorrection<T, S>;
  HJ_SHARED hj::Range range[3];

  /* 0. this block's tile */
  TileRanges<3>(P, range);
  const hj::TileBox tb = hj::MakeTileBox<DIM>(range[0], range[1], range[2]);
  const int         wx = tb.w[0], wy = tb.w[1];
  const int         nbuf = tb.BufferPoints();
  S *const          buf0 = reinterpret_cast<S *>(hj_smem);
  S *const          buf1 = buf0 + nbuf;
  const auto        sb   = tb.Buffer(buf0); /* buffer offsets (the same in buf1) */

  /* 1. W(T) + H(T) (zeros in correction form). xt(): xpad in buffer coordinates, computed where used: held across
     the kernel, its pointer costs the native instantiations registers. */
  auto xt = [&]() { return tb.PaddedHalo(P.xpad, P.box.ext0, P.box.ext1); };
  LoadTile<DIM, 1>(tb, xt(), CORR || P.xzero, buf0, buf1);

  /* 2. this thread's points: shared-memory offset (-1: none), bit q of owned: T owns point q. Registers are the
     limit here, so the unpadded and output indices are recomputed from off where needed (cheap divisions). */
  const auto uv   = tb.Work(hj::Unpadded(P.b, P.box.xm0, P.box.xm1)); /* unpadded index of a W(T) point */
  const int  npts = tb.Points();
  int        off[PPT], owned = 0, cstm = 0; /* bit q of cstm: point q has the constant row P.cst (P.cint) */
  long long  u[PPT];                        /* kept only for coefficients read in every sweep */
  S          bq[PPT], dq[PPT], yq[PPT];
  S          cq[CACHED ? NOFF : 1][PPT];
  {
    const FastDiv fwx(wx), fwy(wy);
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      const int p = q * blockDim.x + threadIdx.x;
      off[q]      = -1;
      u[q]        = 0;
      bq[q] = dq[q] = yq[q] = S(0);
#pragma unroll
      for (int s = 0; s < (CACHED ? NOFF : 1); s++) cq[s][q] = S(0);
      if (p < npts) {
        int i, j, k;
        Unflatten<DIM>(p, fwx, fwy, i, j, k);
        if constexpr (DIM > 1 && sizeof(S) == 8) j = InterleaveRows(j, wx, wy);
        off[q] = sb.Index(i + 1, j + P1, k + P2);
        u[q]   = uv.Index(i, j, k);
        if (tb.Owned(i, j, k)) owned |= 1 << q;
        if (VAR && P.cint && tb.w0[0] + i >= P.ilo[0] && tb.w0[0] + i < P.ihi[0] && tb.w0[1] + j >= P.ilo[1] && tb.w0[1] + j < P.ihi[1] && tb.w0[2] + k >= P.ilo[2] && tb.w0[2] + k < P.ihi[2]) cstm |= 1 << q;
        const bool cst = !VAR || (cstm & (1 << q)); /* the constant row: no plane read for this point */
        bq[q]          = (P.transpose && !(owned & (1 << q))) ? S(0) : (S)P.b[u[q]];
        if constexpr (CORR) { /* b := the residual in T, rounded to S */
          T invd = P.cstT.invdiag;
          if constexpr (VAR) {
            invd  = cst ? P.cstT.invdiag : P.invdiagT[u[q]];
            dq[q] = (S)invd;
          }
          if constexpr (CACHED) {
#pragma unroll
            for (int s = 0; s < NOFF; s++) cq[s][q] = cst ? P.cst.c[s] : P.coef[s * P.nlocal + u[q]];
          }
          if (!P.xzero) {
            const auto xv = xt().Strided(); /* (not in Horner form, which makes the 3D box PPT 8 instantiation spill) */
            const T   *xc = xv.ptr(i + 1, j + P1, k + P2);
            T          r;
            if (cst) r = hj::Residual<DIM, KIND>(xc, xv.s1, xv.s2(), P.b[u[q]], T(1) / invd, ConstCoef<T>{P.cstT.c});
            else r = hj::Residual<DIM, KIND, false>(xc, xv.s1, xv.s2(), P.b[u[q]], T(1) / invd, GlobalCoef<T>{P.coefT, P.nlocal, u[q]});
            bq[q] = (S)r;
          }
        } else if constexpr (VAR) {
          dq[q] = cst ? P.cst.invdiag : P.invdiag[u[q]];
          if constexpr (CACHED) {
#pragma unroll
            for (int s = 0; s < NOFF; s++) cq[s][q] = cst ? P.cst.c[s] : P.coef[s * P.nlocal + u[q]];
          }
        }
      }
    }
  }
  __syncthreads();

  /* 3. k sweeps with the halo frozen */
  const long long ssy = sb.s1, ssz = sb.s2();
  for (int it = 0; it < P.k; it++) {
    const S *src  = (it & 1) ? buf1 : buf0;
    S       *dst  = (it & 1) ? buf0 : buf1;
    const S *coef = P.coef;
    /* Make the plane pointer opaque in each sweep so that the compiler re-reads the (uncached) coefficients every
       sweep instead of hoisting all NOFF*PPT of them into registers and spilling (3D box: 26 per point). */
    if constexpr (VAR && !CACHED) HJ_OPAQUE_POINTER(coef);
    const S omega = P.w[it]; /* this sweep's weight: one uniform load per sweep */
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      if (off[q] >= 0) {
        if constexpr (!VAR) {
          yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], P.cst.invdiag, omega, ConstCoef<S>{P.cst.c});
        } else if constexpr (CACHED) {
          yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], omega, [&](int s) { return cq[s][q]; });
        } else if (cstm & (1 << q)) {
          yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], omega, ConstCoef<S>{P.cst.c});
        } else {
          yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], omega, GlobalCoef<S>{coef, P.nlocal, u[q]});
        }
        dst[off[q]] = yq[q];
      }
    }
    if (it + 1 < P.k) __syncthreads();
  }

  /* 4. the owned core (transposed: all of W(T), added), from registers (k >= 1); correction form: x + delta */
  const FastDiv fsx(tb.s[0]), fsy(tb.s[1]);
  const auto    yv = tb.Halo(hj::OutputView(P.y));
#pragma unroll
  for (int q = 0; q < PPT; q++) {
    if (P.transpose ? off[q] >= 0 : (owned & (1 << q))) {
      int x, y, z; /* buffer coordinates: (i + 1, j + P1, k + P2) */
      Unflatten<DIM>(off[q], fsx, fsy, x, y, z);
      WriteBack<CORR>(yv, xt(), x, y, z, 0, yq[q], P.xzero, P.transpose);
    }
  }
}

/*
  The register-strip tile kernel (2D 5-point star; -pc_hjacobi_cuda_kernel registers, auto's choice for 2D star
  stencils): the same cycle as TileKernel<2, STAR> (same tiles, same shared buffers, same frozen halo, same k Jacobi
  sweeps, same owned-core write), but each thread owns a vertical strip of R consecutive points (along y) of one column
  of W(T) and keeps the strip's values, plus the point above and the point below it, in registers. TileKernel reads 4
  values from shared memory and writes 1 per update; here a sweep of a full strip reads the two neighbour columns
  (2R values) and the points above and below the strip (2, owned by the neighbouring strips), and writes the R new
  values: (3R + 2) / R accesses per update (3.5 for R = 4) instead of 6.
  - Threads: thread t has column i = t % W0 and strip s = t / W0 (rows l0 = s*R .. l0+R-1), W0 = min(t0, xm0) being
    the widest working region in x: consecutive threads hold consecutive points of a row (coalesced global accesses,
    conflict-free shared rows). The host launches W0 * ceil(W1 / R) threads (W1 the tallest working region; rounded up
    to a warp). In a clipped tile (narrower, or fewer rows) the threads with no column or strip in it have no points
    but still take every barrier.
  - Partial strips: the last strip of a column has r = min(R, wy - l0) points; r < R when R does not divide wy. Its
    register v[r+1] then holds the halo point below the strip, loaded once: the halo is frozen and the same in both
    buffers, and the thread never updates v[q+1] for q >= r. Full strips (r == R, which includes a last strip ending
    exactly at the halo) take a branch without per-point predicates.
  - Jacobi: the R new values are computed from the old registers and the old neighbours, then stored (registers and
    dst). Ping-pong between the two buffers with one __syncthreads() per sweep, exactly as in TileKernel: sweep it
    reads buf[it&1] (written by sweep it-1) and writes buf[(it+1)&1] (read by sweep it-1); the barrier between two
    sweeps orders both the write-before-read and the read-before-write hazards. Neighbours along the strip come from
    the thread's registers, which hold exactly the previous sweep's values; the points above and below the strip come
    from src every sweep (they are the neighbouring strips' last/first points).
  - b, and with variable coefficients the inverse diagonal and the 4 coefficients of each point, stay in registers
    (inside the box of constant rows, P.cint, the row P.cst instead of the planes').
  Every update calls hj::PointUpdate<2, hj::STAR> with the neighbours in hj::Offset order (-x, +x, -y, +y).
  S other than T: the correction form of TileKernel (kCorrection): zero buffers and registers, b := each point's
  residual formed in T from xpad (step 2), x + delta written in T (step 4).
*/
template <bool VAR, class T, class S, int R>
__global__ void __launch_bounds__(RegMaxThreads(R, VAR, (int)sizeof(S))) TileKernelStrip(const TileParams<T, S> P)
{
  constexpr bool CORR = kCorrection<T, S>;
  constexpr int  NOFF = 4;
  constexpr int  NLAT = 2; /* lateral neighbours per point: -x, +x */
  HJ_SHARED hj::Range range[3];

  /* 0. this block's tile */
  TileRanges<2>(P, range);
  const hj::Range rx = range[0], ry = range[1];
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0);
  const int       sx = wx + 2, sy = wy + 2, nbuf = sx * sy; /* buffer: W(T) plus halo */
  S *const        buf0 = reinterpret_cast<S *>(hj_smem);
  S *const        buf1 = buf0 + nbuf;

  /* 1. W(T) + H(T) into both buffers (as TileKernel; the padded box to copy starts at (rx.w0, ry.w0): xsrc); zeros in
     correction form */
  const long long xs1 = P.box.ext0, xs2 = P.box.ext0 * P.box.ext1; /* xpad's strides */
  const T *const  xsrc = P.xpad + (rx.w0 + xs1 * ry.w0);
  if (CORR || P.xzero) {
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) buf0[e] = buf1[e] = S(0);
  } else {
    const FastDiv fsx(sx), fsy(sy);
#pragma unroll 4
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) {
      int x, y, z;
      Unflatten<2>(e, fsx, fsy, x, y, z);
      const S v = (S)xsrc[x + xs1 * y + xs2 * (long long)z];
      buf0[e] = buf1[e] = v;
    }
  }

  /* 2. this thread's strip: column i, rows l0 .. l0+r-1 (r = 0: none) */
  const int       W0 = (int)(P.t[0] < P.box.xm0 ? P.t[0] : P.box.xm0);
  const int       st = (int)threadIdx.x / W0, i = (int)threadIdx.x - st * W0, l0 = st * R;
  const int       r  = (i < wx && l0 < wy) ? (wy - l0 < R ? wy - l0 : R) : 0;
  const int       cs = (i + 1) + sx * (l0 + 1);                /* buffer offset of the strip's first point */
  const long long us = P.box.xm0;                              /* unpadded stride along the strip */
  const long long ub = (rx.w0 + i) + P.box.xm0 * (ry.w0 + l0); /* unpadded index of the first point */
  const long long xb = (i + 1) + xs1 * (l0 + 1);               /* its offset from xsrc */
  S               bq[R], v[R + 2];                             /* v[0]: the point above the strip, v[1..r]: the strip, v[r+1]: the point below it */
  S               dq[VAR ? R : 1], cq[VAR ? NOFF : 1][VAR ? R : 1];
  unsigned        cstm = 0; /* bit q: point q has the constant row P.cst (P.cint): no plane read for it */
  {
#pragma unroll
    for (int q = 0; q < R; q++) {
      bq[q] = S(0);
      if constexpr (VAR) {
        dq[q] = S(0);
#pragma unroll
        for (int s = 0; s < NOFF; s++) cq[s][q] = S(0);
      }
      if (q < r) {
        const long long u  = ub + us * q;
        const long long gi = rx.w0 + i, gj = ry.w0 + l0 + q;
        const bool      cst = VAR && P.cint && gi >= P.ilo[0] && gi < P.ihi[0] && gj >= P.ilo[1] && gj < P.ihi[1];
        cstm |= (unsigned)cst << q;
        bq[q] = (S)P.b[u];
        if constexpr (CORR) { /* b := the residual in T, rounded to S; the S coefficients from the T ones */
          T        invd = P.cstT.invdiag;
          const T *xc   = xsrc + (xb + xs1 * q);
          if constexpr (VAR) {
            T c[NOFF];
            dq[q] = (S)(invd = cst ? P.cstT.invdiag : P.invdiagT[u]);
#pragma unroll
            for (int s = 0; s < NOFF; s++) cq[s][q] = (S)(c[s] = cst ? P.cstT.c[s] : P.coefT[s * P.nlocal + u]);
            if (!P.xzero) bq[q] = (S)hj::Residual<2, hj::STAR>(xc, xs1, xs2, P.b[u], T(1) / invd, [&](int s) { return c[s]; });
          } else if (!P.xzero) {
            bq[q] = (S)hj::Residual<2, hj::STAR>(xc, xs1, xs2, P.b[u], T(1) / invd, ConstCoef<T>{P.cstT.c});
          }
        } else if constexpr (VAR) {
          dq[q] = cst ? P.cst.invdiag : P.invdiag[u];
#pragma unroll
          for (int s = 0; s < NOFF; s++) cq[s][q] = cst ? P.cst.c[s] : P.coef[s * P.nlocal + u];
        }
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int q = 0; q < R + 2; q++) v[q] = (r > 0 && q <= r + 1) ? buf0[cs + sx * (q - 1)] : S(0);

  /* 3. k sweeps with the halo frozen. FULL: r == R, no per-point predicates. */
  const int lat[NLAT] = {-1, 1}; /* lateral neighbours in the buffer, hj::Offset order */
  auto      sweep     = [&](auto full, const S *src, S *dst, const S omega) {
    constexpr bool FULL = decltype(full)::value;
    S              nb[NLAT][R], nv[R];
    v[0] = src[cs - sx];
    if constexpr (FULL) v[R + 1] = src[cs + sx * R]; /* a partial strip's v[r+1] is the frozen halo */
#pragma unroll
    for (int q = 0; q < R; q++) {
#pragma unroll
      for (int a = 0; a < NLAT; a++) nb[a][q] = (FULL || q < r) ? src[cs + sx * q + lat[a]] : S(0);
    }
#pragma unroll
    for (int q = 0; q < R; q++) {
      nv[q] = S(0);
      if (FULL || q < r) {
        auto yn = [&](int s) { return s < NLAT ? nb[s][q] : (s == NLAT ? v[q] : v[q + 2]); }; /* the strip's own neighbours last */
        if constexpr (VAR) nv[q] = hj::PointUpdate<2, hj::STAR>(yn, v[q + 1], bq[q], dq[q], omega, [&](int s) { return cq[s][q]; });
        else nv[q] = hj::PointUpdate<2, hj::STAR>(yn, v[q + 1], bq[q], P.cst.invdiag, omega, ConstCoef<S>{P.cst.c});
      }
    }
#pragma unroll
    for (int q = 0; q < R; q++) {
      if (FULL || q < r) {
        v[q + 1]         = nv[q];
        dst[cs + sx * q] = nv[q];
      }
    }
  };
  for (int it = 0; it < P.k; it++) {
    const S *src = (it & 1) ? buf1 : buf0;
    S       *dst = (it & 1) ? buf0 : buf1;
    const S  wt  = P.w[it];
    if (r == R) sweep(std::true_type{}, src, dst, wt);
    else if (r > 0) sweep(std::false_type{}, src, dst, wt);
    if (it + 1 < P.k) __syncthreads();
  }

  /* 4. the owned core, from registers (k >= 1): consecutive threads write consecutive points of a row; correction
     form: x + delta */
  const int ox0 = (int)(rx.o0 - rx.w0), ox1 = (int)(rx.o1 - rx.w0), oy0 = (int)(ry.o0 - ry.w0), oy1 = (int)(ry.o1 - ry.w0);
  if (r > 0 && i >= ox0 && i < ox1) {
    const long long os  = P.y.os1;
    T *const        out = P.y.out + (P.y.obase + (rx.w0 + i) + P.y.os1 * (ry.w0 + l0));
#pragma unroll
    for (int q = 0; q < R; q++) {
      if (q < r && l0 + q >= oy0 && l0 + q < oy1) {
        T val = (T)v[q + 1];
        if constexpr (CORR)
          if (!P.xzero) val += xsrc[xb + xs1 * q];
        out[os * q] = val;
      }
    }
  }
}

/*
  The fused classic sweep (k = 1: one cycle is one damped Jacobi sweep, doc/algorithm.md): one thread per owned point,
  threads along x (coalesced), neighbours read straight from xpad through L1/L2 (blocks of several rows, so that
  the rows above and below are mostly L1 hits). Grid-stride loops over y and z let any extent fit the grid limits.
  With xzero the sweep starts from x = 0: hj::PointUpdate reads a zero neighbourhood instead of xpad.
  (One row per thread and this block shape were the fastest tried: bench/TUNING.md, step 1.)
*/
template <int DIM, int KIND, bool VAR, class T>
__global__ void __launch_bounds__(kClassicBlockSize) ClassicKernel(const TileParams<T, T> P, const T omega)
{
  constexpr int P1 = DIM > 1, P2 = DIM > 2;
  const int     i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= P.box.xm0) return;
  /* update(u, pi): the new value of the point with unpadded index u and padded index pi. (Not through hj::View:
     copies of the parameters' extents in a view are held in registers, which costs this 256-thread kernel occupancy:
     bench/TUNING.md "Notes from the source".) */
  auto sweep = [&](auto update) {
#pragma unroll 1
    for (int k = blockIdx.z; k < (int)P.box.xm2; k += gridDim.z) {
#pragma unroll 1
      for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < (int)P.box.xm1; j += gridDim.y * blockDim.y) {
        const long long u                                  = i + P.box.xm0 * (j + P.box.xm1 * k);
        const long long pi                                 = (i + 1) + P.box.ext0 * ((j + P1) + P.box.ext1 * (k + P2));
        P.y.out[P.y.obase + i + P.y.os1 * j + P.y.os2 * k] = update(u, pi);
      }
    }
  };
  if (P.xzero) {
    sweep([&](long long u, long long) {
      const T zero[27] = {};
      T       dv       = P.cst.invdiag;
      if constexpr (VAR) dv = P.invdiag[u];
      return hj::PointUpdate<DIM, KIND>(zero + 13, 3, 9, P.b[u], dv, omega, ZeroCoef<T>{});
    });
  } else if constexpr (VAR) {
    sweep([&](long long u, long long pi) { return hj::PointUpdate<DIM, KIND>(P.xpad + pi, P.box.ext0, P.box.ext0 * P.box.ext1, P.b[u], P.invdiag[u], omega, GlobalCoef<T>{P.coef, P.nlocal, u}); });
  } else {
    sweep([&](long long u, long long pi) { return hj::PointUpdate<DIM, KIND>(P.xpad + pi, P.box.ext0, P.box.ext0 * P.box.ext1, P.b[u], P.cst.invdiag, omega, ConstCoef<T>{P.cst.c}); });
  }
}

/* xpad interior <- x: one thread per scalar of an x-y plane (numbered x fastest, so that no block idles at widths just
   above a multiple of the block's: 257 points left a fifth of a row-shaped grid's blocks nearly empty), blockIdx.z and
   a grid-stride loop over z. box counts scalars along x (dof per point: xm0 and ext0 are dof times the points), lead
   = dof is the ghost layer's width in scalars at the start of a padded row. */
template <int DIM, class T>
__global__ void __launch_bounds__(kClassicBlockSize) PadCopyKernel(const T *x, T *xpad, Box box, int lead)
{
  const long long plane  = box.xm0 * box.xm1;
  const bool      narrow = plane < (1LL << 31); /* 32-bit divisions (uniform branch) */
  const auto      xv     = hj::Unpadded(x, box.xm0, box.xm1);
  const auto      pv     = hj::Padded(xpad, DIM, box.ext0, box.ext1).Shifted(lead - 1, 0, 0); /* the ghost layer is lead scalars wide in x */
#pragma unroll 1
  for (long long k = blockIdx.z; k < box.xm2; k += gridDim.z)
#pragma unroll 1
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < plane; v += (long long)gridDim.x * blockDim.x) {
      const long long j = narrow ? (long long)((unsigned)v / (unsigned)box.xm0) : v / box.xm0, i = v - j * box.xm0;
      pv(i, j, k) = xv(i, j, k);
    }
}

/* to[i] = (To)from[i]: single-precision copies of the coefficient planes for the single-precision inner mode */
template <class To, class From>
__global__ void ConvertKernel(long long n, const From *from, To *to)
{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) to[i] = (To)from[i];
}
} // namespace hjcuda
