/* The grid transfers of a DMDA hierarchy refined by 2 (DMCreateInterpolation's Q1 interpolation P and the restriction
   P^T), point by point: host C++ (src/mg/transfer.cxx, which also checks an assembled P entry by entry against
   TransferWeight) and the CUDA kernels (src/cuda/transfer.cu) include this same file, so they agree to rounding.

   Along one direction a fine grid of mf points and a coarse one of mc points: fine point i sits on coarse point i/2
   when i is even (weight 1) and halfway between (i-1)/2 and (i+1)/2 when odd (weights 1/2); without periodicity
   mf = 2 (mc - 1) + 1, periodic mf = 2 mc and coarse point mc is point 0. In 2D and 3D the weights are the products
   of the directions' (tensor-product, trilinear): P has up to 2^dim entries per row, P^T up to 3^dim. Points are
   numbered x fastest, dof values of a point together (value c of point n at dof*n + c), each component
   transferred on its own.

   Indices are global grid indices. The output is the owned box [os, os + om) of its grid, its array numbered from os;
   the input array holds the box [is, is + im) of its grid: the whole grid on one rank (wrap: a periodic direction's
   index beyond the grid is taken back into it), or the rank's ghosted box of a DMDA local vector on several (no wrap:
   the ghost layer holds the periodic neighbours at indices -1 and m). */
#pragma once

#include "arith/point.hpp"

namespace hj
{
/* one grid pair: the fine and coarse sizes of every direction (1 beyond dim), periodicity, values per point; the
   output's owned box and the input array's box (1 beyond dim; see above), whether periodic indices wrap */
struct TransferGrid {
  long long mf[3], mc[3];
  int       periodic[3];
  int       dof;
  int       wrap;
  long long os[3], om[3];
  long long is[3], im[3];
};

/* P's weight between fine point i and coarse point I along one direction (0: no entry) */
HJ_HD double TransferWeight(long long i, long long I, long long mf, long long mc, int periodic)
{
  if (i == 2 * I) return 1.0;
  if (i == 2 * I - 1 || i == 2 * I + 1) return 0.5;
  if (periodic && I == 0 && i == mf - 1 && mf == 2 * mc) return 0.5; /* the last fine point's upper neighbour is coarse point 0 */
  return 0.0;
}

/* The coarse points fine point i interpolates from along one direction: n = 1 (I0, on a coarse point) or 2 (I0 and
   I1); two scalars rather than an array, so that no kernel indexes a local array at run time (local memory) */
struct Parents {
  long long I0, I1;
  double    w;
  int       n;
};
HJ_HD Parents FineParents(long long i, long long mc, int periodic, int wrap)
{
  Parents p;
  p.I0 = i >> 1;
  p.I1 = p.I0 + 1;
  if (wrap && periodic && p.I1 == mc) p.I1 = 0;
  p.n = (int)(i & 1) + 1;
  p.w = p.n == 1 ? 1.0 : 0.5;
  return p;
}

/* The fine point coarse point I restricts from along one direction for d = -1, 0, 1 (weights 1/2, 1, 1/2): fine index
   2 I + d into *i; false where that point is outside a non-periodic grid */
HJ_HD bool ChildIndex(long long I, int d, long long mf, int periodic, int wrap, long long *i)
{
  *i = 2 * I + d;
  if (*i >= 0 && *i < mf) return true;
  if (!periodic) return false;
  if (wrap) *i = *i < 0 ? mf - 1 : 0;
  return true;
}

/* the input array's value c at grid point (i, j, k) (global indices inside its box) */
template <class T>
struct BoxRead {
  const T  *a;
  long long s0, s1, s2, m0, m1;
  int       dof;
  HJ_HD T   operator()(long long i, long long j, long long k, int c) const { return a[((i - s0) + m0 * ((j - s1) + m1 * (k - s2))) * dof + c]; }
};
template <class T>
HJ_HD BoxRead<T> InputOf(const TransferGrid &g, const T *a)
{
  return BoxRead<T>{a, g.is[0], g.is[1], g.is[2], g.im[0], g.im[1], g.dof};
}

/* Both products are evaluated as columns first: the sum over the y-z neighbours (parents or children) at one x index,
   then the x direction over those column sums. The CUDA kernels compute the columns a point needs; the host loops
   compute a row's columns once into a line and share them between the points of the row; both add in the same order,
   so the backends agree bit for bit. */

/* the y-z part of P xc at coarse column I for a fine row with parents py, pz (unweighted) */
template <int DIM, class T, class XC>
HJ_HD T InterpolateColumn(const XC &xc, const Parents &py, const Parents &pz, long long I, int c)
{
  T s = T(0);
  for (int c2 = 0; c2 < 2; c2++) {
    if (c2 == pz.n) break;
    const long long K = c2 ? pz.I1 : pz.I0;
    for (int c1 = 0; c1 < 2; c1++) {
      if (c1 == py.n) break;
      s += xc(I, c1 ? py.I1 : py.I0, K, c);
    }
  }
  return s;
}

/* (P xc) at a fine point with x parents px from its columns col(I) (weights wyz of its y-z parents) */
template <class T, class COL>
HJ_HD T InterpolateFromColumns(const COL &col, const Parents &px, double wyz)
{
  T s = col(px.I0);
  if (px.n == 2) s += col(px.I1);
  return s * (px.w * wyz);
}

/* the y-z parents of fine row (j, k) (one each beyond dim) */
template <int DIM>
HJ_HD void RowParents(const TransferGrid &g, long long j, long long k, Parents *py, Parents *pz)
{
  *py = DIM > 1 ? FineParents(j, g.mc[1], g.periodic[1], g.wrap) : Parents{0, 0, 1.0, 1};
  *pz = DIM > 2 ? FineParents(k, g.mc[2], g.periodic[2], g.wrap) : Parents{0, 0, 1.0, 1};
}

/* (P xc) at fine point (i, j, k), component c: xc(I, J, K, c) reads the coarse vector */
template <int DIM, class T, class XC>
HJ_HD T InterpolatePoint(const XC &xc, const TransferGrid &g, long long i, long long j, long long k, int c)
{
  Parents py, pz;
  RowParents<DIM>(g, j, k, &py, &pz);
  const auto col = [&](long long I) { return InterpolateColumn<DIM, T>(xc, py, pz, I, c); };
  return InterpolateFromColumns<T>(col, FineParents(i, g.mc[0], g.periodic[0], g.wrap), py.w * pz.w);
}

/* the y-z part of P^T xf at fine column i for coarse row (J, K): its up to 3^(dim-1) children, weighted */
template <int DIM, class T, class XF>
HJ_HD T RestrictColumn(const XF &xf, const TransferGrid &g, long long i, long long J, long long K, int c)
{
  constexpr int Z = DIM > 2 ? 1 : 0, Y = DIM > 1 ? 1 : 0;
  T             s = T(0);
  for (int dz = -Z; dz <= Z; dz++) {
    long long k = 0;
    if (DIM > 2 && !ChildIndex(K, dz, g.mf[2], g.periodic[2], g.wrap, &k)) continue;
    for (int dy = -Y; dy <= Y; dy++) {
      long long j = 0;
      if (DIM > 1 && !ChildIndex(J, dy, g.mf[1], g.periodic[1], g.wrap, &j)) continue;
      s += xf(i, j, k, c) * ((dy ? 0.5 : 1.0) * (dz ? 0.5 : 1.0));
    }
  }
  return s;
}

/* (P^T xf) at coarse point I of a row from that row's columns col(i) */
template <class T, class COL>
HJ_HD T RestrictFromColumns(const COL &col, const TransferGrid &g, long long I)
{
  T s = T(0);
  for (int dx = -1; dx <= 1; dx++) {
    long long i;
    if (ChildIndex(I, dx, g.mf[0], g.periodic[0], g.wrap, &i)) s += dx ? col(i) * 0.5 : col(i);
  }
  return s;
}

/* (P^T xf) at coarse point (I, J, K), component c: xf(i, j, k, c) reads the fine vector */
template <int DIM, class T, class XF>
HJ_HD T RestrictPoint(const XF &xf, const TransferGrid &g, long long I, long long J, long long K, int c)
{
  const auto col = [&](long long i) { return RestrictColumn<DIM, T>(xf, g, i, J, K, c); };
  return RestrictFromColumns<T>(col, g, I);
}
} // namespace hj
