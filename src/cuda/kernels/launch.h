/* The interface between the CUDA backend's host code (plan/plan.cu, cuda/cycle.cu, which speak PETSc) and its
   kernels (cuda/kernels/kernels.cuh, cuda/kernels/dispatch.cuh, which do not): a launch descriptor, the resolvers that turn its run-time parameters
   into one kernel instantiation (a Launcher, through one dispatch table each), and two helpers. The backend fills
   the descriptor and resolves its launcher once per setup; a cycle sets the arrays and calls the launcher. */
#pragma once

#include <cuda_runtime.h>
#include <cstddef>
#include "arith/tilefit.hpp"
#include "arith/point.hpp"
#include <type_traits>

namespace hjcuda
{
/* The scalar of the sub-iterations: float in single inner precision on real scalars. Complex scalars have no single
   mode (PCSetUp refuses it), and their single table entries name the native instantiations. */
template <class T, bool single>
using InnerScalar = std::conditional_t<single && !hj::IsComplex<T>::value, float, T>;

/* The tile kernel runs at most this many threads per block; __launch_bounds__ then gives each thread up to 128
   registers, enough for kCachedCoefBytes of coefficients plus b, invdiag and the value of each of its points. */
constexpr int kTileMaxThreads          = 512;
constexpr int kTileThreadsTarget       = 256; /* threads per block the tile configuration aims at ... */
constexpr int kTileThreadsTargetBoxVar = 512; /* ... and for variable box stencils, so that 3D keeps PPT = 1 */
constexpr int kCachedCoefBytes         = 256; /* variable coefficients kept in registers per thread, at most */
constexpr int kMaxPointsPerThread      = 8;   /* PPT is 1, 2, 4 or 8 */
static_assert(kTileMaxThreads * kMaxPointsPerThread == hj::kTileMaxPoints, "the tile fit (arith/tilefit.hpp) knows the shared kernel's points");
constexpr int kClassicBlockSize = 256;
/* The register-strip kernel (2D star): strips of R = 4 or 8 points per thread along y, at most RegMaxThreads threads
   per block. A thread keeps about R x u values, u = var ? 10 : 5 (b, inverse diagonal and 4 coefficients when
   variable; the strip, its two neighbour columns and the new values), i.e. R x u x ssize / 4 registers: up to 100 fit
   the 128 registers of a 512-thread block, up to 220 the 255 of a 256-thread block (R = 8, variable, double: 160). */
constexpr int RegMaxThreads(int R, bool var, int ssize)
{
  return R * (var ? 10 : 5) * ssize / 4 <= 100 ? 512 : 256;
}
constexpr int kClassicRows = 4; /* classic block: 64 x 4 threads in 2D and 3D, 256 x 1 in 1D */
/* The point-block tile kernel (dof > 1): at most this many threads per block (each loops over the tile's points),
   for 2 <= dof <= kBlockMaxDof (HJ_MAX_DOF of the library). */
constexpr int kBlockMaxThreads = 256;
constexpr int kBlockMaxDof     = 8;

/* Where a kernel writes its result: out[obase + i + os1*j + os2*k] for owned-box coordinates (i,j,k).
   ypad: obase = 1 + ext0*(P1 + ext1*P2), os1 = ext0, os2 = ext0*ext1; x: obase = 0, os1 = xm0, os2 = xm0*xm1. */
template <class T>
struct Output {
  T        *out;
  long long obase, os1, os2;
};

/* Shape of this rank's owned box and of its padded array. */
struct Box {
  long long xm0, xm1, xm2; /* owned extents */
  long long ext0, ext1;    /* padded extents in x and y */
};

/* The constant-coefficient (compact) stencil, passed by value. */
template <class S>
struct ConstStencil {
  S c[26];
  S invdiag;
};

/* What the sweeps read, in their scalar S: the coefficient planes ([noff][nlocal]; dof > 1: [noff][nlocal][dof*dof]),
   the inverse diagonal ([nlocal]; dof > 1: [nlocal][dof*dof]), the compact row, and each sweep's weight ([k], in the
   order the sweeps run: weights/weights.cxx). All device arrays. */
template <class S>
struct SweepCoefs {
  const S        *coef;
  const S        *invdiag;
  ConstStencil<S> cst;
  const S        *w;
};

/* The kernels' arguments in the global scalar T (every kernel takes them: TileParams below). */
template <class T>
struct TileArgs {
  const T  *xpad; /* read: x with its ghost layer (Launch.xshift added at launch) */
  const T  *b;    /* read: right-hand side, unpadded */
  Output<T> y;    /* write: the owned core of every tile */
  /* the stencil and weights in T (the native sweeps' SweepCoefs; the correction form's residual) */
  const T             *coefT, *invdiagT;
  const T             *diagT; /* dof > 1, single: the diagonal blocks themselves, [nlocal][dof*dof] (the residual) */
  ConstStencil<T>      cstT;
  const T             *wT;
  T                    wv[hj::kColumnMaxK]; /* the column kernel: wT's first k values, by value (operands from the
                                               parameter, not a shared load at every level) */
  long long            nlocal;
  Box                  box;
  long long            t[3], o[3], ntiles[3]; /* tile, overlap, tiles per direction (unused directions: 1, 0, 1) */
  const unsigned      *tileids;               /* device: the tile of block b is tileids[b] (a cycle's interior or boundary
                                            tiles, Launch.ntot of them); nullptr: block b is tile b (TileId) */
  int                  k;                     /* sub-iterations */
  int                  cint;                  /* with var: every point of the owned-coordinate box [ilo, ihi) has the row
                                            cst (cstT in T): the planes are read only outside it (cuda/plan/interior.cu) */
  long long            ilo[3], ihi[3];
  const unsigned char *rowclass;  /* the column kernel with var (or nullptr): the class of each point's row, [nlocal]: 0 the
                                    row cstT, c > 0 the row rowtab[c] (6 coefficients, the inverse diagonal, a pad);
                                    the planes are then not read (cuda/plan/rowclass.cu) */
  const T             *rowtab;    /* device: kRowClasses rows of 8 values */
  const T             *xin;       /* the column kernel: x read from this unpadded array (zero outside the owned box: one
                                     rank, no periodic direction) instead of xpad, which is then not read; nullptr: xpad */
  int                  xzero;     /* start from x = 0 without reading xpad (first cycle from a zero guess) */
  int                  transpose; /* the transposed correction (with xzero; TileKernel, TileKernelBlock): b only
                                            on T's owned points, the whole of W(T) added into y (atomicAdd), y zeroed by
                                            the caller for N^T b alone */
};

/* A kernel's parameter: the arguments and the sweeps' coefficients in S (S = T: the T ones; the correction form:
   the float copies). Made at launch from the descriptor (Launch::Params): the arguments as they are, the S part
   chosen. */
template <class T, class S>
struct TileParams : TileArgs<T>, SweepCoefs<S> {
};

/* The one launch descriptor: the kernels' arguments (its TileArgs base) and what chooses and launches the kernel,
   filled once per setup (per stencil) except the arrays xpad, b, y, the flag xzero, tileids/ntot of each launch (a
   subset of the tiles: cuda/cycle.cu) and the stream (PETSc's current one), which a cycle sets. T is PetscScalar in the library. */
template <class T>
struct Launch : TileArgs<T> {
  int          dim, kind; /* 1..3, hj::STAR or hj::BOX */
  int          dof;       /* fields per point: 1 (TileLauncher, ClassicLauncher) or 2..kBlockMaxDof (BlockLauncher) */
  bool         var;       /* variable coefficients (else cstT) */
  bool         single;    /* tile kernel: sub-iterations in float, in correction form (coeff, invdiagf must be set when
                             var, and diagT when dof > 1) */
  bool         regs;      /* tile kernel: the register-strip kernel (2D star) instead of the shared one */
  int          ppt;       /* tile kernel: points per thread, 1, 2, 4 or 8; with regs the strip length R, 4 or 8 */
  int          nthreads;  /* tile kernel: threads per block, a multiple of 32, at most kTileMaxThreads */
  size_t       smem;      /* tile kernel: dynamic shared memory per block */
  cudaStream_t stream;
  long long    xshift;                /* the kernel reads xpad + xshift (rows: one padded row, so that row j is padded row j + 1) */
  const float *coeff, *invdiagf, *wf; /* float copies for the single-precision inner mode */
  T            omega;                 /* the classic sweep's weight (k = 1: w_1) */
  long long    ntot;                  /* tiles in all: the blocks launched */
  bool         colfix;                /* column kernel: the fixed plane (hj::ColumnNeed::fixed) */

  /* the kernel parameter of inner scalar S (the float compact row rounded from cstT here, as every launch did) */
  template <class S>
  TileParams<T, S> Params() const
  {
    TileParams<T, S> P{static_cast<const TileArgs<T> &>(*this), SweepCoefs<S>{}};
    P.xpad = this->xpad + xshift;
    if constexpr (std::is_same<S, T>::value) {
      P.coef = this->coefT, P.invdiag = this->invdiagT, P.cst = this->cstT, P.w = this->wT;
    } else {
      P.coef = coeff, P.invdiag = invdiagf, P.w = wf;
      for (int s = 0; s < 26; s++) P.cst.c[s] = (S)this->cstT.c[s];
      P.cst.invdiag = (S)this->cstT.invdiag;
    }
    return P;
  }
};

/* One kernel instantiation. launch(L, nullptr) launches it with L's arrays, shape and stream and nothing else (no
   attribute calls). launch(L, &attr), at setup, launches nothing: where the instantiation's dynamic shared-memory
   limit (the driver's, per function and device: the per-instantiation cache) is below L.smem, it raises it to the
   device's maximum, so that it is never lowered under another PC's plan; and it returns the instantiation's
   attributes (registers, max threads). */
template <class T>
using Launcher = cudaError_t (*)(const Launch<T> &, cudaFuncAttributes *);

/* The tile kernel (k sweeps in shared memory; L.regs: the register-strip one) for L's dim, kind, var, single, ppt and
   nthreads; nullptr if no instantiation matches. */
template <class T>
Launcher<T> TileLauncher(const Launch<T> &L);
/* The column kernel (3D star, dof 1, sub-iterations in T; L.k = 1..hj::kColumnMaxK levels; transposed only from zero) */
template <class T>
Launcher<T> ColumnLauncher(const Launch<T> &L);
/* The fused classic sweep (one Jacobi sweep from xpad, or from zero with L.xzero) for L's dim, kind, var. */
template <class T>
Launcher<T> ClassicLauncher(const Launch<T> &L);
/* The point-block tile kernel (dof = L.dof > 1; L.coef, L.invdiag hold dof x dof blocks). */
template <class T>
Launcher<T> BlockLauncher(const Launch<T> &L);
/* xpad interior <- x, dof values per point */
template <class T>
cudaError_t PadCopy(int dim, int dof, const Box &box, const T *x, T *xpad, cudaStream_t stream);
/* to[0..n) <- (float)from[0..n) */
template <class T>
cudaError_t ConvertToFloat(long long n, const T *from, float *to, cudaStream_t stream);
/* out <- the inverses of the n dof x dof row-major blocks of in (2 <= dof <= kBlockMaxDof) */
template <class T>
cudaError_t InvertBlocks(long long n, int dof, const T *in, T *out, cudaStream_t stream);
} // namespace hjcuda
