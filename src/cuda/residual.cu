/* The CUDA backend's residual r = b - A x from the stencil (HJBackendOps.residual; solve/residual.cxx decides when it
   is the operator): x into the backend's padded array and the ghost exchange exactly as a cycle starts (PadCopy, then
   the PetscSF broadcast in place on device memory), then one kernel, one thread per owned point, on PETSc's stream. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"
#include "arith/dispatch.hpp"

namespace
{
constexpr int kResidualBlock = 256; /* threads per block */

template <class T>
struct ResidualArgs {
  const T  *xpad; /* x with its ghost layer (zero outside the domain) */
  const T  *x;    /* direct: x itself (owned points) */
  const T  *b;
  T        *r;               /* owned points, x fastest */
  const T  *coef;            /* variable stencil: [noff][nlocal] planes */
  const T  *invdiag;         /* variable stencil: [nlocal] */
  T         crow[26], cdiag; /* constant stencil, or the row of every point of [ilo, ihi) (cint): the row and the diagonal itself */
  int       cint;            /* variable stencil whose points in the owned-coordinate box [ilo, ihi) all have the row crow (the
                                plan's test, cuda/plan/interior.cu): the planes are read outside that box only */
  long long ilo[3], ihi[3];
  long long xm0, xm1, xm2, ext0, ext1, nlocal;
};

template <class T>
struct PlaneCoef { /* the coefficients of point u: plane s at u (consecutive threads, consecutive u: coalesced) */
  const T                     *c;
  long long                    nlocal;
  __device__ __forceinline__ T operator()(int s) const { return c[s * nlocal]; }
};
template <class T>
struct RowCoef { /* the constant row, from the kernel's parameters */
  const T                     *c;
  __device__ __forceinline__ T operator()(int s) const { return c[s]; }
};

/* The neighbours of owned point (i, j, k) read from x itself (no padded copy), zero outside the owned box: the operator's
   neighbours when there is no ghost value anywhere (one rank, no periodic direction: HJLayoutCreateGhostSF makes no SF) */
template <int DIM, int KIND, class T>
struct BoxNeighbours {
  const T                     *x;
  long long                    i, j, k, xm0, xm1, xm2;
  __device__ __forceinline__ T operator()(int s) const
  {
    const long long p = i + hj::Offset(DIM, KIND, s, 0), q = j + hj::Offset(DIM, KIND, s, 1), w = k + hj::Offset(DIM, KIND, s, 2);
    return p >= 0 && p < xm0 && q >= 0 && q < xm1 && w >= 0 && w < xm2 ? x[p + xm0 * (q + xm1 * w)] : T(0);
  }
};

/* One thread per owned point of an x-y plane (the plane's points numbered x fastest, so that every thread of a block has
   a point whatever the grid's width: a 257-wide grid left a fifth of the blocks of a row-shaped layout nearly idle),
   blockIdx.z and a grid-stride loop over z (any extent fits the grid limits). The ghost layer holds the neighbours'
   values, and zero outside the domain, so the constant row needs no test at the boundary. DIRECT: x read in place
   (BoxNeighbours), xpad unused. */
template <int DIM, int KIND, bool VAR, bool DIRECT, class T>
__global__ void __launch_bounds__(kResidualBlock) ResidualKernel(const ResidualArgs<T> a)
{
  constexpr long long P1 = DIM > 1, P2 = DIM > 2;
  const long long     sy = a.ext0, sz = a.ext0 * a.ext1, plane = a.xm0 * a.xm1;
  const bool          narrow = plane < (1LL << 31); /* 32-bit divisions (uniform branch) */
#pragma unroll 1
  for (long long k = blockIdx.z; k < a.xm2; k += gridDim.z) {
#pragma unroll 1
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < plane; v += (long long)gridDim.x * blockDim.x) {
      const long long j = narrow ? (long long)((unsigned)v / (unsigned)a.xm0) : v / a.xm0, i = v - j * a.xm0;
      const long long u  = i + a.xm0 * (j + a.xm1 * k);
      const T         bu = a.b[u];
      T               ru;
      bool            row = !VAR;
      if constexpr (VAR) row = a.cint && i >= a.ilo[0] && i < a.ihi[0] && j >= a.ilo[1] && j < a.ihi[1] && k >= a.ilo[2] && k < a.ihi[2];
      if constexpr (DIRECT) {
        const BoxNeighbours<DIM, KIND, T> xn = {a.x, i, j, k, a.xm0, a.xm1, a.xm2};
        if (row) ru = hj::Residual<DIM, KIND>(xn, a.x[u], bu, a.cdiag, RowCoef<T>{a.crow});
        else ru = hj::Residual<DIM, KIND>(xn, a.x[u], bu, T(1) / a.invdiag[u], PlaneCoef<T>{a.coef + u, a.nlocal});
      } else {
        const T *xc = a.xpad + ((i + 1) + sy * (j + P1) + sz * (k + P2));
        if (row) ru = hj::Residual<DIM, KIND>(xc, sy, sz, bu, a.cdiag, RowCoef<T>{a.crow});
        else ru = hj::Residual<DIM, KIND>(xc, sy, sz, bu, T(1) / a.invdiag[u], PlaneCoef<T>{a.coef + u, a.nlocal});
      }
      a.r[u] = ru;
    }
  }
}

using ResidualFn = void (*)(const ResidualArgs<PetscScalar>);
struct ResidualEntries { /* [dim-1][kind][var][direct] */
  template <int D, int K, int V, int X>
  static constexpr ResidualFn Get()
  {
    return &ResidualKernel<D + 1, K, (bool)V, (bool)X, PetscScalar>;
  }
};
} // namespace

PetscErrorCode HJResidual_CUDA(PC pc, const HJStencil *st, Vec b, Vec x, Vec r)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *xa, *ba;
  PetscScalar       *ra;
  cudaStream_t       stream;
  const PetscBool    var = (PetscBool)!st->constant;

  PetscFunctionBegin;
  PetscCheck(st->dof == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "The CUDA residual needs a dof-1 stencil");
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCheck(r != x && r != b, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_IDN, "r must differ from b and x");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (var) PetscCall(HJCudaStencilEnsure(const_cast<HJStencil *>(st), ly->nlocal, PETSC_FALSE, stream)); /* uploaded at setup already (A's plan) */
  const HJCudaStencil *d = (const HJCudaStencil *)st->device;
  PetscCheck(!var || (d && d->coef && d->invdiag), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The stencil has no device planes");

  /* 1. xpad interior <- x, then its ghost layer from the neighbours: a cycle's start (cuda/cycle.cu). The layer outside
     the domain is zero forever (setup), and neither writes it. Without any ghost value (no SF: one rank, no periodic
     direction) the kernel reads x in place instead (direct). */
  const hjcuda::Box box    = {ly->xm[0], ly->xm[1], ly->xm[2], ly->ext[0], ly->ext[1]};
  const PetscBool   direct = (PetscBool)!hj->ghostsf;
  PetscCall(VecCUDAGetArrayRead(x, &xa));
  if (!direct) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(hjcuda::PadCopy((int)ly->dim, 1, box, xa, cu->xpad, stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(HJCudaExchangeReady(pc));
    PetscCall(HJCudaExchangeBegin(&cu->ex, hj->ghostsf, cu->xpad, stream));
    PetscCall(HJCudaExchangeEnd(&cu->ex, hj->ghostsf, cu->xpad, stream));
  }

  /* 2. r = b - A x: one thread per owned point */
  PetscCall(VecCUDAGetArrayRead(b, &ba));
  PetscCall(VecCUDAGetArrayWrite(r, &ra));
  if (ly->nlocal > 0) {
    ResidualArgs<PetscScalar> a      = {};
    const ResidualFn          kernel = hj::DispatchTable<ResidualEntries, 3, 2, 2, 2>::At((int)ly->dim - 1, (int)st->kind, (int)var, (int)direct);

    PetscCheck(kernel, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No residual kernel for dim %" PetscInt_FMT ", kind %" PetscInt_FMT, ly->dim, st->kind);
    a.xpad               = cu->xpad;
    a.x                  = xa;
    a.b                  = ba;
    a.r                  = ra;
    a.coef               = var ? d->coef : nullptr;
    a.invdiag            = var ? d->invdiag : nullptr;
    const HJCudaPlan *pl = &cu->plan; /* A's plan: whether the rows inside the boundary shell are one row, and which */
    a.cint               = var && pl->valid && pl->L.var && pl->L.cint && pl->L.coefT == d->coef;
    for (PetscInt s = 0; s < 26; s++) a.crow[s] = a.cint ? pl->L.cstT.c[s] : (s < st->noff ? st->ccoef[s] : PetscScalar(0));
    a.cdiag = a.cint ? PetscScalar(1) / pl->L.cstT.invdiag : (var ? PetscScalar(0) : PetscScalar(1) / st->cinvdiag);
    for (int q = 0; q < 3; q++) {
      a.ilo[q] = a.cint ? pl->L.ilo[q] : 0;
      a.ihi[q] = a.cint ? pl->L.ihi[q] : 0;
    }
    a.xm0    = ly->xm[0];
    a.xm1    = ly->xm[1];
    a.xm2    = ly->xm[2];
    a.ext0   = ly->ext[0];
    a.ext1   = ly->ext[1];
    a.nlocal = ly->nlocal;

    const long long gx = (a.xm0 * a.xm1 + kResidualBlock - 1) / kResidualBlock;
    const dim3      block(kResidualBlock, 1, 1), grid((unsigned)PetscMin(gx, (long long)INT_MAX), 1, (unsigned)PetscMin(a.xm2, 65535LL));
    PetscCall(PetscLogGpuTimeBegin());
    kernel<<<grid, block, 0, stream>>>(a);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops((2.0 * st->noff + (var ? 4.0 : 3.0)) * ly->nlocal));
  }
  PetscCall(VecCUDARestoreArrayWrite(r, &ra));
  PetscCall(VecCUDARestoreArrayRead(b, &ba));
  PetscCall(VecCUDARestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}
