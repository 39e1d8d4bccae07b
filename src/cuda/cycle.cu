/* The cycles of one PCApply/PCApplyRichardson on the device, on PETSc's current stream (a split cycle's interior tiles
   on a second stream of ours when MPI is not GPU-aware), and the transposed correction. The core calls them for CUDA
   vectors not bound to the CPU only (HJBackendCycles, src/backend/backends.cxx); their values are taken to the device
   wherever they sit. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"

/* The device arrays of one cycle or correction: b's (read) and x's (write only with xwrite: x is overwritten), moved to
   the device where their values sit on the host (VecGetArray...AndMemType of a CUDA vector not bound to the CPU) */
static PetscErrorCode HJCudaGetArrays(Vec b, Vec x, PetscBool xwrite, const PetscScalar **ba, PetscScalar **xa)
{
  PetscMemType bmt, xmt;

  PetscFunctionBegin;
  PetscCall(VecGetArrayReadAndMemType(b, ba, &bmt));
  if (xwrite) PetscCall(VecGetArrayWriteAndMemType(x, xa, &xmt));
  else PetscCall(VecGetArrayAndMemType(x, xa, &xmt));
  PetscCheck(PetscMemTypeDevice(bmt) && PetscMemTypeDevice(xmt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The CUDA backend's cycles got a vector whose array is on the host (the core runs the host backend for those)");
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

PetscErrorCode HJCycles_CUDA(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  HJSweeps          *hj = HJSweepsOf(pc);
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *ba;
  PetscScalar       *xa;
  cudaStream_t       stream;
  const HJCudaPlan  *p;
  HJCudaOptions     *o;

  PetscFunctionBegin;
  if (n <= 0) {
    if (zeroguess) PetscCall(VecZeroEntries(x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HJCudaGetArrays(b, x, zeroguess, &ba, &xa));
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(HJCudaPlanOf(pc, st, stream, &p));
  PetscCall(HJCudaOptionsGet(pc, &o));

  hjcuda::Launch<PetscScalar>       L    = p->L; /* the plan's descriptor; a cycle sets only the arrays and the stream */
  const long long                   ext0 = ly->ext[0], ext1 = ly->ext[1], xm0 = ly->xm[0], xm1 = ly->xm[1];
  const hjcuda::Output<PetscScalar> toy  = {nullptr, ly->pad[0] + ext0 * (ly->pad[1] + ext1 * ly->pad[2]), ext0, ext0 * ext1}; /* ypad's interior */
  const hjcuda::Output<PetscScalar> tox  = {xa, 0, xm0, xm0 * xm1};
  const PetscBool                   side = (PetscBool)(cu->side && HJCudaSideStream(o)); /* made at setup when the plan is split */

  L.stream = stream;
  L.b      = ba;
  /* 1. xpad interior <- x; from a zero guess the first cycle reads nothing (xzero). The column kernel reads x in place
     instead where nothing is exchanged (one rank, no periodic direction) and the first cycle does not write x (n >= 2) */
  const PetscBool inplace = (PetscBool)(p->variant == HJ_CUDA_COLUMNS && !zeroguess && !hj->ghostsf && n >= 2);
  if (!zeroguess && !inplace) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(hjcuda::PadCopy((int)ly->dim, L.dof, L.box, (const PetscScalar *)xa, cu->xpad, stream)); /* the grid's dimension (L.dim is 1 for rows) */
    PetscCall(PetscLogGpuTimeEnd());
  }
  /* 2. n cycles: exchange, kernel into ypad (the last one into x), swap. With the tiles split (p->split), the
     interior ones run while the exchange is under way, the rest after its end (doc/design.md "Communication hidden").
     The interior tiles read only xpad's owned points, which the exchange reads (its roots) and does not write, and
     write only ypad's owned points (or x's), which it does not touch; the boundary tiles read xpad and write other
     owned points of ypad (or x): nothing orders the two groups within a cycle, nor the interior tiles and the
     exchange's unpack.
     Each group is one launch, or two where some of its tiles run the constant-stencil instantiation (p->launchc,
     HJCudaPlanSplit); "the interior launch" below stands for either.
     One stream (GPU-aware MPI, or -pc_hjacobi_cuda_side_stream false): begin, the interior launch, end, the boundary
     launch, all on PETSc's stream. With MPI that is not GPU-aware the exchange is staged through pinned host buffers
     on PETSc's stream (cuda/exchange.cu; begin: gather, device-to-host copy, stream synchronization, MPI start; end:
     MPI wait, host-to-device copy, scatter), so there the copy back waits for the interior tiles queued before it, and the unpack and the
     boundary tiles follow them. Second stream (the default without GPU-aware MPI): after the begin, PETSc's stream
     records `forked` and cu->side waits for it (so the interior tiles follow the pack and everything before it: the
     previous cycle, joined below, and the pad copy); the interior tiles go on cu->side, which records `joined`; the
     end's copy and unpack and then the boundary tiles go on PETSc's stream, alongside the interior tiles; after the
     boundary launch PETSc's stream waits for `joined`. So the next cycle's begin (its pack reads this cycle's output,
     and its interior tiles overwrite the xpad this cycle reads) and, after the last cycle, every later user of x and b
     find both groups done. */
  auto launch = [&](hjcuda::Launcher<PetscScalar> f, const unsigned *ids, long long count, PetscLogDouble flops, cudaStream_t s) -> PetscErrorCode {
    PetscFunctionBegin;
    L.tileids = ids;
    L.ntot    = count;
    L.stream  = s;
    PetscCall(PetscLogEventBegin(p->event, pc, 0, 0, 0));
    if (s == stream) PetscCall(PetscLogGpuTimeBegin()); /* PETSc's GPU timer times its own stream (and synchronizes it) */
    PetscCallCUDA(f(L, nullptr));
    if (s == stream) PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
    PetscCall(PetscLogEventEnd(p->event, pc, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  /* the tiles ids[0, count) of which the first nc are constant tiles (p->launchc), the rest by p->launch; flops (the
     cycle's, counted once) with the last launch */
  auto runs = [&](const unsigned *ids, long long count, long long nc, PetscLogDouble flops, cudaStream_t s) -> PetscErrorCode {
    PetscFunctionBegin;
    if (nc) PetscCall(launch(p->launchc, ids, nc, nc == count ? flops : 0, s));
    if (count > nc) PetscCall(launch(p->launch, ids + nc, count - nc, flops, s));
    if (!count) PetscCall(PetscLogGpuFlops(flops));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  /* group g of the exchange's split (0: the tiles that read no ghost value, 1: the rest), in a split cycle */
  auto group = [&](int g, PetscLogDouble flops, cudaStream_t s) -> PetscErrorCode {
    const long long start = g ? p->ninterior : 0, count = g ? p->L.ntot - p->ninterior : p->ninterior;

    PetscFunctionBegin;
    PetscCall(runs(p->tileids + start, count, p->nconst[g], flops, s));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  /* every tile, in a cycle that is not split: one launch in tile order, or the constant tiles then the rest (the
     second order of HJCudaPlanSplit where the plan also has the exchange's split) */
  auto all = [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    if (!p->launchc) PetscCall(launch(p->launch, nullptr, p->L.ntot, p->flops, stream));
    else PetscCall(runs(p->tileids + (p->split ? p->L.ntot : 0), p->L.ntot, p->nconst[0] + p->nconst[1], p->flops, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  for (PetscInt c = 0; c < n; c++) {
    const PetscBool last = (PetscBool)(c == n - 1);

    L.xzero = zeroguess && c == 0;
    L.xpad  = cu->xpad;
    L.xin   = inplace && c == 0 ? (const PetscScalar *)xa : nullptr;
    L.y     = last ? tox : toy;
    if (!last) L.y.out = cu->ypad;
    const PetscBool exchange = (PetscBool)(hj->ghostsf && !L.xzero); /* every rank starts from zero together: nothing to exchange then */
    const PetscBool split    = (PetscBool)(exchange && hj->overlapcomm && p->split);
    const PetscBool fork     = (PetscBool)(split && side && p->ninterior);
    if (exchange) {
      PetscCall(HJCudaExchangeReady(pc)); /* (made at setup: returns at once) */
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(HJCudaExchangeBegin(&cu->ex, hj->ghostsf, cu->xpad, stream));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (fork) {
      PetscCallCUDA(cudaEventRecord(cu->forked, stream));
      PetscCallCUDA(cudaStreamWaitEvent(cu->side, cu->forked, 0));
      PetscCall(group(0, 0, cu->side));
      PetscCallCUDA(cudaEventRecord(cu->joined, cu->side));
    } else if (split) PetscCall(group(0, 0, stream));
    if (exchange) {
      PetscCall(PetscLogEventBegin(PCHJACOBI_Exchange, pc, 0, 0, 0));
      PetscCall(HJCudaExchangeEnd(&cu->ex, hj->ghostsf, cu->xpad, stream));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Exchange, pc, 0, 0, 0));
    }
    if (split) PetscCall(group(1, p->flops, stream));
    else PetscCall(all());
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

/* x <- (add ? x : 0) + N^T r with A^T's stencil stT (doc/algorithm.md "PCApplyTranspose"): one launch of the
   shared-memory tile kernel in transposed mode (A^T's plan), atomically adding every tile's W(T) into x. No ghost
   exchange: the halo is zero. */
PetscErrorCode HJCorrectT_CUDA(PC pc, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  HJSweeps          *hj = HJSweepsOf(pc);
  HJCuda            *cu = (HJCuda *)hj->data;
  const HJLayout    *ly = &hj->layout;
  const PetscScalar *ra;
  PetscScalar       *xa;
  cudaStream_t       stream;
  const HJCudaPlan  *p;

  PetscFunctionBegin;
  PetscCall(HJCudaGetArrays(r, x, (PetscBool)!add, &ra, &xa));
  PetscCheck(cu && cu->npadded == ly->npadded * ly->dof, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "The CUDA backend was not set up for this layout");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(HJCudaPlanOf(pc, stT, stream, &p));

  hjcuda::Launch<PetscScalar> L = p->L; /* transpose and xzero are set in the plan */
  L.stream                      = stream;
  L.b                           = ra;
  L.xpad                        = cu->xpad; /* not read: from zero */
  L.y                           = hjcuda::Output<PetscScalar>{xa, 0, ly->xm[0], (long long)ly->xm[0] * ly->xm[1]};
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
