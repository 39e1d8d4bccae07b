/* The z-marching 3D tile kernel (-pc_hjacobi_cuda_kernel march; doc/design.md "The 3D kernels"): the cycle of
   ALGORITHM.md for a tile T of any shape, computed plane by plane along z instead of all of W(T) at once, so that a
   tile long in z (say 32 x 16 x 64) costs shared memory for a few planes only. Same tiles (hj::TileRange), same frozen
   halo, same k damped sweeps of hj::PointUpdate, same owned-core write as TileKernel<3>: the results are the same to
   rounding (the sums are formed in the same order).

   Why: TileKernel<3> keeps the whole working region plus its halo in shared memory, which limits a tile to a few
   hundred points (8 x 8 x 8 by default) of which the halo is almost half (10^3 loads for 8^3 results), and keeps few
   points per thread. Marching through z (Giles et al., ../shared/seeds/003; NVIDIA's FDTD3d keeps a register queue
   along z the same way) loads each plane of x once, with a halo only in x and y.

   The pipeline. Buffer planes z = 0..wz+1 of the tile (0 and wz+1: the frozen halo planes), levels s = 0..k (level 0:
   x as loaded, level s: after s sweeps). Level s of plane z needs level s-1 of planes z-1, z, z+1. At step t the
   block loads level 0 of plane t and computes level s of plane t - 2s for s = 1..k: everything a step reads was
   written in an earlier step (level s-1 of plane t-2s+1 at step t-1), so one __syncthreads() per step orders it all.
   Level s < k keeps its planes in a ring of 4 plane buffers (slot z & 3): at step t level s-1 writes plane t-2s+2
   while level s reads t-2s-1..t-2s+1, four different slots. Level k is not stored: its owned points go to y.
   Every plane buffer covers W(T)'s x-y extent plus the halo ring; a halo position, and every position of a halo plane,
   holds the frozen level-0 value at every level (copied level to level by the thread that owns the position).
   The right-hand side of a point (b; in correction form the residual of x in T, formed at level 1) is kept for levels
   1..k in a ring of 2k+1 plane buffers (slot z mod 2k+1: the write of plane t at step t never meets the reads of
   planes t-2, ..., t-2k); only the thread that owns the position reads it, so it needs no barrier. x and b of a plane
   are loaded kMarchPrefetch steps ahead into registers (a queue), so the loads' latency overlaps the steps between.
   Shared memory: (4k + 2k + 1) planes of (wx+2)(wy+2) values of S (MarchSharedBytes in hjlaunch.h).

   Threads: position p = q*blockDim.x + threadIdx.x of a plane (x fastest, halo included), q < PPT. Variable
   coefficients and the inverse diagonal are read from global memory at every level (L1/L2: the planes a block
   reads at step t were read at step t-2 by the level below), except with P.cint inside the box [ilo, ihi), where
   every row is P.cst (an operator constant but for its boundary rows, hjinterior.cu): there the update takes the
   constant row and reads no plane, so the cycle moves x and b only, as for a constant stencil. P.transpose (with P.xzero): the transposed correction,
   as TileKernel (right-hand side only on owned points, every point of W(T) added into y). S = float: the correction
   form of TileKernel (level 0 is zero, the right-hand side the residual formed in T, x + delta written). */
#pragma once

#include "hjkernels.cuh"

namespace hjcuda
{
/* The neighbours of a point in one level's planes z-1, z, z+1 (pm, pc, pp point at the point's position in each;
   x-y strides 1, sx): hj::Offset order. The offsets are compile-time constants once OffDiagonalSum unrolls. */
template <int KIND, class S>
struct RingNeighbours {
  const S *pm, *pc, *pp;
  int      sx;
  __device__ __forceinline__ S operator()(int s) const
  {
    const int dx = hj::Offset(3, KIND, s, 0), dy = hj::Offset(3, KIND, s, 1), dz = hj::Offset(3, KIND, s, 2);
    return (dz < 0 ? pm : (dz > 0 ? pp : pc))[dx + sx * dy];
  }
};

/* planes loaded ahead of the step that stores them */
constexpr int kMarchPrefetch = 3;

template <int KIND, bool VAR, class T, class S, int PPT>
__global__ void __launch_bounds__(kTileMaxThreads) MarchKernel(const TileParams<T, S> P)
{
  constexpr bool CORR = kCorrection<T, S>;
  __shared__ hj::Range range[3];

  TileRanges<3>(P, range);
  const hj::Range rx = range[0], ry = range[1], rz = range[2];
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
  const int       sx = wx + 2, np = sx * (wy + 2); /* one plane of W(T) with its halo ring */
  const int       K = P.k, NR = 2 * K + 1;
  S *const        ring = reinterpret_cast<S *>(hj_smem); /* [K][4][np]: level s, plane z in slot z & 3 */
  S *const        rhs  = ring + (size_t)4 * K * np;      /* [NR][np]: right-hand side of plane z in slot z % NR */
  const long long xs1 = P.box.ext0, xs2 = P.box.ext0 * P.box.ext1;
  const long long ls2 = P.box.xm0 * P.box.xm1;

  /* this thread's positions: buffer (x, y), interior (not the halo ring), owned in x-y, and the offsets of (x, y, 0)
     in xpad (buffer coordinates) and of the interior point (x-1, y-1, plane 1) in the unpadded arrays */
  int       pos[PPT], flags[PPT]; /* bit 0: interior, bit 1: owned in x-y, bit 2: in x-y of the constant box; pos -1: none */
  long long xoff[PPT], uoff[PPT];
  {
    const FastDiv   fsx(sx);
    const int       ox0 = (int)(rx.o0 - rx.w0) + 1, ox1 = (int)(rx.o1 - rx.w0) + 1, oy0 = (int)(ry.o0 - ry.w0) + 1, oy1 = (int)(ry.o1 - ry.w0) + 1;
    /* xpad in buffer coordinates (plane z of the march is buffer plane z), b and the planes in W(T) coordinates */
    const auto      xv = hj::Padded(P.xpad, 3, P.box.ext0, P.box.ext1).Shifted(rx.w0 - 1, ry.w0 - 1, rz.w0 - 1);
    const auto      uv = hj::Unpadded(P.b, P.box.xm0, P.box.xm1).Shifted(rx.w0, ry.w0, rz.w0);
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      const int p = q * blockDim.x + threadIdx.x;
      int       x, y = 0;
      pos[q] = -1, flags[q] = 0, xoff[q] = 0, uoff[q] = 0;
      if (p < np) {
        y        = fsx(p, x);
        pos[q]   = p;
        flags[q] = (x >= 1 && x <= wx && y >= 1 && y <= wy) | ((x >= ox0 && x < ox1 && y >= oy0 && y < oy1) << 1);
        if (VAR && P.cint) {
          const long long gi = rx.w0 + x - 1, gj = ry.w0 + y - 1;
          flags[q] |= (gi >= P.ilo[0] && gi < P.ihi[0] && gj >= P.ilo[1] && gj < P.ihi[1]) << 2;
        }
        xoff[q]  = xv.Index(x, y, 0);
        uoff[q]  = uv.Index(x - 1, y - 1, 0);
      }
    }
  }
  const int       oz0 = (int)(rz.o0 - rz.w0) + 1, oz1 = (int)(rz.o1 - rz.w0) + 1;
  /* y's offset of buffer (0, 0, 0). The write below adds x + os1*y + os2*z itself, and the geometry above is not
     hj::TileBox: either change moves the 128-register instantiations (3D box, PPT 4, double) to more spills (ptxas,
     sm_90), an allocation this kernel is at the edge of. */
  const long long obase = hj::OutputView(P.y).Shifted(rx.w0 - 1, ry.w0 - 1, rz.w0 - 1).base;
  const bool      load  = !CORR && !P.xzero; /* level 0 is x; else zero (the correction, or x = 0) */

  /* x and b of plane t are loaded kPrefetch steps before step t stores them (level 0, the right-hand side ring): a
     step's own work is short, so a load issued in the same step would expose the whole memory latency every step */
  constexpr int PF = kMarchPrefetch;
  S             qx[PF][PPT], qb[PF][PPT];
  auto          fetch = [&](int tt, S *vx, S *vb) {
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      vx[q] = vb[q] = S(0);
      if (pos[q] < 0 || tt > wz + 1) continue;
      if (load) vx[q] = (S)P.xpad[xoff[q] + xs2 * tt];
      if ((flags[q] & 1) && tt >= 1 && tt <= wz && (!P.transpose || ((flags[q] & 2) && tt >= oz0 && tt < oz1))) vb[q] = (S)P.b[uoff[q] + ls2 * (tt - 1)];
    }
  };
#pragma unroll
  for (int i = 0; i < PF; i++) fetch(i, qx[i], qb[i]);

  /* step t with plane t in queue slot (qx, qb): the levels, then plane t stored and the slot refilled with plane t + PF.
     The loop below unrolls PF steps so that each slot is a fixed set of registers, consumed PF steps after its load
     was issued (moving a loaded value between registers would wait for the load in the step that issued it). */
  auto step = [&](int t, S *qxs, S *qbs) {
    for (int s = 1; s <= K; s++) {
      const int z = t - 2 * s;
      if (z < 0 || z > wz + 1) continue;
      const S  *src = ring + (size_t)(s - 1) * 4 * np;
      const S  *pm = src + ((z - 1) & 3) * np, *pc = src + (z & 3) * np, *pp = src + ((z + 1) & 3) * np;
      S        *dst  = s < K ? ring + (size_t)(s * 4 + (z & 3)) * np : nullptr;
      S        *rhsz = rhs + (size_t)(z % NR) * np;
      const bool halo = z == 0 || z == wz + 1;
      const bool zin  = VAR && P.cint && rz.w0 + z - 1 >= P.ilo[2] && rz.w0 + z - 1 < P.ihi[2]; /* plane z in the constant box */
#pragma unroll
      for (int q = 0; q < PPT; q++) {
        const int p = pos[q];
        if (p < 0) continue;
        S v = pc[p];
        if (!halo && (flags[q] & 1)) {
          const long long u = uoff[q] + ls2 * (z - 1);
          const bool      cst = !VAR || (zin && (flags[q] & 4)); /* the constant row here: no planes read */
          S               r, invd;
          if (cst) invd = P.cst.invdiag;
          else invd = P.invdiag[u];
          r = rhsz[p]; /* b (masked when transposed), stored by the step that loaded plane z */
          if (CORR && s == 1 && !P.xzero) { /* correction form: the residual of x in T replaces it, for the levels above */
            const T *xc = P.xpad + (xoff[q] + xs2 * z);
            if (cst) r = (S)hj::Residual<3, KIND>(xc, xs1, xs2, P.b[u], T(1) / P.cstT.invdiag, ConstCoef<T>{P.cstT.c});
            else r = (S)hj::Residual<3, KIND, false>(xc, xs1, xs2, P.b[u], T(1) / P.invdiagT[u], GlobalCoef<T>{P.coefT, P.nlocal, u});
            rhsz[p] = r;
          }
          const RingNeighbours<KIND, S> yn{pm + p, pc + p, pp + p, sx};
          if (cst) v = hj::PointUpdate<3, KIND>(yn, v, r, invd, P.omega, ConstCoef<S>{P.cst.c});
          else v = hj::PointUpdate<3, KIND>(yn, v, r, invd, P.omega, GlobalCoef<S>{P.coef, P.nlocal, u});
        }
        if (s < K) dst[p] = v;
        else if (!halo && (flags[q] & 1) && (P.transpose || ((flags[q] & 2) && z >= oz0 && z < oz1))) {
          const int x = p % sx, y = p / sx;
          T         out = (T)v;
          if constexpr (CORR)
            if (!P.xzero) out += P.xpad[xoff[q] + xs2 * z];
          PutResult(P.y.out + (obase + x + P.y.os1 * y + P.y.os2 * (long long)z), out, P.transpose);
        }
      }
    }
    if (t <= wz + 1) { /* plane t: level 0 and the right-hand side */
      S *d0 = ring + (size_t)(t & 3) * np, *r0 = rhs + (size_t)(t % NR) * np;
#pragma unroll
      for (int q = 0; q < PPT; q++)
        if (pos[q] >= 0) d0[pos[q]] = qxs[q], r0[pos[q]] = qbs[q];
    }
    fetch(t + PF, qxs, qbs);
    __syncthreads();
  };
  const int tmax = wz + 1 + 2 * K;
  for (int t0 = 0; t0 <= tmax; t0 += PF) {
#pragma unroll
    for (int j = 0; j < PF; j++)
      if (t0 + j <= tmax) step(t0 + j, qx[j], qb[j]);
  }
}
} // namespace hjcuda
