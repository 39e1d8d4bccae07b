/* The CUDA backend of PCHJACOBI (doc/design.md, "Backends"): device work arrays, the device copy of the stencil,
   the choice of kernel, and the cycles of one PCApply/PCApplyRichardson on PETSc's current stream (a split cycle's
   interior tiles on a second stream of ours when MPI is not GPU-aware: HJCycles_CUDA).

   The choice is made once per setup, as PETSc's pbjacobi chooses its CUDA apply once: HJCudaPlanCreate() turns the
   parameters, the -pc_hjacobi_cuda_* options (read in PCSetFromOptions), the layout and the stencil (kind, constant
   coefficients, directions without couplings) into a plan: the variant, the launch descriptor and the kernel
   instantiation (HJCudaPlan). A's plan is made at setup, A^T's at its first use; a cycle sets the arrays and launches.
   Any change of those inputs goes through PCSetUp (the setters and options mark the PC for setup).

   Kernels: k = 1 runs the fused classic sweep (one thread per point, neighbours from global memory; one cycle is
   one damped Jacobi sweep whatever the tile). k >= 2 runs the tile kernel: one block per tile, k sweeps in shared
   memory (hjkernels.cuh). -pc_hjacobi_cuda_tile_kernel forces the tile kernel for k = 1 too (testing).
   -pc_hjacobi_cuda_kernel auto|shared|registers picks the tile kernel: shared (TileKernel: every neighbour from
   shared memory, any dimension and stencil) or registers (TileKernelStrip: 2D star, each thread keeps a vertical
   strip of R points in registers, about 3.5 shared-memory accesses per update instead of 6); auto = registers where
   it applies (2D star, a block that fits), else shared; and for a 2D star stencil whose y couplings are all
   zero on this rank (independent rows, as the paper's 1D experiment), the 1D shared kernel on rows: 1D tiles along x,
   no y halo loaded (the result is the same for any tiling along y: the y terms are zero). Registers are the default
   because they cut the shared-memory accesses that bound an inner sweep (bench/TUNING.md, step 2).
   -pc_hjacobi_cuda_strip 4|8 fixes R (default: 4 when the tile then needs at most 256 threads, else 8).

   Single-precision inner mode (-pc_hjacobi_inner_precision single with double PetscScalar): the sub-iterations run
   in float in correction form (mixed-precision iterative refinement inside the cycle, kCorrection in hjkernels.cuh):
   each tile forms the residual r = b - A x of its working region once per cycle in double, from the double x and
   the double coefficients (the halo frozen), iterates the correction from zero in float in shared memory/registers
   with float copies of the coefficients (made on the device) and the halo's correction zero, and writes x + delta in
   double. That is ALGORITHM.md's cycle with only the correction rounded to float: each cycle's error is about 1e-7
   relative to the correction, i.e. to the residual at the cycle's start, never to x. So a Richardson solve on this PC
   has no floor from the inner precision: it reaches the residual of the native one (issue 15; before, the kernels
   iterated x itself in float, rounding x every cycle, and a 2D Poisson solve with |x| ~ 1e5 |b| stalled at 7.2e-3
   relative residual). The residual costs one more pass over x and the double coefficients per cycle (a residual
   kernel's traffic); the sweeps keep half the shared memory and coefficient traffic of double. The point-block kernel
   also keeps the tile's float residual in shared memory and needs the diagonal blocks themselves (inverted back from
   the stencil's inverses on the device). From a zero x (the first cycle of PCApply, the transposed correction) the
   residual is b and nothing is added. The classic kernel (k = 1, dof = 1) always runs in PetscScalar; with dof > 1
   the point-block tile kernel (hjblock.cuh) runs for every k.

   Measured figures (per cycle and per inner sweep, fp64 against the correction form) are in bench/TUNING.md. */
#include <petscdevice_cuda.h>
#include <petschjacobi/private/hjpoint.hpp>
#include "hjlaunch.h"
#include "hjcudastencil.h" /* HJCudaStencil: an uploaded stencil needs nothing on the device when constant */
#include "host/hjhost.h" /* the host backend's cycles: the fallback for vectors that live on the host */

const char *const HJCudaKernels[] = {"auto", "shared", "registers"};

/* The kernel variant of one stencil, chosen at setup (the rules above). */
typedef enum {
  HJ_CUDA_CLASSIC,   /* k = 1: the fused classic sweep */
  HJ_CUDA_SHARED,    /* TileKernel: every neighbour from shared memory */
  HJ_CUDA_REGISTERS, /* TileKernelStrip: vertical strips in registers (2D star) */
  HJ_CUDA_ROWS,      /* TileKernel in 1D over every row (2D star without y couplings on this rank) */
  HJ_CUDA_BLOCK      /* TileKernelBlock: dof > 1 */
} HJCudaVariant;

/* What the cycles of one stencil run: its variant, the kernel instantiation (resolved once) and the launch
   descriptor, all made by HJCudaPlanCreate(), A's at setup and A^T's at its first use after a setup. A cycle copies
   the descriptor, sets the arrays and the stream, and calls the launcher. */
typedef struct {
  PetscBool                     valid;
  HJCudaVariant                 variant;
  hjcuda::Launcher<PetscScalar> launch;
  hjcuda::Launch<PetscScalar>   L;
  long long                     W[3];  /* largest working region per direction (view) */
  PetscLogEvent                 event; /* PCHJACOBI_TileKernel or PCHJACOBI_ClassicKernel */
  PetscLogDouble                flops; /* of one launch, as the host backend counts them */
  unsigned                     *tileids;   /* device: every tile id, the ninterior that read no ghost value first
                                              (HJTileSplitCreate); NULL: not split (no exchange, or the classic kernel) */
  long long                     ninterior;
} HJCudaPlan;

typedef struct {
  PetscInt     npadded;       /* scalars of a padded array (points x dof) */
  PetscScalar *xpad, *ypad; /* padded work arrays; their layer outside the domain is zero forever */
  char         name[256];   /* device */
  int          smemoptin;   /* largest dynamic shared memory per block the device allows */
  HJCudaPlan   plan, planT; /* A's and A^T's */
  void        *host;        /* the host backend's data for vectors that live on the host (HJCudaFallback) */
  /* The second stream of the split cycle (HJCycles_CUDA; doc/design.md "Communication hidden"): made at the first
     setup whose plan is split, destroyed in reset. side: non-blocking (no implicit order with PETSc's stream, which
     is by default the legacy NULL stream), at the device's least priority; forked/joined: events without timing
     that order it with PETSc's stream. sideprio, petscprio: the priorities (view). */
  cudaStream_t side;
  cudaEvent_t  forked, joined;
  int          sideprio, petscprio;
} HJCuda;

static_assert(hjcuda::kBlockMaxDof == HJ_MAX_DOF, "the point-block kernel covers every dof the library accepts");

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
  PetscCallCUDA(cudaFree(d->diag));
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
    PetscCall(HJStencilDropDevice(st));
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
  const PetscBool stale = d->floatstale; /* new values in coef/invdiag: their float copies and diag are out of date */
  if (single && !d->constant && (!d->coeff || stale) && sizeof(PetscScalar) != sizeof(float)) {
    const long long nd = (long long)d->nlocal * d->dof * d->dof, nc = (long long)d->noff * nd;

    if (!d->coeff) {
      PetscCallCUDA(cudaMalloc((void **)&d->coeff, (size_t)nc * sizeof(float)));
      PetscCallCUDA(cudaMalloc((void **)&d->invdiagf, (size_t)nd * sizeof(float)));
    }
    PetscCallCUDA(hjcuda::ConvertToFloat(nc, d->coef, d->coeff, stream));
    PetscCallCUDA(hjcuda::ConvertToFloat(nd, d->invdiag, d->invdiagf, stream));
  }
  if (single && d->dof > 1 && (!d->diag || stale) && sizeof(PetscScalar) != sizeof(float)) { /* the correction form's residual needs D(p) itself */
    const long long nd = (long long)d->nlocal * d->dof * d->dof;

    if (!d->diag) PetscCallCUDA(cudaMalloc((void **)&d->diag, (size_t)nd * sizeof(PetscScalar)));
    PetscCallCUDA(hjcuda::InvertBlocks((long long)d->nlocal, (int)d->dof, d->invdiag, d->diag, stream));
  }
  if (single) d->floatstale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tile that no tile kernel holds on this device (hj::TileFits, hjtilefit.hpp): an error that says why and names the
   largest tile that fits, with the last direction shortened (the others kept) and alike in every direction. The
   default tile (hj::DefaultTile) fits every GPU with 96 KiB of shared memory per block, so only a tile the user gave
   (or a GPU with less) comes here. */
static PetscErrorCode HJCudaTileFitCheck(PC pc, const HJCudaPlan *p)
{
  PC_HJacobi                        *hj   = (PC_HJacobi *)pc->data;
  const HJCuda                      *cu   = (const HJCuda *)hj->data;
  const HJLayout                    *ly   = &hj->layout;
  const hjcuda::Launch<PetscScalar> *L    = &p->L;
  const int                          dim  = (int)ly->dim, dof = (int)ly->dof;
  const int                          fdim = p->variant == HJ_CUDA_ROWS ? 1 : dim; /* directions with a halo */
  const long long                    ss   = L->single ? (long long)sizeof(float) : (long long)sizeof(PetscScalar), lim = cu->smemoptin;
  char                               given[64], region[64], why[256], why2[512], along[64], cube[64], fits[256];
  hj::TileNeed                       need;
  PetscBool                          single, same;
  long long                          wl, c;

  PetscFunctionBegin;
  if (hj::TileFits(p->W, fdim, dof, L->single, ss, lim)) PetscFunctionReturn(PETSC_SUCCESS);
  need = hj::TileNeeds(p->W, fdim, dof, L->single, ss);
  single = (PetscBool)(!L->single && sizeof(PetscScalar) != sizeof(float) && hj::TileFits(p->W, fdim, dof, true, (long long)sizeof(float), lim)); /* what fp32 sub-iterations would fit */
  PetscCall(PetscSNPrintf(given, sizeof(given), dim == 1 ? "%" PetscInt_FMT : (dim == 2 ? "%" PetscInt_FMT ",%" PetscInt_FMT : "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT), hj->tile[0], hj->tile[1], hj->tile[2]));
  PetscCall(PetscSNPrintf(region, sizeof(region), dim == 1 ? "%lld" : (dim == 2 ? "%lldx%lld" : "%lldx%lldx%lld"), p->W[0], p->W[1], p->W[2]));
  why[0] = why2[0] = 0;
  if (dof == 1 && need.points > hj::kTileMaxPoints) PetscCall(PetscSNPrintf(why, sizeof(why), "its working region of %s points has %lld; the shared kernel holds at most %lld (%d threads x %d points)", region, need.points, hj::kTileMaxPoints, hjcuda::kTileMaxThreads, hjcuda::kMaxPointsPerThread));
  if (need.bytes + hj::kTileStaticBytes > lim) {
    PetscCall(PetscSNPrintf(why2, sizeof(why2), "%s%s%s needs %lld bytes of shared memory per block (two %s buffers of the tile plus its halo%s, %d value%s per point); %s allows %lld per block, %lld of them for the buffers", why[0] ? ", and it" : "its working region of ", why[0] ? "" : region, why[0] ? "" : " points", need.bytes,
                            L->single ? "float" : "PetscScalar", L->single && dof > 1 ? ", and the tile's residual in float" : "", dof, dof > 1 ? "s" : "", cu->name, lim, lim - hj::kTileStaticBytes));
  }

  /* what fits, as -pc_hjacobi_tile takes it: the last direction shortened, and a cube (the rows mode keeps the y tile,
     which it ignores) */
  wl = fdim > 1 ? hj::TileFitAlong(p->W, fdim - 1, fdim, dof, L->single, ss, lim, p->W[fdim - 1]) : 0; /* 0: none */
  c  = hj::TileFitCube(fdim, dof, L->single, ss, lim, hj::kTileMaxPoints);
  if (fdim == 1) PetscCall(dim == 1 ? PetscSNPrintf(cube, sizeof(cube), "%lld", c) : PetscSNPrintf(cube, sizeof(cube), "%lld,%" PetscInt_FMT, c, hj->tile[1]));
  else PetscCall(PetscSNPrintf(cube, sizeof(cube), fdim == 2 ? "%lld,%lld" : "%lld,%lld,%lld", c, c, c));
  if (wl > 0) {
    PetscCall(PetscSNPrintf(along, sizeof(along), fdim == 2 ? "%lld,%lld" : "%lld,%lld,%lld", p->W[0], fdim == 2 ? wl : p->W[1], wl));
    PetscCall(PetscStrcmp(along, cube, &same));
    if (same) PetscCall(PetscSNPrintf(fits, sizeof(fits), "%s: use -pc_hjacobi_tile %s", cube, cube));
    else if (fdim == 2) PetscCall(PetscSNPrintf(fits, sizeof(fits), "%s (the longest in y for %lld in x), or %s: use -pc_hjacobi_tile %s (or %s)", along, p->W[0], cube, along, cube));
    else PetscCall(PetscSNPrintf(fits, sizeof(fits), "%s (the longest in z for %lld x %lld in x and y), or %s: use -pc_hjacobi_tile %s (or %s)", along, p->W[0], p->W[1], cube, along, cube));
  } else PetscCall(PetscSNPrintf(fits, sizeof(fits), "%s: use -pc_hjacobi_tile %s", cube, cube));
  SETERRQ(PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_tile %s does not fit the CUDA tile kernels: %s%s. The largest tile that fits is %s%s", given, why, why2, fits, single ? ", or -pc_hjacobi_inner_precision single" : "");
}

/* The tile kernels' part of HJCudaPlanCreate(): threads per block, the register strip where it applies, and the
   check that the tile fits the kernels and the device. npts: points of the largest working region; target: threads
   per block aimed at. */
static PetscErrorCode HJCudaPlanTile(PC pc, const HJStencil *st, long long npts, int target, HJCudaPlan *p)
{
  PC_HJacobi                  *hj   = (PC_HJacobi *)pc->data;
  const HJLayout              *ly   = &hj->layout;
  const MPI_Comm               comm = PetscObjectComm((PetscObject)pc);
  hjcuda::Launch<PetscScalar> *L    = &p->L;

  PetscFunctionBegin;
  HJCudaOptions *o;

  PetscCall(HJCudaOptionsGet(pc, &o));
  if (ly->dof > 1) { /* the point-block tile kernel: its threads loop over the tile's points */
    PetscCheck(o->kernel != HJ_CUDA_KERNEL_REGISTERS, comm, PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles dof = 1 only; this DMDA has dof = %" PetscInt_FMT ": use -pc_hjacobi_cuda_kernel shared (or auto)", ly->dof);
    PetscCheck(ly->dof <= hjcuda::kBlockMaxDof, comm, PETSC_ERR_SUP, "The CUDA backend handles dof <= %d fields per point; this DMDA has %" PetscInt_FMT, hjcuda::kBlockMaxDof, ly->dof);
    L->nthreads = (int)PetscMin((npts + 31) / 32 * 32, (long long)hjcuda::kBlockMaxThreads);
    L->ppt      = (int)((npts + L->nthreads - 1) / L->nthreads); /* informative: the kernel loops */
  }

  /* auto: the 1D kernel on rows for 2D star stencils without y couplings (decided by the caller); else the
     register-strip kernel wherever it applies (2D star, a block that fits), else the shared-memory one */
  if (ly->dof == 1 && p->variant != HJ_CUDA_ROWS && !L->transpose && (o->kernel == HJ_CUDA_KERNEL_REGISTERS || (o->kernel == HJ_CUDA_KERNEL_AUTO && st->kind == hj::STAR && ly->dim == 2))) { /* strips of R points along y: W0 columns x ceil(W1/R) strips of threads */
    const int       S  = L->single ? (int)sizeof(float) : (int)sizeof(PetscScalar);
    const long long NC = p->W[0], WL = p->W[1]; /* columns, and points along the strip */
    const int       R0 = o->strip ? (int)o->strip : 4, R1 = o->strip ? (int)o->strip : 8;
    const int       ppt = L->ppt, nthreads = L->nthreads;

    PetscCheck(ly->dim == 2 && st->kind == hj::STAR, comm, PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles 2D star (5-point) stencils only: use -pc_hjacobi_cuda_kernel shared (or auto)");
    L->regs    = true;
    p->variant = HJ_CUDA_REGISTERS;
    L->ppt     = 0;
    for (int pass = 0; pass < 2 && !L->ppt; pass++) { /* the first R whose block fits the thread target, else the first that fits at all */
      for (int R = R0; R <= R1 && !L->ppt; R *= 2) {
        const long long nth = (NC * ((WL + R - 1) / R) + 31) / 32 * 32;
        if ((pass || nth <= target) && nth <= hjcuda::RegMaxThreads(R, !st->constant, S)) L->ppt = R, L->nthreads = (int)nth;
      }
    }
    if (!L->ppt && o->kernel == HJ_CUDA_KERNEL_AUTO) { /* does not fit: the shared-memory kernel */
      L->regs     = false;
      p->variant  = HJ_CUDA_SHARED;
      L->ppt      = ppt;
      L->nthreads = nthreads;
    }
    PetscCheck(L->ppt, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_kernel registers: tile %lldx%lld needs %lld threads per block with strips of %d points (one per column and strip), more than the register-strip kernel allows (%d): use a smaller -pc_hjacobi_tile or -pc_hjacobi_cuda_kernel shared", p->W[0], p->W[1],
               (NC * ((WL + R1 - 1) / R1) + 31) / 32 * 32, R1, hjcuda::RegMaxThreads(R1, !st->constant, S));
  }
  PetscCall(HJCudaTileFitCheck(pc, p));
  PetscCheck(L->ntot <= 2147483647LL, comm, PETSC_ERR_ARG_OUTOFRANGE, "%lld tiles on one rank exceed the CUDA grid limit: use a larger -pc_hjacobi_tile", L->ntot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCudaPlanDestroy(HJCudaPlan *p)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaFree(p->tileids));
  p->tileids = NULL;
  p->valid   = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tile kernels' split for the ghost exchange (hjsplit.cxx), made with the plan's own tiling (rows: one row per
   tile, no halo read along y) and uploaded: a cycle launches tileids[0, ninterior) between PetscSFBcastBegin and End
   and the rest after it. Only A's cycles exchange (A^T's correction starts from zero and reads no halo). */
static PetscErrorCode HJCudaPlanSplit(PC pc, cudaStream_t stream, HJCudaPlan *p)
{
  PC_HJacobi                        *hj = (PC_HJacobi *)pc->data;
  const hjcuda::Launch<PetscScalar> *L  = &p->L;
  PetscInt                           t[3], o[3], ni, nt, *ids;
  PetscBool                          halo[3];
  unsigned                          *uids;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    t[d]    = (PetscInt)L->t[d];
    o[d]    = (PetscInt)L->o[d];
    halo[d] = (PetscBool)(d < L->dim);
  }
  PetscCall(HJTileSplitCreate(&hj->layout, hj->ghostsf, t, o, halo, &ni, &nt, &ids));
  if (!ids) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(nt == L->ntot, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The tile split has %" PetscInt_FMT " tiles, the plan %lld", nt, L->ntot);
  PetscCall(PetscMalloc1(nt, &uids));
  for (PetscInt i = 0; i < nt; i++) uids[i] = (unsigned)ids[i];
  PetscCallCUDA(cudaMalloc((void **)&p->tileids, (size_t)nt * sizeof(unsigned)));
  PetscCallCUDA(cudaMemcpyAsync(p->tileids, uids, (size_t)nt * sizeof(unsigned), cudaMemcpyHostToDevice, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream)); /* before uids is freed */
  p->ninterior = ni;
  PetscCall(PetscFree(uids));
  PetscCall(PetscFree(ids));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan of stencil st for the PC's current parameters, options and layout: the variant, the launch descriptor
   (tiles, threads, shared memory, the stencil on the device, damping) and its instantiation, prepared once (its
   shared-memory limit raised). Uploads st if needed. Errors here if the tile does not fit the kernel or the device.
   transpose: the transposed correction (PCApplyTranspose), which the shared-memory tile kernels have (TileKernel,
   TileKernelBlock), for every k and with the user's tiling (no rows mode, no register strips). */
static PetscErrorCode HJCudaPlanCreate(PC pc, HJStencil *st, PetscBool transpose, cudaStream_t stream, HJCudaPlan *p)
{
  PC_HJacobi                  *hj   = (PC_HJacobi *)pc->data;
  const HJLayout              *ly   = &hj->layout;
  const MPI_Comm               comm = PetscObjectComm((PetscObject)pc);
  hjcuda::Launch<PetscScalar> *L    = &p->L;
  int                          target;
  long long                    npts = 1;
  PetscLogDouble               workpoints = 1;
  PetscBool                    tile, rows;
  const HJCudaStencil         *d;
  HJCudaOptions               *o;

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  target = o->threads ? (int)o->threads : ((st->kind == hj::BOX && !st->constant) ? hjcuda::kTileThreadsTargetBoxVar : hjcuda::kTileThreadsTarget);
  for (PetscInt k = 0; k < 3; k++) /* the classic and copy kernels index a direction with int (x: scalars, dof per point) */
    PetscCheck(ly->xm[k] * (k ? 1 : ly->dof) < 2147483647, comm, PETSC_ERR_SUP, "The CUDA backend handles at most 2^31 - 1 points (x: values) per rank in one direction (direction %" PetscInt_FMT " has %" PetscInt_FMT " points of %" PetscInt_FMT " values): use more ranks", k, ly->xm[k], ly->dof);
  PetscCall(HJCudaPlanDestroy(p));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  tile      = (PetscBool)(hj->subits > 1 || o->forcetile || ly->dof > 1 || transpose);
  rows      = (PetscBool)(!transpose && tile && ly->dim == 2 && ly->dof == 1 && st->kind == hj::STAR && st->zerodir[1] && o->kernel == HJ_CUDA_KERNEL_AUTO);
  L->transpose = transpose; /* with xzero: a transposed correction always starts from zero */
  L->xzero     = transpose;
  L->single = tile && hj->inner == PC_HJACOBI_INNER_PRECISION_SINGLE && sizeof(PetscScalar) != sizeof(float);
  for (PetscInt k = 0; k < 3; k++) {
    PetscInt  t, o;
    long long sumw = 0;

    HJTileOf(hj, k, &t, &o);
    PetscCheck(t >= 1 && o >= 0 && o < t, comm, PETSC_ERR_ARG_OUTOFRANGE, "Tile %" PetscInt_FMT " and overlap %" PetscInt_FMT " in direction %" PetscInt_FMT " need 0 <= overlap < tile", t, o, k);
    if (rows && k == 1) t = 1, o = 0; /* one row per tile (checked as the user gave it, as the host backend does) */
    L->t[k]      = t;
    L->o[k]      = o;
    p->W[k]      = PetscMin((long long)t, (long long)ly->xm[k]);
    L->ntiles[k] = hj::NumTiles(ly->xm[k], t, o);
    for (long long i = 0; i < L->ntiles[k]; i++) {
      const hj::Range r = hj::TileRange(ly->xm[k], t, o, i);
      sumw += r.w1 - r.w0;
    }
    workpoints *= (PetscLogDouble)sumw;
    npts *= p->W[k];
  }
  L->ntot = L->ntiles[0] * L->ntiles[1] * L->ntiles[2];
  for (L->ppt = 1; L->ppt < hjcuda::kMaxPointsPerThread && (npts + L->ppt - 1) / L->ppt > target; L->ppt *= 2);
  L->nthreads = (int)((((npts + L->ppt - 1) / L->ppt) + 31) / 32 * 32);
  p->variant  = !tile ? HJ_CUDA_CLASSIC : (ly->dof > 1 ? HJ_CUDA_BLOCK : (rows ? HJ_CUDA_ROWS : HJ_CUDA_SHARED));
  if (tile) {
    L->smem = (size_t)hj::TileNeeds(p->W, rows ? 1 : (int)ly->dim, (int)ly->dof, L->single, L->single ? (long long)sizeof(float) : (long long)sizeof(PetscScalar)).bytes; /* rows: no y halo */
    PetscCall(HJCudaPlanTile(pc, st, npts, target, p));
  }

  /* the stencil on the device, and the rest of the descriptor */
  PetscCall(HJCudaStencilEnsure(st, ly->nlocal, (PetscBool)L->single, stream));
  d              = (const HJCudaStencil *)st->device;
  L->dim         = rows ? 1 : (int)ly->dim; /* rows: the 1D kernel, one tile row per row of the grid */
  L->dof         = (int)ly->dof;
  L->kind        = (int)st->kind;
  L->var         = !st->constant;
  L->stream      = stream;
  L->coef        = d->coef;
  L->invdiag     = d->invdiag;
  L->coeff       = d->coeff;
  L->invdiagf    = d->invdiagf;
  L->diag        = d->diag;
  for (PetscInt s = 0; s < 26; s++) L->cst.c[s] = s < st->noff ? st->ccoef[s] : 0;
  L->cst.invdiag = st->cinvdiag;
  L->omega       = (PetscScalar)hj->omega;
  L->nlocal      = ly->nlocal;
  L->box         = hjcuda::Box{ly->xm[0], ly->xm[1], ly->xm[2], ly->ext[0], ly->ext[1]};
  L->xshift      = rows ? ly->ext[0] : 0;
  L->k           = tile ? (int)hj->subits : 1;
  if ((p->variant == HJ_CUDA_SHARED || p->variant == HJ_CUDA_REGISTERS) && L->var && ly->dof == 1) { /* constant rows inside a boundary shell: the planes read in the shell only */
    const PetscInt kShell = 2; /* rows within 2 points of a face may differ (Dirichlet rows, and rows that drop their couplings to them) */
    PetscScalar    ref[27];
    PetscBool      cint;

    for (PetscInt k = 0; k < 3; k++) {
      const PetscBool whole = (PetscBool)(k >= ly->dim || ly->bnd[k] == DM_BOUNDARY_PERIODIC);
      L->ilo[k]             = whole ? 0 : PetscMax(0, kShell - ly->xs[k]);
      L->ihi[k]             = whole ? ly->xm[k] : PetscMin(ly->xm[k], ly->M[k] - kShell - ly->xs[k]);
    }
    PetscCall(HJCudaStencilInterior(d, L->ilo, L->ihi, ly->xm[0], ly->xm[1], stream, &cint, ref));
    L->cint = (int)cint;
    if (cint) {
      for (PetscInt s = 0; s < 26; s++) L->cst.c[s] = s < st->noff ? ref[s] : 0;
      L->cst.invdiag = ref[st->noff];
    }
    PetscCall(PetscInfo(pc, "tile kernel: %s\n", cint ? "one row inside the 2-point boundary shell, coefficient planes read in the shell only" : "variable rows inside, coefficient planes read everywhere"));
  }

  /* its instantiation, resolved and prepared once */
  p->launch = p->variant == HJ_CUDA_CLASSIC ? hjcuda::ClassicLauncher(*L) : (p->variant == HJ_CUDA_BLOCK ? hjcuda::BlockLauncher(*L) : hjcuda::TileLauncher(*L));
  PetscCheck(p->launch, comm, PETSC_ERR_PLIB, "No CUDA kernel instantiation for variant %d (dim %d, kind %d, dof %d, %d points per thread, %d threads)", (int)p->variant, L->dim, L->kind, L->dof, L->ppt, L->nthreads);
  {
    cudaFuncAttributes attr;

    PetscCallCUDA(p->launch(*L, &attr));
    PetscCheck(!tile || attr.maxThreadsPerBlock >= L->nthreads, comm, PETSC_ERR_LIB, "The tile kernel allows %d threads per block, the tile needs %d: use a smaller -pc_hjacobi_tile", attr.maxThreadsPerBlock, L->nthreads);
  }
  {
    const PetscLogDouble dof = (PetscLogDouble)ly->dof; /* flops of one point update: as the host backend counts them */
    const PetscLogDouble upd = ly->dof == 1 ? 2.0 * st->noff + 3.0 : (2.0 * st->noff * dof + 2.0 * dof + 2.0) * dof;

    p->flops = upd * (tile ? workpoints * L->k : (PetscLogDouble)ly->nlocal);
    p->event = tile ? PCHJACOBI_TileKernel : PCHJACOBI_ClassicKernel;
  }
  if (tile && !transpose) PetscCall(HJCudaPlanSplit(pc, stream, p));
  p->valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan of st: A's cycles (made at setup), or A^T's transposed correction (made at its first use after a setup: A^T
   is built lazily, and only PCApplyTranspose runs it) */
static PetscErrorCode HJCudaPlanOf(PC pc, const HJStencil *st, cudaStream_t stream, const HJCudaPlan **plan)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJCuda     *cu = (HJCuda *)hj->data;

  PetscFunctionBegin;
  if (st == &hj->st) {
    PetscCheck(cu->plan.valid, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up");
    *plan = &cu->plan;
  } else {
    PetscCheck(st == &hj->stT, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "The CUDA backend runs the PC's own stencils (A or A^T) only");
    if (!cu->planT.valid) { /* made at the first PCApplyTranspose, where every rank is: a per-rank failure (the tile against
                               this rank's box and the shared kernel's limits) stops all of them */
      const PetscErrorCode ierr = HJCudaPlanCreate(pc, &hj->stT, PETSC_TRUE, stream, &cu->planT);
      PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: the CUDA plan of PCApplyTranspose's transposed correction failed (the rank concerned printed why above)"));
    }
    *plan = &cu->planT;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device arrays of one cycle or correction: b's (read) and x's (write only: x is overwritten). When either vector
   lives on the host, nothing is held on return and *hostvec is that vector (b is looked at first, and x is not touched
   then): the caller runs the host backend instead (HJCudaFallback). */
static PetscErrorCode HJCudaGetArrays(Vec b, Vec x, PetscBool xwrite, const PetscScalar **ba, PetscScalar **xa, Vec *hostvec)
{
  PetscMemType bmt, xmt;

  PetscFunctionBegin;
  *hostvec = NULL;
  PetscCall(VecGetArrayReadAndMemType(b, ba, &bmt));
  if (!PetscMemTypeDevice(bmt)) {
    PetscCall(VecRestoreArrayReadAndMemType(b, ba));
    *hostvec = b;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (xwrite) PetscCall(VecGetArrayWriteAndMemType(x, xa, &xmt));
  else PetscCall(VecGetArrayAndMemType(x, xa, &xmt));
  if (!PetscMemTypeDevice(xmt)) {
    if (xwrite) PetscCall(VecRestoreArrayWriteAndMemType(x, xa));
    else PetscCall(VecRestoreArrayAndMemType(x, xa));
    PetscCall(VecRestoreArrayReadAndMemType(b, ba));
    *hostvec = x;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCudaRestoreArrays(Vec b, Vec x, PetscBool xwrite, const PetscScalar **ba, PetscScalar **xa)
{
  PetscFunctionBegin;
  if (xwrite) PetscCall(VecRestoreArrayWriteAndMemType(x, xa));
  else PetscCall(VecRestoreArrayAndMemType(x, xa));
  PetscCall(VecRestoreArrayReadAndMemType(b, ba));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hostvec (HJCudaGetArrays) lives on the host: allowed with -pc_hjacobi_backend auto only; makes st's host arrays
   (once) for the host backend, which the caller then runs (what: its name, for -info) */
static PetscErrorCode HJCudaFallback(PC pc, const HJStencil *st, Vec hostvec, const char *what)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  VecType     vt;

  PetscFunctionBegin;
  PetscCall(VecGetType(hostvec, &vt));
  PetscCheck(hj->backend == PC_HJACOBI_BACKEND_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_backend cuda needs CUDA vectors (-dm_vec_type cuda or -vec_type cuda); got vector type %s", vt);
  PetscCall(PetscInfo(pc, "Vector of type %s lives on the host: running the host backend's %s\n", vt, what));
  if (st->ondevice && !st->invdiag) PetscCall(HJCudaStencilToHost(const_cast<HJStencil *>(st))); /* host arrays of a device stencil, made once */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJCycles_CUDA(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *ba;
  PetscScalar       *xa;
  Vec                hostvec;
  cudaStream_t       stream;
  const HJCudaPlan  *p;
  HJCudaOptions     *o;

  PetscFunctionBegin;
  if (n <= 0) {
    if (zeroguess) PetscCall(VecZeroEntries(x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HJCudaGetArrays(b, x, zeroguess, &ba, &xa, &hostvec));
  if (hostvec) {
    PetscCall(HJCudaFallback(pc, st, hostvec, "cycles (in PetscScalar precision)"));
    PetscCall(HJHostCyclesWithData(pc, &cu->host, st, b, x, n, zeroguess));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(HJCudaPlanOf(pc, st, stream, &p));
  PetscCall(HJCudaOptionsGet(pc, &o));

  hjcuda::Launch<PetscScalar>       L = p->L; /* the plan's descriptor; a cycle sets only the arrays and the stream */
  const long long                   ext0 = ly->ext[0], ext1 = ly->ext[1], xm0 = ly->xm[0], xm1 = ly->xm[1];
  const hjcuda::Output<PetscScalar> toy  = {nullptr, ly->pad[0] + ext0 * (ly->pad[1] + ext1 * ly->pad[2]), ext0, ext0 * ext1}; /* ypad's interior */
  const hjcuda::Output<PetscScalar> tox  = {xa, 0, xm0, xm0 * xm1};
  const PetscBool                   side = (PetscBool)(cu->side && HJCudaSideStream(o)); /* made at setup when the plan is split */

  L.stream = stream;
  L.b      = ba;
  /* 1. xpad interior <- x; from a zero guess the first cycle reads nothing (xzero) */
  if (!zeroguess) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(hjcuda::PadCopy((int)ly->dim, L.dof, L.box, (const PetscScalar *)xa, cu->xpad, stream)); /* the grid's dimension (L.dim is 1 for rows) */
    PetscCall(PetscLogGpuTimeEnd());
  }
  /* 2. n cycles: exchange, kernel into ypad (the last one into x), swap. With the tiles split (p->tileids), the
     interior ones run while the exchange is under way, the rest after its end (doc/design.md "Communication hidden").
     The interior tiles read only xpad's owned points, which the exchange reads (its roots) and does not write, and
     write only ypad's owned points (or x's), which it does not touch; the boundary tiles read xpad and write other
     owned points of ypad (or x): nothing orders the two groups within a cycle, nor the interior tiles and the
     exchange's unpack.
     One stream (GPU-aware MPI, or -pc_hjacobi_cuda_side_stream false): begin, the interior launch, end, the boundary
     launch, all on PETSc's stream. With MPI that is not GPU-aware PetscSF copies through pageable host buffers on
     PETSc's stream (begin: pack, device-to-host copy, stream synchronization, MPI start; end: MPI wait, host-to-device
     copy, unpack), so there the copy back waits for the interior tiles queued before it, and the unpack and the
     boundary tiles follow them. Second stream (the default without GPU-aware MPI): after the begin, PETSc's stream
     records `forked` and cu->side waits for it (so the interior tiles follow the pack and everything before it: the
     previous cycle, joined below, and the pad copy); the interior tiles go on cu->side, which records `joined`; the
     end's copy and unpack and then the boundary tiles go on PETSc's stream, alongside the interior tiles; after the
     boundary launch PETSc's stream waits for `joined`. So the next cycle's begin (its pack reads this cycle's output,
     and its interior tiles overwrite the xpad this cycle reads) and, after the last cycle, every later user of x and b
     find both groups done. */
  auto run = [&](const unsigned *ids, long long count, PetscLogDouble flops, cudaStream_t s) -> PetscErrorCode {
    PetscFunctionBegin;
    L.tileids = ids;
    L.ntot    = count;
    L.stream  = s;
    PetscCall(PetscLogEventBegin(p->event, pc, 0, 0, 0));
    if (s == stream) PetscCall(PetscLogGpuTimeBegin()); /* PETSc's GPU timer times its own stream (and synchronizes it) */
    PetscCallCUDA(p->launch(L, nullptr));
    if (s == stream) PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
    PetscCall(PetscLogEventEnd(p->event, pc, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  for (PetscInt c = 0; c < n; c++) {
    const PetscBool last = (PetscBool)(c == n - 1);

    L.xzero = zeroguess && c == 0;
    L.xpad  = cu->xpad;
    L.y     = last ? tox : toy;
    if (!last) L.y.out = cu->ypad;
    const PetscBool exchange = (PetscBool)(hj->ghostsf && !L.xzero); /* every rank starts from zero together: nothing to exchange then */
    const PetscBool split    = (PetscBool)(exchange && HJOverlapComm(hj) && p->tileids);
    const PetscBool fork     = (PetscBool)(split && side && p->ninterior);
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastWithMemTypeBegin(hj->ghostsf, MPIU_SCALAR, PETSC_MEMTYPE_CUDA, cu->xpad, PETSC_MEMTYPE_CUDA, cu->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (fork) {
      PetscCallCUDA(cudaEventRecord(cu->forked, stream));
      PetscCallCUDA(cudaStreamWaitEvent(cu->side, cu->forked, 0));
      PetscCall(run(p->tileids, p->ninterior, 0, cu->side));
      PetscCallCUDA(cudaEventRecord(cu->joined, cu->side));
    } else if (split && p->ninterior) PetscCall(run(p->tileids, p->ninterior, 0, stream));
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(PetscSFBcastEnd(hj->ghostsf, MPIU_SCALAR, cu->xpad, cu->xpad, MPI_REPLACE));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (!split) PetscCall(run(nullptr, p->L.ntot, p->flops, stream));
    else if (p->ninterior < p->L.ntot) PetscCall(run(p->tileids + p->ninterior, p->L.ntot - p->ninterior, p->flops, stream)); /* the cycle's flops, counted once */
    else PetscCall(PetscLogGpuFlops(p->flops));
    if (fork) PetscCallCUDA(cudaStreamWaitEvent(stream, cu->joined, 0)); /* the join: after the boundary launch, which need not wait */
    if (!last) {
      PetscScalar *tmp = cu->xpad;
      cu->xpad         = cu->ypad;
      cu->ypad         = tmp;
    }
  }
  /* 3. the last cycle wrote x */
  PetscCall(HJCudaRestoreArrays(b, x, zeroguess, &ba, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x <- (add ? x : 0) + N^T r with A^T's stencil stT (ALGORITHM.md "PCApplyTranspose"): one launch of the shared-memory
   tile kernel in transposed mode (A^T's plan), atomically adding every tile's W(T) into x. No ghost exchange: the halo
   is zero. */
static PetscErrorCode HJCorrectT_CUDA(PC pc, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *ra;
  PetscScalar       *xa;
  Vec                hostvec;
  cudaStream_t       stream;
  const HJCudaPlan  *p;

  PetscFunctionBegin;
  PetscCall(HJCudaGetArrays(r, x, (PetscBool)!add, &ra, &xa, &hostvec));
  if (hostvec) {
    PetscCall(HJCudaFallback(pc, stT, hostvec, "transposed cycle"));
    PetscCall(HJHostCorrectTWithData(pc, &cu->host, stT, r, x, add));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(HJCudaPlanOf(pc, stT, stream, &p));

  hjcuda::Launch<PetscScalar> L = p->L; /* transpose and xzero are set in the plan */
  L.stream = stream;
  L.b      = ra;
  L.xpad   = cu->xpad; /* not read: from zero */
  L.y      = hjcuda::Output<PetscScalar>{xa, 0, ly->xm[0], (long long)ly->xm[0] * ly->xm[1]};
  PetscCall(PetscLogEventBegin(p->event, pc, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  if (!add) PetscCallCUDA(cudaMemsetAsync(xa, 0, (size_t)ly->nlocal * ly->dof * sizeof(PetscScalar), stream));
  PetscCallCUDA(p->launch(L, nullptr));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(p->flops));
  PetscCall(PetscLogEventEnd(p->event, pc, 0, 0, 0));
  PetscCall(HJCudaRestoreArrays(r, x, (PetscBool)!add, &ra, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const HJCudaVariantNames[] = {"fused classic sweep", "shared", "registers", "shared, 1D on rows", "point-block, shared"};

static PetscErrorCode HJSetup_CUDA(PC pc)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  HJCuda         *cu = (HJCuda *)hj->data;
  const HJLayout *ly = &hj->layout;
  cudaStream_t    stream;
  HJCudaOptions  *o;

  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(HJCudaOptionsGet(pc, &o));
  if (!cu) {
    int            dev;
    cudaDeviceProp prop;

    PetscCall(PetscNew(&cu));
    hj->data = cu;
    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
    PetscCall(PetscStrncpy(cu->name, prop.name, sizeof(cu->name)));
    PetscCallCUDA(cudaDeviceGetAttribute(&cu->smemoptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  }
  if (o->kernel == HJ_CUDA_KERNEL_REGISTERS)
    PetscCheck(ly->dim == 2 && hj->st.kind == hj::STAR, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles 2D star (5-point) stencils only; this operator is a %" PetscInt_FMT "D %s stencil: use -pc_hjacobi_cuda_kernel shared (or auto)", ly->dim,
               hj->st.kind == hj::STAR ? "star" : "box");
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
  PetscCall(HJHostDataDestroy(&cu->host)); /* the host fallback's arrays: remade at their next use, to the current sizes */

  /* the kernels, chosen once here: A's plan now (uploading A unless its device copy is current: HJStencilExtract()
     destroys the copy with the old values), A^T's at its first use */
  cu->planT.valid = PETSC_FALSE;
  PetscCall(HJCudaPlanCreate(pc, &hj->st, PETSC_FALSE, stream, &cu->plan));
  PetscCall(PetscInfo(pc, "CUDA kernel: %s, %d threads x %d points per thread, %zu bytes of shared memory per block\n", HJCudaVariantNames[cu->plan.variant], cu->plan.L.nthreads, cu->plan.L.ppt, cu->plan.L.smem));

  /* the split cycle's second stream (HJCycles_CUDA), made once: non-blocking, so that it has no implicit order with
     PETSc's stream (the legacy NULL stream by default, PETSC_STREAM_DEFAULT), and at the device's least priority, so
     that where PETSc's stream has a higher one its small unpack kernel and the boundary tiles are not queued behind
     the interior blocks (PETSc creates its streams without a priority, i.e. the least one too: then they are equal) */
  if (cu->plan.tileids && !cu->side) {
    int greatest;

    PetscCallCUDA(cudaDeviceGetStreamPriorityRange(&cu->sideprio, &greatest));
    PetscCallCUDA(cudaStreamCreateWithPriority(&cu->side, cudaStreamNonBlocking, cu->sideprio));
    PetscCallCUDA(cudaEventCreateWithFlags(&cu->forked, cudaEventDisableTiming));
    PetscCallCUDA(cudaEventCreateWithFlags(&cu->joined, cudaEventDisableTiming));
  }
  if (cu->side) {
    PetscCallCUDA(cudaStreamGetPriority(stream, &cu->petscprio));
    PetscCall(PetscInfo(pc, "Split cycles: second stream at priority %d, PETSc's stream at %d (lower is more urgent)\n", cu->sideprio, cu->petscprio));
  }
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiExtractCompare_C", HJCudaExtractCompare)); /* testing: test/test_extract.c */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJReset_CUDA(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJCuda     *cu = (HJCuda *)hj->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiExtractCompare_C", NULL));
  if (!cu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree(cu->xpad));
  PetscCallCUDA(cudaFree(cu->ypad));
  PetscCall(HJCudaPlanDestroy(&cu->plan));
  PetscCall(HJCudaPlanDestroy(&cu->planT));
  PetscCall(HJHostDataDestroy(&cu->host));
  if (cu->side) {
    PetscCallCUDA(cudaStreamSynchronize(cu->side)); /* joined into PETSc's stream already; nothing should be left */
    PetscCallCUDA(cudaEventDestroy(cu->forked));
    PetscCallCUDA(cudaEventDestroy(cu->joined));
    PetscCallCUDA(cudaStreamDestroy(cu->side));
  }
  PetscCall(PetscFree(hj->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the configuration stored at setup (A's plan) */
static PetscErrorCode HJView_CUDA(PC pc, PetscViewer viewer)
{
  PC_HJacobi       *hj = (PC_HJacobi *)pc->data;
  const HJCuda     *cu = (const HJCuda *)hj->data;
  const HJCudaPlan *p  = cu ? &cu->plan : NULL;
  PetscBool         ascii;
  HJCudaOptions    *o;

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii || !p || !p->valid) PetscFunctionReturn(PETSC_SUCCESS);
  if (p->variant != HJ_CUDA_CLASSIC) {
    const char *const how = p->variant == HJ_CUDA_REGISTERS ? (p->L.cint ? " (vertical strips, values in registers; one row inside, coefficient planes read in the boundary shell only)" : " (vertical strips, values in registers)") : (p->variant == HJ_CUDA_BLOCK ? " (a loop; dof x dof blocks from global memory)" : (p->variant == HJ_CUDA_ROWS ? " (no y couplings: every row an independent 1D problem, 1D tiles along x)" : (p->L.cint ? " (one row inside, coefficient planes read in the boundary shell only)" : "")));

    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: tile kernel (%s%s), %lld tiles of at most %lldx%lldx%lld points, %d threads x %d points per thread%s, %zu bytes of shared memory per tile (device limit %d), sub-iterations in %s\n", cu->name,
                                     p->variant == HJ_CUDA_REGISTERS ? "registers" : (p->variant == HJ_CUDA_BLOCK ? "point-block, shared" : "shared"), o->kernel == HJ_CUDA_KERNEL_AUTO ? ", -pc_hjacobi_cuda_kernel auto" : "", p->L.ntot, p->W[0], p->W[1], p->W[2], p->L.nthreads, p->L.ppt, how, p->L.smem, cu->smemoptin,
                                     p->L.single ? "single precision" : "PetscScalar"));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: fused classic sweep (k = 1, one thread per point, no shared memory; -pc_hjacobi_cuda_kernel %s applies to k > 1)\n", cu->name, HJCudaKernels[o->kernel]));
    if (hj->ghostsf) PetscCall(PetscViewerASCIIPrintf(viewer, "  the fused sweep waits for the ghost exchange (no tiles to run during it)\n"));
  }
  if (p->tileids) {
    const char *how = "not used: -pc_hjacobi_overlap_comm false";
    char        side[256];

    if (HJOverlapComm(hj) && cu->side && HJCudaSideStream(o)) {
      PetscCall(PetscSNPrintf(side, sizeof(side), "launched on a second stream during the exchange, priority %d%s PETSc's stream%s", cu->sideprio, cu->sideprio > cu->petscprio ? " below" : ", as", o->sideset ? "" : "; MPI is not GPU-aware"));
      how = side;
    } else if (HJOverlapComm(hj)) how = "launched during the exchange on PETSc's stream";
    else if (!hj->overlapcommset) how = "not used: MPI is not GPU-aware";
    PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: %lld of %lld tiles read no ghost value (%s)\n", p->ninterior, p->L.ntot, how));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCudaOptionsGet(PC pc, HJCudaOptions **opts)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (!hj->backendopts[PC_HJACOBI_BACKEND_CUDA]) {
    HJCudaOptions *o;

    PetscCall(PetscNew(&o));
    o->kernel    = HJ_CUDA_KERNEL_AUTO;
    o->failalloc = -1;
    hj->backendopts[PC_HJACOBI_BACKEND_CUDA] = o;
  }
  *opts = (HJCudaOptions *)hj->backendopts[PC_HJACOBI_BACKEND_CUDA];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the developer options: the plan is chosen from them, so a change sets the PC up again */
static PetscErrorCode HJSetFromOptions_CUDA(PC pc, HJ_OPTION_ITEMS)
{
  HJCudaOptions *o;
  PetscInt       kernel, strip, threads;
  PetscBool      forcetile, flg;

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  /* test hook, not listed by -help: the given rank's device extraction fails to allocate its planes, as on a full GPU,
     so a test can see every rank stop (cuda_err_extract_alloc_np2) */
  PetscCall(PetscOptionsGetInt(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_debug_fail_alloc", &o->failalloc, NULL));
  kernel    = o->kernel;
  strip     = o->strip;
  threads   = o->threads;
  forcetile = o->forcetile;
  PetscCall(PetscOptionsEList("-pc_hjacobi_cuda_kernel", "CUDA tile kernel: registers (2D star, values in registers; auto's choice in 2D, except rows without y couplings: 1D tiles) or shared", "PCHJACOBI", HJCudaKernels, 3, HJCudaKernels[kernel], &kernel, NULL));
  PetscCall(PetscOptionsInt("-pc_hjacobi_cuda_strip", "Points per thread of the register-strip kernel, 4 or 8 (0: chosen per tile)", "PCHJACOBI", strip, &strip, NULL));
  PetscCheck(strip == 0 || strip == 4 || strip == 8, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_strip %" PetscInt_FMT ": the register-strip kernel takes strips of 4 or 8 points (or 0: chosen per tile)", strip);
  PetscCall(PetscOptionsInt("-pc_hjacobi_cuda_threads", "Threads per block the tile kernels aim at, a multiple of 32 up to 512; points per thread follow (0: 256, 512 for variable box stencils)", "PCHJACOBI", threads, &threads, NULL));
  PetscCheck(threads == 0 || (threads >= 32 && threads <= 512 && threads % 32 == 0), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_threads %" PetscInt_FMT ": give a multiple of 32 from 32 to 512 (or 0: the default)", threads);
  PetscCall(PetscOptionsBool("-pc_hjacobi_cuda_tile_kernel", "Run the tile kernel also for k = 1 (testing)", "PCHJACOBI", forcetile, &forcetile, NULL));
  /* read at every cycle: no setup needed (the stream is made at every setup with a split plan) */
  PetscCall(PetscOptionsBool("-pc_hjacobi_cuda_side_stream", "Launch the interior tiles of a split cycle on a second stream (default: true when MPI is not GPU-aware)", "PCHJACOBI", HJCudaSideStream(o), &o->side, &flg));
  if (flg) o->sideset = PETSC_TRUE;
  if (kernel != (PetscInt)o->kernel || strip != o->strip || threads != o->threads || forcetile != o->forcetile) pc->setupcalled = 0;
  o->threads   = threads;
  o->kernel    = (HJCudaKernel)kernel;
  o->strip     = strip;
  o->forcetile = forcetile;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A^T's stencil: on the device for a device stencil, else re-indexed on the host (uploaded by its plan) */
static PetscErrorCode HJTranspose_CUDA(PC pc, const HJStencil *st, HJStencil *stT)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (st->ondevice) PetscCall(HJCudaStencilTranspose(&hj->layout, st, stT));
  else PetscCall(HJStencilTransposeOnHost(&hj->layout, st, stT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The omega estimate's D^{-1} for CUDA vectors: a CUDA vector on the stencil's arrays (the device one of a device
   stencil, else the host one, uploaded at first use); no copy */
static PetscErrorCode HJInvDiag_CUDA(PC pc, const HJStencil *st, Vec like, Vec *dinv)
{
  PC_HJacobi        *hj  = (PC_HJacobi *)pc->data;
  const PetscInt     n   = hj->layout.nlocal;
  const PetscScalar *dev = st->ondevice ? ((const HJCudaStencil *)st->device)->invdiag : NULL;
  MPI_Comm           comm;
  PetscMPIInt        size;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)pc, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(dev || st->invdiag, comm, PETSC_ERR_PLIB, "No inverse diagonal to estimate with");
  if (size == 1) PetscCall(VecCreateSeqCUDAWithArrays(PETSC_COMM_SELF, 1, n, st->invdiag, dev, dinv));
  else PetscCall(VecCreateMPICUDAWithArrays(comm, 1, n, PETSC_DECIDE, st->invdiag, dev, dinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dof > 1: AIJCUSPARSE, whose COO takes device values: the device inverse blocks of a device stencil as they are */
static PetscErrorCode HJInvDiagBlocks_CUDA(PC pc, const HJStencil *st, MatType *mtype, const PetscScalar **vals)
{
  PetscFunctionBegin;
  *mtype = MATAIJCUSPARSE;
  *vals  = st->invdiag;
  if (!*vals && st->ondevice) *vals = ((const HJCudaStencil *)st->device)->invdiag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const HJCudaVecTypes[] = {VECCUDA, VECSEQCUDA, VECMPICUDA, NULL};

/* name, type, device, vector types, options, extract, setup, cycles, reset, view, transposed correction, transpose,
   D^{-1} (dof 1, dof > 1) and start vector of the omega estimate */
const HJBackendOps HJBackendCUDA = {"cuda", PC_HJACOBI_BACKEND_CUDA, PETSC_TRUE, HJCudaVecTypes, HJSetFromOptions_CUDA, HJCudaExtract, HJSetup_CUDA, HJCycles_CUDA, HJReset_CUDA, HJView_CUDA, HJCorrectT_CUDA, HJTranspose_CUDA, HJInvDiag_CUDA, HJInvDiagBlocks_CUDA, HJCudaFillStart};
