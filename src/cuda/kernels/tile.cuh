/* The tile skeleton of the CUDA tile kernels: what every kernel does before and after its k sweeps, written once.
   A kernel (TileKernel, TileKernelBlock) is
     0. TileRanges (cuda/kernels/kernels.cuh) -> hj::TileBox tb = hj::MakeTileBox<DIM>(rx, ry, rz)       (arith/index.hpp)
     1. LoadTile: W(T) + H(T) from xpad into both shared buffers, or zeros (correction form, x = 0)
     2. its own point set-up and k sweeps (buffer offsets: tb.Buffer(buf), owned test: tb.Owned)
     3. WriteBack for each value it writes: the owned core (transposed: all of W(T), added), x + delta in correction form
   Plain device C++ (no shared memory declared, no inline asm), so test/emulate compiles it as it is. */
#pragma once

#include "arith/index.hpp"

namespace hjcuda
{
/* n / d (and n % d in rem) for 0 <= n < 2^24, 1 <= d < 2^24: a float reciprocal and one correction step, a few
   instructions instead of an integer division. (float)n is exact; r = 1/d and the product are each within 2^-24
   relative, so n*r is within 2/d of n/d: for d >= 3 the truncated quotient is off by at most one, for d <= 2 it
   is exact. */
struct FastDiv {
  int                            d;
  float                          r;
  __device__                     __forceinline__ explicit FastDiv(int d_) : d(d_), r(1.0f / (float)d_) { }
  __device__ __forceinline__ int operator()(int n, int &rem) const
  {
    int q = __float2int_rz((float)n * r), m = n - q * d;
    if (m < 0) q--, m += d;
    else if (m >= d) q++, m -= d;
    rem = m;
    return q;
  }
};

/* (x, y, z) of element e of an x-fastest box with extents (nx, ny, *); DIM decides which divisions are needed */
template <int DIM>
__device__ __forceinline__ void Unflatten(int e, const FastDiv &nx, const FastDiv &ny, int &x, int &y, int &z)
{
  if constexpr (DIM == 1) {
    x = e, y = 0, z = 0;
  } else if constexpr (DIM == 2) {
    y = nx(e, x), z = 0;
  } else {
    const int r = nx(e, x);
    z           = ny(r, y);
  }
}

/* Write one result: the forward cycle stores the owned core; the transposed correction adds all of W(T), and
   overlapping tiles add to the same points, hence the atomic (its order varies: the sum is exact up to rounding). */
template <class T>
__device__ __forceinline__ void PutResult(T *p, T v, bool add)
{
  if (add) {
    if constexpr (hj::IsComplex<T>::value) { /* the real and the imaginary part, each atomically */
      using R = decltype(v.real());
      R *q    = reinterpret_cast<R *>(p);
      atomicAdd(q, v.real());
      atomicAdd(q + 1, v.imag());
    } else atomicAdd(p, v);
  } else *p = v;
}

/* Step 1: both buffers (DOF * tb.BufferPoints() values of S each, buffer coordinates) <- W(T) + H(T) of x, a padded
   view re-based to buffer coordinates (tb.PaddedHalo<DOF>(xpad, ext0, ext1)), rounded to S; zero: zeros instead (the
   correction form starts from zero with a zero halo; xzero: x = 0), and x is not read. A buffer row is DOF * s[0]
   consecutive scalars of one padded row, so consecutive threads read consecutive scalars (coalesced). The halo is
   then frozen: the sweeps write W(T) points only. */
template <int DIM, int DOF, class T, class S>
__device__ __forceinline__ void LoadTile(const hj::TileBox &tb, const hj::View<const T, DOF> &x, bool zero, S *buf0, S *buf1)
{
  const int nbuf = DOF * tb.BufferPoints();
  if (zero) {
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) buf0[e] = buf1[e] = S(0);
  } else {
    const FastDiv frow(DOF * tb.s[0]), fsy(tb.s[1]);
    const T      *src = x.ptr(0, 0, 0); /* (formed once: the loop adds only the row's offset) */
    const auto    row = hj::View<const T, DOF>{src, 0, x.s1, x.n1};
#pragma unroll(DOF == 1 ? 4 : 1) /* (TileKernel's unrolling; the point-block kernel's loop stays rolled as it was) */
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) {
      int c, y, z; /* c: scalar in the buffer row */
      Unflatten<DIM>(e, frow, fsy, c, y, z);
      const S v = (S)row(0, y, z, c);
      buf0[e] = buf1[e] = v;
    }
  }
}

/* Step 3: the new value v (in S) of scalar c of the point at (i, j, k) of the views y (where it goes: a view of
   hjcuda::Output) and x (padded, the cycle's input), both in the same tile coordinates. CORR (kCorrection): v is the
   correction delta and x + delta is written, unless xzero (x = 0). add (transposed): added atomically. */
template <bool CORR, class YV, class XV, class S>
__device__ __forceinline__ void WriteBack(const YV &y, const XV &x, long long i, long long j, long long k, int c, S v, bool xzero, bool add)
{
  using T = typename std::remove_reference<decltype(*y.p)>::type;
  T val   = (T)v;
  if constexpr (CORR)
    if (!xzero) val += x(i, j, k, c);
  PutResult(y.ptr(i, j, k, c), val, add);
}
} // namespace hjcuda
