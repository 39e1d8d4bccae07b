/* The point-block tile kernel (dof = DOF > 1 fields per grid point, doc/algorithm.md "Operator" with dof x dof blocks;
   launched through cuda/kernels/dispatch.cuh). The cycle is TileKernel's (cuda/kernels/kernels.cuh): one thread block per tile, W(T) plus its halo
   H(T) loaded into two shared buffers, k Jacobi sweeps ping-ponging between them with the halo frozen, the owned
   core written out; here every point holds DOF values and every update is hj::BlockPointUpdate, the host backend's
   point update.

   Arrays (device memory), all with the DOF values of a point together (index c + DOF*point), as PETSc's DMDA vectors:
     xpad, y     padded arrays of points as in cuda/kernels/kernels.cuh (Output indices count points)
     b           unpadded owned array
     coef        [noff][nlocal][DOF*DOF] (row-major blocks), invdiag [nlocal][DOF*DOF] (inverted diagonal blocks)
   Threads: at most kBlockMaxThreads per block, each updating the points p = threadIdx.x + q*blockDim.x of W(T);
   b, the blocks and the inverse diagonal are read from global memory (L1/L2) in every sweep: with DOF*DOF*(noff+1)
   values per point they do not fit in registers.
   S other than T (kCorrection, cuda/kernels/kernels.cuh): the correction form. The buffers start at zero, and a third region of
   shared memory, after the two buffers, holds each W(T) point's right-hand side of the sweeps in S: the residual
   b - A x formed once per cycle in T (hj::BlockResidual, x from xpad, the T blocks and the diagonal blocks diagT), or
   b from a zero x (masked when transposed). The sweeps read it instead of b, and x + delta is written in T. */
#pragma once

#include "kernels.cuh"
#include "arith/extract.hpp"

namespace hjcuda
{
template <int DIM, int KIND, int DOF, class T, class S>
__global__ void __launch_bounds__(kBlockMaxThreads) TileKernelBlock(const TileParams<T, S> P)
{
  constexpr int  P1 = DIM > 1, P2 = DIM > 2, DD = DOF * DOF;
  constexpr bool CORR = kCorrection<T, S>;
  HJ_SHARED hj::Range range[3];

  /* 0. this block's tile */
  TileRanges<3>(P, range);
  const hj::TileBox tb   = hj::MakeTileBox<DIM>(range[0], range[1], range[2]);
  const int         nbuf = DOF * tb.BufferPoints(); /* scalars per buffer */
  S *const          buf0 = reinterpret_cast<S *>(hj_smem);
  S *const          buf1 = buf0 + nbuf;

  /* 1. W(T) + H(T) (TileKernel step 1, DOF scalars per point); correction form: zeros. xv: xpad in buffer
     coordinates. */
  const auto xv = tb.PaddedHalo<DOF>(P.xpad, P.box.ext0, P.box.ext1);
  LoadTile<DIM, DOF>(tb, xv, CORR || P.xzero, buf0, buf1);

  /* 2. k sweeps with the halo frozen; sweep it reads buf[it&1] and writes buf[(it+1)&1] at W(T) points only, one
     barrier per sweep (TileKernel step 3), and one after the last so that step 3 reads it. Transposed (TileKernel's
     P.transpose): b only on the points T owns. uv: the unpadded point index (b, the blocks) of a W(T) point. */
  const FastDiv fwx(tb.w[0]), fwy(tb.w[1]);
  const int     npts = tb.Points();
  const auto    uv   = tb.Work(hj::Unpadded(P.b, P.box.xm0, P.box.xm1));
  const auto    bv   = tb.Work(hj::Unpadded<DOF>(P.b, P.box.xm0, P.box.xm1));
  const auto    sb   = tb.Buffer<DOF>(buf0); /* scalar offsets of a buffer point (the same in buf1) */
  S *const      rhs  = buf1 + nbuf;          /* correction form: the sweeps' right-hand side, DOF per W(T) point */
  if constexpr (CORR) {
    for (int p = threadIdx.x; p < npts; p += blockDim.x) {
      int i, j, k;
      Unflatten<DIM>(p, fwx, fwy, i, j, k);
      const long long u   = uv.Index(i, j, k);
      const bool      inb = !P.transpose || tb.Owned(i, j, k);
      T               r[DOF];
      if (P.xzero) {
#pragma unroll
        for (int c = 0; c < DOF; c++) r[c] = inb ? bv(i, j, k, c) : T(0);
      } else {
        hj::BlockResidual<DIM, KIND, DOF>(
          xv.ptr(i + 1, j + P1, k + P2), xv.s1, xv.s2(), bv.ptr(i, j, k), P.diagT + DD * u, [&](int s) { return P.coefT + (s * P.nlocal + u) * DD; }, r);
      }
#pragma unroll
      for (int c = 0; c < DOF; c++) rhs[DOF * p + c] = (S)r[c];
    }
  }
  __syncthreads();
  for (int it = 0; it < P.k; it++) {
    const S *src   = (it & 1) ? buf1 : buf0;
    S       *dst   = (it & 1) ? buf0 : buf1;
    const S  omega = P.w[it]; /* this sweep's weight */
    for (int p = threadIdx.x; p < npts; p += blockDim.x) {
      int i, j, k;
      Unflatten<DIM>(p, fwx, fwy, i, j, k);
      const int       off = sb.Index(i + 1, j + P1, k + P2);
      const long long u   = uv.Index(i, j, k);
      const bool      inb = !P.transpose || tb.Owned(i, j, k);
      S               bl[DOF];
#pragma unroll
      for (int c = 0; c < DOF; c++) bl[c] = CORR ? rhs[DOF * p + c] : (inb ? (S)bv(i, j, k, c) : S(0));
      hj::BlockPointUpdate<DIM, KIND, DOF>(
        src + off, sb.s1, sb.s2(), bl, P.invdiag + DD * u, omega, [&](int s) { return P.coef + (s * P.nlocal + u) * DD; }, dst + off);
    }
    __syncthreads();
  }

  /* 3. the owned core (transposed: all of W(T), added) from buf[k&1], DOF consecutive scalars per point: consecutive
     threads write consecutive scalars; correction form: x + delta. W(T) coordinates. */
  const auto res = tb.Buffer<DOF>((P.k & 1) ? buf1 : buf0);
  const auto yw  = tb.Work(hj::OutputView<DOF>(P.y));
  const auto xw  = tb.Work(hj::Padded<DOF>(P.xpad, DIM, P.box.ext0, P.box.ext1));
  for (int e = threadIdx.x; e < DOF * npts; e += blockDim.x) {
    const int p = e / DOF, c = e - DOF * p;
    int       i, j, k;
    Unflatten<DIM>(p, fwx, fwy, i, j, k);
    if (P.transpose || tb.Owned(i, j, k)) WriteBack<CORR>(yw, xw, i, j, k, c, res(i + 1, j + P1, k + P2, c), P.xzero, P.transpose);
  }
}

/* out[p] = in[p]^-1 for the n row-major dof x dof blocks of in: hj::InvertBlock (the extraction's own Gauss-Jordan
   elimination with partial pivoting, singularity check and FMA guard), one thread per block, once per setup. The
   correction form needs the diagonal blocks D(p) for its residual and the stencil holds their inverses; inverting back
   costs a rounding of about cond(D(p)) eps, which moves the solution the iteration converges to as much as the inverse
   itself does in the native mode (its fixed point solves the same A_off x + inv(invdiag) x = b). in holds inverses of
   nonsingular blocks; a block that still fails (not finite) is written as NaN, so that the solve stops on it. */
template <class T>
__global__ void InvertBlocksKernel(long long n, int dof, const T *in, T *out)
{
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < n; p += (long long)gridDim.x * blockDim.x) {
    T *o = out + p * dof * dof;
    if (!hj::InvertBlock<kBlockMaxDof>(dof, in + p * dof * dof, o))
      for (int e = 0; e < dof * dof; e++) o[e] = T(nan(""));
  }
}

} // namespace hjcuda
