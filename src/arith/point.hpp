/* The arithmetic shared by every backend: stencil offsets, tile geometry and the damped Jacobi point update.
   Host code (C++) and CUDA kernels include this same file, so the backends agree to rounding. */
#pragma once

#if defined(__CUDACC__)
  #define HJ_HD __host__ __device__ __forceinline__
#else
  #define HJ_HD inline
#endif

#include <type_traits>
#include <utility>

namespace hj
{
/* whether a scalar type is complex (std::complex, thrust::complex, cuda::std::complex: it has imag()) */
template <class T, class = void>
struct IsComplex : std::false_type {
};
template <class T>
struct IsComplex<T, std::void_t<decltype(std::declval<T>().imag())>> : std::true_type {
};

enum StencilKind : int {
  STAR = 0, /* offsets with one nonzero component: 2*dim neighbours */
  BOX  = 1  /* the whole 3^dim box except the centre */
};

/* Number of off-diagonal offsets of a stencil. */
HJ_HD constexpr int NumOffsets(int dim, int kind)
{
  return kind == STAR ? 2 * dim : (dim == 1 ? 2 : (dim == 2 ? 8 : 26));
}

/* Component `axis` (0 = x, 1 = y, 2 = z) of offset s. Star order: -x,+x,-y,+y,-z,+z.
   Box order: lexicographic over (dx,dy,dz) in {-1,0,1}^dim, x fastest, centre skipped. */
HJ_HD constexpr int Offset(int dim, int kind, int s, int axis)
{
  if (kind == STAR) return (s / 2 == axis) ? ((s % 2) ? 1 : -1) : 0;
  const int c   = (dim == 1 ? 3 : (dim == 2 ? 9 : 27)) / 2;
  const int idx = s < c ? s : s + 1;
  return axis == 0 ? idx % 3 - 1 : (axis == 1 ? (dim > 1 ? (idx / 3) % 3 - 1 : 0) : (dim > 2 ? idx / 9 - 1 : 0));
}

/* Tiles along one direction of a rank's owned box of m points (doc/algorithm.md, step 1):
   working regions start every t - o points and are clipped to the box; of each shared strip of o points
   the o/2 nearer a tile's centre belong to it. The owned ranges partition [0, m). */
HJ_HD constexpr long long NumTiles(long long m, long long t, long long o)
{
  return m <= t ? 1 : (m - o + (t - o) - 1) / (t - o);
}

struct Range {
  long long w0, w1; /* working region [w0, w1) */
  long long o0, o1; /* owned region   [o0, o1) */
};

HJ_HD Range TileRange(long long m, long long t, long long o, long long i)
{
  const long long n = NumTiles(m, t, o);
  Range           r;
  r.w0 = i * (t - o);
  r.w1 = r.w0 + t < m ? r.w0 + t : m;
  r.o0 = i == 0 ? 0 : r.w0 + o / 2;
  r.o1 = i == n - 1 ? m : r.w0 + t - o / 2;
  if (n == 1) {
    r.w0 = 0;
    r.w1 = m;
  }
  return r;
}

/* The coordinate along d of tile id in a grid of n0 x n1 x ... tiles, x fastest (id = ti + n0*(tj + n1*tk)): the one
   decoding of a tile id (host cycle, the tile split, the device kernels with unsigned ids). */
template <class I>
HJ_HD I TileCoord(I id, I n0, I n1, int d)
{
  return d == 0 ? id % n0 : (d == 1 ? (id / n0) % n1 : id / (n0 * n1));
}

/* sum_s a_s(p) y(p+s): the off-diagonal part of row p applied to the neighbours' values (yn(s): hj::Offset order).
   UNROLL = false keeps the loop rolled on the GPU: for a sum computed once per cycle (Residual) from global memory,
   unrolled, all 2 x 26 loads of a 3D box would be hoisted and cost the sweeps their registers. */
template <int DIM, int KIND, class T, bool UNROLL = true, class Nbr, class Coef>
HJ_HD T OffDiagonalSum(const Nbr &yn, const Coef &a)
{
  constexpr int n   = NumOffsets(DIM, KIND);
  T             sum = 0;
  if constexpr (UNROLL) {
#if defined(__CUDA_ARCH__)
  #pragma unroll
#endif
    for (int s = 0; s < n; s++) sum += a(s) * yn(s);
  } else {
#if defined(__CUDA_ARCH__)
  #pragma unroll 1
#endif
    for (int s = 0; s < n; s++) sum += a(s) * yn(s);
  }
  return sum;
}

/* One damped Jacobi update of one point, from its neighbours' values:
     y(p) + w * (b(p) - sum_s a_s(p) y(p+s) - d(p) y(p)) / d(p)
   yn(s) returns the value at offset s (hj::Offset order), y the value at the point, a(s) the coefficient of offset s.
   This is the one place the formula is written: the pointer form below and every kernel end here. The correction
   form of a cycle (CUDA single inner precision) runs this same update with b := the residual r of Residual() below
   and y := the correction, whose halo values are zero. */
template <int DIM, int KIND, class T, class Nbr, class Coef>
HJ_HD T PointUpdate(const Nbr &yn, T y, T b, T invd, T omega, const Coef &a)
{
  const T sum = OffDiagonalSum<DIM, KIND, T>(yn, a);
  return y + omega * ((b - sum) * invd - y);
}

/* The residual of one point, b(p) - sum_s a_s(p) y(p+s) - d(p) y(p), with the diagonal d = d(p) itself (not its
   inverse). The correction form of a cycle computes it once per cycle in PetscScalar before its sweeps. UNROLL as in
   OffDiagonalSum (false for coefficients read from global memory, true for coefficients in registers or parameters,
   which a rolled loop would move to local memory). */
template <int DIM, int KIND, bool UNROLL = true, class T, class Nbr, class Coef>
HJ_HD T Residual(const Nbr &yn, T y, T b, T d, const Coef &a)
{
  return b - OffDiagonalSum<DIM, KIND, T, UNROLL>(yn, a) - d * y;
}

/* The neighbours of the point at yc in an array with strides (1, sy, sz). */
template <int DIM, int KIND, class T>
struct StridedNeighbours {
  const T  *yc;
  long long sy, sz;
  HJ_HD T   operator()(int s) const { return yc[Offset(DIM, KIND, s, 0) + sy * Offset(DIM, KIND, s, 1) + sz * Offset(DIM, KIND, s, 2)]; }
};

/* One damped Jacobi update of the point at yc:
     y(p) + w * (b(p) - sum_s a_s(p) y(p+s) - d(p) y(p)) / d(p)
   yc points into an array with strides (1, sy, sz); a(s) returns the coefficient of offset s. */
template <int DIM, int KIND, class T, class Coef>
HJ_HD T PointUpdate(const T *yc, long long sy, long long sz, T b, T invd, T omega, const Coef &a)
{
  return PointUpdate<DIM, KIND>(StridedNeighbours<DIM, KIND, T>{yc, sy, sz}, yc[0], b, invd, omega, a);
}

/* The residual of the point at yc (array with strides (1, sy, sz)), d its diagonal: Residual() above. */
template <int DIM, int KIND, bool UNROLL = true, class T, class Coef>
HJ_HD T Residual(const T *yc, long long sy, long long sz, T b, T d, const Coef &a)
{
  return Residual<DIM, KIND, UNROLL>(StridedNeighbours<DIM, KIND, T>{yc, sy, sz}, yc[0], b, d, a);
}

/* r = b(p) - sum_s A_s(p) y(p+s) for the point at yc (layout of BlockPointUpdate below; A_s(p) = a(s), row-major
   DOF x DOF blocks): the block form of b - OffDiagonalSum(), shared by BlockPointUpdate and BlockResidual. */
template <int DIM, int KIND, int DOF, class T, class Coef>
HJ_HD void BlockOffDiagonalResidual(const T *yc, long long sy, long long sz, const T *b, const Coef &a, T *r)
{
  constexpr int n = NumOffsets(DIM, KIND);
  for (int i = 0; i < DOF; i++) r[i] = b[i];
  for (int s = 0; s < n; s++) {
    const T *ys = yc + DOF * (Offset(DIM, KIND, s, 0) + sy * Offset(DIM, KIND, s, 1) + sz * Offset(DIM, KIND, s, 2));
    const T *as = a(s);
    for (int i = 0; i < DOF; i++)
      for (int j = 0; j < DOF; j++) r[i] -= as[i * DOF + j] * ys[j];
  }
}

/* The point-block update (dof = DOF > 1 fields per point, doc/algorithm.md "Operator"): y(p) is the vector of the DOF
   values of the point, a_s(p) and d(p) are DOF x DOF blocks and the division is a block solve, by the inverse of d(p):
     y(p) + w * (Dinv(p) (b(p) - sum_s A_s(p) y(p+s)) - y(p))
   the formula of PointUpdate above with its scalars made blocks. yc points to the DOF values of the point in an array
   of points with strides (1, sy, sz) holding DOF values each (index c + DOF*point); b the point's DOF right-hand-side
   values; invd its inverse diagonal block and a(s) the block of offset s (row-major DOF x DOF); out receives the
   DOF new values (it must not alias yc's array). */
template <int DIM, int KIND, int DOF, class T, class Coef>
HJ_HD void BlockPointUpdate(const T *yc, long long sy, long long sz, const T *b, const T *invd, T omega, const Coef &a, T *out)
{
  T r[DOF];
  BlockOffDiagonalResidual<DIM, KIND, DOF>(yc, sy, sz, b, a, r);
  for (int i = 0; i < DOF; i++) {
    T z = 0;
    for (int j = 0; j < DOF; j++) z += invd[i * DOF + j] * r[j];
    out[i] = yc[i] + omega * (z - yc[i]);
  }
}

/* The residual of the point at yc, out = b(p) - sum_s A_s(p) y(p+s) - D(p) y(p), with the diagonal block d = D(p)
   itself (row-major DOF x DOF, not its inverse): the block form of Residual(), for the correction form of a cycle. */
template <int DIM, int KIND, int DOF, class T, class Coef>
HJ_HD void BlockResidual(const T *yc, long long sy, long long sz, const T *b, const T *d, const Coef &a, T *out)
{
  BlockOffDiagonalResidual<DIM, KIND, DOF>(yc, sy, sz, b, a, out);
  for (int i = 0; i < DOF; i++)
    for (int j = 0; j < DOF; j++) out[i] -= d[i * DOF + j] * yc[j];
}
} // namespace hj
