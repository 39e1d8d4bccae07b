/* Stencil extraction on the device (issue 11): an aijcusparse Pmat is read where it lives, and the coefficient planes
   and inverse diagonal (blocks) are written straight into the arrays the CUDA kernels use (HJCudaStencil). The result
   equals the host extraction (extract/stencil.cxx) bit for bit: the same per-entry arithmetic (arith/extract.hpp), the same
   checks and decisions (doc/algorithm.md "Operator"), the same error messages (HJStencilReportBad).

   Per nonzero pattern (full extraction): the off-diagonal block's columns become grid points once (a small table kept
   on the device); one pattern pass finds entries outside the width-1 box and the stencil kind. Per change of values:
   one value pass over the CSR (thread per grid point: planes, inverse diagonal, diagonal checks) and, for dof = 1, one
   pass over the planes (constant coefficients, directions without couplings); one small result comes back. */
#include <cstring> /* memset */
#include <petscdevice_cuda.h>
#include "arith/extract.hpp"
#include "cuda/stencil.h"

namespace
{
enum : int {
  F_BOX    = 1,  /* a nonzero coupling with more than one nonzero offset component */
  F_DIR0   = 2,  /* F_DIR0 << d: a nonzero plane value of an offset along d */
  F_NOTCST = 16, /* coefficients or diagonal not constant */
  F_NOTFIT = 32, /* values pass: a nonzero the stencil's kind cannot hold */
};
const unsigned long long kNone = ~0ULL;
const unsigned char      kWide = 255;

struct Result {
  unsigned long long widekey; /* first nonzero entry outside the box, in the host's order: (block << 40) | entry */
  unsigned long long diagkey; /* first point with a zero/missing diagonal or a singular block */
  int                flags;
  int                wideu, wideoff[3]; /* the entry widekey names (report pass) */
  PetscScalar        ref[26], refdiag;  /* the values constant coefficients are compared with (host: the first ones) */
};

/* The device CSR index type is what PETSc declares for MatSeqAIJCUSPARSEGetIJ(): int up to 3.25, PetscInt from the
   next release (64-bit with 64-bit indices) */
template <typename F>
struct CSRIndexOf;
template <typename I>
struct CSRIndexOf<PetscErrorCode (*)(Mat, PetscBool, const I **, const I **)> {
  using type = I;
};
using CSRIndex = CSRIndexOf<decltype(&MatSeqAIJCUSPARSEGetIJ)>::type;

struct Args {
  int                dim, dof, kind, noff, N;
  int                xs[3], xm[3], M[3], periodic[3];
  const CSRIndex    *ia, *ja, *oia, *oja; /* diagonal and off-diagonal blocks (oia NULL: none) */
  const PetscScalar *aa, *oaa;
  const int         *ghost;   /* [nghost][4]: grid point and field of each off-diagonal column */
  unsigned char     *code[2]; /* per entry of each block: 8 * (box index of its offset, 13 = centre) + its field,
                                 kWide outside the width-1 box; written by the pattern pass, read by the value pass */
  PetscScalar       *coef, *invdiag;
  int                ufirst[26]; /* per offset: the first owned point whose neighbour is in the domain, -1: none */
  unsigned long long reportkey;
  Result            *res;
};
} // namespace

struct HJCudaPattern {
  int           *ghost;
  PetscInt       nghost;
  unsigned char *code[2]; /* Args.code */
  Result        *res;
};

PetscErrorCode HJCudaPatternDestroy(HJCudaPattern **p)
{
  PetscFunctionBegin;
  if (!*p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree((*p)->ghost));
  PetscCallCUDA(cudaFree((*p)->code[0]));
  PetscCallCUDA(cudaFree((*p)->code[1]));
  PetscCallCUDA(cudaFree((*p)->res));
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace
{
/* warp-aggregated reductions into the result: every lane of the warp must call them */
__device__ void OrFlags(int *g, int bits)
{
  for (int o = 16; o > 0; o /= 2) bits |= __shfl_xor_sync(0xffffffffu, bits, o);
  if ((threadIdx.x & 31) == 0 && (bits & ~*(volatile int *)g)) atomicOr(g, bits);
}
__device__ void MinKey(unsigned long long *g, unsigned long long k)
{
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long x = __shfl_xor_sync(0xffffffffu, k, o);
    k                          = x < k ? x : k;
  }
  if ((threadIdx.x & 31) == 0 && k != kNone) atomicMin(g, k);
}

__device__ void PointOf(const Args &a, long long u, int p[3])
{
  p[0] = a.xs[0] + (int)(u % a.xm[0]);
  p[1] = a.xs[1] + (int)((u / a.xm[0]) % a.xm[1]);
  p[2] = a.xs[2] + (int)(u / ((long long)a.xm[0] * a.xm[1]));
}

/* offset and field of the column of entry e of block b (0: diagonal block, local columns; 1: off-diagonal, ghost table) */
__device__ void EntryOffset(const Args &a, int b, int col, const int rp[3], int off[3], int *cf)
{
  int pt[3];
  if (b == 0) {
    const int uc = col / a.dof;
    *cf          = col - uc * a.dof;
    PointOf(a, uc, pt);
  } else {
    const int *g = a.ghost + 4 * col;
    pt[0] = g[0], pt[1] = g[1], pt[2] = g[2], *cf = g[3];
  }
  for (int d = 0; d < 3; d++) off[d] = (int)hj::Wrap(a.periodic[d], a.M[d], pt[d] - rp[d]);
}

/* pattern pass, thread per row: each entry's offset code (the divisions happen here, once per pattern), entries
   outside the width-1 box, box couplings (as the host's first pass) */
__global__ void PatternKernel(Args a)
{
  const long long    r    = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int                bits = 0;
  unsigned long long key  = kNone;

  if (r < (long long)a.N * a.dof) {
    const long long u = r / a.dof;
    int             rp[3];
    PointOf(a, u, rp);
    for (int b = 0; b < 2; b++) {
      const CSRIndex    *ia = b ? a.oia : a.ia, *ja = b ? a.oja : a.ja;
      const PetscScalar *aa = b ? a.oaa : a.aa;
      if (!ia) continue;
      for (CSRIndex e = ia[r]; e < ia[r + 1]; e++) {
        int off[3], cf;
        EntryOffset(a, b, (int)ja[e], rp, off, &cf); /* a local or ghost-table column: fits an int */
        const int  nz   = (off[0] != 0) + (off[1] != 0) + (off[2] != 0);
        const bool wide = off[0] < -1 || off[0] > 1 || off[1] < -1 || off[1] > 1 || off[2] < -1 || off[2] > 1;
        a.code[b][e]    = wide ? kWide : (unsigned char)(8 * ((off[0] + 1) + 3 * (off[1] + 1) + 9 * (off[2] + 1)) + cf);
        if (nz == 0 || aa[e] == (PetscScalar)0) continue;
        if (wide) {
          const unsigned long long k = ((unsigned long long)b << 40) | (unsigned long long)e;
          key                        = k < key ? k : key;
          if (k == a.reportkey) {
            a.res->wideu = (int)u;
            for (int d = 0; d < 3; d++) a.res->wideoff[d] = off[d];
          }
        }
        if (nz > 1) bits |= F_BOX;
      }
    }
  }
  OrFlags(&a.res->flags, bits);
  MinKey(&a.res->widekey, key);
}

/* value pass, thread per grid point: its dof rows into the planes of the stencil's kind, the diagonal (block) and its
   inverse, as the host's second pass; a nonzero the kind cannot hold is flagged (values-only refresh: re-extract).
   One read of the values and of the pattern pass's one-byte offset codes; no column index, no division. */
template <int DOF>
__global__ void ValueKernel(Args a)
{
  const long long    u   = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  constexpr int      dof = DOF, bs2 = DOF * DOF;
  int                bits = 0;
  unsigned long long key  = kNone;

  if (u < a.N) {
    PetscScalar diag[bs2];
    int         hasdiag = 0;
    for (int i = 0; i < bs2; i++) diag[i] = 0;
    for (int c1 = 0; c1 < dof; c1++) {
      const long long r = u * dof + c1;
      for (int b = 0; b < 2; b++) {
        const CSRIndex    *ia = b ? a.oia : a.ia;
        const PetscScalar *aa = b ? a.oaa : a.aa;
        if (!ia) continue;
        for (CSRIndex e = ia[r]; e < ia[r + 1]; e++) {
          const PetscScalar   v = aa[e];
          const unsigned char c = a.code[b][e];
          if (c == kWide) {
            if (v != (PetscScalar)0) bits |= F_NOTFIT;
            continue;
          }
          const int box = c >> 3, cf = c & 7;
          if (box == 13) {
            diag[c1 * dof + cf] += v; /* as the host: 0 + v */
            if (cf == c1) hasdiag = 1;
            continue;
          }
          const int s = hj::OffsetSlot(a.dim, a.kind, box % 3 - 1, (box / 3) % 3 - 1, box / 9 - 1);
          if (s >= 0) a.coef[((size_t)s * a.N + u) * bs2 + c1 * dof + cf] = (PetscScalar)0 + v;
          else if (v != (PetscScalar)0) bits |= F_NOTFIT;
        }
      }
    }
    if constexpr (DOF == 1) {
      if (!hasdiag || diag[0] == (PetscScalar)0) key = (unsigned long long)u;
      a.invdiag[u] = hj::Recip(diag[0]);
    } else {
      PetscScalar inv[bs2];
      if (!hj::InvertBlock<DOF>(DOF, diag, inv)) key = (unsigned long long)u;
      for (int i = 0; i < bs2; i++) a.invdiag[u * bs2 + i] = inv[i];
    }
  }
  OrFlags(&a.res->flags, bits);
  MinKey(&a.res->diagkey, key);
}

/* dof = 1, thread per grid point over the planes: directions with couplings, constant coefficients (each coefficient
   whose neighbour is in the domain equals the first such one, each diagonal the first) */
__global__ void CheckKernel(Args a)
{
  const long long u    = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int             bits = 0;

  if (u < a.N) {
    int p[3];
    PointOf(a, u, p);
    for (int s = 0; s < a.noff; s++) {
      const PetscScalar v  = a.coef[(size_t)s * a.N + u];
      bool              in = true;
      for (int d = 0; d < 3; d++) {
        const int o = hj::Offset(a.dim, a.kind, s, d), q = p[d] + o;
        if (o && v != (PetscScalar)0) bits |= F_DIR0 << d;
        in = in && (a.periodic[d] || (q >= 0 && q < a.M[d]));
      }
      if (in && a.ufirst[s] >= 0 && v != a.coef[(size_t)s * a.N + a.ufirst[s]]) bits |= F_NOTCST;
    }
    if (a.invdiag[u] != a.invdiag[0]) bits |= F_NOTCST;
    if (u == 0) {
      for (int s = 0; s < a.noff; s++) a.res->ref[s] = a.ufirst[s] >= 0 ? a.coef[(size_t)s * a.N + a.ufirst[s]] : (PetscScalar)0;
      a.res->refdiag = a.invdiag[0];
    }
  }
  OrFlags(&a.res->flags, bits);
}

/* A^T's planes from A's, thread per grid point (the re-indexing of arith/extract.hpp, as extract/transpose.cxx on the host) */
__global__ void TransposeKernel(Args a, const PetscScalar *coef, const PetscScalar *invdiag)
{
  const long long u   = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const int       dof = a.dof, bs2 = dof * dof;
  if (u >= a.N) return;
  int p[3];
  PointOf(a, u, p);
  const long long g[3] = {p[0], p[1], p[2]}, xs[3] = {a.xs[0], a.xs[1], a.xs[2]}, xm[3] = {a.xm[0], a.xm[1], a.xm[2]}, M[3] = {a.M[0], a.M[1], a.M[2]};
  const bool      per[3] = {(bool)a.periodic[0], (bool)a.periodic[1], (bool)a.periodic[2]};
  hj::TransposeBlock(dof, invdiag + u * bs2, a.invdiag + u * bs2);
  for (int s = 0; s < a.noff; s++) {
    const int       off[3] = {hj::Offset(a.dim, a.kind, s, 0), hj::Offset(a.dim, a.kind, s, 1), hj::Offset(a.dim, a.kind, s, 2)};
    const int       ms     = hj::OffsetSlot(a.dim, a.kind, -off[0], -off[1], -off[2]);
    const long long uq     = hj::TransposeSource(g, off, xs, xm, M, per);
    hj::TransposeBlock(dof, uq < 0 ? (const PetscScalar *)nullptr : coef + ((size_t)ms * a.N + uq) * bs2, a.coef + ((size_t)s * a.N + u) * bs2);
  }
}

/* the fields of Args that the layout gives */
void ArgsOfLayout(const HJLayout *L, Args *a)
{
  std::memset((void *)a, 0, sizeof(*a));
  a->dim = (int)L->dim;
  a->dof = (int)L->dof;
  a->N   = (int)L->nlocal;
  for (int d = 0; d < 3; d++) {
    a->xs[d]       = (int)L->xs[d];
    a->xm[d]       = (int)L->xm[d];
    a->M[d]        = (int)L->M[d];
    a->periodic[d] = L->bnd[d] == DM_BOUNDARY_PERIODIC;
  }
  a->reportkey = kNone;
}

unsigned Blocks(long long n)
{
  return (unsigned)((n + 255) / 256);
}

/* The device CSR of the Pmat's blocks (aijcusparse, full row offsets also for the compressed off-diagonal block). */
struct DeviceCSR {
  Mat             Ad = nullptr, Ao = nullptr;
  const PetscInt *garray = nullptr;
  PetscInt        nghost = 0;
};

PetscErrorCode CSRGet(Mat A, DeviceCSR *c, Args *a)
{
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  c->Ad = A;
  if (mpi) {
    PetscInt m;
    PetscCall(MatMPIAIJGetSeqAIJ(A, &c->Ad, &c->Ao, &c->garray));
    PetscCall(MatGetLocalSize(c->Ao, &m, &c->nghost));
    if (!c->nghost) c->Ao = nullptr;
  }
  PetscCall(MatSeqAIJCUSPARSEGetIJ(c->Ad, PETSC_FALSE, &a->ia, &a->ja));
  PetscCall(MatSeqAIJCUSPARSEGetArrayRead(c->Ad, &a->aa));
  if (c->Ao) {
    PetscCall(MatSeqAIJCUSPARSEGetIJ(c->Ao, PETSC_FALSE, &a->oia, &a->oja));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(c->Ao, &a->oaa));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CSRRestore(DeviceCSR *c, Args *a)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(c->Ad, &a->aa));
  PetscCall(MatSeqAIJCUSPARSERestoreIJ(c->Ad, PETSC_FALSE, &a->ia, &a->ja));
  if (c->Ao) {
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(c->Ao, &a->oaa));
    PetscCall(MatSeqAIJCUSPARSERestoreIJ(c->Ao, PETSC_FALSE, &a->oia, &a->oja));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the first owned point (x fastest) whose neighbour at offset s is in the domain: per direction independently */
void FirstInDomain(const HJLayout *L, int kind, Args *a)
{
  for (int s = 0; s < a->noff; s++) {
    long long u = 0, stride = 1;
    for (int d = 0; d < 3 && u >= 0; d++) {
      const int o = hj::Offset((int)L->dim, kind, s, d);
      PetscInt  i = L->xs[d];
      while (i < L->xs[d] + L->xm[d] && !(L->bnd[d] == DM_BOUNDARY_PERIODIC || (i + o >= 0 && i + o < L->M[d]))) i++;
      if (i == L->xs[d] + L->xm[d]) u = -1;
      else u += stride * (i - L->xs[d]);
      stride *= L->xm[d];
    }
    a->ufirst[s] = (int)u;
  }
}

PetscErrorCode ResultReset(Result *dres, cudaStream_t stream)
{
  Result r;

  PetscFunctionBegin;
  std::memset((void *)&r, 0, sizeof(r));
  r.widekey = r.diagkey = kNone;
  PetscCallCUDA(cudaMemcpyAsync(dres, &r, sizeof(r), cudaMemcpyHostToDevice, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ResultGet(const Result *dres, Result *r, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaMemcpyAsync(r, dres, sizeof(*r), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the value pass into st's planes (kind, noff and arrays set); *fits false on every rank when some rank's values need
   another kind; errors (zero diagonal, singular block) as the host's */
PetscErrorCode ValuePass(Mat A, const HJLayout *L, HJStencil *st, Args *a, cudaStream_t stream, PetscBool *fits)
{
  HJCudaStencil *d = (HJCudaStencil *)st->device;
  MPI_Comm       comm;
  Result         r;
  PetscInt       flags[2], gflags[2];

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  a->kind    = (int)st->kind;
  a->noff    = (int)st->noff;
  a->coef    = d->coef;
  a->invdiag = d->invdiag;
  a->res     = d->pattern->res;
  FirstInDomain(L, a->kind, a);
  PetscCall(ResultReset(a->res, stream));
  PetscCall(PetscLogGpuTimeBegin());
  if (a->N) {
    using Kernel                   = void (*)(Args);
    const Kernel value[HJ_MAX_DOF] = {ValueKernel<1>, ValueKernel<2>, ValueKernel<3>, ValueKernel<4>, ValueKernel<5>, ValueKernel<6>, ValueKernel<7>, ValueKernel<8>};
    static_assert(HJ_MAX_DOF == 8, "one value kernel per dof");
    value[a->dof - 1]<<<Blocks(a->N), 256, 0, stream>>>(*a);
    PetscCallCUDA(cudaGetLastError());
    if (L->dof == 1) {
      CheckKernel<<<Blocks(a->N), 256, 0, stream>>>(*a);
      PetscCallCUDA(cudaGetLastError());
    }
  }
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(ResultGet(a->res, &r, stream));
  flags[0] = (r.flags & F_NOTFIT) != 0;
  flags[1] = r.diagkey != kNone;
  PetscCall(MPIU_Allreduce(flags, gflags, 2, MPIU_INT, MPI_MAX, comm));
  *fits = (PetscBool)!gflags[0];
  if (!*fits) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const PetscInt f[2] = {0, flags[1]}, gf[2] = {0, gflags[1]}, bad[4] = {flags[1] ? (PetscInt)r.diagkey : -1, -1, -1, -1};
    PetscCall(HJStencilReportBad(comm, L, f, gf, bad));
  }
  for (PetscInt k = 0; k < 3; k++) st->zerodir[k] = (PetscBool)(L->dof == 1 && k < L->dim && L->nlocal > 0 && !(r.flags & (F_DIR0 << k)));
  st->constant = (PetscBool)(L->dof == 1 && !(r.flags & F_NOTCST));
  st->cinvdiag = 1.0;
  if (L->nlocal && L->dof == 1) st->cinvdiag = r.refdiag;
  else if (L->nlocal) { /* as the host: the first entry of the first inverse block, unused for dof > 1 */ PetscCallCUDA(cudaMemcpyAsync(&st->cinvdiag, d->invdiag, sizeof(PetscScalar), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  }
  for (PetscInt s = 0; s < 26; s++) st->ccoef[s] = (st->constant && s < st->noff) ? r.ref[s] : 0;
  d->constant   = st->constant;
  d->floatstale = PETSC_TRUE;
  PetscCall(PetscFree(st->coef)); /* host copies (HJStencilToHost_CUDA) of the old values */
  PetscCall(PetscFree(st->invdiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/* full extraction on the device into st (destroyed first). Its two groups of device allocations (the pattern tables,
   then the planes) are checked on every rank before the reductions that follow them (HJDeviceAllocGroupCheck). */
PetscErrorCode HJCudaExtractFull(Mat A, const HJLayout *L, HJStencil *st, PetscInt failrank)
{
  MPI_Comm           comm;
  HJCudaStencil     *d;
  DeviceCSR          csr;
  Args               a;
  Result             r;
  cudaStream_t       stream;
  PetscInt           flags[2], gflags[2];
  PetscBool          fits;
  const size_t       bs2 = (size_t)L->dof * L->dof;
  PetscMPIInt        rank;
  HJDeviceAllocGroup tables = {0, cudaSuccess, PETSC_FALSE}, planes = {0, cudaSuccess, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  planes.inject = (PetscBool)(rank == failrank);
  PetscCall(HJStencilCheckPmat(A, L));
  PetscCheck(L->dof <= 8, comm, PETSC_ERR_SUP, "The device extraction handles dof <= 8");
  PetscCall(HJStencilDestroy(st));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscNew(&d));
  st->device        = d;
  st->devicedestroy = HJCudaStencilDestroy;
  st->ondevice      = PETSC_TRUE;
  st->dof           = L->dof;
  d->nlocal         = L->nlocal;
  d->dof            = L->dof;
  PetscCall(PetscNew(&d->pattern));
  HJDeviceAllocGroupAdd(&tables, (void **)&d->pattern->res, sizeof(Result));
  ArgsOfLayout(L, &a);
  PetscCall(CSRGet(A, &csr, &a));
  if (csr.Ao) { /* the off-diagonal block's columns as grid points, once per pattern */
    int *h;
    PetscCall(PetscMalloc1(4 * csr.nghost, &h));
    for (PetscInt c = 0; c < csr.nghost; c++) {
      PetscInt pt[3], cf;
      PetscCall(HJLayoutPointOfGlobal(L, csr.garray[c], pt, &cf));
      h[4 * c] = (int)pt[0], h[4 * c + 1] = (int)pt[1], h[4 * c + 2] = (int)pt[2], h[4 * c + 3] = (int)cf;
    }
    HJDeviceAllocGroupAdd(&tables, (void **)&d->pattern->ghost, 4 * csr.nghost * sizeof(int));
    if (d->pattern->ghost) {
      PetscCallCUDA(cudaMemcpyAsync(d->pattern->ghost, h, 4 * csr.nghost * sizeof(int), cudaMemcpyHostToDevice, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(PetscLogCpuToGpu(4.0 * csr.nghost * sizeof(int)));
    }
    PetscCall(PetscFree(h));
    d->pattern->nghost = csr.nghost;
  }
  for (int b = 0; b < 2; b++) { /* offset codes of every entry: one byte each */
    Mat     S = b ? csr.Ao : csr.Ad;
    MatInfo info;
    if (!S) continue;
    PetscCall(MatGetInfo(S, MAT_LOCAL, &info));
    HJDeviceAllocGroupAdd(&tables, (void **)&d->pattern->code[b], (size_t)info.nz_used + 1);
  }
  {
    const PetscErrorCode ierr = HJDeviceAllocGroupCheck(comm, &tables, "the pattern tables");
    if (ierr) PetscCall(CSRRestore(&csr, &a)); /* as every rank does here */
    PetscCall(ierr);
  }
  a.ghost   = d->pattern->ghost;
  a.code[0] = d->pattern->code[0];
  a.code[1] = d->pattern->code[1];
  a.res     = d->pattern->res;

  /* pattern pass: width check and kind */
  PetscCall(ResultReset(a.res, stream));
  if (a.N) {
    PetscCall(PetscLogGpuTimeBegin());
    PatternKernel<<<Blocks((long long)a.N * a.dof), 256, 0, stream>>>(a);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
  }
  PetscCall(ResultGet(a.res, &r, stream));
  flags[0] = r.widekey != kNone;
  flags[1] = (r.flags & F_BOX) != 0;
  PetscCall(MPIU_Allreduce(flags, gflags, 2, MPIU_INT, MPI_MAX, comm));
  if (gflags[0]) { /* name the entry as the host does: a second pass reports the first one */
    PetscInt bad[4] = {-1, -1, -1, -1};
    if (flags[0]) {
      a.reportkey = r.widekey;
      PatternKernel<<<Blocks((long long)a.N * a.dof), 256, 0, stream>>>(a);
      PetscCallCUDA(cudaGetLastError());
      PetscCall(ResultGet(a.res, &r, stream));
      bad[0] = r.wideu, bad[1] = r.wideoff[0], bad[2] = r.wideoff[1], bad[3] = r.wideoff[2];
    }
    PetscCall(CSRRestore(&csr, &a));
    {
      const PetscInt f[2] = {flags[0], 0}, gf[2] = {1, 0};
      PetscCall(HJStencilReportBad(comm, L, f, gf, bad));
    }
  }
  st->kind = gflags[1] ? hj::BOX : hj::STAR;
  st->noff = hj::NumOffsets((int)L->dim, (int)st->kind);
  d->noff  = st->noff;
  HJDeviceAllocGroupAdd(&planes, (void **)&d->coef, (size_t)st->noff * L->nlocal * bs2 * sizeof(PetscScalar));
  HJDeviceAllocGroupAdd(&planes, (void **)&d->invdiag, (size_t)L->nlocal * bs2 * sizeof(PetscScalar));
  {
    const PetscErrorCode ierr = HJDeviceAllocGroupCheck(comm, &planes, "the coefficient planes and inverse diagonal");
    if (ierr) PetscCall(CSRRestore(&csr, &a));
    PetscCall(ierr);
  }
  PetscCallCUDA(cudaMemsetAsync(d->coef, 0, (size_t)st->noff * L->nlocal * bs2 * sizeof(PetscScalar), stream));
  PetscCall(ValuePass(A, L, st, &a, stream, &fits));
  PetscCall(CSRRestore(&csr, &a));
  PetscCheck(fits, comm, PETSC_ERR_PLIB, "The device value pass found a coupling its own pattern pass did not");
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace
{
/* extraction on the device for an aijcusparse Pmat whose values may live there */
PetscErrorCode UseDevice(PC pc, Mat A, PetscBool *dev)
{
  HJSweeps *hj = HJSweepsOf(pc);
  PetscBool cusp, bound = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &cusp, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  if (cusp) PetscCall(MatBoundToCPU(A, &bound));
  *dev = (PetscBool)(cusp && !bound && hj->extract != HJ_EXTRACT_HOST);
  PetscCheck(*dev || hj->extract != HJ_EXTRACT_DEVICE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_extract device needs an aijcusparse Pmat that is not bound to the CPU; the Pmat is of type %s%s (use -dm_mat_type aijcusparse, or -pc_hjacobi_extract auto)",
             ((PetscObject)A)->type_name, bound ? ", bound to the CPU" : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

/* The CUDA backend's extraction: on the device for an aijcusparse Pmat (its CSR, uploaded by PETSc if it was only on
   the host, is what MatMult reads anyway), else on the host (the device copy is then made by HJCudaStencilEnsure). */
PetscErrorCode HJCudaExtract(PC pc, Mat A, HJStencil *st, PetscBool valuesonly)
{
  HJSweeps       *hj = HJSweepsOf(pc);
  const HJLayout *L  = &hj->layout;
  PetscBool       dev, fits = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(UseDevice(pc, A, &dev));
  if (!dev) {
    if (valuesonly && !st->ondevice) { PetscCall(HJStencilExtractValues(A, L, st, &fits)); /* drops the upload, which holds the old values */ }
    if (!fits) PetscCall(HJStencilExtract(A, L, st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (valuesonly && st->ondevice) {
    DeviceCSR    csr;
    Args         a;
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    ArgsOfLayout(L, &a);
    PetscCall(CSRGet(A, &csr, &a));
    a.ghost   = ((HJCudaStencil *)st->device)->pattern->ghost;
    a.code[0] = ((HJCudaStencil *)st->device)->pattern->code[0];
    a.code[1] = ((HJCudaStencil *)st->device)->pattern->code[1];
    PetscCall(ValuePass(A, L, st, &a, stream, &fits));
    PetscCall(CSRRestore(&csr, &a));
    if (!fits) PetscCall(PetscInfo(pc, "new values need another stencil kind: full extraction\n"));
  }
  if (!fits) {
    HJCudaOptions *o;
    PetscCall(HJCudaOptionsGet(pc, &o));
    PetscCall(HJCudaExtractFull(A, L, st, o->failalloc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host arrays of a device stencil, for the host cycles (vectors bound to the CPU) */
PetscErrorCode HJStencilToHost_CUDA(HJStencil *st)
{
  HJCudaStencil *d  = (HJCudaStencil *)st->device;
  const size_t   nd = (size_t)d->nlocal * d->dof * d->dof, nc = (size_t)d->noff * nd;

  PetscFunctionBegin;
  PetscCall(PetscFree(st->coef));
  PetscCall(PetscFree(st->invdiag));
  PetscCall(PetscMalloc1(nc, &st->coef));
  PetscCall(PetscMalloc1(nd, &st->invdiag));
  { /* on PETSc's stream, after the kernels that wrote the device arrays (the transpose, a value pass) */
    cudaStream_t stream;
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMemcpyAsync(st->coef, d->coef, nc * sizeof(PetscScalar), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaMemcpyAsync(st->invdiag, d->invdiag, nd * sizeof(PetscScalar), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  }
  PetscCall(PetscLogGpuToCpu((PetscLogDouble)((nc + nd) * sizeof(PetscScalar))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* stT (kind, noff, dof set) from the device stencil st, on the device */
PetscErrorCode HJCudaStencilTranspose(const HJLayout *L, const HJStencil *st, HJStencil *stT)
{
  const HJCudaStencil *d = (const HJCudaStencil *)st->device;
  HJCudaStencil       *t;
  const size_t         nd = (size_t)L->nlocal * st->dof * st->dof;
  cudaStream_t         stream;
  Args                 a;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscNew(&t));
  t->noff            = st->noff;
  t->nlocal          = L->nlocal;
  t->dof             = st->dof;
  stT->device        = t;
  stT->devicedestroy = HJCudaStencilDestroy;
  stT->ondevice      = PETSC_TRUE;
  PetscCallCUDA(cudaMalloc((void **)&t->coef, nd * st->noff * sizeof(PetscScalar)));
  PetscCallCUDA(cudaMalloc((void **)&t->invdiag, nd * sizeof(PetscScalar)));
  ArgsOfLayout(L, &a);
  a.kind    = (int)st->kind;
  a.noff    = (int)st->noff;
  a.coef    = t->coef;
  a.invdiag = t->invdiag;
  if (a.N) {
    PetscCall(PetscLogGpuTimeBegin());
    TransposeKernel<<<Blocks(a.N), 256, 0, stream>>>(a, d->coef, d->invdiag);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
