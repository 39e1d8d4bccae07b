/* The residual kernels of the CUDA backend (cuda/residual.cu launches them): r = b - A x from the stencil, one value
   per owned point, in hj::Residual's order (the host backend's formula). Plain device C++ with the macros of device.h
   (test/emulate compiles it as it is; bench/partsalone.cu times it alone).
   - ResidualKernel: any dimension and stencil; one thread per owned point of an x-y plane.
   - ResidualMarchKernel: 3D star stencils (issue 28: the finest level's residual of a V-cycle); a block of
     kResidualBlock threads holds a 32 x 8 lateral tile and each thread marches along z over a run of kResidualRun
     points, the three values of its column along z in registers: x is read once per point from memory and the lateral
     neighbours from L1, with int offsets and no division per point. At 257^3 on an H100 0.188 against 0.210 ms for
     ResidualKernel (bench/partsalone); in 2D (a 256-point lateral tile, the march along y) it was no faster
     than ResidualKernel (0.159 against 0.157 ms at 4097^2), so 2D keeps ResidualKernel.
   The march's blocks (MarchTile, MarchBlocks, MarchPoint) serve the transfer marches too (transfer.cuh). */
#pragma once

#include <cuda_runtime.h>
#include "arith/point.hpp"
#include "device.h"

namespace hjcuda
{
constexpr int kResidualBlock = 256; /* threads per block of both kernels */
constexpr int kResidualRun   = 16;  /* points per thread of the march */

template <class T>
struct ResidualArgs {
  const T  *xpad; /* x with its ghost layer (zero outside the domain) */
  const T  *x;    /* direct: x itself (owned points) */
  const T  *b;
  T        *r;               /* owned points, x fastest */
  const T  *coef;            /* variable stencil: [noff][nlocal] planes */
  const T  *invdiag;         /* variable stencil: [nlocal] */
  T         crow[26], cdiag; /* constant stencil, or the row of every point of [ilo, ihi) (cint): the row and the diagonal itself */
  int       cint;            /* variable stencil whose points in the owned-coordinate box [ilo, ihi) all have the row crow (the
                                plan's test, cuda/plan/interior.cu): the planes are read outside that box only */
  long long ilo[3], ihi[3];
  long long xm0, xm1, xm2, ext0, ext1, nlocal;
};

template <class T>
struct PlaneCoef { /* the coefficients of point u: plane s at u (consecutive threads, consecutive u: coalesced) */
  const T                     *c;
  long long                    nlocal;
  __device__ __forceinline__ T operator()(int s) const { return c[s * nlocal]; }
};
template <class T>
struct RowCoef { /* the constant row, from the kernel's parameters */
  const T                     *c;
  __device__ __forceinline__ T operator()(int s) const { return c[s]; }
};

/* The neighbours of owned point (i, j, k) read from x itself (no padded copy), zero outside the owned box: the operator's
   neighbours when there is no ghost value anywhere (one rank, no periodic direction: HJLayoutCreateGhostSF makes no SF) */
template <int DIM, int KIND, class T>
struct BoxNeighbours {
  const T                     *x;
  long long                    i, j, k, xm0, xm1, xm2;
  __device__ __forceinline__ T operator()(int s) const
  {
    const long long p = i + hj::Offset(DIM, KIND, s, 0), q = j + hj::Offset(DIM, KIND, s, 1), w = k + hj::Offset(DIM, KIND, s, 2);
    return p >= 0 && p < xm0 && q >= 0 && q < xm1 && w >= 0 && w < xm2 ? x[p + xm0 * (q + xm1 * w)] : T(0);
  }
};

/* One thread per owned point of an x-y plane (the plane's points numbered x fastest, so that every thread of a block has
   a point whatever the grid's width: a 257-wide grid left a fifth of the blocks of a row-shaped layout nearly idle),
   blockIdx.z and a grid-stride loop over z (any extent fits the grid limits). The ghost layer holds the neighbours'
   values, and zero outside the domain, so the constant row needs no test at the boundary. DIRECT: x read in place
   (BoxNeighbours), xpad unused. */
template <int DIM, int KIND, bool VAR, bool DIRECT, class T>
__global__ void __launch_bounds__(kResidualBlock) ResidualKernel(const ResidualArgs<T> a)
{
  constexpr long long P1 = DIM > 1, P2 = DIM > 2;
  const long long     sy = a.ext0, sz = a.ext0 * a.ext1, plane = a.xm0 * a.xm1;
  const bool          narrow = plane < (1LL << 31); /* 32-bit divisions (uniform branch) */
#pragma unroll 1
  for (long long k = blockIdx.z; k < a.xm2; k += gridDim.z) {
#pragma unroll 1
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < plane; v += (long long)gridDim.x * blockDim.x) {
      const long long j = narrow ? (long long)((unsigned)v / (unsigned)a.xm0) : v / a.xm0, i = v - j * a.xm0;
      const long long u  = i + a.xm0 * (j + a.xm1 * k);
      const T         bu = a.b[u];
      T               ru;
      bool            row = !VAR;
      if constexpr (VAR) row = a.cint && i >= a.ilo[0] && i < a.ihi[0] && j >= a.ilo[1] && j < a.ihi[1] && k >= a.ilo[2] && k < a.ihi[2];
      if constexpr (DIRECT) {
        const BoxNeighbours<DIM, KIND, T> xn = {a.x, i, j, k, a.xm0, a.xm1, a.xm2};
        if (row) ru = hj::Residual<DIM, KIND>(xn, a.x[u], bu, a.cdiag, RowCoef<T>{a.crow});
        else ru = hj::Residual<DIM, KIND>(xn, a.x[u], bu, T(1) / a.invdiag[u], PlaneCoef<T>{a.coef + u, a.nlocal});
      } else {
        const T *xc = a.xpad + ((i + 1) + sy * (j + P1) + sz * (k + P2));
        if (row) ru = hj::Residual<DIM, KIND>(xc, sy, sz, bu, a.cdiag, RowCoef<T>{a.crow});
        else ru = hj::Residual<DIM, KIND>(xc, sy, sz, bu, T(1) / a.invdiag[u], PlaneCoef<T>{a.coef + u, a.nlocal});
      }
      a.r[u] = ru;
    }
  }
}

/* The largest extent a march takes along any direction (MarchPoint's int arithmetic: extent + tile and run stay below
   2^31) */
constexpr long long kMarchMaxExtent = 1LL << 30;

/* The lateral tile of a march block: 32 x 8 points in 3D (x, y), 256 in 2D (x); the march direction is z in 3D, y in 2D */
template <int DIM>
struct MarchTile {
  static constexpr int bx = DIM == 3 ? 32 : kResidualBlock, by = kResidualBlock / bx;
};

/* The blocks of a march over an n0 x n1 lateral box (n1 = 1 in 2D) and nm points along the march, in runs of run
   points: one-dimensional (no grid limit below 2^31 blocks), block b is lateral tile (b % nb0, (b / nb0) % nb1) and
   run b / (nb0 nb1) */
template <int DIM>
HJ_HD long long MarchBlocks(long long n0, long long n1, long long nm, int run)
{
  return ((n0 + MarchTile<DIM>::bx - 1) / MarchTile<DIM>::bx) * ((n1 + MarchTile<DIM>::by - 1) / MarchTile<DIM>::by) * ((nm + run - 1) / run);
}

/* This thread's lateral point (i, j) and run [m0, m1) of a march (MarchBlocks); false: no point */
template <int DIM>
__device__ __forceinline__ bool MarchPoint(int n0, int n1, int nm, int run, int *i, int *j, int *m0, int *m1)
{
  constexpr int  BX = MarchTile<DIM>::bx, BY = MarchTile<DIM>::by;
  const unsigned nb0 = (unsigned)(n0 + BX - 1) / BX, nb1 = (unsigned)(n1 + BY - 1) / BY, b = blockIdx.x;
  *i  = (int)(b % nb0) * BX + (int)(threadIdx.x % BX);
  *j  = (int)((b / nb0) % nb1) * BY + (int)(threadIdx.x / BX);
  *m0 = (int)(b / (nb0 * nb1)) * run;
  *m1 = *m0 + run < nm ? *m0 + run : nm;
  return *i < n0 && *j < n1;
}

/* a point's neighbours in hj::Offset's star order, held in registers */
template <int DIM, class T>
struct StarValues {
  T                            v[2 * DIM];
  __device__ __forceinline__ T operator()(int s) const { return v[s]; }
};

/* The march (see the top): 3D star stencils, owned boxes whose extents are at most kMarchMaxExtent and whose march
   blocks (MarchBlocks) are below 2^31 (cuda/residual.cu checks). Lateral neighbours: in the same plane of the padded array (xpad) or of x itself (DIRECT,
   zero outside the owned box, as BoxNeighbours); along z: the registers zb (below), zc (the point), za (above, loaded
   per step; loading it and b a step ahead measured slower: 0.203 against 0.188 ms, bench/partsalone). The rows:
   as ResidualKernel. */
template <bool VAR, bool DIRECT, class T>
__global__ void __launch_bounds__(kResidualBlock) ResidualMarchKernel(const ResidualArgs<T> a)
{
  const int n0 = (int)a.xm0, n1 = (int)a.xm1, nm = (int)a.xm2;
  int       i, j, m0, m1;
  if (!MarchPoint<3>(n0, n1, nm, kResidualRun, &i, &j, &m0, &m1)) return;
  /* strides along y and z in the array read (xpad or x), and along z in the owned arrays */
  const long long sy = DIRECT ? a.xm0 : a.ext0, sz = DIRECT ? a.xm0 * a.xm1 : a.ext0 * a.ext1, us = a.xm0 * a.xm1;
  long long       u  = i + a.xm0 * (long long)j + us * m0;
  const T        *xc = DIRECT ? a.x + u : a.xpad + ((i + 1) + sy * (j + 1) + sz * (m0 + 1));
  const bool      hw = !DIRECT || i > 0, he = !DIRECT || i < n0 - 1, hs = !DIRECT || j > 0, hn = !DIRECT || j < n1 - 1;
  const bool      rowl = !VAR || (a.cint && i >= a.ilo[0] && i < a.ihi[0] && j >= a.ilo[1] && j < a.ihi[1]);
  const int       mlo = VAR ? (int)a.ilo[2] : 0, mhi = VAR ? (int)a.ihi[2] : 0;
  T               zb = !DIRECT || m0 > 0 ? xc[-sz] : T(0), zc = xc[0];
#pragma unroll 2
  for (int m = m0; m < m1; m++) {
    const T          za = !DIRECT || m + 1 < nm ? xc[sz] : T(0);
    StarValues<3, T> nb;
    nb.v[0]    = hw ? xc[-1] : T(0);
    nb.v[1]    = he ? xc[1] : T(0);
    nb.v[2]    = hs ? xc[-sy] : T(0);
    nb.v[3]    = hn ? xc[sy] : T(0);
    nb.v[4]    = zb;
    nb.v[5]    = za;
    const T bu = a.b[u];
    T       ru;
    if (rowl && (!VAR || (m >= mlo && m < mhi))) ru = hj::Residual<3, hj::STAR>(nb, zc, bu, a.cdiag, RowCoef<T>{a.crow});
    else ru = hj::Residual<3, hj::STAR>(nb, zc, bu, T(1) / a.invdiag[u], PlaneCoef<T>{a.coef + u, a.nlocal});
    a.r[u] = ru;
    zb     = zc;
    zc     = za;
    xc += sz;
    u += us;
  }
}
} // namespace hjcuda
