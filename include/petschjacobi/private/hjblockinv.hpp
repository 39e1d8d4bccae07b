/* The inverse of a point's dof x dof diagonal block (ALGORITHM.md: with dof > 1 the division is a block solve).
   Free of PETSc calls and HJ_HD, so that host extraction (src/hjextract.cxx) and a device extraction can call the
   same code and agree to the last bit. */
#pragma once

#include <petschjacobi/private/hjpoint.hpp>

namespace hj
{
/* finite (not inf, not NaN) without libm: inf - inf and NaN - NaN are NaN, which compares unequal to itself */
template <class T>
HJ_HD bool IsFinite(T v)
{
  const T z = v - v;
  return z == z;
}

template <class T>
HJ_HD T Abs(T v)
{
  return v < 0 ? -v : v;
}

/* inv = A^{-1} for an n x n row-major block, n <= MAXN: Gauss-Jordan elimination with partial pivoting (the first
   row of largest magnitude). Returns false when A is singular (a zero pivot) or the inverse is not finite. */
template <int MAXN, class T>
HJ_HD bool InvertBlock(int n, const T *A, T *inv)
{
  T a[MAXN * MAXN];

  for (int i = 0; i < n * n; i++) {
    a[i]   = A[i];
    inv[i] = (i / n == i % n) ? T(1) : T(0);
  }
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (Abs(a[i * n + k]) > Abs(a[piv * n + k])) piv = i;
    if (a[piv * n + k] == T(0)) return false;
    if (piv != k)
      for (int j = 0; j < n; j++) {
        const T t = a[k * n + j], ti = inv[k * n + j];
        a[k * n + j]     = a[piv * n + j];
        a[piv * n + j]   = t;
        inv[k * n + j]   = inv[piv * n + j];
        inv[piv * n + j] = ti;
      }
    const T d = T(1) / a[k * n + k];
    for (int j = 0; j < n; j++) {
      a[k * n + j] *= d;
      inv[k * n + j] *= d;
    }
    for (int i = 0; i < n; i++) {
      const T f = a[i * n + k];
      if (i == k || f == T(0)) continue;
      for (int j = 0; j < n; j++) {
        a[i * n + j] -= f * a[k * n + j];
        inv[i * n + j] -= f * inv[k * n + j];
      }
    }
  }
  for (int i = 0; i < n * n; i++)
    if (!IsFinite(inv[i])) return false;
  return true;
}
} // namespace hj
