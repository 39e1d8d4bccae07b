/* The CUDA kernels of PCHJACOBI (doc/design.md, "One PCApply"): the hierarchical tile kernel, the fused classic
   sweep (k = 1) and two helpers. Templated on the dimension, the stencil kind, constant or variable coefficients,
   the global scalar T and the scalar S of the sub-iterations in shared memory. No PETSc here: this header is
   plain CUDA C++ so that it can be tested apart from PETSc.

   Arrays (all device memory):
     xpad, ypad  padded arrays, index (i+1) + ext0*((j+P1) + ext1*(k+P2)), P1 = DIM > 1, P2 = DIM > 2
     b, x        unpadded owned arrays, index i + xm0*(j + xm1*k)
     coef        [noff][nlocal] (one plane per stencil offset, unpadded index), invdiag [nlocal]
   Global offsets are 64-bit; offsets inside one tile or one shared-memory buffer are int. */
#pragma once

#include <petschjacobi/private/hjpoint.hpp>
#include "hjlaunch.h"

namespace hjcuda
{
template <class T, class S>
struct TileParams {
  const T          *xpad;    /* read: x with its ghost layer */
  const T          *b;       /* read: right-hand side, unpadded */
  Output<T>         y;       /* write: the owned core of every tile */
  const S          *coef;    /* variable coefficients, [noff][nlocal], in S */
  const S          *invdiag; /* [nlocal], in S */
  ConstStencil<S>   cst;     /* constant coefficients */
  S                 omega;
  long long         nlocal;
  Box               box;
  long long         t[3], o[3], ntiles[3]; /* tile, overlap, tiles per direction (unused directions: 1, 0, 1) */
  int               k;                     /* sub-iterations */
  int               xzero;                 /* x is zero everywhere (first cycle from a zero guess): do not read xpad */
};

template <class T>
struct ClassicParams {
  const T          *xpad, *b;
  Output<T>         y;
  const T          *coef, *invdiag;
  ConstStencil<T>   cst;
  T                 omega;
  long long         nlocal;
  Box               box;
  int               xzero;
};

/* Dynamic shared memory, shared by every instantiation (hence untyped). */
extern __shared__ __align__(16) unsigned char hj_smem[];

/* Coefficient accessors passed to hj::PointUpdate: a(s) is the coefficient of offset s at this point. */
template <class S>
struct ConstCoef {
  const S *c;
  __device__ __forceinline__ S operator()(int s) const { return c[s]; }
};
template <class S>
struct GlobalCoef { /* read from the planes in global memory (read-only path) every time */
  const S  *coef;
  long long nlocal, u;
  __device__ __forceinline__ S operator()(int s) const { return __ldg(coef + s * nlocal + u); }
};
template <class S>
struct ZeroCoef {
  __device__ __forceinline__ S operator()(int) const { return S(0); }
};

/*
  The hierarchical tile kernel: one thread block per tile T (blockIdx.x -> tile (ti,tj,tk), x fastest).
  1. Load W(T) plus the one-point halo H(T) from xpad into two shared buffers (the halo is then frozen in both).
  2. Each thread owns up to PPT points of W(T) (point p = q*blockDim.x + threadIdx.x in x-fastest order over the
     clipped W(T)); it keeps their shared-memory offset, b, invdiag and, for STAR variable coefficients with
     PPT <= 4, their coefficients in registers (arrays indexed only by the unrolled q).
  3. k Jacobi sweeps, ping-pong between the buffers: sweep `it` reads buf[it&1] and writes buf[(it+1)&1] at W(T)
     points only. One __syncthreads() per sweep suffices: it orders the writes of sweep it before the reads of
     sweep it+1, and the reads of sweep it before the writes of sweep it+1 (which go to the buffer sweep it read).
  4. Write the owned core (hj::TileRange o0..o1) from the final buffer to y (ypad's interior or x), coalesced.
  S = float with T = double is the single-precision inner mode (see hjcuda.cu for what it costs).
*/
template <int DIM, int KIND, bool VAR, class T, class S, int PPT>
__global__ void __launch_bounds__(kTileMaxThreads) TileKernel(const TileParams<T, S> P)
{
  constexpr int  NOFF   = hj::NumOffsets(DIM, KIND);
  constexpr int  P1     = DIM > 1, P2 = DIM > 2; /* ghost layer in y, z */
  constexpr bool CACHED = VAR && KIND == hj::STAR && PPT <= 4;

  /* this block's tile */
  long long       bid = blockIdx.x;
  const long long ti  = bid % P.ntiles[0];
  bid /= P.ntiles[0];
  const long long tj = bid % P.ntiles[1], tk = bid / P.ntiles[1];
  const hj::Range rx = hj::TileRange(P.box.xm0, P.t[0], P.o[0], ti);
  const hj::Range ry = hj::TileRange(P.box.xm1, P.t[1], P.o[1], tj);
  const hj::Range rz = hj::TileRange(P.box.xm2, P.t[2], P.o[2], tk);
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
  const int       sx = wx + 2, sy = wy + 2 * P1, sz = wz + 2 * P2; /* buffer extents: W(T) plus halo */
  const int       nbuf = sx * sy * sz;
  S *const        buf0 = reinterpret_cast<S *>(hj_smem);
  S *const        buf1 = buf0 + nbuf;

  /* 1. W(T) + H(T). In padded coordinates the halo starts at w0 - 1 + 1 = w0 in used directions (and w0 = 0 in
     unused ones), so the box to copy starts at padded (rx.w0, ry.w0, rz.w0). */
  {
    const T *src = P.xpad + (rx.w0 + P.box.ext0 * (ry.w0 + P.box.ext1 * rz.w0));
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) {
      S v = S(0);
      if (!P.xzero) {
        const int x = e % sx, r = e / sx, y = r % sy, z = r / sy;
        v = (S)src[x + P.box.ext0 * (y + P.box.ext1 * (long long)z)];
      }
      buf0[e] = v;
      buf1[e] = v;
    }
  }

  /* 2. this thread's points */
  const long long ubase = rx.w0 + P.box.xm0 * (ry.w0 + P.box.xm1 * rz.w0);
  const int       npts  = wx * wy * wz;
  int             off[PPT];
  long long       u[PPT];
  S               bq[PPT], dq[PPT];
  S               cq[CACHED ? NOFF : 1][PPT];
#pragma unroll
  for (int q = 0; q < PPT; q++) {
    const int p = q * blockDim.x + threadIdx.x;
    off[q]      = -1;
    u[q]        = 0;
    bq[q]       = S(0);
    dq[q]       = S(0);
#pragma unroll
    for (int s = 0; s < (CACHED ? NOFF : 1); s++) cq[s][q] = S(0);
    if (p < npts) {
      const int i = p % wx, r = p / wx, j = r % wy, k = r / wy;
      off[q]      = (i + 1) + sx * ((j + P1) + sy * (k + P2));
      u[q]        = ubase + i + P.box.xm0 * (j + P.box.xm1 * (long long)k);
      bq[q]       = (S)P.b[u[q]];
      if constexpr (VAR) {
        dq[q] = P.invdiag[u[q]];
        if constexpr (CACHED) {
#pragma unroll
          for (int s = 0; s < NOFF; s++) cq[s][q] = P.coef[s * P.nlocal + u[q]];
        }
      }
    }
  }
  __syncthreads();

  /* 3. k sweeps with the halo frozen */
  const long long ssy = sx, ssz = (long long)sx * sy;
  for (int it = 0; it < P.k; it++) {
    const S *src = (it & 1) ? buf1 : buf0;
    S       *dst = (it & 1) ? buf0 : buf1;
#pragma unroll
    for (int q = 0; q < PPT; q++) {
      if (off[q] >= 0) {
        S y;
        if constexpr (!VAR) {
          y = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], P.cst.invdiag, P.omega, ConstCoef<S>{P.cst.c});
        } else if constexpr (CACHED) {
          y = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], P.omega, [&](int s) { return cq[s][q]; });
        } else {
          y = hj::PointUpdate<DIM, KIND>(src + off[q], ssy, ssz, bq[q], dq[q], P.omega, GlobalCoef<S>{P.coef, P.nlocal, u[q]});
        }
        dst[off[q]] = y;
      }
    }
    __syncthreads();
  }

  /* 4. the owned core */
  {
    const S  *fin = (P.k & 1) ? buf1 : buf0;
    const int ox = (int)(rx.o0 - rx.w0), oy = (int)(ry.o0 - ry.w0), oz = (int)(rz.o0 - rz.w0);
    const int nx = (int)(rx.o1 - rx.o0), ny = (int)(ry.o1 - ry.o0), nz = (int)(rz.o1 - rz.o0);
    const int nown = nx * ny * nz;
    T *const  dst  = P.y.out + (P.y.obase + rx.o0 + P.y.os1 * ry.o0 + P.y.os2 * rz.o0);
    for (int e = threadIdx.x; e < nown; e += blockDim.x) {
      const int i = e % nx, r = e / nx, j = r % ny, k = r / ny;
      dst[i + P.y.os1 * j + P.y.os2 * (long long)k] = (T)fin[(ox + i + 1) + sx * ((oy + j + P1) + sy * (oz + k + P2))];
    }
  }
}

/*
  The fused classic sweep (k = 1: one cycle is one damped Jacobi sweep, ALGORITHM.md): one thread per owned point,
  threads along x (coalesced), neighbours read straight from xpad through L1/L2. Blocks are
  (blockDim.x, blockDim.y) with grid-stride loops over y and z so that any extent fits the grid limits.
  With xzero the sweep starts from x = 0: hj::PointUpdate reads a zero neighbourhood instead of xpad.
*/
template <int DIM, int KIND, bool VAR, class T>
__global__ void __launch_bounds__(kClassicBlockSize) ClassicKernel(const ClassicParams<T> P)
{
  constexpr int P1 = DIM > 1, P2 = DIM > 2;
  const int     i  = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= P.box.xm0) return;
  for (long long k = blockIdx.z; k < P.box.xm2; k += gridDim.z) {
    for (long long j = (long long)blockIdx.y * blockDim.y + threadIdx.y; j < P.box.xm1; j += (long long)gridDim.y * blockDim.y) {
      const long long u  = i + P.box.xm0 * (j + P.box.xm1 * k);
      const long long pi = (i + 1) + P.box.ext0 * ((j + P1) + P.box.ext1 * (k + P2));
      const T         bv = P.b[u];
      T               dv = P.cst.invdiag, y;
      if constexpr (VAR) dv = P.invdiag[u];
      if (P.xzero) {
        const T zero[27] = {};
        y                = hj::PointUpdate<DIM, KIND>(zero + 13, 3, 9, bv, dv, P.omega, ZeroCoef<T>{});
      } else if constexpr (VAR) {
        y = hj::PointUpdate<DIM, KIND>(P.xpad + pi, P.box.ext0, P.box.ext0 * P.box.ext1, bv, dv, P.omega, GlobalCoef<T>{P.coef, P.nlocal, u});
      } else {
        y = hj::PointUpdate<DIM, KIND>(P.xpad + pi, P.box.ext0, P.box.ext0 * P.box.ext1, bv, dv, P.omega, ConstCoef<T>{P.cst.c});
      }
      P.y.out[P.y.obase + i + P.y.os1 * j + P.y.os2 * k] = y;
    }
  }
}

/* xpad interior <- x (same block shape as ClassicKernel). */
template <int DIM, class T>
__global__ void __launch_bounds__(kClassicBlockSize) PadCopyKernel(const T *x, T *xpad, Box box)
{
  constexpr int P1 = DIM > 1, P2 = DIM > 2;
  const int     i  = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= box.xm0) return;
  for (long long k = blockIdx.z; k < box.xm2; k += gridDim.z)
    for (long long j = (long long)blockIdx.y * blockDim.y + threadIdx.y; j < box.xm1; j += (long long)gridDim.y * blockDim.y)
      xpad[(i + 1) + box.ext0 * ((j + P1) + box.ext1 * (k + P2))] = x[i + box.xm0 * (j + box.xm1 * k)];
}

/* to[i] = (To)from[i]: single-precision copies of the coefficient planes for the single-precision inner mode */
template <class To, class From>
__global__ void ConvertKernel(long long n, const From *from, To *to)
{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) to[i] = (To)from[i];
}
} // namespace hjcuda
