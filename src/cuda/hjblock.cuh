/* The point-block tile kernel (dof = DOF > 1 fields per grid point, ALGORITHM.md "Operator" with dof x dof blocks)
   and its dispatch table. The cycle is TileKernel's (hjkernels.cuh): one thread block per tile, W(T) plus its halo
   H(T) loaded into two shared buffers, k Jacobi sweeps ping-ponging between them with the halo frozen, the owned
   core written out; here every point holds DOF values and every update is hj::BlockPointUpdate, the host backend's
   point update.

   Arrays (device memory), all with the DOF values of a point together (index c + DOF*point), as PETSc's DMDA vectors:
     xpad, y     padded arrays of points as in hjkernels.cuh (Output indices count points)
     b           unpadded owned array
     coef        [noff][nlocal][DOF*DOF] (row-major blocks), invdiag [nlocal][DOF*DOF] (inverted diagonal blocks)
   Threads: at most kBlockMaxThreads per block, each updating the points p = threadIdx.x + q*blockDim.x of W(T);
   b, the blocks and the inverse diagonal are read from global memory (L1/L2) in every sweep: with DOF*DOF*(noff+1)
   values per point they do not fit in registers.
   S other than T (kCorrection, hjkernels.cuh): the correction form. The buffers start at zero, and a third region of
   shared memory, after the two buffers, holds each W(T) point's right-hand side of the sweeps in S: the residual
   b - A x formed once per cycle in T (hj::BlockResidual, x from xpad, the T blocks and the diagonal blocks diagT), or
   b from a zero x (masked when transposed). The sweeps read it instead of b, and x + delta is written in T. */
#pragma once

#include "hjdispatch.cuh"

namespace hjcuda
{
template <int DIM, int KIND, int DOF, class T, class S>
__global__ void __launch_bounds__(kBlockMaxThreads) TileKernelBlock(const TileParams<T, S> P)
{
  constexpr int  P1 = DIM > 1, P2 = DIM > 2, DD = DOF * DOF;
  constexpr bool CORR = kCorrection<T, S>;
  __shared__ hj::Range range[3];

  /* 0. this block's tile */
  TileRanges<3>(P, range);
  const hj::Range rx = range[0], ry = range[1], rz = range[2];
  const int       wx = (int)(rx.w1 - rx.w0), wy = (int)(ry.w1 - ry.w0), wz = (int)(rz.w1 - rz.w0);
  const int       sx = wx + 2, sy = wy + 2 * P1, sz = wz + 2 * P2; /* buffer extents in points: W(T) plus halo */
  const int       nbuf = DOF * sx * sy * sz;                       /* scalars per buffer */
  S *const        buf0 = reinterpret_cast<S *>(hj_smem);
  S *const        buf1 = buf0 + nbuf;

  /* 1. W(T) + H(T): a buffer row is DOF*sx consecutive scalars of one padded row, starting at padded point
     (rx.w0, ry.w0, rz.w0) (TileKernel step 1): xsrc. Correction form: zeros. */
  const T *const  xsrc = P.xpad + DOF * (rx.w0 + P.box.ext0 * (ry.w0 + P.box.ext1 * rz.w0));
  const long long xs1 = P.box.ext0, xs2 = P.box.ext0 * P.box.ext1; /* xpad's strides in points */
  if (CORR || P.xzero) {
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) buf0[e] = buf1[e] = S(0);
  } else {
    const FastDiv frow(DOF * sx), fsy(sy);
    const T      *src = xsrc;
    for (int e = threadIdx.x; e < nbuf; e += blockDim.x) {
      int x, y, z;
      Unflatten<DIM>(e, frow, fsy, x, y, z);
      const S v = (S)src[x + DOF * P.box.ext0 * (y + P.box.ext1 * (long long)z)];
      buf0[e] = buf1[e] = v;
    }
  }

  /* 2. k sweeps with the halo frozen; sweep it reads buf[it&1] and writes buf[(it+1)&1] at W(T) points only, one
     barrier per sweep (TileKernel step 3), and one after the last so that step 3 reads it. Transposed (TileKernel's
     P.transpose): b only on the points T owns. */
  const int       ox0 = (int)(rx.o0 - rx.w0), ox1 = (int)(rx.o1 - rx.w0), oy0 = (int)(ry.o0 - ry.w0), oy1 = (int)(ry.o1 - ry.w0), oz0 = (int)(rz.o0 - rz.w0), oz1 = (int)(rz.o1 - rz.w0);
  const FastDiv   fwx(wx), fwy(wy);
  const int       npts  = wx * wy * wz;
  const long long ubase = rx.w0 + P.box.xm0 * (ry.w0 + P.box.xm1 * rz.w0);
  const long long ssy = sx, ssz = (long long)sx * sy;
  S *const        rhs = buf1 + nbuf; /* correction form: the sweeps' right-hand side, DOF per W(T) point */
  if constexpr (CORR) {
    for (int p = threadIdx.x; p < npts; p += blockDim.x) {
      int i, j, k;
      Unflatten<DIM>(p, fwx, fwy, i, j, k);
      const long long u   = ubase + i + P.box.xm0 * (j + P.box.xm1 * (long long)k);
      const bool      inb = !P.transpose || (i >= ox0 && i < ox1 && j >= oy0 && j < oy1 && k >= oz0 && k < oz1);
      T               r[DOF];
      if (P.xzero) {
#pragma unroll
        for (int c = 0; c < DOF; c++) r[c] = inb ? P.b[DOF * u + c] : T(0);
      } else {
        hj::BlockResidual<DIM, KIND, DOF>(xsrc + DOF * ((i + 1) + xs1 * (j + P1) + xs2 * (k + P2)), xs1, xs2, P.b + DOF * u, P.diagT + DD * u, [&](int s) { return P.coefT + (s * P.nlocal + u) * DD; }, r);
      }
#pragma unroll
      for (int c = 0; c < DOF; c++) rhs[DOF * p + c] = (S)r[c];
    }
  }
  __syncthreads();
  for (int it = 0; it < P.k; it++) {
    const S *src = (it & 1) ? buf1 : buf0;
    S       *dst = (it & 1) ? buf0 : buf1;
    for (int p = threadIdx.x; p < npts; p += blockDim.x) {
      int i, j, k;
      Unflatten<DIM>(p, fwx, fwy, i, j, k);
      const int       off = (i + 1) + sx * ((j + P1) + sy * (k + P2));
      const long long u   = ubase + i + P.box.xm0 * (j + P.box.xm1 * (long long)k);
      const bool      inb = !P.transpose || (i >= ox0 && i < ox1 && j >= oy0 && j < oy1 && k >= oz0 && k < oz1);
      S               bl[DOF];
#pragma unroll
      for (int c = 0; c < DOF; c++) bl[c] = CORR ? rhs[DOF * p + c] : (inb ? (S)P.b[DOF * u + c] : S(0));
      hj::BlockPointUpdate<DIM, KIND, DOF>(src + DOF * off, ssy, ssz, bl, P.invdiag + DD * u, P.omega, [&](int s) { return P.coef + (s * P.nlocal + u) * DD; }, dst + DOF * off);
    }
    __syncthreads();
  }

  /* 3. the owned core (transposed: all of W(T), added) from buf[k&1], DOF consecutive scalars per point: consecutive
     threads write consecutive scalars; correction form: x + delta */
  const S *const  res = (P.k & 1) ? buf1 : buf0;
  const long long obase = P.y.obase + rx.w0 + P.y.os1 * ry.w0 + P.y.os2 * rz.w0;
  for (int e = threadIdx.x; e < DOF * npts; e += blockDim.x) {
    const int p = e / DOF, c = e - DOF * p;
    int       i, j, k;
    Unflatten<DIM>(p, fwx, fwy, i, j, k);
    if (P.transpose || (i >= ox0 && i < ox1 && j >= oy0 && j < oy1 && k >= oz0 && k < oz1)) {
      T v = (T)res[DOF * ((i + 1) + sx * ((j + P1) + sy * (k + P2))) + c];
      if constexpr (CORR)
        if (!P.xzero) v += xsrc[DOF * ((i + 1) + xs1 * (j + P1) + xs2 * (k + P2)) + c];
      PutResult(P.y.out + (DOF * (obase + i + P.y.os1 * j + P.y.os2 * (long long)k) + c), v, P.transpose);
    }
  }
}

/* out[p] = in[p]^-1 for the n row-major dof x dof blocks of in: Gauss-Jordan elimination with partial pivoting in T,
   one thread per block, once per setup. The correction form needs the diagonal blocks D(p) for its residual and the
   stencil holds their inverses; inverting back costs a rounding of about cond(D(p)) eps, which moves the solution the
   iteration converges to as much as the inverse itself does in the native mode (its fixed point solves the same
   A_off x + inv(invdiag) x = b). */
template <class T>
__global__ void InvertBlocksKernel(long long n, int dof, const T *in, T *out)
{
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < n; p += (long long)gridDim.x * blockDim.x) {
    T a[kBlockMaxDof * kBlockMaxDof], v[kBlockMaxDof * kBlockMaxDof];
    for (int e = 0; e < dof * dof; e++) a[e] = in[p * dof * dof + e], v[e] = (e / dof == e % dof) ? T(1) : T(0);
    for (int c = 0; c < dof; c++) {
      int piv = c;
      for (int r = c + 1; r < dof; r++)
        if ((a[r * dof + c] < 0 ? -a[r * dof + c] : a[r * dof + c]) > (a[piv * dof + c] < 0 ? -a[piv * dof + c] : a[piv * dof + c])) piv = r;
      for (int j = 0; j < dof; j++) {
        T t = a[c * dof + j];
        a[c * dof + j]   = a[piv * dof + j];
        a[piv * dof + j] = t;
        t                = v[c * dof + j];
        v[c * dof + j]   = v[piv * dof + j];
        v[piv * dof + j] = t;
      }
      const T s = T(1) / a[c * dof + c]; /* nonzero: in is the inverse of a nonsingular block */
      for (int j = 0; j < dof; j++) a[c * dof + j] *= s, v[c * dof + j] *= s;
      for (int r = 0; r < dof; r++) {
        const T f = a[r * dof + c];
        if (r == c || f == T(0)) continue;
        for (int j = 0; j < dof; j++) a[r * dof + j] -= f * a[c * dof + j], v[r * dof + j] -= f * v[c * dof + j];
      }
    }
    for (int e = 0; e < dof * dof; e++) out[p * dof * dof + e] = v[e];
  }
}

template <class T>
cudaError_t InvertBlocks(long long n, int dof, const T *in, T *out, cudaStream_t stream)
{
  if (dof < 2 || dof > kBlockMaxDof) return cudaErrorInvalidValue;
  if (n <= 0) return cudaSuccess;
  const long long nb = (n + 127) / 128;
  InvertBlocksKernel<T><<<(unsigned)(nb < 65536 ? nb : 65536), 128, 0, stream>>>(n, dof, in, out);
  return cudaGetLastError();
}

template <int DIM, int KIND, int DOF, class T, class S>
cudaError_t BlockLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, S>(TileKernelBlock<DIM, KIND, DOF, T, S>, L, attr);
}

/* Block table index: ((dof - 2)*5 + dk)*2 + single; dof 2..HJ_CUDA_MAX_DOF. */
template <class T, std::size_t I>
constexpr Launcher<T> BlockEntry()
{
  constexpr bool single = I % 2;
  constexpr int  dk     = (int)((I / 2) % 5);
  constexpr int  dof    = (int)(I / 10) + 2;
  using S               = std::conditional_t<single, float, T>;
  return &BlockLaunchOne<DimOf(dk), KindOf(dk), dof, T, S>;
}
template <class T, std::size_t... I>
constexpr std::array<Launcher<T>, sizeof...(I)> BlockTable(std::index_sequence<I...>)
{
  return {{BlockEntry<T, I>()...}};
}

template <class T>
Launcher<T> BlockLauncher(const Launch<T> &L)
{
  static constexpr auto table = BlockTable<T>(std::make_index_sequence<(kBlockMaxDof - 1) * 10>{});
  if (L.dim < 1 || L.dim > 3 || L.dof < 2 || L.dof > kBlockMaxDof || L.nthreads > kBlockMaxThreads || !L.var || (L.transpose && !L.xzero)) return nullptr; /* blocks are never constant */
  return table[((L.dof - 2) * 5 + DimKindIndex(L.dim, L.kind)) * 2 + (int)L.single];
}
} // namespace hjcuda
