/* The column tile kernel (-pc_hjacobi_cuda_kernel columns, auto's choice for 3D star stencils; doc/design.md "The 3D
   kernels", issue 28 item 1): the cycle of doc/algorithm.md for a 3D star stencil (dof 1, sub-iterations in T) with one
   thread per column of the tile's x-y plane *including its halo ring* and the tile's z extent streamed plane by plane,
   the k sweeps pipelined through the planes. Same tiles (hj::TileRange, TileRanges), same frozen halo, same weights in
   the same order, same hj::PointUpdate with the neighbours in hj::Offset order, same owned-core write (transposed: all
   of W(T) added) as TileKernel<3, STAR>, so the results equal the literal cycle to rounding.
   - Thread e of the block is column (ci, cj) = (e % sx, e / sx) of the buffer plane, sx = wx + 2, sy = wy + 2 (0 and
     sx - 1, sy - 1: the halo ring). A ring thread only passes its x down the levels (a frozen point keeps x at every
     level), so the ring needs no other code; with 30 x 14 working columns the block is 32 x 16 = 512 threads and a
     warp is one row of the plane.
   - Level l (0..K, level 0 = x, level l = after l sweeps). Step s (s = 0 .. wz + K; buffer planes 0..wz + 1, 0 and
     wz + 1 the frozen halo planes) brings plane s of x in, and level l (1..K) computes plane z = s - l from level l - 1's
     planes z - 1, z, z + 1: z - 1 and z are the thread's registers A[l - 1], B[l - 1] (its column at the two previous
     steps), z + 1 is what level l - 1 produced in this same step (N[l - 1]); the four lateral neighbours of plane z are
     read from level l - 1's shared plane written in the previous step.
   - Each level l < K has two shared planes, written at even and odd steps: step s writes its planes (s & 1) and reads
     the planes ((s - 1) & 1) that step s - 1 wrote. So one __syncthreads() per step orders everything: the writes of
     step s before the reads of step s + 1, and the reads of step s before the writes of step s + 2 into the same plane.
     (The z-marching kernels removed earlier took one barrier per level and step: doc/design.md.)
   - The steps run in three loops: the pipeline's fill (s <= K), the steady steps (K < s < wz: every level computes a
     plane of W(T) and x's next plane is one of the tile's, so nothing is checked per level), on the fixed plane with
     k <= kColumnPairMaxK two at a time, so that their planes' parity is a constant, and the drain. A ring column passes its x down the levels in a branch of its
     own, once per step, not once per level.
   - FIX (hj::ColumnNeed::fixed, the default tile): the buffer plane is 32 x 16 columns whatever the tile's x-y extent,
     one warp a row, so that with the parity known every shared offset of a steady step is a constant of the code.
     The kernel is bound by instruction issue, not by bytes (Nsight Compute: 3.0 instructions per cycle and
     SM); the split and the fixed plane took the constant stencil's from 171 to 115 million instructions per cycle at
     257^3 (0.231 -> 0.204 ms on an H100) and row classes' from 193 to 133 million (0.284 -> 0.247 ms).
   - b of plane z is loaded one step before level 1 needs it and passed down the levels in registers (bq); x of the
     next plane is asked for one step ahead (xn). Planes outside 0..wz + 1 compute values nobody reads.
   - Coefficients: constant stencils, and with P.cint every point inside the box [ilo, ihi), take the row P.cst from the
     kernel parameter; the other points (the boundary shell) read their planes and inverse diagonal through the
     read-only path at every level, prefetched into L1 a step before the first level needs them (read at every level
     from global memory, the shell's loads held every block with a face column at its barrier: 0.59 against 0.27 ms per
     cycle at 257^3 on an H100, bench/columnalone.cu).
   - P.xin: x read in place from the unpadded array (one rank, no periodic direction: the cycle's first launch then needs
     no padded copy of x), zero outside the owned box, as the padded array's layer.
   - Transposed correction (P.transpose, with P.xzero): x = 0, b only on the points T owns, every point of W(T) added
     into y (PutResult), as TileKernel.
   - Row classes (P.rowclass, MODE kColumnClasses): an operator whose rows take at most hj::kRowClasses distinct values (a constant
     stencil with its boundary rows: mg3d, ex45) has a class per point, 0 for the row P.cst and c for row c of the
     table P.rowtab (copied to static shared memory; its row 0 is P.cst's, the plan's interior row); a point's class
     byte is read with its b and passed down the levels in one register (cq), so no level waits for a coefficient load.
     A warp whose points all have class 0 on the K planes in flight (one vote per step) takes the row from the
     parameter, any other warp takes every row from the table (the same values), so a warp at a face runs one path,
     not both (a vote per level and point cost 0.34 against 0.30 ms per cycle, H100).
   Shared memory: 2 K planes of sx * sy values, or of 32 x 16 with FIX (hj::ColumnNeeds). K (1..kColumnMaxK) is a template parameter: the level
   loop unrolls and the registers' shifts are renamings. Plain device C++ with the macros of device.h (test/emulate
   compiles it as it is). */
#pragma once

#include "kernels.cuh"

namespace hjcuda
{
/* MODE: where a point's row comes from (the parameter's constant row; the planes, the constant row inside P.cint's
   box; the row table by class) */
constexpr int kColumnConstant = 0, kColumnPlanes = 1, kColumnClasses = 2;
/* the largest k whose steady steps run two at a time on the fixed plane (above it, and on the other planes, whose
   offsets are not constants, the pair's registers spill) */
constexpr int kColumnPairMaxK = 4;

/* (launch bounds: at most 1024 threads, so 64 registers; the fixed plane above k = kColumnPairMaxK, where 64 spilled,
   512 threads, up to 128 registers, one block an SM) */
template <int MODE, class T, int K, int FIX = 0>
__global__ void __launch_bounds__((FIX && K > kColumnPairMaxK) ? hj::kColumnFixThreads : hj::kColumnMaxThreads) ColumnKernel(const TileParams<T, T> P)
{
  using S               = T;
  constexpr bool PLANES = MODE == kColumnPlanes;
  HJ_SHARED hj::Range range[3];
  HJ_SHARED double    wraw[PLANES ? (K * sizeof(S) + 7) / 8 : 1];      /* the planes mode's weights (raw: a complex S has a constructor) */
  HJ_SHARED double    traw[(hj::kRowClasses * 8 * sizeof(S) + 7) / 8]; /* the row table (P.rowclass) */
  S *const            tsh     = reinterpret_cast<S *>(traw);
  S *const            wsh     = reinterpret_cast<S *>(wraw);
  constexpr bool      classes = MODE == kColumnClasses; /* (P.rowclass set) */

  if constexpr (classes)
    for (int q = (int)threadIdx.x; q < hj::kRowClasses * 8; q += (int)blockDim.x) tsh[q] = P.rowtab[q];
  if constexpr (PLANES)
    if (threadIdx.x < K) wsh[threadIdx.x] = P.w[threadIdx.x];
  TileRanges<3>(P, range); /* (its barrier also publishes tsh and wsh) */
  /* sweep l's weight: an operand from the parameter (P.wv), except in the planes mode, where it is read from shared
     memory (H100: the parameter's operands made the constant stencil 0.205 -> 0.197 ms per cycle and
     row classes 0.248 -> 0.244, the planes 0.407 -> 0.476) */
  auto wgt = [&](int l) -> S {
    if constexpr (PLANES) return wsh[l];
    else return P.wv[l];
  };
  const hj::Range rx = range[0], ry = range[1], rz = range[2];
  const int       sx = (int)(rx.w1 - rx.w0) + 2, sy = (int)(ry.w1 - ry.w0) + 2, wz = (int)(rz.w1 - rz.w0);
  /* FIX: planes of fixed shape, rows of hj::kColumnFixRow columns (immediate shared offsets) */
  constexpr int FR = FIX ? hj::kColumnFixRow : 0, FNP = FIX ? (int)hj::kColumnFixThreads : 0;
  const int     rs = FIX ? FR : sx;       /* a buffer plane's row stride */
  const int     np = FIX ? FNP : sx * sy; /* a buffer plane: W(T)'s x-y extent with the halo ring */
  S *const      sh = reinterpret_cast<S *>(hj_smem);

  /* this thread's column (ci, cj) of the buffer plane */
  const int       e = (int)threadIdx.x, cj = e / rs, ci = e - cj * rs;
  const bool      col   = FIX ? (ci < sx && cj < sy) : e < np;                   /* a column of the plane (else idle) */
  const bool      inner = col && ci > 0 && ci < sx - 1 && cj > 0 && cj < sy - 1; /* a column of W(T) (else the ring) */
  const long long gi = rx.w0 + ci - 1, gj = ry.w0 + cj - 1;                      /* its owned-box coordinates */
  const bool      ownxy = inner && gi >= rx.o0 && gi < rx.o1 && gj >= ry.o0 && gj < ry.o1;
  const int       oz0 = (int)(rz.o0 - rz.w0) + 1, oz1 = (int)(rz.o1 - rz.w0) + 1; /* owned buffer planes [oz0, oz1) */
  bool            cxy = !PLANES;
  int             cz0 = 0, cz1 = wz + 2; /* buffer planes with the constant row (with cxy) */
  if (PLANES && P.cint) {
    const long long lo = P.ilo[2] - rz.w0 + 1, hi = P.ihi[2] - rz.w0 + 1;
    cxy = gi >= P.ilo[0] && gi < P.ihi[0] && gj >= P.ilo[1] && gj < P.ihi[1];
    cz0 = (int)(lo < 0 ? 0 : (lo > wz + 2 ? wz + 2 : lo));
    cz1 = (int)(hi < 0 ? 0 : (hi > wz + 2 ? wz + 2 : hi));
  }

  /* running global indices of the column on buffer plane s (advanced by a plane every step, the strides taken from the
     parameters where used: held, they cost registers): xi into xpad (padded coordinates (rx.w0 + ci, ry.w0 + cj, rz.w0 +
     s)), ui into b and the planes and yi into y (W(T) point (ci, cj, s), meaningful for 1 <= s <= wz) */
  long long  xi   = (rx.w0 + ci) + P.box.ext0 * ((ry.w0 + cj) + P.box.ext1 * rz.w0);
  long long  ui   = gi + P.box.xm0 * (gj + P.box.xm1 * (rz.w0 - 1));
  long long  yi   = P.y.obase + gi + P.y.os1 * gj + P.y.os2 * (rz.w0 - 1);
  const bool load = col && !P.xzero;
  /* P.xin (one rank, no periodic direction): x read in place, zero outside the owned box (the padded array's layer) */
  const bool inxy = gi >= 0 && gi < P.box.xm0 && gj >= 0 && gj < P.box.xm1;
  auto       X    = [&](int p) -> S { /* x of buffer plane p of this column (load) */
                             if (!P.xin) return P.xpad[xi];
                             const long long gk = rz.w0 + p - 1;
                             return (inxy && gk >= 0 && gk < P.box.xm2) ? P.xin[ui] : S(0);
  };

  S A[K], B[K], bq[K + 1]; /* level l's column at planes s - l - 2 (A) and s - l - 1 (B); bq[l]: b of plane s - l */
#pragma unroll
  for (int l = 0; l < K; l++) A[l] = B[l] = S(0);
#pragma unroll
  for (int l = 0; l <= K; l++) bq[l] = S(0);
  S xn = load ? X(0) : S(0), bn = S(0); /* x of plane s and b of plane s - 1, asked for a step ahead */
  /* with classes: byte l - 1 of cq is the class of plane s - l (the level that computes it), cn the class of plane s */
  using CQ    = std::conditional_t<(K <= 4), unsigned, unsigned long long>;
  CQ       cq = 0;
  unsigned cn = 0;

  /* step s (the scheme above). ST: a steady step, K + 1 <= s <= wz - 1: every level computes a plane of W(T) and the
     x asked for (plane s + 1) is one of the tile's planes, so neither is checked. PAR: s & 1 when the caller knows it
     (-1: computed). A ring column passes x down the levels in a branch of its own, once per step. */
  auto step = [&](const int s, auto st, auto pr) {
    constexpr bool ST  = decltype(st)::value;
    constexpr int  PAR = decltype(pr)::value;
    const int      par = PAR >= 0 ? PAR : (s & 1);
    S              N[K + 1]; /* level l's column at plane s - l */
    N[0] = xn;
    xi += P.box.ext0 * P.box.ext1;
    ui += P.box.xm0 * P.box.xm1;
    yi += P.y.os2;
    if constexpr (ST) {
      if (load) xn = !P.xin ? P.xpad[xi] : (inxy ? P.xin[ui] : S(0));
    } else if (load && s + 1 <= wz + 1) xn = X(s + 1);
#pragma unroll
    for (int l = K; l >= 2; l--) bq[l] = bq[l - 1];
    bq[1]                         = bn;
    bn                            = S(0);
    [[maybe_unused]] bool allzero = true; /* with classes: every point of this warp's K planes in flight has class 0 (one vote a step) */
    if constexpr (classes) {
      constexpr CQ kmask = (CQ) ~(CQ)0 >> (8 * (int)sizeof(CQ) - 8 * K); /* K bytes */
      cq                 = (CQ)((CQ)(cq << 8) | (CQ)cn) & kmask;
      allzero            = HJ_WARP_ALL(cq == 0);
    }
    if (inner && (ST || (s >= 1 && s <= wz))) {
      const long long gk = rz.w0 + s - 1, u = ui - P.box.xm0 * P.box.xm1; /* plane s */
      if (!P.transpose || (ownxy && gk >= rz.o0 && gk < rz.o1)) bn = P.b[u];
      if constexpr (classes) cn = P.rowclass[u];
      else if (PLANES && !(cxy && s >= cz0 && s < cz1)) { /* its row from the planes: into L1 now, read by the K levels from the next step on */
#pragma unroll
        for (int q = 0; q < 6; q++) HJ_PREFETCH_L1(P.coef + (q * P.nlocal + u));
        HJ_PREFETCH_L1(P.invdiag + u);
      }
    }
    S *const       wr = sh + par * np + e;       /* level l's plane of this step: wr + 2 l np */
    const S *const rd = sh + (par ^ 1) * np + e; /* ... and of the previous step */
    if (col) wr[0] = N[0];
    if (inner) {
#pragma unroll
      for (int l = 1; l <= K; l++) {
        const int z = s - l;
        S         v = B[l - 1]; /* frozen (halo planes): level l - 1's value, which is x */
        if (ST || (z >= 1 && z <= wz)) {
          const S *src = rd + 2 * (l - 1) * np;
          auto     yn  = [&](int q) { return q == 0 ? src[-1] : (q == 1 ? src[1] : (q == 2 ? src[-rs] : (q == 3 ? src[rs] : (q == 4 ? A[l - 1] : N[l - 1])))); };
          if constexpr (classes) { /* a warp with any other row takes them all from the table (row 0 is P.cst's): one path, not two */
            const unsigned c = (unsigned)(cq >> (8 * (l - 1))) & 255u;
            if (allzero) v = hj::PointUpdate<3, hj::STAR>(yn, B[l - 1], bq[l], P.cst.invdiag, wgt(l - 1), ConstCoef<S>{P.cst.c});
            else v = hj::PointUpdate<3, hj::STAR>(yn, B[l - 1], bq[l], tsh[8 * c + 6], wgt(l - 1), ConstCoef<S>{tsh + 8 * c});
          } else if (!PLANES || (cxy && z >= cz0 && z < cz1)) v = hj::PointUpdate<3, hj::STAR>(yn, B[l - 1], bq[l], P.cst.invdiag, wgt(l - 1), ConstCoef<S>{P.cst.c});
          else {
            const long long u = ui - (l + 1) * (P.box.xm0 * P.box.xm1);
            v                 = hj::PointUpdate<3, hj::STAR>(yn, B[l - 1], bq[l], P.invdiag[u], wgt(l - 1), GlobalCoef<S>{P.coef, P.nlocal, u});
          }
          if (l == K && (P.transpose || (ownxy && z >= oz0 && z < oz1))) PutResult(P.y.out + (yi - (l + 1) * P.y.os2), (T)v, (bool)P.transpose);
        }
        N[l] = v;
        if (l < K) wr[2 * l * np] = v;
      }
    } else {
#pragma unroll
      for (int l = 1; l <= K; l++) { /* the ring (and idle threads): x at every level */
        N[l] = B[l - 1];
        if (l < K && col) wr[2 * l * np] = N[l];
      }
    }
#pragma unroll
    for (int l = 0; l < K; l++) A[l] = B[l], B[l] = N[l];
    __syncthreads();
  };
  using Dyn    = std::integral_constant<int, -1>;
  using Even   = std::integral_constant<int, (K + 1) & 1>; /* the parity of the first steady step */
  using Odd    = std::integral_constant<int, ((K + 1) & 1) ^ 1>;
  using Steady = std::true_type;
  using Edge   = std::false_type;
  int s        = 0;
#pragma unroll 1
  for (; s <= K; s++) step(s, Edge{}, Dyn{}); /* filling the pipeline */
  if constexpr (FIX && K <= kColumnPairMaxK) {
#pragma unroll 1
    for (; s + 1 <= wz - 1; s += 2) { /* two steps at a time: their planes' parity known */
      step(s, Steady{}, Even{});
      step(s + 1, Steady{}, Odd{});
    }
    if (s <= wz - 1) step(s++, Steady{}, Even{});
  } else {
#pragma unroll 1
    for (; s <= wz - 1; s++) step(s, Steady{}, Dyn{});
  }
#pragma unroll 1
  for (; s <= wz + K; s++) step(s, Edge{}, Dyn{}); /* draining it */
}
} // namespace hjcuda
