/* The CUDA backend of PCHJACOBI (doc/design.md, "Backends"): device work arrays, the device copy of the stencil,
   the choice of kernel, and the cycles of one PCApply/PCApplyRichardson on PETSc's current stream.

   Kernels: k = 1 runs the fused classic sweep (one thread per point, neighbours from global memory; one cycle is
   one damped Jacobi sweep whatever the tile). k >= 2 runs the tile kernel: one block per tile, k sweeps in shared
   memory (hjkernels.cuh). -pc_hjacobi_cuda_tile_kernel forces the tile kernel for k = 1 too (testing).
   -pc_hjacobi_cuda_kernel auto|shared|registers picks the tile kernel: shared (TileKernel: every neighbour from
   shared memory, any dimension and stencil) or registers (TileKernelStrip2D: 2D star only, each thread keeps a
   vertical strip of R points in registers, about 3.5 shared-memory accesses per update instead of 6); auto = registers
   where it applies (2D star, a block that fits), else shared; and for a 2D star stencil whose y couplings are all
   zero on this rank (independent rows, as the paper's 1D experiment), the 1D shared kernel on rows: 1D tiles along x,
   no y halo loaded (the result is the same for any tiling along y: the y terms are zero). On an H200 one inner
   sweep of a 4096^2 grid took 13.1 us with registers and 24.2 us with shared (bench/results/nvidia-h200/followup).
   -pc_hjacobi_cuda_strip 4|8|16 fixes R (default: 4 when the tile then needs at most 256 threads, else 8; 16, only
   when asked, needs constant coefficients or single inner precision: on an H100 a 64 x 64 tile with R = 16 in 256
   threads swept in 15.9 us against 16.4 us with R = 8 in 512, but its whole cycle was slower, 604 against 486 us at
   k = 16, bench/results/nvidia-h100/run8).

   Single-precision inner mode (-pc_hjacobi_inner_precision single with double PetscScalar): the tile is loaded
   into shared memory as float, b, the diagonal and the coefficients are float (float copies of the planes are made
   on the device), the k sweeps run in float and the owned values are converted back to double on write. So every
   cycle rounds x to single precision: about 1e-7 relative error per cycle. That is harmless for a smoother or a
   preconditioner (its error is far above 1e-7), but a tight solve by pure Richardson iteration on this PC stalls near
   1e-7 relative residual; use a Krylov method around it (flexible if the tolerance is below ~1e-6) or the native
   precision there. It halves shared memory per tile and coefficient traffic. The classic kernel (k = 1, dof = 1)
   always runs in PetscScalar; with dof > 1 the point-block tile kernel (hjblock.cuh) runs for every k.

   Measured on an H100 (bench/results/nvidia-h100/run2): B1 2048^2, tile 32, k 32, overlap 4 took 0.820 s (6601
   cycles) with single against 1.189 s (6593 cycles) native; one inner sweep of 4096^2 8.1 against 13.5 us (register
   kernel). */
#include <petscdevice_cuda.h>
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petschjacobi/private/hjpoint.hpp>
#include "hjlaunch.h"
#include "hjcudastencil.h" /* HJCudaStencil: an uploaded stencil needs nothing on the device when constant */

/* The kernel configuration of one call, derived from the PC's parameters and layout (cheap, so never stale). */
typedef struct {
  PetscBool      tile;       /* tile kernel (else classic); dof > 1: always the point-block tile kernel */
  PetscBool      single;     /* tile kernel with float sub-iterations */
  PetscBool      regs;       /* tile kernel: the register-strip kernel (ppt is then its strip length R) */
  PetscBool      rows;       /* tile kernel, 2D without y couplings: every row is an independent 1D problem, run by the 1D
                                kernel with 1D tiles along x and no y halo (tile and overlap along y do not matter then) */
  long long      t[3], o[3]; /* tile and overlap per direction as the kernel uses them (rows: 1 and 0 along y) */
  long long      W[3];       /* largest working region per direction */
  long long      ntiles[3], ntot;
  int            ppt, nthreads;
  size_t         smem;       /* bytes of shared memory per block */
  PetscLogDouble workpoints; /* points of all working regions: each is updated k times per cycle */
} HJCudaConfig;

typedef struct {
  PetscInt     npadded;       /* scalars of a padded array (points x dof) */
  PetscScalar *xpad, *ypad; /* padded work arrays; their layer outside the domain is zero forever */
  char         name[256];   /* device */
  int          smemoptin;   /* largest dynamic shared memory per block the device allows */
  PetscBool    forcetile;   /* -pc_hjacobi_cuda_tile_kernel */
  PetscInt     kernel;      /* -pc_hjacobi_cuda_kernel: HJ_CUDA_KERNEL_AUTO, _SHARED or _REGISTERS */
  PetscInt     strip;       /* -pc_hjacobi_cuda_strip: 0 (choose), 4, 8 or 16 */
} HJCuda;

static_assert(hjcuda::kBlockMaxDof == HJ_MAX_DOF, "the point-block kernel covers every dof the library accepts");

enum { HJ_CUDA_KERNEL_AUTO, HJ_CUDA_KERNEL_SHARED, HJ_CUDA_KERNEL_REGISTERS };
static const char *const HJCudaKernels[] = {"auto", "shared", "registers"};

PetscErrorCode HJCudaStencilDestroy(void **ptr)
{
  HJCudaStencil *d = (HJCudaStencil *)*ptr;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJCudaPatternDestroy(&d->pattern));
  PetscCallCUDA(cudaFree(d->coef));
  PetscCallCUDA(cudaFree(d->invdiag));
  PetscCallCUDA(cudaFree(d->coeff));
  PetscCallCUDA(cudaFree(d->invdiagf));
  PetscCall(PetscFree(d));
  *ptr = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload st (once; A^T lazily at its first use) and, when asked for, make its float planes on the device. */
static PetscErrorCode HJCudaStencilEnsure(HJStencil *st, PetscInt nlocal, PetscBool single, cudaStream_t stream)
{
  HJCudaStencil *d = (HJCudaStencil *)st->device;

  PetscFunctionBegin;
  PetscCheck(!st->ondevice || (d && d->nlocal == nlocal && d->noff == st->noff && d->dof == st->dof), PETSC_COMM_SELF, PETSC_ERR_PLIB, "A stencil extracted on the device does not fit the layout");
  if (d && (d->nlocal != nlocal || d->noff != st->noff || d->constant != st->constant || d->dof != st->dof)) { /* not a copy of this stencil */
    PetscCall(HJCudaStencilDestroy(&st->device));
    d = NULL;
  }
  if (!d) {
    PetscCall(PetscNew(&d));
    d->constant = st->constant;
    d->noff     = st->noff;
    d->nlocal   = nlocal;
    d->dof      = st->dof;
    if (!st->constant) {
      const size_t nd = (size_t)nlocal * (size_t)(st->dof * st->dof), nc = (size_t)st->noff * nd;

      PetscCallCUDA(cudaMalloc((void **)&d->coef, nc * sizeof(PetscScalar)));
      PetscCallCUDA(cudaMalloc((void **)&d->invdiag, nd * sizeof(PetscScalar)));
      PetscCallCUDA(cudaMemcpyAsync(d->coef, st->coef, nc * sizeof(PetscScalar), cudaMemcpyHostToDevice, stream));
      PetscCallCUDA(cudaMemcpyAsync(d->invdiag, st->invdiag, nd * sizeof(PetscScalar), cudaMemcpyHostToDevice, stream));
      PetscCall(PetscLogCpuToGpu((PetscLogDouble)((nc + nd) * sizeof(PetscScalar))));
    }
    st->device        = d;
    st->devicedestroy = HJCudaStencilDestroy;
  }
  if (single && !d->constant && (!d->coeff || d->floatstale) && sizeof(PetscScalar) != sizeof(float)) {
    const long long nd = (long long)d->nlocal * d->dof * d->dof, nc = (long long)d->noff * nd;

    if (!d->coeff) {
      PetscCallCUDA(cudaMalloc((void **)&d->coeff, (size_t)nc * sizeof(float)));
      PetscCallCUDA(cudaMalloc((void **)&d->invdiagf, (size_t)nd * sizeof(float)));
    }
    d->floatstale = PETSC_FALSE;
    PetscCallCUDA(hjcuda::ConvertToFloat(nc, d->coef, d->coeff, stream));
    PetscCallCUDA(hjcuda::ConvertToFloat(nd, d->invdiag, d->invdiagf, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tiles, threads and shared memory for the current parameters and stencil st; errors if the tile kernel is needed
   and the tile does not fit. */
static PetscErrorCode HJCudaConfigure(PC pc, const HJStencil *st, HJCudaConfig *cfg)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  HJCuda         *cu = (HJCuda *)hj->cuda;
  const HJLayout *L  = &hj->layout;
  long long       npts = 1, nbuf = 1;
  const int       target = (st->kind == hj::BOX && !st->constant) ? hjcuda::kTileThreadsTargetBoxVar : hjcuda::kTileThreadsTarget;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) /* the classic and copy kernels index a direction with int (x: scalars, dof per point) */
    PetscCheck(L->xm[d] * (d ? 1 : L->dof) < 2147483647, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "The CUDA backend handles at most 2^31 - 1 points (x: values) per rank in one direction (direction %" PetscInt_FMT " has %" PetscInt_FMT " points of %" PetscInt_FMT " values): use more ranks", d, L->xm[d], L->dof);
  PetscCall(PetscMemzero(cfg, sizeof(*cfg)));
  cfg->tile       = (PetscBool)(hj->subits > 1 || cu->forcetile || L->dof > 1);
  cfg->single     = (PetscBool)(cfg->tile && hj->inner == PC_HJACOBI_INNER_PRECISION_SINGLE && sizeof(PetscScalar) != sizeof(float));
  cfg->workpoints = 1;
  cfg->rows       = (PetscBool)(cfg->tile && L->dim == 2 && L->dof == 1 && st->kind == hj::STAR && st->zerodir[1] && cu->kernel == HJ_CUDA_KERNEL_AUTO);
  for (PetscInt d = 0; d < 3; d++) {
    PetscInt  t, o;
    long long sumw = 0;

    HJTileOf(hj, d, &t, &o);
    PetscCheck(t >= 1 && o >= 0 && o < t, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Tile %" PetscInt_FMT " and overlap %" PetscInt_FMT " in direction %" PetscInt_FMT " need 0 <= overlap < tile", t, o, d);
    if (cfg->rows && d == 1) t = 1, o = 0; /* one row per tile (checked as the user gave it, as the host backend does) */
    cfg->t[d] = t;
    cfg->o[d] = o;
    cfg->W[d]      = PetscMin((long long)t, (long long)L->xm[d]);
    cfg->ntiles[d] = hj::NumTiles(L->xm[d], t, o);
    for (long long i = 0; i < cfg->ntiles[d]; i++) {
      const hj::Range r = hj::TileRange(L->xm[d], t, o, i);
      sumw += r.w1 - r.w0;
    }
    cfg->workpoints *= (PetscLogDouble)sumw;
    npts *= cfg->W[d];
    nbuf *= cfg->W[d] + 2 * (cfg->rows && d == 1 ? 0 : L->pad[d]);
  }
  cfg->ntot = cfg->ntiles[0] * cfg->ntiles[1] * cfg->ntiles[2];
  cfg->smem = 2 * (size_t)nbuf * (size_t)L->dof * (cfg->single ? sizeof(float) : sizeof(PetscScalar));
  for (cfg->ppt = 1; cfg->ppt < hjcuda::kMaxPointsPerThread && (npts + cfg->ppt - 1) / cfg->ppt > target; cfg->ppt *= 2);
  cfg->nthreads = (int)((((npts + cfg->ppt - 1) / cfg->ppt) + 31) / 32 * 32);
  if (!cfg->tile) PetscFunctionReturn(PETSC_SUCCESS);
  if (L->dof > 1) { /* the point-block tile kernel: its threads loop over the tile's points */
    PetscCheck(cu->kernel != HJ_CUDA_KERNEL_REGISTERS, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles dof = 1 only; this DMDA has dof = %" PetscInt_FMT ": use -pc_hjacobi_cuda_kernel shared (or auto)", L->dof);
    PetscCheck(L->dof <= hjcuda::kBlockMaxDof, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "The CUDA backend handles dof <= %d fields per point; this DMDA has %" PetscInt_FMT, hjcuda::kBlockMaxDof, L->dof);
    cfg->nthreads = (int)PetscMin((npts + 31) / 32 * 32, (long long)hjcuda::kBlockMaxThreads);
    cfg->ppt      = (int)((npts + cfg->nthreads - 1) / cfg->nthreads); /* informative: the kernel loops */
  }

  /* auto: the 1D kernel on rows for 2D star stencils without y couplings (above); else the register-strip kernel
     wherever it applies (2D star, a block that fits), else the shared-memory one */
  if (L->dof == 1 && !cfg->rows && (cu->kernel == HJ_CUDA_KERNEL_REGISTERS || (cu->kernel == HJ_CUDA_KERNEL_AUTO && L->dim == 2 && st->kind == hj::STAR))) { /* strips of R points: W0 columns x ceil(W1/R) strips of threads */
    const int       S  = cfg->single ? (int)sizeof(float) : (int)sizeof(PetscScalar);
    const long long W0 = cfg->W[0], W1 = cfg->W[1];
    const int       R0 = cu->strip ? (int)cu->strip : 4, R1 = cu->strip ? (int)cu->strip : 8; /* 16 only when asked: measured no faster */
    const int       ppt = cfg->ppt, nthreads = cfg->nthreads;

    PetscCheck(L->dim == 2 && st->kind == hj::STAR, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles 2D star (5-point) stencils only: use -pc_hjacobi_cuda_kernel shared (or auto)");
    PetscCheck(hjcuda::RegMaxThreads(R0, !st->constant, S) > 0 || cu->kernel == HJ_CUDA_KERNEL_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_cuda_strip %d: strips of %d points of variable coefficients in double do not fit the registers; use 4 or 8, or -pc_hjacobi_inner_precision single", R0, R0); /* auto: the shared kernel below */
    cfg->regs = PETSC_TRUE;
    cfg->ppt  = 0;
    for (int pass = 0; pass < 2 && !cfg->ppt; pass++) { /* the first R whose block fits the thread target, else the first that fits at all */
      for (int R = R0; R <= R1 && !cfg->ppt; R *= 2) {
        const long long nth = (W0 * ((W1 + R - 1) / R) + 31) / 32 * 32;
        if ((pass || nth <= target) && nth <= hjcuda::RegMaxThreads(R, !st->constant, S)) cfg->ppt = R, cfg->nthreads = (int)nth; /* RegMaxThreads 0: no such kernel */
      }
    }
    const int Rm = hjcuda::RegMaxThreads(R1, !st->constant, S) ? R1 : R1 / 2; /* the longest strip that exists */
    if (!cfg->ppt && cu->kernel == HJ_CUDA_KERNEL_AUTO) { /* does not fit: the shared-memory kernel */
      cfg->regs     = PETSC_FALSE;
      cfg->ppt      = ppt;
      cfg->nthreads = nthreads;
    }
    PetscCheck(cfg->ppt, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_hjacobi_cuda_kernel registers: tile %lldx%lld needs %lld threads per block with strips of %d points (one per column and strip), more than the register-strip kernel allows (%d): use a smaller -pc_hjacobi_tile or -pc_hjacobi_cuda_kernel shared", W0, W1,
               (W0 * ((W1 + Rm - 1) / Rm) + 31) / 32 * 32, Rm, hjcuda::RegMaxThreads(Rm, !st->constant, S));
  }
  if (!cfg->regs && L->dof == 1) {
    PetscCheck(npts <= (long long)hjcuda::kTileMaxThreads * hjcuda::kMaxPointsPerThread, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_hjacobi_tile %lld,%lld,%lld has %lld points; the CUDA tile kernel handles at most %d (%d threads x %d points each): use a smaller -pc_hjacobi_tile", cfg->W[0], cfg->W[1], cfg->W[2], npts,
             hjcuda::kTileMaxThreads * hjcuda::kMaxPointsPerThread, hjcuda::kTileMaxThreads, hjcuda::kMaxPointsPerThread);
  }
  PetscCheck(cfg->smem + 3 * sizeof(hj::Range) <= (size_t)cu->smemoptin, /* + the kernel's static shared memory */ PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "-pc_hjacobi_tile %lld,%lld,%lld needs %zu bytes of shared memory per block (two %s buffers of the tile plus its halo, %" PetscInt_FMT " values per point); %s allows %d: use a smaller -pc_hjacobi_tile%s", cfg->W[0], cfg->W[1],
             cfg->W[2], cfg->smem, cfg->single ? "float" : "PetscScalar", L->dof, cu->name, cu->smemoptin, cfg->single || sizeof(PetscScalar) == sizeof(float) ? "" : " (or -pc_hjacobi_inner_precision single)");
  PetscCheck(cfg->ntot <= 2147483647LL, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%lld tiles on one rank exceed the CUDA grid limit: use a larger -pc_hjacobi_tile", cfg->ntot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The launch descriptor for stencil st and configuration cfg; arrays and output are filled in per cycle. */
static PetscErrorCode HJCudaLaunchInit(PC pc, const HJStencil *st, const HJCudaConfig *cfg, cudaStream_t stream, hjcuda::Launch<PetscScalar> *L)
{
  PC_HJacobi          *hj = (PC_HJacobi *)pc->data;
  const HJLayout      *ly = &hj->layout;
  const HJCudaStencil *d  = (const HJCudaStencil *)st->device;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(L, sizeof(*L)));
  L->dim      = cfg->rows ? 1 : (int)ly->dim; /* rows: the 1D kernel, one tile row per row of the grid */
  L->dof      = (int)ly->dof;
  L->kind     = (int)st->kind;
  L->var      = !st->constant;
  L->single   = cfg->single;
  L->regs     = (bool)cfg->regs;
  L->ppt      = cfg->ppt;
  L->nthreads = cfg->nthreads;
  L->smem     = cfg->smem;
  L->stream   = stream;
  L->coef     = d->coef;
  L->invdiag  = d->invdiag;
  L->coeff    = d->coeff;
  L->invdiagf = d->invdiagf;
  for (PetscInt s = 0; s < 26; s++) L->cst.c[s] = s < st->noff ? st->ccoef[s] : 0;
  L->cst.invdiag = st->cinvdiag;
  L->omega       = (PetscScalar)hj->omega;
  L->nlocal      = ly->nlocal;
  L->box         = hjcuda::Box{ly->xm[0], ly->xm[1], ly->xm[2], ly->ext[0], ly->ext[1]};
  for (PetscInt k = 0; k < 3; k++) {
    L->t[k]      = cfg->t[k];
    L->o[k]      = cfg->o[k];
    L->ntiles[k] = cfg->ntiles[k];
  }
  L->ntot   = cfg->ntot;
  L->xshift = cfg->rows ? ly->ext[0] : 0;
  L->k    = cfg->tile ? (int)hj->subits : 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCudaFallback(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess, Vec hostvec)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  VecType     vt;

  PetscFunctionBegin;
  PetscCall(VecGetType(hostvec, &vt));
  PetscCheck(hj->backend == PC_HJACOBI_BACKEND_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_backend cuda needs CUDA vectors (-dm_vec_type cuda or -vec_type cuda); got vector type %s", vt);
  PetscCall(PetscInfo(pc, "Vector of type %s lives on the host: running the host backend's cycles\n", vt));
  if (st->ondevice && !st->invdiag) PetscCall(HJCudaStencilToHost(const_cast<HJStencil *>(st))); /* host arrays of a device stencil, made once */
  PetscCall(HJHostCycles(pc, st, b, x, n, zeroguess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCycles_CUDA(PC pc, const HJStencil *cst, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  HJCuda             *cu = (HJCuda *)hj->cuda;
  const HJLayout     *ly = &hj->layout;
  HJStencil          *st = const_cast<HJStencil *>(cst); /* only its device cache (st->device) is filled in */
  const PetscScalar  *ba;
  PetscScalar        *xa;
  PetscMemType        bmt, xmt;
  HJCudaConfig        cfg;
  cudaStream_t        stream;
  hjcuda::Launch<PetscScalar> L;

  PetscFunctionBegin;
  if (n <= 0) {
    if (zeroguess) PetscCall(VecZeroEntries(x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayReadAndMemType(b, &ba, &bmt));
  if (!PetscMemTypeDevice(bmt)) {
    PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
    PetscCall(HJCudaFallback(pc, cst, b, x, n, zeroguess, b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (zeroguess) PetscCall(VecGetArrayWriteAndMemType(x, &xa, &xmt));
  else PetscCall(VecGetArrayAndMemType(x, &xa, &xmt));
  if (!PetscMemTypeDevice(xmt)) {
    if (zeroguess) PetscCall(VecRestoreArrayWriteAndMemType(x, &xa));
    else PetscCall(VecRestoreArrayAndMemType(x, &xa));
    PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
    PetscCall(HJCudaFallback(pc, cst, b, x, n, zeroguess, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");

  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(HJCudaConfigure(pc, st, &cfg));
  PetscCall(HJCudaStencilEnsure(st, ly->nlocal, cfg.single, stream));
  PetscCall(HJCudaLaunchInit(pc, st, &cfg, stream, &L));
  L.b = ba;

  const PetscLogEvent  kev   = cfg.tile ? PCHJACOBI_TileKernel : PCHJACOBI_ClassicKernel;
  const PetscLogDouble dof   = (PetscLogDouble)ly->dof; /* flops of one point update: as the host backend counts them */
  const PetscLogDouble upd   = ly->dof == 1 ? 2.0 * st->noff + 3.0 : (2.0 * st->noff * dof + 2.0 * dof + 2.0) * dof;
  const PetscLogDouble flops = upd * (cfg.tile ? cfg.workpoints * L.k : (PetscLogDouble)ly->nlocal);
  const long long ext0 = ly->ext[0], ext1 = ly->ext[1], xm0 = ly->xm[0], xm1 = ly->xm[1];
  const hjcuda::Output<PetscScalar> toy = {nullptr, ly->pad[0] + ext0 * (ly->pad[1] + ext1 * ly->pad[2]), ext0, ext0 * ext1}; /* ypad's interior */
  const hjcuda::Output<PetscScalar> tox = {xa, 0, xm0, xm0 * xm1};

  /* 1. xpad interior <- x; from a zero guess the first cycle reads nothing (xzero) */
  if (!zeroguess) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(hjcuda::PadCopy((int)ly->dim, L.dof, L.box, (const PetscScalar *)xa, cu->xpad, stream)); /* the grid's dimension (L.dim is 1 for rows) */
    PetscCall(PetscLogGpuTimeEnd());
  }
  /* 2. n cycles: exchange, kernel into ypad (the last one into x), swap */
  for (PetscInt c = 0; c < n; c++) {
    const PetscBool last = (PetscBool)(c == n - 1);

    L.xzero = zeroguess && c == 0;
    if (hj->ghostsf && !L.xzero) { /* every rank starts from zero together: nothing to exchange then */
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastWithMemTypeBegin(hj->ghostsf, MPIU_SCALAR, PETSC_MEMTYPE_CUDA, cu->xpad, PETSC_MEMTYPE_CUDA, cu->xpad, MPI_REPLACE));
      PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, cu->xpad, cu->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    L.xpad = cu->xpad;
    L.y    = last ? tox : toy;
    if (!last) L.y.out = cu->ypad;
    PetscCall(PetscLogEventBegin(kev, pc, 0, 0, 0));
    PetscCall(PetscLogGpuTimeBegin());
    if (L.dof > 1) PetscCallCUDA(hjcuda::BlockLaunch(L, nullptr));
    else if (cfg.tile) PetscCallCUDA(hjcuda::TileLaunch(L, nullptr));
    else PetscCallCUDA(hjcuda::ClassicLaunch(L, nullptr));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
    PetscCall(PetscLogEventEnd(kev, pc, 0, 0, 0));
    if (!last) {
      PetscScalar *tmp = cu->xpad;
      cu->xpad         = cu->ypad;
      cu->ypad         = tmp;
    }
  }
  /* 3. the last cycle wrote x */
  if (zeroguess) PetscCall(VecRestoreArrayWriteAndMemType(x, &xa));
  else PetscCall(VecRestoreArrayAndMemType(x, &xa));
  PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJSetup_CUDA(PC pc)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  HJCuda         *cu = (HJCuda *)hj->cuda;
  const HJLayout *ly = &hj->layout;
  cudaStream_t    stream;
  HJCudaConfig    cfg;

  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  if (!cu) {
    int            dev;
    cudaDeviceProp prop;

    PetscCall(PetscNew(&cu));
    hj->cuda = cu;
    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
    PetscCall(PetscStrncpy(cu->name, prop.name, sizeof(cu->name)));
    PetscCallCUDA(cudaDeviceGetAttribute(&cu->smemoptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  }
  PetscCall(PetscOptionsGetBool(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_cuda_tile_kernel", &cu->forcetile, NULL));
  PetscCall(PetscOptionsGetEList(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_cuda_kernel", HJCudaKernels, 3, &cu->kernel, NULL));
  PetscCall(PetscOptionsGetInt(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_cuda_strip", &cu->strip, NULL));
  PetscCheck(cu->strip == 0 || cu->strip == 4 || cu->strip == 8 || cu->strip == 16, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_strip %" PetscInt_FMT ": the register-strip kernel takes strips of 4, 8 or 16 points", cu->strip);
  if (cu->kernel == HJ_CUDA_KERNEL_REGISTERS)
    PetscCheck(ly->dim == 2 && hj->st.kind == hj::STAR, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "-pc_hjacobi_cuda_kernel registers handles 2D star (5-point) stencils only; this operator is a %" PetscInt_FMT "D %s stencil: use -pc_hjacobi_cuda_kernel shared (or auto)", ly->dim, hj->st.kind == hj::STAR ? "star" : "box");
  PetscCall(PetscGetCurrentCUDAStream(&stream));

  /* work arrays: (re)allocate when the size changes; zero them on every setup, since a new layout of the same size
     may put its outside-the-domain layer where the old one had interior values */
  if (cu->npadded != ly->npadded * ly->dof) {
    PetscCallCUDA(cudaFree(cu->xpad));
    PetscCallCUDA(cudaFree(cu->ypad));
    cu->xpad = cu->ypad = NULL;
    cu->npadded          = ly->npadded * ly->dof;
    PetscCallCUDA(cudaMalloc((void **)&cu->xpad, (size_t)cu->npadded * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&cu->ypad, (size_t)cu->npadded * sizeof(PetscScalar)));
  }
  PetscCallCUDA(cudaMemsetAsync(cu->xpad, 0, (size_t)cu->npadded * sizeof(PetscScalar), stream));
  PetscCallCUDA(cudaMemsetAsync(cu->ypad, 0, (size_t)cu->npadded * sizeof(PetscScalar), stream));

  /* upload A unless its device copy is current (HJStencilExtract() destroys the copy with the old values; A^T is
     uploaded when first used) */
  PetscCall(HJCudaConfigure(pc, &hj->st, &cfg)); /* errors now if the tile does not fit */
  PetscCall(HJCudaStencilEnsure(&hj->st, ly->nlocal, cfg.single, stream));
  if (cfg.tile) { /* raise the kernel's shared-memory limit and check that its registers allow the block */
    hjcuda::Launch<PetscScalar> L;
    cudaFuncAttributes          attr;

    PetscCall(HJCudaLaunchInit(pc, &hj->st, &cfg, stream, &L));
    if (L.dof > 1) PetscCallCUDA(hjcuda::BlockLaunch(L, &attr));
    else PetscCallCUDA(hjcuda::TileLaunch(L, &attr));
    PetscCheck(attr.maxThreadsPerBlock >= cfg.nthreads, PetscObjectComm((PetscObject)pc), PETSC_ERR_LIB, "The tile kernel allows %d threads per block, the tile needs %d: use a smaller -pc_hjacobi_tile", attr.maxThreadsPerBlock, cfg.nthreads);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJReset_CUDA(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJCuda     *cu = (HJCuda *)hj->cuda;

  PetscFunctionBegin;
  if (!cu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree(cu->xpad));
  PetscCallCUDA(cudaFree(cu->ypad));
  PetscCall(PetscFree(hj->cuda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJView_CUDA(PC pc, PetscViewer viewer)
{
  PC_HJacobi  *hj = (PC_HJacobi *)pc->data;
  HJCuda      *cu = (HJCuda *)hj->cuda;
  HJCudaConfig cfg;
  PetscBool    ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii || !cu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJCudaConfigure(pc, &hj->st, &cfg));
  if (cfg.tile) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: tile kernel (%s%s), %lld tiles of at most %lldx%lldx%lld points, %d threads x %d points per thread%s, %zu bytes of shared memory per tile (device limit %d), sub-iterations in %s\n", cu->name, cfg.regs ? "registers" : (hj->layout.dof > 1 ? "point-block, shared" : "shared"),
                                     cu->kernel == HJ_CUDA_KERNEL_AUTO ? ", -pc_hjacobi_cuda_kernel auto" : "", cfg.ntot, cfg.W[0], cfg.W[1], cfg.W[2], cfg.nthreads, cfg.ppt, cfg.regs ? " (vertical strips, values in registers)" : (hj->layout.dof > 1 ? " (a loop; dof x dof blocks from global memory)" : (cfg.rows ? " (no y couplings: every row an independent 1D problem, 1D tiles along x)" : "")), cfg.smem, cu->smemoptin, cfg.single ? "single precision" : "PetscScalar"));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: fused classic sweep (k = 1, one thread per point, no shared memory; -pc_hjacobi_cuda_kernel %s applies to k > 1)\n", cu->name, HJCudaKernels[cu->kernel]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

const HJBackendOps HJBackendCUDA = {"cuda", HJCudaExtract, HJSetup_CUDA, HJCycles_CUDA, HJReset_CUDA, HJView_CUDA};
