/* The streaming 3D tile kernel (-pc_hjacobi_cuda_kernel stream; doc/design.md "The 3D kernels", issue 28): the cycle
   of doc/algorithm.md for a 3D star stencil (dof 1, native sub-iterations) with the tile's x-y working region held by
   one thread per column and its z extent streamed plane by plane, the k sweeps pipelined through the planes. Same tiles
   (hj::TileRange, TileRanges), same frozen halo, same weights w_1..w_k in the same order, same hj::PointUpdate with the
   neighbours in hj::Offset order, same owned-core write as TileKernel<3, STAR>: the results equal the reference to
   rounding. What it changes against TileKernel (bound by instruction issue and barriers: ~115 instructions per update,
   64-bit indices, per-thread coefficients) is how the work is laid out:
   - Thread (i, j) of the x-y tile (x fastest: a warp is a row, or rows, of the tile) owns the column (i, j, *) of W(T)
     and keeps, for every level s = 0..K-1 (level s: the values after s sweeps; level 0 = x), the values of three
     consecutive planes of its column in registers (lv[s][0..2], z - 1, z, z + 1), so the z neighbours of an update come
     from registers (as NVIDIA's FDTD3d streams z). The lateral neighbours come from one shared x-y plane per level
     (buffer plane with its one-point halo ring, (wx + 2) x (wy + 2)).
   - Step t (t = 0 .. wz + K, buffer planes 0 .. wz + 1: 0 and wz + 1 are the frozen halo planes) brings plane t of x
     in; level s (1..K) then computes plane t - s from level s - 1's planes t - s - 1 .. t - s + 1. Phase 0 shifts x's
     plane into level 0's registers and stores level 0's middle plane (t - 1) into shared plane 0; phase s computes
     level s, shifts it in and stores its middle plane (t - s - 1) into shared plane s; phase K computes level K and
     writes its owned points to y. One __syncthreads() after each store (K barriers per plane, one per level): it orders
     the store of shared plane s before the reads of phase s + 1, and the reads of phase s + 1 of the step before (the
     previous plane in that buffer) before it, since at least one other barrier lies between them (K >= 2).
   - The ring of shared plane s (the lateral halo H(T) of plane t - s - 1: frozen x) is written by ring threads (thread
     r < 2 (wx + wy) owns ring position r; a star stencil reads no corner) through a carry: the value a ring thread
     overwrites in plane s is the one it writes into plane s + 1 in the next phase (x of the ring one plane further down),
     so x of the ring is loaded once per plane (the carry's start) and each ring position is touched by one thread only.
   - A halo plane (z = 0 or wz + 1) keeps x at every level: a level passes its middle value through there.
   - K is a template parameter (k = 2 or 4, fixed at compile time): the level loop is unrolled and the registers' rings
     are shifts the compiler renames. Indices inside the tile (shared offsets, the thread's place) are int; global
     offsets are formed once per plane from the tile's 64-bit start.
   - Coefficients: constant stencils (!VAR) and, with VAR and P.cint, every point inside the box [ilo, ihi) take the row
     P.cst from the kernel parameter (constant memory: no register, no load); the other points (the boundary shell, or
     every point of a variable operator) read their planes and inverse diagonal from global memory (L1/L2) at every
     level.
   - x, b and the ring's x of a plane are asked for two steps before they are used (registers xn, bn, rq); b then waits
     in the thread's own queue in shared memory (slot p mod NB, read by the thread alone: no barrier) until the level
     that needs it. One step ahead, the loads' latency stalled every step (H100: 0.65 against 0.56 ms per cycle at
     257^3, k = 4, tile 32 x 8 x 65). ptxas -v, sm_90, fp64: 97 registers for VAR with k = 4, 64 with k = 2, 81 and 79
     for constant stencils, no spills; bounding them to 64 (__launch_bounds__(512, 2)) spilled and ran slower
     (0.58 ms).
   No transposed mode and no correction form (the plan runs TileKernel for those). Shared memory: K planes of
   (wx + 2)(wy + 2) values and the threads' queues of b (hj::StreamSharedBytes). Plain device C++ with the macros of
   device.h (test/emulate compiles it as it is). */
#pragma once

#include "kernels.cuh"

namespace hjcuda
{
template <bool VAR, class T, int K>
__global__ void __launch_bounds__(hj::kStreamMaxThreads) StreamKernel(const TileParams<T, T> P)
{
  static_assert(K >= 2, "the stream kernel's barriers order a shared plane's reuse through another level's barrier (K >= 2)");
  using S = T;
  HJ_SHARED hj::Range range[3];
  HJ_SHARED S         wsh[K]; /* the sweeps' weights */

  if (threadIdx.x < K) wsh[threadIdx.x] = P.w[threadIdx.x];
  TileRanges<3>(P, range); /* (its barrier also publishes wsh) */
  const hj::Range rx = range[0], ry = range[1], rz = range[2];
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
  const int       sx = wx + 2, np = sx * (wy + 2); /* a shared plane: W(T)'s x-y extent with the halo ring */
  S *const        sh = reinterpret_cast<S *>(hj_smem);

  /* this thread's column (i, j) of the x-y tile (threads laid out on the widest working region, W0 columns a row) */
  const int  W0  = (int)(P.t[0] < P.box.xm0 ? P.t[0] : P.box.xm0);
  const int  tid = (int)threadIdx.x, j = tid / W0, i = tid - j * W0;
  const bool act = i < wx && j < wy;
  const int  off = (i + 1) + sx * (j + 1); /* its shared offset */

  /* its ring position (r = tid < 2 (wx + wy): bottom row, top row, left column, right column; -1: none) */
  const int nring = 2 * (wx + wy);
  int       roff = -1, rbi = 0, rbj = 0;
  if (tid < nring) {
    if (tid < wx) rbi = tid + 1, rbj = 0;
    else if (tid < 2 * wx) rbi = tid - wx + 1, rbj = wy + 1;
    else if (tid < 2 * wx + wy) rbi = 0, rbj = tid - 2 * wx + 1;
    else rbi = wx + 1, rbj = tid - 2 * wx - wy + 1;
    roff = rbi + sx * rbj;
#pragma unroll
    for (int s = 0; s < K; s++) sh[s * np + roff] = S(0); /* (read by the carry before a first plane arrives) */
  }

  /* global offsets: xpad of buffer (bi, bj, plane p) = xb + bi + ext0 bj + xs2 p (the halo's first point: the tile's
     w0 in padded coordinates); b, the planes and y of W(T) point (i, j, p - 1) = ub/yb + ls2 (p - 1) */
  const long long xs2 = P.box.ext0 * P.box.ext1, ls2 = P.box.xm0 * P.box.xm1;
  const long long xb = rx.w0 + P.box.ext0 * (ry.w0 + P.box.ext1 * rz.w0);
  const long long xo = xb + (i + 1) + P.box.ext0 * (j + 1), xr = xb + rbi + P.box.ext0 * rbj;
  const long long ub   = (rx.w0 + i) + P.box.xm0 * ((ry.w0 + j) + P.box.xm1 * rz.w0);
  const long long yb   = P.y.obase + (rx.w0 + i) + P.y.os1 * (ry.w0 + j) + P.y.os2 * rz.w0;
  const bool      load = !P.xzero;

  /* owned and constant-row tests: x-y per thread, z per plane (the same in the whole block) */
  const bool ownxy = i >= (int)(rx.o0 - rx.w0) && i < (int)(rx.o1 - rx.w0) && j >= (int)(ry.o0 - ry.w0) && j < (int)(ry.o1 - ry.w0);
  const int  oz0 = (int)(rz.o0 - rz.w0) + 1, oz1 = (int)(rz.o1 - rz.w0) + 1; /* owned buffer planes [oz0, oz1) */
  bool       cxy = !VAR;
  int        cz0 = 0, cz1 = wz + 2; /* buffer planes with the constant row */
  if (VAR && P.cint) {
    const long long gi = rx.w0 + i, gj = ry.w0 + j, lo = P.ilo[2] - rz.w0 + 1, hi = P.ihi[2] - rz.w0 + 1;
    cxy = gi >= P.ilo[0] && gi < P.ihi[0] && gj >= P.ilo[1] && gj < P.ihi[1];
    cz0 = (int)(lo < 0 ? 0 : (lo > wz + 2 ? wz + 2 : lo));
    cz1 = (int)(hi < 0 ? 0 : (hi > wz + 2 ? wz + 2 : hi));
  }

  S lv[K][3]; /* level s: its planes c - 1, c, c + 1 of this column (c: the plane in shared plane s) */
#pragma unroll
  for (int s = 0; s < K; s++) lv[s][0] = lv[s][1] = lv[s][2] = S(0);
  /* b of plane p in slot p % NB of this thread's queue (read by this thread only: no barrier; in shared memory rather
     than registers, which the levels need) */
  constexpr int NB  = hj::StreamQueueSlots(K);
  S *const      bsh = sh + K * np + tid;
  /* loads two steps ahead: at step t, xn[0] and bn[0] hold x and b of plane t, rq[0] x of the ring at plane t - 1 (asked
     for at step t - 2), [1] the next plane (asked for at step t - 1) */
  S xn[2] = {S(0), S(0)}, bn[2] = {S(0), S(0)}, rq[2] = {S(0), S(0)};
  if (act && load) xn[0] = P.xpad[xo], xn[1] = P.xpad[xo + xs2];
  if (act && wz >= 1) bn[1] = P.b[ub];
  if (roff >= 0 && load) rq[1] = P.xpad[xr];

#pragma unroll 1
  for (int t = 0; t <= wz + K; t++) {
    /* the shared offsets made opaque in every step: hoisted out of the loop, the offsets of the K planes would take
       2K registers (ptxas: 86 instead of 64 for VAR, k = 4) */
    int np_ = np, off_ = off, roff_ = roff;
    HJ_OPAQUE_INT(np_);
    HJ_OPAQUE_INT(off_);
    HJ_OPAQUE_INT(roff_);
    /* phase 0: plane t of x in (and plane t + 1 asked for), b of plane t asked for, level 0's middle plane t - 1 out */
    {
      const S xt    = xn[0];
      S       carry = rq[0];
      if (act && t >= 1 && t <= wz) bsh[(t & (NB - 1)) * (int)blockDim.x] = bn[0];
      xn[0] = xn[1], bn[0] = bn[1], rq[0] = rq[1];
      if (act && load && t + 2 <= wz + 1) xn[1] = P.xpad[xo + xs2 * (t + 2)];
      if (act && t + 1 < wz) bn[1] = P.b[ub + ls2 * (t + 1)];
      if (roff >= 0 && load && t + 1 <= wz + 1) rq[1] = P.xpad[xr + xs2 * (t + 1)];
      lv[0][0] = lv[0][1], lv[0][1] = lv[0][2], lv[0][2] = xt;
      if (act && t >= 1) sh[off_] = lv[0][1];
      if (roff >= 0) {
        const S old = sh[roff_];
        sh[roff_]   = carry;
        carry       = old;
      }
      /* phases 1..K: level s computes plane z = t - s */
#pragma unroll
      for (int s = 1; s <= K; s++) {
        __syncthreads();
        const int z  = t - s;
        S         nv = S(0);
        if (act && z >= 0 && z <= wz + 1) {
          const S *src = sh + (s - 1) * np_ + off_;
          const S  y   = lv[s - 1][1];
          if (z == 0 || z == wz + 1) nv = y; /* a halo plane: x at every level */
          else {
            auto    yn  = [&](int q) { return q == 0 ? src[-1] : (q == 1 ? src[1] : (q == 2 ? src[-sx] : (q == 3 ? src[sx] : (q == 4 ? lv[s - 1][0] : lv[s - 1][2])))); };
            const S omg = wsh[s - 1];
            if (cxy && z >= cz0 && z < cz1) nv = hj::PointUpdate<3, hj::STAR>(yn, y, bsh[(z & (NB - 1)) * (int)blockDim.x], P.cst.invdiag, omg, ConstCoef<S>{P.cst.c});
            else {
              const long long u = ub + ls2 * (z - 1);
              nv                = hj::PointUpdate<3, hj::STAR>(yn, y, bsh[(z & (NB - 1)) * (int)blockDim.x], P.invdiag[u], omg, GlobalCoef<S>{P.coef, P.nlocal, u});
            }
          }
        }
        if (s < K) {
          lv[s][0] = lv[s][1], lv[s][1] = lv[s][2], lv[s][2] = nv;
          if (act && z >= 1) sh[s * np_ + off_] = lv[s][1];
          if (roff >= 0) {
            const S old         = sh[s * np_ + roff_];
            sh[s * np_ + roff_] = carry;
            carry               = old;
          }
        } else if (act && ownxy && z >= oz0 && z < oz1) P.y.out[yb + P.y.os2 * (z - 1)] = nv;
      }
    }
  }
}
} // namespace hjcuda
