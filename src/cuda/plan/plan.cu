/* The kernel plan of the CUDA backend (doc/design.md, "Backends").

   The choice is made once per setup, as PETSc's pbjacobi chooses its CUDA apply once: HJCudaPlanCreate() turns the
   parameters, the -pc_hjacobi_cuda_* options (read in PCSetFromOptions), the layout and the stencil (kind, constant
   coefficients, directions without couplings) into a plan: the variant, the launch descriptor and the kernel
   instantiation (HJCudaPlan). A's plan is made at setup, A^T's at its first use; a cycle sets the arrays and launches.
   Any change of those inputs goes through PCSetUp (the setters and options mark the PC for setup).

   Kernels: k = 1 runs the fused classic sweep (one thread per point, neighbours from global memory; one cycle is
   one damped Jacobi sweep whatever the tile). k >= 2 runs the tile kernel: one block per tile, k sweeps in shared
   memory (cuda/kernels/kernels.cuh). -pc_hjacobi_cuda_tile_kernel forces the tile kernel for k = 1 too (testing).
   -pc_hjacobi_cuda_kernel auto|shared|registers picks the tile kernel: shared (TileKernel: every neighbour from
   shared memory, any dimension and stencil) or registers (TileKernelStrip: 2D star, each thread keeps a vertical
   strip of R points in registers, about 3.5 shared-memory accesses per update instead of 6); auto = registers where
   it applies (2D star, a block that fits), else shared; and for a 2D star stencil whose y couplings are all
   zero on this rank (independent rows, as the paper's 1D experiment), the 1D shared kernel on rows: 1D tiles along x,
   no y halo loaded (the result is the same for any tiling along y: the y terms are zero). Registers are the default
   because they cut the shared-memory accesses that bound an inner sweep (bench/TUNING.md, step 2).
   -pc_hjacobi_cuda_strip 4|8 fixes R (default: 4 when the tile then needs at most 256 threads, else 8).

   Single-precision inner mode (-pc_hjacobi_inner_precision single with double PetscScalar): the sub-iterations run
   in float in correction form (mixed-precision iterative refinement inside the cycle, kCorrection in cuda/kernels/kernels.cuh):
   each tile forms the residual r = b - A x of its working region once per cycle in double, from the double x and
   the double coefficients (the halo frozen), iterates the correction from zero in float in shared memory/registers
   with float copies of the coefficients (made on the device) and the halo's correction zero, and writes x + delta in
   double. That is doc/algorithm.md's cycle with only the correction rounded to float: each cycle's error is about 1e-7
   relative to the correction, i.e. to the residual at the cycle's start, never to x. So a Richardson solve on this PC
   has no floor from the inner precision: it reaches the residual of the native one (issue 15: sweeps that round x
   itself to float every cycle give a solve a floor; bench/TUNING.md "Notes from the source"). The residual costs one more pass over x and the double coefficients per cycle (a residual
   kernel's traffic); the sweeps keep half the shared memory and coefficient traffic of double. The point-block kernel
   also keeps the tile's float residual in shared memory and needs the diagonal blocks themselves (inverted back from
   the stencil's inverses on the device). From a zero x (the first cycle of PCApply, the transposed correction) the
   residual is b and nothing is added. The classic kernel (k = 1, dof = 1) always runs in PetscScalar; with dof > 1
   the point-block tile kernel (cuda/kernels/block.cuh) runs for every k.

   Measured figures (per cycle and per inner sweep, fp64 against the correction form) are in bench/TUNING.md. */
#include <petscdevice_cuda.h>
#include "arith/point.hpp"
#include "cuda/backendimpl.h"

/* A tile that no tile kernel holds on this device (hj::TileFits, arith/tilefit.hpp): an error that says why and names the
   largest tile that fits, with the last direction shortened (the others kept) and alike in every direction. The
   default tile (hj::DefaultTile) fits every GPU with 96 KiB of shared memory per block, so only a tile the user gave
   (or a GPU with less) comes here. */
static PetscErrorCode HJCudaTileFitCheck(PC pc, const HJCudaPlan *p)
{
  HJSweeps                          *hj  = HJSweepsOf(pc);
  const HJCuda                      *cu  = (const HJCuda *)hj->data;
  const HJLayout                    *ly  = &hj->layout;
  const hjcuda::Launch<PetscScalar> *L   = &p->L;
  const int                          dim = (int)ly->dim, dof = (int)ly->dof;
  const int                          fdim = p->variant == HJ_CUDA_ROWS ? 1 : dim; /* directions with a halo */
  const long long                    ss = L->single ? (long long)sizeof(float) : (long long)sizeof(PetscScalar), lim = cu->smemoptin;
  char                               given[64], region[64], why[256], why2[512], along[64], cube[64], fits[256];
  hj::TileNeed                       need;
  PetscBool                          single, same;
  long long                          wl, c;

  PetscFunctionBegin;
  if (hj::TileFits(p->W, fdim, dof, L->single, ss, lim)) PetscFunctionReturn(PETSC_SUCCESS);
  need   = hj::TileNeeds(p->W, fdim, dof, L->single, ss);
  single = (PetscBool)(!L->single && sizeof(PetscScalar) != sizeof(float) && hj::TileFits(p->W, fdim, dof, true, (long long)sizeof(float), lim)); /* what fp32 sub-iterations would fit */
  PetscCall(PetscSNPrintf(given, sizeof(given), dim == 1 ? "%" PetscInt_FMT : (dim == 2 ? "%" PetscInt_FMT ",%" PetscInt_FMT : "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT), hj->tile[0], hj->tile[1], hj->tile[2]));
  PetscCall(PetscSNPrintf(region, sizeof(region), dim == 1 ? "%lld" : (dim == 2 ? "%lldx%lld" : "%lldx%lldx%lld"), p->W[0], p->W[1], p->W[2]));
  why[0] = why2[0] = 0;
  if (dof == 1 && need.points > hj::kTileMaxPoints)
    PetscCall(PetscSNPrintf(why, sizeof(why), "its working region of %s points has %lld; the shared kernel holds at most %lld (%d threads x %d points)", region, need.points, hj::kTileMaxPoints, hjcuda::kTileMaxThreads, hjcuda::kMaxPointsPerThread));
  if (need.bytes + hj::kTileStaticBytes > lim) {
    PetscCall(PetscSNPrintf(why2, sizeof(why2), "%s%s%s needs %lld bytes of shared memory per block (two %s buffers of the tile plus its halo%s, %d value%s per point); %s allows %lld per block, %lld of them for the buffers", why[0] ? ", and it" : "its working region of ", why[0] ? "" : region, why[0] ? "" : " points",
                            need.bytes, L->single ? "float" : "PetscScalar", L->single && dof > 1 ? ", and the tile's residual in float" : "", dof, dof > 1 ? "s" : "", cu->name, lim, lim - hj::kTileStaticBytes));
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
  HJSweeps                    *hj   = HJSweepsOf(pc);
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
    PetscCheck(L->ppt, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_kernel registers: tile %lldx%lld needs %lld threads per block with strips of %d points (one per column and strip), more than the register-strip kernel allows (%d): use a smaller -pc_hjacobi_tile or -pc_hjacobi_cuda_kernel shared", p->W[0], p->W[1], (NC * ((WL + R1 - 1) / R1) + 31) / 32 * 32, R1, hjcuda::RegMaxThreads(R1, !st->constant, S));
  }
  PetscCall(HJCudaTileFitCheck(pc, p));
  PetscCheck(L->ntot <= 2147483647LL, comm, PETSC_ERR_ARG_OUTOFRANGE, "%lld tiles on one rank exceed the CUDA grid limit: use a larger -pc_hjacobi_tile", L->ntot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCudaPlanDestroy(HJCudaPlan *p)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaFree(p->rowclass));
  PetscCallCUDA(cudaFree(p->rowtab));
  p->rowclass = NULL;
  p->rowtab   = NULL;
  PetscCallCUDA(cudaFree(p->tileids));
  PetscCallCUDA(cudaFree(p->weights));
  p->tileids   = NULL;
  p->weights   = NULL;
  p->split     = PETSC_FALSE;
  p->ninterior = 0;
  p->nconst[0] = p->nconst[1] = 0;
  p->launchc                  = NULL;
  p->valid                    = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tiles whose working region W(T) lies inside the box of one row (L.cint, owned coordinates [ilo, ihi)): *inside
   (nt flags, the caller frees) where the shared or register kernel runs a variable stencil of one field whose box holds
   such tiles of at least -pc_hjacobi_cuda_constant_tiles points in all (hj::kConstSplitMinPoints), else NULL. Not the
   column kernel: its row classes take class-0 warps through a vote already, and its constant instantiation on the
   inside tiles was slower at 257^3 and not bit for bit (bench/TUNING.md step 14). */
static PetscErrorCode HJCudaInsideTiles(PC pc, const HJCudaPlan *p, PetscInt nt, PetscBool **inside)
{
  const hjcuda::Launch<PetscScalar> *L  = &p->L;
  const HJLayout                    *ly = &HJSweepsOf(pc)->layout;
  HJCudaOptions                     *o;
  long long                          npts = 0;

  PetscFunctionBegin;
  *inside = NULL;
  PetscCall(HJCudaOptionsGet(pc, &o));
  if (!(p->variant == HJ_CUDA_SHARED || p->variant == HJ_CUDA_REGISTERS) || !L->var || !L->cint || L->dof != 1 || L->transpose || o->cminpts < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(nt, inside));
  for (PetscInt id = 0; id < nt; id++) {
    PetscBool in = PETSC_TRUE;
    long long n  = 1;

    for (int d = 0; d < L->dim; d++) {
      const hj::Range r = hj::TileRange(ly->xm[d], L->t[d], L->o[d], hj::TileCoord((long long)id, L->ntiles[0], L->ntiles[1], d));
      if (r.w0 < L->ilo[d] || r.w1 > L->ihi[d]) in = PETSC_FALSE;
      n *= r.w1 - r.w0;
    }
    (*inside)[id] = in;
    if (in) npts += n;
  }
  if (npts == 0 || npts < o->cminpts) PetscCall(PetscFree(*inside));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ids[lo, hi) (NULL: the ids lo .. hi-1 themselves) into out, the inside ones first; returns how many are inside */
static PetscInt HJOrderInsideFirst(const PetscInt *ids, PetscInt lo, PetscInt hi, const PetscBool *inside, unsigned *out)
{
  PetscInt k = 0, nin = 0;

  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt id = ids ? ids[i] : i;
    if (inside && inside[id]) out[k++] = (unsigned)id, nin++;
  }
  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt id = ids ? ids[i] : i;
    if (!(inside && inside[id])) out[k++] = (unsigned)id;
  }
  return nin;
}

/* The order of the tile kernels' launches, made with the plan's own tiling (rows: one row per tile, no halo read along
   y) and uploaded (tileids: nt ids, or 2 nt when both orders below are needed).
   (1) The split for the ghost exchange (grid/split.cxx): a split cycle launches tileids[0, ninterior) between
   PetscSFBcastBegin and End and the rest after it; only A's cycles exchange (A^T's correction starts from zero and
   reads no halo).
   (2) The constant tiles (HJCudaInsideTiles): they run the constant-stencil instantiation of the kernel (launchc, the
   row L.cstT as its operands; the variable one takes that same row there, from L.cstT, so the results are the same bit
   for bit).
   They come first in each group of (1) (nconst[0], nconst[1]); a cycle that is not split launches tileids + nt (or
   tileids itself without (1)): all constant tiles, then the rest. Without either, a cycle launches every tile, block b
   tile b. */
static PetscErrorCode HJCudaPlanSplit(PC pc, cudaStream_t stream, HJCudaPlan *p)
{
  HJSweeps                          *hj = HJSweepsOf(pc);
  const hjcuda::Launch<PetscScalar> *L  = &p->L;
  PetscInt                           t[3], o[3], ni, nt, *ids, nids;
  PetscBool                          halo[3], *inside;
  unsigned                          *uids;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    t[d]    = (PetscInt)L->t[d];
    o[d]    = (PetscInt)L->o[d];
    halo[d] = (PetscBool)(d < L->dim);
  }
  PetscCall(HJTileSplitCreate(&hj->layout, hj->ghostsf, t, o, halo, &ni, &nt, &ids));
  PetscCheck(nt == L->ntot, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The tile split has %" PetscInt_FMT " tiles, the plan %lld", nt, L->ntot);
  PetscCall(HJCudaInsideTiles(pc, p, nt, &inside));
  p->split     = (PetscBool)(ids != NULL);
  p->ninterior = ids ? ni : 0;
  if (!ids && !inside) PetscFunctionReturn(PETSC_SUCCESS);
  nids = (ids && inside) ? 2 * nt : nt;
  PetscCall(PetscMalloc1(nids, &uids));
  p->nconst[0] = HJOrderInsideFirst(ids, 0, p->ninterior, inside, uids);
  p->nconst[1] = HJOrderInsideFirst(ids, p->ninterior, nt, inside, uids + p->ninterior);
  if (nids > nt) (void)HJOrderInsideFirst(NULL, 0, nt, inside, uids + nt);
  PetscCallCUDA(cudaMalloc((void **)&p->tileids, (size_t)nids * sizeof(unsigned)));
  PetscCallCUDA(cudaMemcpyAsync(p->tileids, uids, (size_t)nids * sizeof(unsigned), cudaMemcpyHostToDevice, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream)); /* before uids is freed */
  PetscCall(PetscFree(uids));
  PetscCall(PetscFree(ids));
  if (inside) {
    hjcuda::Launch<PetscScalar> Lc = *L;
    cudaFuncAttributes          attr;

    PetscCall(PetscFree(inside));
    Lc.var     = false;
    p->launchc = hjcuda::TileLauncher(Lc);
    PetscCheck(p->launchc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No constant-stencil instantiation of the tile kernel (dim %d, %d points per thread, %d threads)", Lc.dim, Lc.ppt, Lc.nthreads);
    PetscCallCUDA(p->launchc(Lc, &attr)); /* its shared-memory limit, as the plan's own */
    PetscCheck(attr.maxThreadsPerBlock >= Lc.nthreads, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The constant-stencil tile kernel allows %d threads per block, the plan has %d", attr.maxThreadsPerBlock, Lc.nthreads);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sweeps' weights (weights/weights.cxx, chosen at this setup) on the device, in PetscScalar and in float: L.wT, L.wf */
static PetscErrorCode HJCudaPlanWeights(PC pc, cudaStream_t stream, HJCudaPlan *p)
{
  HJSweeps      *hj = HJSweepsOf(pc);
  const PetscInt k  = hj->k;
  const size_t   nb = (size_t)k * (sizeof(PetscScalar) + sizeof(float));
  unsigned char *h;

  PetscFunctionBegin;
  PetscCheck(k >= 1 && hj->w && k == hj->k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The sweeps' weights (%" PetscInt_FMT " for k = %" PetscInt_FMT ") are chosen before the backend's setup", k, hj->k);
  PetscCall(PetscMalloc1(nb, &h));
  for (PetscInt j = 0; j < k; j++) {
    ((PetscScalar *)h)[j]                       = (PetscScalar)hj->w[j];
    ((float *)(h + k * sizeof(PetscScalar)))[j] = (float)hj->w[j];
  }
  PetscCallCUDA(cudaMalloc(&p->weights, nb));
  PetscCallCUDA(cudaMemcpyAsync(p->weights, h, nb, cudaMemcpyHostToDevice, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream)); /* before h is freed */
  PetscCall(PetscFree(h));
  p->L.wT = (const PetscScalar *)p->weights;
  for (PetscInt j = 0; j < PetscMin(k, (PetscInt)hj::kColumnMaxK); j++) p->L.wv[j] = (PetscScalar)hj->w[j];
  p->L.wf = (const float *)((unsigned char *)p->weights + k * sizeof(PetscScalar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan of stencil st for the PC's current parameters, options and layout: the variant, the launch descriptor
   (tiles, threads, shared memory, the stencil on the device, damping) and its instantiation, prepared once (its
   shared-memory limit raised). Uploads st if needed. Errors here if the tile does not fit the kernel or the device.
   transpose: the transposed correction (PCApplyTranspose), which the shared-memory tile kernels have (TileKernel,
   TileKernelBlock), for every k and with the user's tiling (no rows mode, no register strips). */
PetscErrorCode HJCudaPlanCreate(PC pc, HJStencil *st, PetscBool transpose, cudaStream_t stream, HJCudaPlan *p)
{
  HJSweeps                    *hj   = HJSweepsOf(pc);
  const HJLayout              *ly   = &hj->layout;
  const MPI_Comm               comm = PetscObjectComm((PetscObject)pc);
  hjcuda::Launch<PetscScalar> *L    = &p->L;
  int                          target;
  long long                    npts       = 1;
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
  tile         = (PetscBool)(hj->k > 1 || o->forcetile || ly->dof > 1 || transpose);
  rows         = (PetscBool)(!transpose && tile && ly->dim == 2 && ly->dof == 1 && st->kind == hj::STAR && st->zerodir[1] && o->kernel == HJ_CUDA_KERNEL_AUTO);
  L->transpose = transpose; /* with xzero: a transposed correction always starts from zero */
  L->xzero     = transpose;
  L->single    = tile && hj->inner == PC_HJACOBI_INNER_PRECISION_SINGLE && sizeof(PetscScalar) != sizeof(float);
  for (PetscInt k = 0; k < 3; k++) {
    PetscInt  t, o;
    long long sumw = 0;

    HJTileOf(hj, k, &t, &o);          /* 0 <= o < t: checked by PCSetUp before any plan */
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
  for (L->ppt = 1; L->ppt < hjcuda::kMaxPointsPerThread && (npts + L->ppt - 1) / L->ppt > target; L->ppt *= 2)
    ;
  L->nthreads = (int)((((npts + L->ppt - 1) / L->ppt) + 31) / 32 * 32);
  p->variant  = !tile ? HJ_CUDA_CLASSIC : (ly->dof > 1 ? HJ_CUDA_BLOCK : (rows ? HJ_CUDA_ROWS : HJ_CUDA_SHARED));
  /* the column kernel (3D star, dof 1, native sub-iterations): decided below, once the interior row and the row
     classes are known; -pc_hjacobi_cuda_kernel columns asks for it */
  const PetscBool colcand = (PetscBool)(tile && ly->dim == 3 && ly->dof == 1 && st->kind == hj::STAR && !L->single && (o->kernel == HJ_CUDA_KERNEL_AUTO || o->kernel == HJ_CUDA_KERNEL_COLUMNS));
  const HJCuda   *cu      = (const HJCuda *)hj->data;
  const long long ssz     = (long long)sizeof(PetscScalar);
  if (o->kernel == HJ_CUDA_KERNEL_COLUMNS) {
    const hj::ColumnNeed need = hj::ColumnNeeds(p->W, (int)hj->k, ssz, cu->smemoptin);
    PetscCheck(ly->dim == 3 && st->kind == hj::STAR && ly->dof == 1, comm, PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel columns handles 3D star (7-point) stencils of one field per point; this operator is a %" PetscInt_FMT "D %s stencil with dof %" PetscInt_FMT ": use -pc_hjacobi_cuda_kernel shared (or auto)", ly->dim, st->kind == hj::STAR ? "star" : "box", ly->dof);
    PetscCheck(!L->single, comm, PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel columns runs its sub-iterations in PetscScalar: use -pc_hjacobi_inner_precision native, or -pc_hjacobi_cuda_kernel shared");
    PetscCheck(!tile || hj->k <= hj::kColumnMaxK, comm, PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel columns handles k <= %d sub-iterations; k = %" PetscInt_FMT ": use -pc_hjacobi_cuda_kernel shared", hj::kColumnMaxK, hj->k);
    PetscCheck(!tile || hj::ColumnFits(p->W, (int)hj->k, ssz, cu->smemoptin), comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_kernel columns: tile %lldx%lld in x-y needs %lld threads (one per column with the halo ring, at most %lld) and %lld bytes of shared memory (device limit %d): use a smaller -pc_hjacobi_tile in x or y", p->W[0], p->W[1],
               need.threads, hj::kColumnMaxThreads, need.bytes + hj::kColumnStaticBytes, cu->smemoptin);
  }
  if (tile) {
    L->smem = (size_t)hj::TileNeeds(p->W, rows ? 1 : (int)ly->dim, (int)ly->dof, L->single, L->single ? (long long)sizeof(float) : (long long)sizeof(PetscScalar)).bytes; /* rows: no y halo */
    if (!colcand) PetscCall(HJCudaPlanTile(pc, st, npts, target, p));
  }

  /* the stencil on the device, and the rest of the descriptor */
  PetscCall(HJCudaStencilEnsure(st, ly->nlocal, (PetscBool)L->single, stream));
  d           = (const HJCudaStencil *)st->device;
  L->dim      = rows ? 1 : (int)ly->dim; /* rows: the 1D kernel, one tile row per row of the grid */
  L->dof      = (int)ly->dof;
  L->kind     = (int)st->kind;
  L->var      = !st->constant;
  L->stream   = stream;
  L->coefT    = d->coef;
  L->invdiagT = d->invdiag;
  L->coeff    = d->coeff;
  L->invdiagf = d->invdiagf;
  L->diagT    = d->diag;
  for (PetscInt s = 0; s < 26; s++) L->cstT.c[s] = s < st->noff ? st->ccoef[s] : 0;
  L->cstT.invdiag = st->cinvdiag;
  L->omega        = (PetscScalar)hj->w[0]; /* the classic sweep (k = 1): w_1 */
  L->nlocal       = ly->nlocal;
  L->box          = hjcuda::Box{ly->xm[0], ly->xm[1], ly->xm[2], ly->ext[0], ly->ext[1]};
  L->xshift       = rows ? ly->ext[0] : 0;
  L->k            = tile ? (int)hj->k : 1;
  if ((p->variant == HJ_CUDA_SHARED || p->variant == HJ_CUDA_REGISTERS) && L->var && ly->dof == 1) { /* constant rows inside a boundary shell: the planes read in the shell only */
    PetscScalar ref[27];
    PetscBool   cint;

    HJLayoutInteriorBox(ly, HJ_INTERIOR_SHELL, L->ilo, L->ihi); /* the host backend's test too (it also tries a thinner shell) */
    PetscCall(HJCudaStencilInterior(d, L->ilo, L->ihi, ly->xm[0], ly->xm[1], stream, &cint, ref));
    L->cint = (int)cint;
    if (cint) {
      for (PetscInt s = 0; s < 26; s++) L->cstT.c[s] = s < st->noff ? ref[s] : 0;
      L->cstT.invdiag = ref[st->noff];
    }
    PetscCall(PetscInfo(pc, "tile kernel: %s\n", cint ? "one row inside the 2-point boundary shell, coefficient planes read in the shell only" : "variable rows inside, coefficient planes read everywhere"));
  }

  /* the column kernel where auto takes it: the tile fits it, the operator is constant or has row classes (else its
     planes held every face block at each step: 0.58 against 0.47 ms per cycle for TileKernel 8^3 at 257^3 on an H100)
     and the rank has at least hj::kColumnMinTiles tiles; or the shared kernel cannot hold the tile */
  if (colcand) {
    const PetscBool fits = (PetscBool)(L->k <= hj::kColumnMaxK && hj::ColumnFits(p->W, L->k, ssz, cu->smemoptin));
    if (fits && L->var && L->cint && (o->kernel == HJ_CUDA_KERNEL_COLUMNS || L->ntot >= hj::kColumnMinTiles)) { /* classes from the interior row (class 0, the kernel's cstT) */
      const PetscScalar ref7[7] = {L->cstT.c[0], L->cstT.c[1], L->cstT.c[2], L->cstT.c[3], L->cstT.c[4], L->cstT.c[5], L->cstT.invdiag};
      PetscCall(HJCudaRowClasses(d, ref7, stream, &p->rowclass, &p->rowtab, &p->nrows));
    }
    if (fits && (o->kernel == HJ_CUDA_KERNEL_COLUMNS || !hj::TileFits(p->W, 3, 1, false, ssz, cu->smemoptin) || ((!L->var || p->rowclass) && L->ntot >= hj::kColumnMinTiles))) {
      const hj::ColumnNeed need = hj::ColumnNeeds(p->W, L->k, ssz, cu->smemoptin);
      PetscCheck(L->ntot <= 2147483647LL, comm, PETSC_ERR_ARG_OUTOFRANGE, "%lld tiles on one rank exceed the CUDA grid limit: use a larger -pc_hjacobi_tile", L->ntot);
      p->variant  = HJ_CUDA_COLUMNS;
      L->nthreads = (int)need.threads;
      L->smem     = (size_t)need.bytes;
      L->colfix   = need.fixed;
      L->ppt      = 1;
      L->rowclass = p->rowclass;
      L->rowtab   = p->rowtab;
      PetscCall(PetscInfo(pc, "column kernel: %s\n", !L->var ? "constant stencil" : (p->rowclass ? "row classes (the planes unread)" : "coefficient planes read in the shell or everywhere")));
    } else {
      PetscCallCUDA(cudaFree(p->rowclass));
      PetscCallCUDA(cudaFree(p->rowtab));
      p->rowclass = NULL;
      p->rowtab   = NULL;
      PetscCall(HJCudaPlanTile(pc, st, npts, target, p));
    }
  }

  /* its instantiation, resolved and prepared once */
  p->launch = p->variant == HJ_CUDA_CLASSIC ? hjcuda::ClassicLauncher(*L) : (p->variant == HJ_CUDA_BLOCK ? hjcuda::BlockLauncher(*L) : (p->variant == HJ_CUDA_COLUMNS ? hjcuda::ColumnLauncher(*L) : hjcuda::TileLauncher(*L)));
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
  PetscCall(HJCudaPlanWeights(pc, stream, p));
  p->valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether auto's plan of st will run the column kernel with its default tile t (hj::ColumnDefaultTile): a 3D star of
   dof 1, native sub-iterations, kmax (k as asked) <= its most, the tile within the default tiles' shared memory, at least
   hj::kColumnMinTiles tiles on this rank, and the operator constant or with row classes (the same tests as
   HJCudaPlanCreate's, made before the plan: the default tile is chosen before the sweeps' weights, which depend on it;
   so the interior check and the row classes run here and again in the plan: setup work, counted in the one-shot
   figures). For HJBackendOps.defaulttile. */
PetscErrorCode HJCudaColumnsTake(PC pc, HJStencil *st, PetscInt kmax, const long long t[3], cudaStream_t stream, PetscBool *take)
{
  HJSweeps       *hj = HJSweepsOf(pc);
  const HJLayout *ly = &hj->layout;
  HJCudaOptions  *o;
  long long       w[3];

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  *take = PETSC_FALSE;
  for (int k = 0; k < 3; k++) w[k] = PetscMin(t[k], (long long)ly->xm[k]);
  if (ly->dim != 3 || ly->dof != 1 || st->kind != hj::STAR || hj->inner != PC_HJACOBI_INNER_PRECISION_NATIVE || kmax > hj::kColumnMaxK || !(o->kernel == HJ_CUDA_KERNEL_AUTO || o->kernel == HJ_CUDA_KERNEL_COLUMNS)) PetscFunctionReturn(PETSC_SUCCESS);
  if (!hj::ColumnFits(w, (int)kmax, (long long)sizeof(PetscScalar), hj::kDefaultTileBytes)) PetscFunctionReturn(PETSC_SUCCESS);
  if (o->kernel == HJ_CUDA_KERNEL_AUTO && hj::NumTiles(ly->xm[0], t[0], 0) * hj::NumTiles(ly->xm[1], t[1], 0) * hj::NumTiles(ly->xm[2], t[2], 0) < hj::kColumnMinTiles) PetscFunctionReturn(PETSC_SUCCESS);
  if (st->constant || o->kernel == HJ_CUDA_KERNEL_COLUMNS) {
    *take = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscScalar    ref[27];
    PetscBool      cint;
    long long      ilo[3], ihi[3];
    unsigned char *cls;
    PetscScalar   *tab;
    PetscInt       nrows;

    PetscCall(HJCudaStencilEnsure(st, ly->nlocal, PETSC_FALSE, stream));
    HJLayoutInteriorBox(ly, HJ_INTERIOR_SHELL, ilo, ihi);
    PetscCall(HJCudaStencilInterior((const HJCudaStencil *)st->device, ilo, ihi, ly->xm[0], ly->xm[1], stream, &cint, ref));
    if (cint) {
      const PetscScalar ref7[7] = {ref[0], ref[1], ref[2], ref[3], ref[4], ref[5], ref[6]};
      PetscCall(HJCudaRowClasses((const HJCudaStencil *)st->device, ref7, stream, &cls, &tab, &nrows));
      *take = (PetscBool)(cls != NULL);
      PetscCallCUDA(cudaFree(cls));
      PetscCallCUDA(cudaFree(tab));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan of st: A's cycles (made at setup), or A^T's transposed correction (made at its first use after a setup: A^T
   is built lazily, and only PCApplyTranspose runs it) */
PetscErrorCode HJCudaPlanOf(PC pc, const HJStencil *st, cudaStream_t stream, const HJCudaPlan **plan)
{
  HJSweeps *hj = HJSweepsOf(pc);
  HJCuda   *cu = (HJCuda *)hj->data;

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

const char *const HJCudaVariantNames[] = {"fused classic sweep", "shared", "registers", "shared, 1D on rows", "point-block, shared", "columns"};
