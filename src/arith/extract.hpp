/* The per-entry arithmetic of stencil extraction, shared by the host extraction (extract/stencil.cxx) and the device one
   (cuda/extract/extract.cu), so that both give the same stencil to the last bit: the periodic wrap of an offset, the slot of
   an offset in a stencil's order, and the inversion of a diagonal block. */
#pragma once

#include "arith/point.hpp"

namespace hj
{
/* an offset between grid points along a direction of M points, taken the short way round when periodic */
HJ_HD long long Wrap(bool periodic, long long M, long long off)
{
  if (!periodic) return off;
  if (off > M / 2) return off - M;
  if (off < -(M / 2)) return off + M;
  return off;
}

/* Whether owned point u has the row of point u0 (dof 1; planes of N points, noff of them): the test of the rows inside
   the boundary shell (HJLayoutInteriorBox) that the host (HJStencilInteriorRow) and the CUDA backend (its plan) both
   make, so both read the planes in the same rows */
template <class T>
HJ_HD bool SameRow(const T *coef, const T *invdiag, long long N, int noff, long long u, long long u0)
{
  if (!(invdiag[u] == invdiag[u0])) return false;
  for (int s = 0; s < noff; s++)
    if (!(coef[s * N + u] == coef[s * N + u0])) return false;
  return true;
}

/* A^T's stencil by re-indexing (host: extract/transpose.cxx; device: the device extraction's transpose kernel). The source
   of A^T's entry at offset off of the owned point with global coordinates g: the owned index of the point g + off
   (periodic wrap included), -1 when it is not this rank's (the entry is then zero). */
HJ_HD long long TransposeSource(const long long g[3], const int off[3], const long long xs[3], const long long xm[3], const long long M[3], const bool periodic[3])
{
  long long uq = 0, stride = 1;
  for (int d = 0; d < 3; d++) {
    long long h = g[d] + off[d];
    if (periodic[d]) h = (h + M[d]) % M[d];
    const long long q = h - xs[d];
    if (q < 0 || q >= xm[d]) return -1;
    uq += stride * q;
    stride *= xm[d];
  }
  return uq;
}

/* out <- in^T for a dof x dof row-major block; zero where in is null (no source) */
template <class T>
HJ_HD void TransposeBlock(int dof, const T *in, T *out)
{
  for (int i = 0; i < dof; i++)
    for (int j = 0; j < dof; j++) out[i * dof + j] = in ? in[j * dof + i] : T(0);
}

/* The slot of offset (dx,dy,dz) (each in -1..1; 0 in unused directions) in the order of hj::Offset: -1 for the
   centre and for an offset the kind lacks (a corner of the box in a star stencil). No loop: the device calls it per
   matrix entry. */
HJ_HD int OffsetSlot(int dim, int kind, int dx, int dy, int dz)
{
  const int nz = (dx != 0) + (dy != 0) + (dz != 0);
  if (nz == 0) return -1;
  if (kind == STAR) {
    if (nz > 1) return -1;
    const int axis = dx ? 0 : (dy ? 1 : 2), v = dx ? dx : (dy ? dy : dz);
    return 2 * axis + (v > 0);
  }
  const int idx = (dx + 1) + (dim > 1 ? 3 * (dy + 1) : 0) + (dim > 2 ? 9 * (dz + 1) : 0);
  const int c   = (dim == 1 ? 3 : (dim == 2 ? 9 : 27)) / 2;
  return idx < c ? idx : idx - 1;
}

/* a - b*c rounded twice (never a fused multiply-add): the device compiler contracts a - b*c into an FMA, the host
   one (x86-64 baseline) does not, and the inverse blocks must agree bit for bit. Complex: the same per component. */
template <class T>
HJ_HD T MulSub(T a, T b, T c)
{
  if constexpr (IsComplex<T>::value) {
    using R    = decltype(a.real());
    const R re = MulSub<R>(MulSub<R>(a.real(), b.real(), c.real()), -b.imag(), c.imag());
    const R im = MulSub<R>(MulSub<R>(a.imag(), b.real(), c.imag()), b.imag(), c.real());
    return T(re, im);
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == sizeof(double)) return __dsub_rn((double)a, __dmul_rn((double)b, (double)c));
    else return __fsub_rn((float)a, __fmul_rn((float)b, (float)c));
#else
    return a - b * c;
#endif
  }
}

/* a * b, complex: each product and sum rounded once (no fused multiply-add, as MulSub), the same on host and device */
template <class T>
HJ_HD T Mul(T a, T b)
{
  if constexpr (IsComplex<T>::value) {
    using R = decltype(a.real());
    return T(MulSub<R>(MulSub<R>(0, -a.real(), b.real()), a.imag(), b.imag()), MulSub<R>(MulSub<R>(0, -a.real(), b.imag()), -a.imag(), b.real()));
  } else return a * b;
}

/* 1/a: real IEEE division; complex: Smith's algorithm with every operation rounded once, so that the host (std::complex)
   and the device (thrust::complex) compute the same bits (their own complex divisions use different algorithms) */
template <class T>
HJ_HD T Recip(T a)
{
  if constexpr (IsComplex<T>::value) {
    using R      = decltype(a.real());
    const R    c = a.real(), d = a.imag();
    const bool x   = (c < 0 ? -c : c) >= (d < 0 ? -d : d);
    const R    r   = x ? d / c : c / d;
    const R    den = x ? MulSub<R>(c, -d, r) : MulSub<R>(d, -c, r); /* c + d r, or d + c r */
    return x ? T((R)1 / den, -r / den) : T(r / den, (R)-1 / den);
  } else return (T)1 / a;
}

/* |x| for pivoting: |re| + |im| for complex values */
template <class T>
HJ_HD auto PivotSize(const T &x)
{
  if constexpr (IsComplex<T>::value) {
    const auto r = x.real(), i = x.imag();
    return (r < 0 ? -r : r) + (i < 0 ? -i : i);
  } else return x < 0 ? -x : x;
}

/* inv = A^{-1} for an n x n row-major block (n <= NMAX <= 8): Gauss-Jordan elimination with partial pivoting.
   Returns false when A is singular (a zero pivot) or the inverse is not finite. NMAX sizes the work block (a device
   kernel for one dof keeps it small). */
template <int NMAX = 8, class T>
HJ_HD bool InvertBlock(int n, const T *A, T *inv)
{
  T a[NMAX * NMAX];

  for (int i = 0; i < n * n; i++) {
    a[i]   = A[i];
    inv[i] = (i / n == i % n) ? (T)1 : (T)0;
  }
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++) {
      if (PivotSize(a[i * n + k]) > PivotSize(a[piv * n + k])) piv = i;
    }
    if (a[piv * n + k] == (T)0) return false;
    if (piv != k)
      for (int j = 0; j < n; j++) {
        const T t = a[k * n + j], ti = inv[k * n + j];
        a[k * n + j]     = a[piv * n + j];
        a[piv * n + j]   = t;
        inv[k * n + j]   = inv[piv * n + j];
        inv[piv * n + j] = ti;
      }
    const T d = Recip(a[k * n + k]);
    for (int j = 0; j < n; j++) {
      a[k * n + j]   = Mul(a[k * n + j], d);
      inv[k * n + j] = Mul(inv[k * n + j], d);
    }
    for (int i = 0; i < n; i++) {
      const T f = a[i * n + k];
      if (i == k || f == (T)0) continue;
      for (int j = 0; j < n; j++) {
        a[i * n + j]   = MulSub(a[i * n + j], f, a[k * n + j]);
        inv[i * n + j] = MulSub(inv[i * n + j], f, inv[k * n + j]);
      }
    }
  }
  for (int i = 0; i < n * n; i++)
    if (!(inv[i] - inv[i] == (T)0)) return false; /* inf or nan */
  return true;
}
} // namespace hj
