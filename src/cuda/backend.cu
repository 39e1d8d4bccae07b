/* The CUDA backend of PCHJACOBI (doc/design.md, "Backends"): its operations (HJBackendCUDA), setup (work arrays, A's
   plan, the split cycle's second stream), reset, view, developer options, and the parts of the omega estimate (D^{-1},
   the start vector) and of PCApplyTranspose that need the device. The plan is plan/plan.cu, the cycle cuda/cycle.cu. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"
#include "arith/hash.hpp"

const char *const HJCudaKernels[] = {"auto", "shared", "registers", "columns"};

static PetscErrorCode HJSetUp_CUDA(PC pc)
{
  HJSweeps       *hj = HJSweepsOf(pc);
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
    PetscCheck(ly->dim == 2 && hj->st.kind == hj::STAR, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_cuda_kernel registers handles 2D star (5-point) stencils only; this operator is a %" PetscInt_FMT "D %s stencil: use -pc_hjacobi_cuda_kernel shared (or auto)", ly->dim, hj->st.kind == hj::STAR ? "star" : "box");
  PetscCall(PetscGetCurrentCUDAStream(&stream));

  /* work arrays: (re)allocate when the size changes; zero them on every setup, since a new layout of the same size
     may put its outside-the-domain layer where the old one had interior values */
  if (cu->npadded != ly->npadded * ly->dof) {
    PetscCallCUDA(cudaFree(cu->xpad));
    PetscCallCUDA(cudaFree(cu->ypad));
    cu->xpad = cu->ypad = NULL;
    cu->npadded         = ly->npadded * ly->dof;
    PetscCallCUDA(cudaMalloc((void **)&cu->xpad, (size_t)cu->npadded * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&cu->ypad, (size_t)cu->npadded * sizeof(PetscScalar)));
  }
  PetscCallCUDA(cudaMemsetAsync(cu->xpad, 0, (size_t)cu->npadded * sizeof(PetscScalar), stream));
  PetscCallCUDA(cudaMemsetAsync(cu->ypad, 0, (size_t)cu->npadded * sizeof(PetscScalar), stream));

  /* the kernels, chosen once here: A's plan now (uploading A unless its device copy is current: HJStencilExtract()
     destroys the copy with the old values), A^T's at its first use */
  cu->planT.valid = PETSC_FALSE;
  PetscCall(HJCudaPlanCreate(pc, &hj->st, PETSC_FALSE, stream, &cu->plan));
  PetscCall(PetscInfo(pc, "CUDA kernel: %s, %d threads x %d points per thread, %zu bytes of shared memory per block\n", HJCudaVariantNames[cu->plan.variant], cu->plan.L.nthreads, cu->plan.L.ppt, cu->plan.L.smem));

  /* the split cycle's second stream (HJCycles_CUDA), made once: non-blocking, so that it has no implicit order with
     PETSc's stream (the legacy NULL stream by default, PETSC_STREAM_DEFAULT), and at the device's least priority, so
     that where PETSc's stream has a higher one its small unpack kernel and the boundary tiles are not queued behind
     the interior blocks (PETSc creates its streams without a priority, i.e. the least one too: then they are equal) */
  if (cu->plan.split && !cu->side) {
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
  /* the staged exchange (cuda/exchange.cu) is made in HJSetUpAll_CUDA, not here: making it is collective, and a rank
     may have failed above (PCSetUp_HJacobi collects that between the two). Kept while the ghost SF and the option are
     the same. */
  {
    PetscObjectId id = 0;

    if (hj->ghostsf) PetscCall(PetscObjectGetId((PetscObject)hj->ghostsf, &id));
    if (!hj->ghostsf || id != cu->exof || HJCudaStagedExchange(o) != cu->exasked) {
      PetscCall(HJCudaExchangeDestroy(&cu->ex));
      cu->exready = PETSC_FALSE;
    }
  }
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiExtractCompare_C", HJCudaExtractCompare)); /* testing: test/test_extract.c */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJReset_CUDA(PC pc)
{
  HJSweeps *hj = HJSweepsOf(pc);
  HJCuda   *cu = (HJCuda *)hj->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiExtractCompare_C", NULL));
  if (!cu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree(cu->xpad));
  PetscCallCUDA(cudaFree(cu->ypad));
  PetscCall(HJCudaPlanDestroy(&cu->plan));
  PetscCall(HJCudaPlanDestroy(&cu->planT));
  PetscCall(HJCudaExchangeDestroy(&cu->ex));
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
  HJSweeps         *hj = HJSweepsOf(pc);
  const HJCuda     *cu = (const HJCuda *)hj->data;
  const HJCudaPlan *p  = cu ? &cu->plan : NULL;
  PetscBool         ascii;
  HJCudaOptions    *o;

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii || !p || !p->valid) PetscFunctionReturn(PETSC_SUCCESS);
  if (p->variant != HJ_CUDA_CLASSIC) {
    char colhow[256];
    PetscCall(PetscSNPrintf(colhow, sizeof(colhow), " (one thread per x-y column with the halo ring%s, z streamed plane by plane%s)", p->L.colfix ? " in a fixed 32 x 16 plane" : "", !p->L.var ? "" : (p->rowclass ? "; the rows from a table of their %d distinct values, the coefficient planes unread" : (p->L.cint ? "; one row inside, coefficient planes read in the boundary shell only" : "; coefficient planes read everywhere"))));
    if (p->rowclass) { /* the count into the text */
      char tmp[256];
      PetscCall(PetscSNPrintf(tmp, sizeof(tmp), colhow, (int)p->nrows));
      PetscCall(PetscStrncpy(colhow, tmp, sizeof(colhow)));
    }
    const char *const how = p->variant == HJ_CUDA_COLUMNS   ? colhow
                          : p->variant == HJ_CUDA_REGISTERS ? (p->L.cint ? " (vertical strips, values in registers; one row inside, coefficient planes read in the boundary shell only)" : " (vertical strips, values in registers)")
                                                            : (p->variant == HJ_CUDA_BLOCK ? " (a loop; dof x dof blocks from global memory)" : (p->variant == HJ_CUDA_ROWS ? " (no y couplings: every row an independent 1D problem, 1D tiles along x)" : (p->L.cint ? " (one row inside, coefficient planes read in the boundary shell only)" : "")));

    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: tile kernel (%s%s), %lld tiles of at most %lldx%lldx%lld points, %d threads x %d points per thread%s, %zu bytes of shared memory per tile (device limit %d), sub-iterations in %s\n", cu->name, p->variant == HJ_CUDA_COLUMNS ? "columns" : (p->variant == HJ_CUDA_REGISTERS ? "registers" : (p->variant == HJ_CUDA_BLOCK ? "point-block, shared" : "shared")), o->kernel == HJ_CUDA_KERNEL_AUTO ? ", -pc_hjacobi_cuda_kernel auto" : "",
                                     p->L.ntot, p->W[0], p->W[1], p->W[2], p->L.nthreads, p->L.ppt, how, p->L.smem, cu->smemoptin, p->L.single ? "single precision" : "PetscScalar"));
    if (p->launchc)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: %lld of %lld tiles inside the box of one row run the kernel's constant-stencil instantiation (one launch more per cycle, or per group of a split cycle)\n", p->nconst[0] + p->nconst[1], p->L.ntot));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA on %s: fused classic sweep (k = 1, one thread per point, no shared memory; -pc_hjacobi_cuda_kernel %s applies to k > 1)\n", cu->name, HJCudaKernels[o->kernel]));
    if (hj->ghostsf) PetscCall(PetscViewerASCIIPrintf(viewer, "  the fused sweep waits for the ghost exchange (no tiles to run during it)\n"));
  }
  if (p->split) {
    const char *how = "not used: -pc_hjacobi_overlap_comm false";
    char        side[256];

    if (hj->overlapcomm && cu->side && HJCudaSideStream(o)) {
      PetscCall(PetscSNPrintf(side, sizeof(side), "launched on a second stream during the exchange, priority %d%s PETSc's stream%s", cu->sideprio, cu->sideprio > cu->petscprio ? " below" : ", as", o->sideset ? "" : "; MPI is not GPU-aware"));
      how = side;
    } else if (hj->overlapcomm) how = "launched during the exchange on PETSc's stream";
    else if (!hj->overlapcommgiven) how = "not used: MPI is not GPU-aware";
    PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: %lld of %lld tiles read no ghost value (%s)\n", p->ninterior, p->L.ntot, how));
  }
  if (hj->ghostsf) {
    PetscBool   staged      = HJCudaStagedExchange(o);
    char        counts[128] = "";
    PetscMPIInt size;

    PetscCall(HJCudaStagedOnRanks(pc, &staged));
    if (cu->exready) staged = (PetscBool)(cu->ex.sf != NULL); /* made in HJSetUpAll_CUDA */
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
    if (cu->ex.sf) PetscCall(PetscSNPrintf(counts, sizeof(counts), ", rank 0: %" PetscInt_FMT " values sent, %" PetscInt_FMT " received", cu->ex.nsend, cu->ex.nrecv));
    if (!staged && size == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchange by PetscSF on the device arrays (one rank: a periodic direction's ghosts are its own values)\n"));
    else if (staged) PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchange staged through pinned host memory%s (-pc_hjacobi_cuda_staged_exchange true%s)\n", counts, o->stagedset ? "" : ", default: MPI is not GPU-aware"));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchange by PetscSF on the device arrays (-pc_hjacobi_cuda_staged_exchange false%s)\n", o->stagedset ? "" : ", default: MPI is GPU-aware"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCudaOptionsGet(PC pc, HJCudaOptions **opts)
{
  HJSweeps *hj = HJSweepsOf(pc);

  PetscFunctionBegin;
  if (!hj->backendopts[PC_HJACOBI_BACKEND_CUDA]) {
    HJCudaOptions *o;

    PetscCall(PetscNew(&o));
    o->kernel                                = HJ_CUDA_KERNEL_AUTO;
    o->failalloc                             = -1;
    o->cminpts                               = hj::kConstSplitMinPoints;
    hj->backendopts[PC_HJACOBI_BACKEND_CUDA] = o;
  }
  *opts = (HJCudaOptions *)hj->backendopts[PC_HJACOBI_BACKEND_CUDA];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the developer options: the plan is chosen from them, so a change sets the PC up again */
static PetscErrorCode HJSetFromOptions_CUDA(PC pc, HJ_OPTION_ITEMS)
{
  HJCudaOptions *o;
  PetscInt       kernel, strip, threads, cminpts;
  PetscBool      forcetile, flg, staged;

  PetscFunctionBegin;
  PetscCall(HJCudaOptionsGet(pc, &o));
  /* test hook, not listed by -help: the given rank's device extraction fails to allocate its planes, as on a full GPU,
     so a test can see every rank stop (cuda_err_extract_alloc_np2) */
  PetscCall(PetscOptionsGetInt(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_debug_fail_alloc", &o->failalloc, NULL));
  kernel    = o->kernel;
  strip     = o->strip;
  threads   = o->threads;
  forcetile = o->forcetile;
  cminpts   = o->cminpts;
  PetscCall(PetscOptionsEList("-pc_hjacobi_cuda_kernel", "CUDA tile kernel: registers (2D star, values in registers; auto's choice in 2D, except rows without y couplings: 1D tiles), columns (3D star, x-y columns streamed through z; auto's choice for constant operators and those with few distinct rows) or shared", "PCHJACOBI", HJCudaKernels, 4, HJCudaKernels[kernel], &kernel, NULL));
  PetscCall(PetscOptionsInt("-pc_hjacobi_cuda_strip", "Points per thread of the register-strip kernel, 4 or 8 (0: chosen per tile)", "PCHJACOBI", strip, &strip, NULL));
  PetscCheck(strip == 0 || strip == 4 || strip == 8, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_strip %" PetscInt_FMT ": the register-strip kernel takes strips of 4 or 8 points (or 0: chosen per tile)", strip);
  PetscCall(PetscOptionsInt("-pc_hjacobi_cuda_threads", "Threads per block the tile kernels aim at, a multiple of 32 up to 512; points per thread follow (0: 256, 512 for variable box stencils)", "PCHJACOBI", threads, &threads, NULL));
  PetscCheck(threads == 0 || (threads >= 32 && threads <= 512 && threads % 32 == 0), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_threads %" PetscInt_FMT ": give a multiple of 32 from 32 to 512 (or 0: the default)", threads);
  PetscCall(PetscOptionsBool("-pc_hjacobi_cuda_tile_kernel", "Run the tile kernel also for k = 1 (testing)", "PCHJACOBI", forcetile, &forcetile, NULL));
  PetscCall(PetscOptionsInt("-pc_hjacobi_cuda_constant_tiles", "With one row inside a boundary shell, the tiles inside it run the shared or register kernel's constant-stencil instantiation where they hold at least this many points (0: always, -1: never)", "PCHJACOBI", cminpts, &cminpts, NULL));
  PetscCheck(cminpts >= -1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_cuda_constant_tiles %" PetscInt_FMT ": give a number of points >= 0, or -1 for never", cminpts);
  /* read at every cycle: no setup needed (the stream is made at every setup with a split plan) */
  PetscCall(PetscOptionsBool("-pc_hjacobi_cuda_side_stream", "Launch the interior tiles of a split cycle on a second stream (default: true when MPI is not GPU-aware)", "PCHJACOBI", HJCudaSideStream(o), &o->side, &flg));
  if (flg) o->sideset = PETSC_TRUE;
  staged = HJCudaStagedExchange(o);
  PetscCall(PetscOptionsBool("-pc_hjacobi_cuda_staged_exchange", "Stage the ghost exchange through pinned host memory (default: true when MPI is not GPU-aware)", "PCHJACOBI", staged, &o->staged, &flg));
  if (flg) o->stagedset = PETSC_TRUE;
  if (HJCudaStagedExchange(o) != staged) pc->setupcalled = 0; /* the setup discards the exchange made before */
  if (kernel != (PetscInt)o->kernel || strip != o->strip || threads != o->threads || forcetile != o->forcetile || cminpts != o->cminpts) pc->setupcalled = 0;
  o->cminpts   = cminpts;
  o->threads   = threads;
  o->kernel    = (HJCudaKernel)kernel;
  o->strip     = strip;
  o->forcetile = forcetile;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A^T's stencil: on the device for a device stencil, else re-indexed on the host (uploaded by its plan) */
static PetscErrorCode HJTranspose_CUDA(PC pc, const HJStencil *st, HJStencil *stT)
{
  HJSweeps *hj = HJSweepsOf(pc);

  PetscFunctionBegin;
  if (st->ondevice) PetscCall(HJCudaStencilTranspose(&hj->layout, st, stT));
  else PetscCall(HJStencilTransposeOnHost(&hj->layout, st, stT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The omega estimate's D^{-1} for CUDA vectors: a CUDA vector on the stencil's arrays (the device one of a device
   stencil, else the host one, uploaded at first use); no copy */
static PetscErrorCode HJInvDiag_CUDA(PC pc, const HJStencil *st, Vec like, Vec *dinv)
{
  HJSweeps          *hj  = HJSweepsOf(pc);
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

static PetscErrorCode HJExtract_CUDA(PC pc, Mat A, HJStencil *st, PetscBool valuesonly)
{
  PetscFunctionBegin;
  PetscCall(HJCudaExtract(pc, A, st, valuesonly));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The omega estimate's start vector written on the device (omega/omega.cxx FillStart): no host loop over the grid and no
   upload at setup. Same values as the host (hj::StartValue). */
namespace
{
__global__ void FillStartKernel(PetscScalar *a, long long n, long long xs0, long long xs1, long long xs2, long long xm0, long long xm1, long long M0, long long M1, int dof)
{
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
    const long long u = e / dof, i = u % xm0, j = (u / xm0) % xm1, k = u / (xm0 * xm1);
    a[e] = (PetscScalar)hj::StartValue(xs0, xs1, xs2, i, j, k, M0, M1, dof, (int)(e % dof));
  }
}
} // namespace

PetscErrorCode HJFillStart_CUDA(const HJLayout *L, PetscScalar *a)
{
  const long long n = (long long)L->nlocal * L->dof;
  cudaStream_t    stream;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  FillStartKernel<<<(unsigned)PetscMin((n + 255) / 256, 65535LL), 256, 0, stream>>>(a, n, L->xs[0], L->xs[1], L->xs[2], L->xm[0], L->xm[1], L->M[0], L->M[1], (int)L->dof);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the default tile where the column kernel will run it (HJCudaColumnsTake): hj::ColumnDefaultTile for this device's SMs */
static PetscErrorCode HJDefaultTile_CUDA(PC pc, HJStencil *st, PetscInt kmax, const long long mmax[3], long long t[3], PetscBool *set)
{
  cudaStream_t stream;
  int          dev, nsm;

  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
  hj::ColumnDefaultTile(mmax, nsm, t);
  PetscCall(HJCudaColumnsTake(pc, st, kmax, t, stream, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* collective, after every rank's setup: the staged exchange (cuda/exchange.cu), so that its making is setup time, not
   the first PCApply's */
static PetscErrorCode HJSetUpAll_CUDA(PC pc)
{
  HJSweeps *hj = HJSweepsOf(pc);

  PetscFunctionBegin;
  if (hj->ghostsf) PetscCall(HJCudaExchangeReady(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operations by name (hjbackend.h); constant-initialised */
static constexpr HJBackendOps HJBackendOpsCUDA()
{
  HJBackendOps ops{};

  ops.name           = "cuda";
  ops.type           = PC_HJACOBI_BACKEND_CUDA;
  ops.device         = PETSC_TRUE;
  ops.vectypes       = HJCudaVecTypes;
  ops.densetype      = MATSEQDENSECUDA;
  ops.setfromoptions = HJSetFromOptions_CUDA;
  ops.extract        = HJExtract_CUDA;
  ops.setup          = HJSetUp_CUDA;
  ops.cycles         = HJCycles_CUDA;
  ops.reset          = HJReset_CUDA;
  ops.view           = HJView_CUDA;
  ops.correctT       = HJCorrectT_CUDA;
  ops.transpose      = HJTranspose_CUDA;
  ops.stenciltohost  = HJStencilToHost_CUDA;
  ops.invdiag        = HJInvDiag_CUDA;
  ops.invdiagblocks  = HJInvDiagBlocks_CUDA;
  ops.fillstart      = HJFillStart_CUDA;
  ops.residual       = HJResidual_CUDA;
  ops.transfer       = HJTransfer_CUDA;
  ops.defaulttile    = HJDefaultTile_CUDA;
  ops.setupall       = HJSetUpAll_CUDA;
  ops.recordbegin    = HJRecordBegin_CUDA;
  ops.recordend      = HJRecordEnd_CUDA;
  ops.replay         = HJReplay_CUDA;
  ops.forget         = HJForget_CUDA;
  return ops;
}
const HJBackendOps HJBackendCUDA = HJBackendOpsCUDA();
