/* The grid transfer kernels of hjmg on the device (cuda/transfer.cu launches them): the interpolation P and the
   restriction P^T of arith/transfer.hpp (its weights, its boxes), w = P x (+ y) or w = P^T x (+ y). Plain device C++
   with the macros of device.h (test/emulate compiles it as it is; bench/partsalone.cu times it alone).
   - TransferKernel: any dimension, dof and periodicity; one thread per output value, arith/transfer.hpp's point
     formulas in their order (the host loops' order: the backends agree bit for bit).
   - TransferMarchKernel: 2D and 3D, dof 1, no index to wrap (no periodic direction, or the input is a ghosted box
     that holds the periodic neighbours); the blocks of the residual's march (residual.cuh: a lateral tile, each thread
     a run along the last direction). The interpolation forms the lateral part of P x on a coarse plane once and uses
     it for the two or three fine planes it reaches; the restriction forms the 3 x 3 (2D: 3) weighted lateral sum of a
     fine plane once for the two coarse planes that read it. The same weights, summed in another order than the
     point formulas: the backends agree to rounding. */
#pragma once

#include <climits>
#include "arith/transfer.hpp"
#include "device.h"
#include "residual.cuh"

namespace hjcuda
{
constexpr int kTransferBlock = 256;
constexpr int kTransferRun   = 16; /* output points per thread of the march */

/* One thread per output point and component, numbered as the output array (x fastest, the dof values of a point
   together), so that every thread of every block has a point whatever the grid's width; IDX: 32-bit unsigned when
   the output has fewer than 2^32 values (its divisions are cheap), else 64-bit */
template <int DIM, bool TRANSPOSE, class T, class IDX>
__global__ void __launch_bounds__(kTransferBlock) TransferKernel(const hj::TransferGrid g, const T *x, const T *y, T *w, IDX n)
{
  const IDX  m0 = (IDX)g.om[0], m1 = (IDX)g.om[1], dof = (IDX)g.dof;
  const auto in = hj::InputOf(g, x);
  for (IDX u = blockIdx.x * (IDX)blockDim.x + threadIdx.x; u < n; u += (IDX)gridDim.x * blockDim.x) {
    const IDX       p = dof == 1 ? u : u / dof, c = u - p * dof;
    const IDX       li = p % m0, q = p / m0, lj = DIM > 1 ? q % m1 : 0, lk = DIM > 2 ? q / m1 : 0;
    const long long i = g.os[0] + (long long)li, j = g.os[1] + (long long)lj, k = g.os[2] + (long long)lk;
    const T         v = TRANSPOSE ? hj::RestrictPoint<DIM, T>(in, g, i, j, k, (int)c) : hj::InterpolatePoint<DIM, T>(in, g, i, j, k, (int)c);
    w[u]              = y ? y[u] + v : v;
  }
}

/* Whether TransferMarchKernel computes this transfer: the 3D products and the 2D restriction (the 2D interpolation's
   march was slower than TransferKernel: 0.147 against 0.126 ms at 4097^2 on an H100, bench/partsalone), dof 1,
   nothing to wrap, and its blocks and extents in int (MarchBlocks, kMarchMaxExtent) */
inline bool TransferMarches(const hj::TransferGrid &g, int dim, bool transpose)
{
  bool wraps = false;
  for (int d = 0; d < dim; d++) wraps = wraps || (g.wrap && g.periodic[d]);
  if (dim < 2 || (dim == 2 && !transpose) || g.dof != 1 || wraps) return false;
  for (int d = 0; d < 3; d++)
    if (g.om[d] > kMarchMaxExtent) return false;
  const long long nb = dim == 3 ? MarchBlocks<3>(g.om[0], g.om[1], g.om[2], kTransferRun) : MarchBlocks<2>(g.om[0], 1, g.om[1], kTransferRun);
  return nb < (1LL << 31) - 1;
}

/* The lateral part of P x on coarse plane K at one fine lateral point: its parents from c0 + sm K (x: +1 when ox, y: +s1
   when oy), weighted (1 or 1/2 per direction) */
template <int DIM, class T>
struct InterpLateral {
  const T                     *c0;
  long long                    s1, sm;
  bool                         ox, oy;
  __device__ __forceinline__ T operator()(long long K) const
  {
    const T *c = c0 + sm * K;
    T        s = c[0];
    if (ox) s += c[1];
    if (DIM == 3 && oy) {
      T t = c[s1];
      if (ox) t += c[s1 + 1];
      s += t;
    }
    return s * ((ox ? 0.5 : 1.0) * (oy ? 0.5 : 1.0));
  }
};

/* The lateral part of P^T x on fine plane k at one coarse lateral point: the fine children around c0 + sm k, weights 1
   and 1/2 per direction; xl, xr, yl, yr: whether the children at -1, +1 along x and y exist */
template <int DIM, class T>
struct RestrictLateral {
  const T                     *c0;
  long long                    s1, sm;
  bool                         xl, xr, yl, yr;
  __device__ __forceinline__ T Row(const T *c) const
  {
    T s = c[0];
    if (xl) s += 0.5 * c[-1];
    if (xr) s += 0.5 * c[1];
    return s;
  }
  __device__ __forceinline__ T operator()(long long k) const
  {
    const T *c = c0 + sm * k;
    T        s = Row(c);
    if (DIM == 3) {
      if (yl) s += 0.5 * Row(c - s1);
      if (yr) s += 0.5 * Row(c + s1);
    }
    return s;
  }
};

/* The march (see the top). Thread: output point (i, j) of the lateral box (j only in 3D), a run [m0, m1) along the last
   direction; global indices are the box's plus its start os. The input is read at global index - is, strides (1, s1,
   sm) (the box's extents im); x children or parents outside a non-periodic grid are skipped, as ChildIndex does. */
template <int DIM, bool TRANSPOSE, class T>
__global__ void __launch_bounds__(kTransferBlock) TransferMarchKernel(const hj::TransferGrid g, const T *x, const T *y, T *w)
{
  static_assert(DIM == 3 || (DIM == 2 && TRANSPOSE), "the march: 3D, and the 2D restriction (TransferMarches)");
  constexpr int L  = DIM - 1; /* the march direction */
  const int     n0 = (int)g.om[0], n1 = DIM == 3 ? (int)g.om[1] : 1, nm = (int)g.om[L];
  int           i, j, m0, m1;
  if (!MarchPoint<DIM>(n0, n1, nm, kTransferRun, &i, &j, &m0, &m1)) return;
  const long long gi = g.os[0] + i, gj = DIM == 3 ? g.os[1] + j : 0, s1 = g.im[0], sm = DIM == 3 ? g.im[0] * g.im[1] : g.im[0];
  const long long us = DIM == 3 ? g.om[0] * g.om[1] : g.om[0];
  long long       u  = i + g.om[0] * (long long)j + us * m0;
  long long       gm = g.os[L] + m0; /* the global index along the march */
  if constexpr (!TRANSPOSE) {
    /* fine point (gi, gj, gm): lateral parents I0 (and I0 + 1 when odd), weights 1 or 1/2 each */
    const InterpLateral<DIM, T> lateral = {x + ((gi >> 1) - g.is[0]) + (DIM == 3 ? s1 * ((gj >> 1) - g.is[1]) : 0) - sm * g.is[L], s1, sm, (bool)(gi & 1), DIM == 3 && (gj & 1)};
    /* lo, hi: the coarse planes K = gm / 2 and K + 1, hi loaded at the odd step before the odd step that needs it, y a
       step ahead (two loads from memory in flight per thread: 0.158 against 0.178 ms at 257^3, bench/partsalone y1, y2) */
    long long K  = gm >> 1;
    T         lo = lateral(K), hi = (gm & 1) || m0 + 1 < m1 ? lateral(K + 1) : T(0), yv = y ? y[u] : T(0);
    for (int m = m0; m < m1; m++, gm++) {
      const T yn = y && m + 1 < m1 ? y[u + us] : T(0);
      T       v  = lo;
      if (gm & 1) { /* between coarse planes K and K + 1 */
        v  = 0.5 * (lo + hi);
        lo = hi;
        K++;
        hi = m + 2 < m1 ? lateral(K + 1) : T(0); /* for the odd step gm + 2 */
      }
      w[u] = y ? yv + v : v;
      yv   = yn;
      u += us;
    }
  } else {
    /* coarse point (gi, gj, gm): fine children 2 gi - 1, 2 gi, 2 gi + 1 along each direction, weights 1/2, 1, 1/2 */
    const RestrictLateral<DIM, T> lateral = {x + (2 * gi - g.is[0]) + (DIM == 3 ? s1 * (2 * gj - g.is[1]) : 0) - sm * g.is[L],
                                             s1,
                                             sm,
                                             g.periodic[0] || gi > 0,
                                             g.periodic[0] || 2 * gi + 1 < g.mf[0],
                                             DIM == 3 && (g.periodic[1] || gj > 0),
                                             DIM == 3 && (g.periodic[1] || 2 * gj + 1 < g.mf[1])};
    const bool                    zp      = g.periodic[L];
    T                             below   = zp || gm > 0 ? lateral(2 * gm - 1) : T(0); /* fine plane 2 gm - 1, shared with the coarse plane below */
    for (int m = m0; m < m1; m++, gm++) {
      const T above = zp || 2 * gm + 1 < g.mf[L] ? lateral(2 * gm + 1) : T(0);
      const T v     = lateral(2 * gm) + 0.5 * (below + above);
      w[u]          = y ? y[u] + v : v;
      below         = above;
      u += us;
    }
  }
}
} // namespace hjcuda
