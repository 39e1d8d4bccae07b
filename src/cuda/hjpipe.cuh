/* The pipelined tile kernel (-pc_hjacobi_cuda_kernel pipelined; doc/design.md "The 3D kernels"): the cycle of
   TileKernel (same tiles, same shared buffers of W(T) plus its frozen halo, same k damped sweeps of hj::PointUpdate,
   same owned-core write, hence the same results bit for bit), but each block runs several tiles one after the other
   and loads the next tile's x and b into shared memory with asynchronous copies (cp.async, <cuda_pipeline.h>) while
   it sweeps the current one.

   Why: TileKernel's block loads its tile, waits for the loads (a global-memory latency), loads b and the inverse
   diagonal (another), sweeps, writes, and exits: the memory system is busy only while blocks are in their load phase.
   At 257^3 (k = 4, 8^3 tiles, 4 blocks of 256 threads per SM, H100) a cycle took 0.52 ms against the 0.14 ms that
   moving x, b and y costs at the copy bandwidth; neither more points per thread (register strips, TileKernelStrip<3>:
   0.63 ms) nor fewer halo loads per point (the z-marching MarchKernel: 1.1 ms) helped (bench/results/nvidia-h100/README.md).
   Here a block always has the next tile's loads in flight, so its sweeps hide their latency.

   A block runs the tiles n = blockIdx.x + m*gridDim.x (m = 0, 1, ...) of the launch (P.nblk of them; TileId: the
   tile of position n, P.tileids or n itself), at most P.tpb tiles. Shared memory (dynamic): two stages of x (W(T) plus
   halo, P.nbufmax values each) and of b (W(T), P.nptsmax values each), and one work buffer of P.nbufmax values.
   Iteration m (tile n in stage cur = m & 1):
     ranges of tile n + gridDim.x into range[nxt]; barrier A (the ranges are visible; every thread is done with tile
     n - gridDim.x, whose stage nxt and work buffer are free); the copies of tile n + gridDim.x into stage nxt issued
     (one commit group per tile, an empty group after the last tile); wait for all but the newest group (this thread's
     copies of tile n are done); barrier B (everybody's are); this tile's ranges into registers; stage cur's x copied
     into the work buffer (its halo must be frozen in both ping-pong buffers); each thread's b from stage cur and its
     inverse diagonal and coefficients from global memory; barrier C; k sweeps, stage cur and work as the ping-pong
     pair (one barrier between two sweeps, as TileKernel); the owned core from registers to y.
   range[nxt] is rewritten at iteration m only by a thread past barrier C of iteration m - 1, after every thread read
   it there (between B and C). With P.xzero the stage's x is zero (plain stores, visible after barrier B of its
   iteration). Native precision only (S = T), not transposed, one field per point: the plan takes TileKernel otherwise. */
#pragma once

#include <cuda_pipeline.h>
#include "hjkernels.cuh"

namespace hjcuda
{
/* The asynchronous copies of one tile into a stage: W(T) plus halo of xpad into xs (zeros with P.xzero), b of W(T)
   into bs; then one commit group. */
template <int DIM, class T>
__device__ __forceinline__ void PipeIssue(const TileParams<T, T> &P, const hj::Range *rg, T *xs, T *bs)
{
  constexpr int   P1 = DIM > 1, P2 = DIM > 2;
  const hj::Range rx = rg[0], ry = rg[1], rz = rg[2];
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
  const int       sx = wx + 2, sy = wy + 2 * P1, nbuf = sx * sy * (wz + 2 * P2), npts = wx * wy * wz;
  if (P.xzero) {
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) xs[e] = T(0);
  } else {
    const FastDiv fsx(sx), fsy(sy);
    const T      *src = P.xpad + (rx.w0 + P.box.ext0 * (ry.w0 + P.box.ext1 * rz.w0));
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) {
      int x, y, z;
      Unflatten<DIM>(e, fsx, fsy, x, y, z);
      __pipeline_memcpy_async(xs + e, src + (x + P.box.ext0 * (y + P.box.ext1 * (long long)z)), sizeof(T));
    }
  }
  {
    const FastDiv fwx(wx), fwy(wy);
    const T      *src = P.b + (rx.w0 + P.box.xm0 * (ry.w0 + P.box.xm1 * rz.w0));
    for (int e = threadIdx.x; e < npts; e += blockDim.x) {
      int i, j, k;
      Unflatten<DIM>(e, fwx, fwy, i, j, k);
      __pipeline_memcpy_async(bs + e, src + (i + P.box.xm0 * (j + P.box.xm1 * (long long)k)), sizeof(T));
    }
  }
  __pipeline_commit();
}

template <int DIM, int KIND, bool VAR, class T, int PPT>
__global__ void __launch_bounds__(kTileMaxThreads) TilePipeKernel(const TileParams<T, T> P)
{
  constexpr int  NOFF   = hj::NumOffsets(DIM, KIND);
  constexpr int  P1     = DIM > 1, P2 = DIM > 2;
  constexpr bool CACHED = VAR && NOFF * PPT * sizeof(T) <= kCachedCoefBytes;
  __shared__ hj::Range range[2][3];
  T *const             stage[2] = {reinterpret_cast<T *>(hj_smem), reinterpret_cast<T *>(hj_smem) + P.nbufmax};
  T *const             work     = stage[1] + P.nbufmax;
  T *const             bst[2]   = {work + P.nbufmax, work + P.nbufmax + P.nptsmax};

  /* the ranges of the tile at position n of the launch, by DIM threads (unused directions: the single plane 0) */
  auto ranges = [&](long long n, hj::Range *rg) {
    if (threadIdx.x < 3) {
      const int       d   = threadIdx.x;
      const unsigned  bid = P.tileids ? P.tileids[n] : (unsigned)n, n0 = (unsigned)P.ntiles[0], n1 = (unsigned)P.ntiles[1];
      const unsigned  ti  = d == 0 ? bid % n0 : (d == 1 ? (bid / n0) % n1 : bid / (n0 * n1));
      const long long m   = d == 0 ? P.box.xm0 : (d == 1 ? P.box.xm1 : P.box.xm2);
      rg[d]               = d < DIM ? hj::TileRange(m, P.t[d], P.o[d], ti) : hj::Range{0, 1, 0, 1};
    }
  };
  long long n = blockIdx.x;
  if (n >= P.nblk) return;
  ranges(n, range[0]);
  __syncthreads();
  PipeIssue<DIM>(P, range[0], stage[0], bst[0]);

  for (int m = 0; m < P.tpb && n < P.nblk; m++, n += gridDim.x) {
    const int       cur = m & 1, nxt = cur ^ 1;
    const long long n1  = n + gridDim.x;
    const bool      more = m + 1 < P.tpb && n1 < P.nblk;
    if (more) ranges(n1, range[nxt]);
    __syncthreads(); /* A */
    if (more) PipeIssue<DIM>(P, range[nxt], stage[nxt], bst[nxt]);
    else __pipeline_commit(); /* an empty group: the wait below then means tile n's group */
    __pipeline_wait_prior(1);
    __syncthreads(); /* B */

    const hj::Range rx = range[cur][0], ry = range[cur][1], rz = range[cur][2];
    const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
    const int       sx = wx + 2, sy = wy + 2 * P1, nbuf = sx * sy * (wz + 2 * P2), npts = wx * wy * wz;
    T *const        buf0 = stage[cur];
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) work[e] = buf0[e];

    /* this thread's points (TileKernel step 2) */
    const long long ubase = rx.w0 + P.box.xm0 * (ry.w0 + P.box.xm1 * rz.w0);
    const int       ox0 = (int)(rx.o0 - rx.w0), ox1 = (int)(rx.o1 - rx.w0), oy0 = (int)(ry.o0 - ry.w0), oy1 = (int)(ry.o1 - ry.w0), oz0 = (int)(rz.o0 - rz.w0), oz1 = (int)(rz.o1 - rz.w0);
    const FastDiv   fwx(wx), fwy(wy);
    int             off[PPT], owned = 0, cstm = 0;
    long long       u[PPT];
    T               bq[PPT], dq[PPT], yq[PPT];
    T               cq[CACHED ? NOFF : 1][PPT];
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      const int p = q * blockDim.x + threadIdx.x;
      off[q]      = -1;
      u[q]        = 0;
      bq[q] = dq[q] = yq[q] = T(0);
#pragma unroll
      for (int s = 0; s < (CACHED ? NOFF : 1); s++) cq[s][q] = T(0);
      if (p < npts) {
        int i, j, k;
        Unflatten<DIM>(p, fwx, fwy, i, j, k);
        if constexpr (DIM > 1) j = InterleaveRows(j, wx, wy); /* conflict-free half-warps (TileKernel) */
        off[q] = (i + 1) + sx * ((j + P1) + sy * (k + P2));
        u[q]   = ubase + i + P.box.xm0 * (j + P.box.xm1 * (long long)k);
        if (i >= ox0 && i < ox1 && j >= oy0 && j < oy1 && k >= oz0 && k < oz1) owned |= 1 << q;
        if (VAR && P.cint && rx.w0 + i >= P.ilo[0] && rx.w0 + i < P.ihi[0] && ry.w0 + j >= P.ilo[1] && ry.w0 + j < P.ihi[1] && rz.w0 + k >= P.ilo[2] && rz.w0 + k < P.ihi[2]) cstm |= 1 << q;
        bq[q] = bst[cur][i + wx * (j + wy * k)]; /* the stage holds b in W(T)'s natural order, not the threads' */
        if constexpr (VAR) {
          const bool cst = cstm & (1 << q);
          dq[q]          = cst ? P.cst.invdiag : P.invdiag[u[q]];
          if constexpr (CACHED) {
#pragma unroll
            for (int s = 0; s < NOFF; s++) cq[s][q] = cst ? P.cst.c[s] : P.coef[s * P.nlocal + u[q]];
          }
        }
      }
    }
    __syncthreads(); /* C */

    /* k sweeps with the halo frozen: stage cur and work as the ping-pong pair (TileKernel step 3) */
    const long long ssy = sx, ssz = (long long)sx * sy;
    for (int it = 0; it < P.k; it++) {
      const T *src  = (it & 1) ? work : buf0;
      T       *dst  = (it & 1) ? buf0 : work;
      const T *coef = P.coef;
      if constexpr (VAR && !CACHED) asm volatile("" : "+l"(coef));
#pragma unroll
      for (int q = 0; q < PPT; q++) {
        if (off[q] >= 0) {
          if constexpr (!VAR) yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], P.cst.invdiag, P.omega, ConstCoef<T>{P.cst.c});
          else if constexpr (CACHED) yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], P.omega, [&](int s) { return cq[s][q]; });
          else if (cstm & (1 << q)) yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], P.omega, ConstCoef<T>{P.cst.c});
          else yq[q] = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], P.omega, GlobalCoef<T>{coef, P.nlocal, u[q]});
          dst[off[q]] = yq[q];
        }
      }
      if (it + 1 < P.k) __syncthreads();
    }

    /* the owned core from registers (TileKernel step 4) */
    const FastDiv   fsx(sx), fsy(sy);
    const long long obase = P.y.obase + (rx.w0 - 1) + P.y.os1 * (ry.w0 - P1) + P.y.os2 * (rz.w0 - P2);
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      if (owned & (1 << q)) {
        int x, y, z;
        Unflatten<DIM>(off[q], fsx, fsy, x, y, z);
        P.y.out[obase + x + P.y.os1 * y + P.y.os2 * (long long)z] = yq[q];
      }
    }
  }
}
} // namespace hjcuda
