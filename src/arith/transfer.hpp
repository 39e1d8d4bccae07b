/* The grid transfers of a DMDA hierarchy refined by 2 (DMCreateInterpolation's Q1 interpolation P and the restriction
   P^T), point by point: host C++ (src/mg/transfer.cxx, which also checks an assembled P entry by entry against
   TransferWeight) and the CUDA kernels (src/cuda/transfer.cu) include this same file, so they agree to rounding.

   Along one direction a fine grid of mf points and a coarse one of mc points: fine point i sits on coarse point i/2
   when i is even (weight 1) and halfway between (i-1)/2 and (i+1)/2 when odd (weights 1/2); without periodicity
   mf = 2 (mc - 1) + 1, periodic mf = 2 mc and coarse point mc is point 0. In 2D and 3D the weights are the products
   of the directions' (tensor-product, trilinear): P has up to 2^dim entries per row, P^T up to 3^dim. Points are
   numbered x fastest, dof values of a point together (value c of point n at dof*n + c), each component
   transferred on its own. */
#pragma once

#include "arith/point.hpp"

namespace hj
{
/* one grid pair: the fine and coarse sizes of every direction (1 beyond dim), periodicity, values per point */
struct TransferGrid {
  long long mf[3], mc[3];
  int       periodic[3];
  int       dof;
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
HJ_HD Parents FineParents(long long i, long long mc, int periodic)
{
  Parents p;
  p.I0 = i >> 1;
  p.I1 = p.I0 + 1;
  if (periodic && p.I1 == mc) p.I1 = 0;
  p.n = (int)(i & 1) + 1;
  p.w = p.n == 1 ? 1.0 : 0.5;
  return p;
}

/* The fine points coarse point I restricts from along one direction: fine index 2 I + d for d = -1, 0, 1 (weights 1/2,
   1, 1/2), or -1 where that point is outside the grid (and the direction is not periodic) */
HJ_HD long long ChildIndex(long long I, int d, long long mf, int periodic)
{
  long long i = 2 * I + d;
  if (i < 0) i = periodic ? mf - 1 : -1;
  else if (i >= mf) i = periodic ? 0 : -1;
  return i;
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
  *py = DIM > 1 ? FineParents(j, g.mc[1], g.periodic[1]) : Parents{0, 0, 1.0, 1};
  *pz = DIM > 2 ? FineParents(k, g.mc[2], g.periodic[2]) : Parents{0, 0, 1.0, 1};
}

/* (P xc) at fine point (i, j, k), component c: xc(I, J, K, c) reads the coarse vector */
template <int DIM, class T, class XC>
HJ_HD T InterpolatePoint(const XC &xc, const TransferGrid &g, long long i, long long j, long long k, int c)
{
  Parents py, pz;
  RowParents<DIM>(g, j, k, &py, &pz);
  const auto col = [&](long long I) { return InterpolateColumn<DIM, T>(xc, py, pz, I, c); };
  return InterpolateFromColumns<T>(col, FineParents(i, g.mc[0], g.periodic[0]), py.w * pz.w);
}

/* the y-z part of P^T xf at fine column i for coarse row (J, K): its up to 3^(dim-1) children, weighted */
template <int DIM, class T, class XF>
HJ_HD T RestrictColumn(const XF &xf, const TransferGrid &g, long long i, long long J, long long K, int c)
{
  constexpr int Z = DIM > 2 ? 1 : 0, Y = DIM > 1 ? 1 : 0;
  T             s = T(0);
  for (int dz = -Z; dz <= Z; dz++) {
    const long long k = DIM > 2 ? ChildIndex(K, dz, g.mf[2], g.periodic[2]) : 0;
    if (k < 0) continue;
    for (int dy = -Y; dy <= Y; dy++) {
      const long long j = DIM > 1 ? ChildIndex(J, dy, g.mf[1], g.periodic[1]) : 0;
      if (j < 0) continue;
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
    const long long i = ChildIndex(I, dx, g.mf[0], g.periodic[0]);
    if (i >= 0) s += dx ? col(i) * 0.5 : col(i);
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
