/* hjmg's PCApply as a replayed recording (doc/design.md "The V-cycle as one graph"). Where every level is hjmg's own
   (HJMGLevelsOwn: the operations queue their device work on PETSc's current stream and read nothing back) and the
   vectors' backend records (HJBackendOps.recordbegin: the CUDA backend, a CUDA graph), PCMG's V-cycle is the same list
   of kernels at every PCApply: the first PCApply after a setup runs PCMG's path, the second runs it once more on the
   recording's stream (the reference), records it, replays the recording and compares the two answers; later ones
   replay it. A recording is made again when a PCApply comes with other device arrays than those recorded (then on
   copies of the caller's vectors, so that one recording serves every later pair) or when a level's operator state or
   smoother's iteration count changed; it is dropped at every setup. Anything else keeps PCMG's path, and -pc_view
   says why. */
#include "mg/hjmg.h"
#include <petsc/private/kspimpl.h>

static PetscErrorCode GraphOff(PC pc, const char *why)
{
  HJMGGraph *g = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->g;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(g->off, why, sizeof(g->off)));
  g->state = HJMG_GRAPH_OFF;
  PetscCall(PetscInfo(pc, "V-cycle by PCMG's path, not recorded: %s\n", why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what a recording depends on besides the arrays (sig NULL: their number): PCMG's kind and cycles, and on each level
   the cycles, its vectors' ids (but the finest level's b and x, the caller's), the operator's and Pmat's ids and states, the smoothers' iteration counts, their PCs' ids and states
   (PCHJACOBI's and PCHJDENSE's setups raise it), and whether a Richardson scale or an initial guess method, which
   HJMGLevelsOwn refuses, came since */
PetscErrorCode HJMGGraphSignature(PC pc, PetscObjectState *sig, PetscInt *n)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt nl = mg->levels ? mg->levels[0]->levels : 0;
  PetscInt       c  = 0;

  PetscFunctionBegin;
  if (sig) {
    sig[0] = (PetscObjectState)mg->am;
    sig[1] = (PetscObjectState)mg->cyclesperpcapply;
  }
  c = 2;
  for (PetscInt l = 0; l < nl; l++) {
    if (sig) sig[c] = (PetscObjectState)mg->levels[l]->cycles;
    c++;
    for (Vec v : {l < nl - 1 ? mg->levels[l]->b : NULL, l < nl - 1 ? mg->levels[l]->x : NULL, mg->levels[l]->r}) { /* the level's vectors (PCMGSetRhs() and friends replace them) */
      PetscObjectId id = 0;

      if (v) PetscCall(PetscObjectGetId((PetscObject)v, &id));
      if (sig) sig[c] = (PetscObjectState)id;
      c++;
    }
    for (KSP k : {mg->levels[l]->smoothd, mg->levels[l]->smoothu}) {
      Mat           A = NULL, P = NULL;
      PC            kpc;
      PetscObjectId id;

      if (!k) continue;
      PetscCall(KSPGetOperators(k, &A, &P));
      PetscCall(KSPGetPC(k, &kpc));
      if (sig) {
        PetscReal scale;
        PetscBool selfscale;

        PetscCall(HJMGRichardsonScale(k, &scale, &selfscale));
        sig[c + 6] = (PetscObjectState)(scale != 1 || selfscale || k->guess); /* refused by HJMGLevelsOwn at the recording */
        PetscCall(PetscObjectStateGet((PetscObject)A, &sig[c]));
        PetscCall(PetscObjectStateGet((PetscObject)P, &sig[c + 1]));
        sig[c + 2] = (PetscObjectState)k->max_it;
        PetscCall(PetscObjectStateGet((PetscObject)kpc, &sig[c + 3]));
        PetscCall(PetscObjectGetId((PetscObject)kpc, &id));
        sig[c + 4] = (PetscObjectState)id;
        PetscCall(PetscObjectGetId((PetscObject)A, &id));
        sig[c + 5] = (PetscObjectState)id;
      }
      c += 7;
    }
  }
  *n = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGGraphReset(PC pc)
{
  HJMGGraph *g = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->g;

  PetscFunctionBegin;
  if (g->ops && g->ops->forget) PetscCall((*g->ops->forget)(&g->rec));
  PetscCall(VecDestroy(&g->bc));
  PetscCall(VecDestroy(&g->xc));
  PetscCall(PetscFree(g->sig));
  PetscCall(PetscMemzero(g, sizeof(*g)));
  g->state = HJMG_GRAPH_FIRST;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* why this call's V-cycle cannot be recorded, or NULL; *ops: b's and x's backend (the one that would record) */
PetscErrorCode HJMGGraphEligible(PC pc, Vec b, Vec x, const HJBackendOps **ops, char buf[], size_t len, const char **why)
{
  PC_HJMG    *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  PetscMPIInt size;
  PetscBool   bb, xb;

  PetscFunctionBegin;
  *why = NULL;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  {
    const Vec v[] = {b, x};
    PetscCall(HJBackendOfVecs(2, v, ops));
  }
  PetscCall(VecBoundToCPU(b, &bb));
  PetscCall(VecBoundToCPU(x, &xb));
  if (!hm->graph) *why = "-pc_hjmg_graph false";
  else if (size > 1) *why = "several ranks: the levels exchange ghost values by MPI, which a recording cannot hold";
  else if (!*ops || !(*ops)->recordbegin) *why = "the vectors' backend records nothing (host vectors)";
  else if (bb || xb) *why = "a vector bound to the CPU";
  else PetscCall(HJMGLevelsOwn(pc, buf, len, why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's path on the recording's stream (record false: run; true: recorded, not run); *ok: the recording holds it */
static PetscErrorCode GraphRun(PC pc, PetscBool record, PetscBool *ok)
{
  PC_HJMG       *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  HJMGGraph     *g  = &hm->g;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall((*g->ops->recordbegin)(&g->rec, record));
  ierr = (*hm->apply)(pc, g->b, g->x);
  PetscCall((*g->ops->recordend)(g->rec, record, ok)); /* the capture closed and PETSc's stream current again, whatever happened */
  /* a call that failed inside the capture left PETSc's apply half done (locks, nesting counts): an error, not a fallback */
  PetscCheck(ierr == PETSC_SUCCESS, PetscObjectComm((PetscObject)pc), PETSC_ERR_LIB, "PCHJMG: the V-cycle could not be %s on the recording's stream (the call above failed); -pc_hjmg_graph false keeps PCMG's path", record ? "recorded" : "run");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* record PCMG's V-cycle on g->b, g->x (b, x copied in and out when they are copies), check a replay against a run */
static PetscErrorCode GraphRecord(PC pc, Vec b, Vec x)
{
  HJMGGraph *g = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->g;
  Vec        ref;
  PetscInt   before, after;
  PetscReal  diff = 0, size = 0;
  PetscBool  ok;
  char       why[256];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(HJMG_Record, pc, b, x, 0));
  if (g->bc) PetscCall(VecCopy(b, g->bc));
  PetscCall(GraphRun(pc, PETSC_FALSE, &ok));                                       /* what is made at first use on the recording's stream */
  PetscCall((*((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->apply)(pc, g->b, g->x)); /* the reference, on PETSc's stream */
  PetscCall(VecDuplicate(g->x, &ref));
  PetscCall(VecCopy(g->x, ref));
  PetscCall(HJMGLevelsFallbacks(pc, &before));
  PetscCall(GraphRun(pc, PETSC_TRUE, &ok));
  PetscCall(HJMGLevelsFallbacks(pc, &after));
  if (!ok) PetscCall(GraphOff(pc, "the capture was invalidated (a level's work synchronizes with the host or allocates)"));
  else if (after != before) PetscCall(GraphOff(pc, "a level's residual or transfer ran PETSc's product, which the recording does not hold"));
  else {
    PetscCall((*g->ops->replay)(g->rec));
    PetscCall(PetscObjectStateIncrease((PetscObject)g->x)); /* written on the device: no cached norm holds */
    PetscCall(VecAXPY(ref, -1.0, g->x));                    /* ref - replay */
    PetscCall(VecNorm(ref, NORM_INFINITY, &diff));
    PetscCall(VecNorm(g->x, NORM_INFINITY, &size));
    if (!(diff <= 1e3 * PETSC_MACHINE_EPSILON * size)) {
      PetscCall(PetscSNPrintf(why, sizeof(why), "a replay of the recording differed from PCMG's path by %g (relative, max norm): some level's work runs outside PETSc's current stream", size > 0 ? (double)(diff / size) : (double)diff));
      PetscCall(GraphOff(pc, why));
      PetscCall(VecAXPY(ref, 1.0, g->x)); /* PCMG's answer again */
    }
  }
  if (g->state == HJMG_GRAPH_OFF) PetscCall(VecCopy(ref, g->x));
  else {
    PetscCall(PetscMalloc1(2 * g->nsig, &g->sig)); /* the recording's, then room for a PCApply's own */
    PetscCall(HJMGGraphSignature(pc, g->sig, &g->nsig));
    g->nrecord++;
    g->state = HJMG_GRAPH_REPLAY;
    PetscCall(PetscInfo(pc, "V-cycle recorded (%s): a replay matches PCMG's path to %g (relative)\n", g->bc ? "on copies of the caller's vectors" : "on the caller's vectors", size > 0 ? (double)(diff / size) : (double)diff));
  }
  PetscCall(VecDestroy(&ref));
  if (g->xc) PetscCall(VecCopy(g->xc, x));
  PetscCall(PetscLogEventEnd(HJMG_Record, pc, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GraphReplay(PC pc)
{
  HJMGGraph *g = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->g;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(HJMG_Graph, pc, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCall((*g->ops->replay)(g->rec));
  if (g->xc) PetscCall(PetscObjectStateIncrease((PetscObject)g->xc)); /* written on the device: no cached norm holds */
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogEventEnd(HJMG_Graph, pc, 0, 0, 0));
  g->nreplay++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend that records from now on; a recording of another one is forgotten by its own */
static PetscErrorCode GraphUse(HJMGGraph *g, const HJBackendOps *ops)
{
  PetscFunctionBegin;
  if (g->ops != ops && g->rec && g->ops && g->ops->forget) PetscCall((*g->ops->forget)(&g->rec));
  g->ops = ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGGraphApply(PC pc, Vec b, Vec x)
{
  PC_HJMG   *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  HJMGGraph *g  = &hm->g;

  PetscFunctionBegin;
  if (g->state == HJMG_GRAPH_FIRST) {
    const char *why;
    char        buf[256];

    const HJBackendOps *ops;

    PetscCall((*hm->apply)(pc, b, x)); /* what is made at first use is made outside any recording */
    PetscCall(HJMGGraphEligible(pc, b, x, &ops, buf, sizeof(buf), &why));
    if (why) PetscCall(GraphOff(pc, why));
    else g->state = HJMG_GRAPH_RECORD;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!hm->graph && g->state != HJMG_GRAPH_OFF) PetscCall(GraphOff(pc, "-pc_hjmg_graph false")); /* the option, given after the recording */
  if (g->state == HJMG_GRAPH_OFF) {
    PetscCall((*hm->apply)(pc, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (g->state == HJMG_GRAPH_REPLAY) { /* the recording still holds this V-cycle? */
    PetscInt  n;
    PetscBool same = PETSC_FALSE;

    PetscCall(HJMGGraphSignature(pc, NULL, &n));
    if (n == g->nsig) { /* this call's signature in the second half of g->sig */
      PetscCall(HJMGGraphSignature(pc, g->sig + n, &n));
      PetscCall(PetscArraycmp(g->sig + n, g->sig, n, &same));
    }
    if (!same) {
      const char *why;
      char        buf[256];

      const HJBackendOps *ops;

      PetscCall(HJMGGraphEligible(pc, b, x, &ops, buf, sizeof(buf), &why)); /* what changed may be what the recording refuses */
      if (why) {
        PetscCall(GraphOff(pc, why));
        PetscCall((*hm->apply)(pc, b, x));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      PetscCall(PetscInfo(pc, "a level's operator or smoother changed since the V-cycle was recorded: recording again\n"));
      g->state = HJMG_GRAPH_RECORD;
    }
  }
  if (g->state == HJMG_GRAPH_REPLAY && !g->bc) { /* direct: the recorded arrays are this call's? */
    const PetscScalar *ba;
    PetscScalar       *xa;
    PetscMemType       bmt, xmt;

    PetscCall(VecGetArrayReadAndMemType(b, &ba, &bmt));
    PetscCall(VecGetArrayWriteAndMemType(x, &xa, &xmt));
    const PetscBool same = (PetscBool)((const void *)ba == g->barr && (void *)xa == g->xarr);
    if (same) PetscCall(GraphReplay(pc));
    PetscCall(VecRestoreArrayWriteAndMemType(x, &xa));
    PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
    if (same) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscInfo(pc, "PCApply with other arrays than those recorded: recording again, on copies of the caller's vectors\n"));
    PetscCall(VecDuplicate(b, &g->bc));
    PetscCall(VecDuplicate(x, &g->xc));
    g->state = HJMG_GRAPH_RECORD;
  }
  if (g->state == HJMG_GRAPH_REPLAY) { /* on the copies */
    PetscCall(VecCopy(b, g->bc));
    PetscCall(GraphReplay(pc));
    PetscCall(VecCopy(g->xc, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* record, if this call still allows it (the vectors or the levels may have changed since the call that chose to) */
  {
    const char         *why;
    char                buf[256];
    const HJBackendOps *ops;

    PetscCall(HJMGGraphEligible(pc, b, x, &ops, buf, sizeof(buf), &why));
    if (why) {
      PetscCall(GraphOff(pc, why));
      PetscCall((*hm->apply)(pc, b, x));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(GraphUse(g, ops));
  }
  PetscCall(PetscFree(g->sig));
  PetscCall(HJMGGraphSignature(pc, NULL, &g->nsig));
  g->b = g->bc ? g->bc : b;
  g->x = g->xc ? g->xc : x;
  if (!g->bc) { /* the arrays recorded */
    const PetscScalar *ba;
    PetscScalar       *xa;
    PetscMemType       mt;

    PetscCall(VecGetArrayReadAndMemType(b, &ba, &mt));
    PetscCall(VecGetArrayWriteAndMemType(x, &xa, &mt));
    g->barr = ba;
    g->xarr = xa;
    PetscCall(VecRestoreArrayWriteAndMemType(x, &xa));
    PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
  }
  PetscCall(GraphRecord(pc, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGGraphView(PC pc, PetscViewer viewer)
{
  PC_HJMG   *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  HJMGGraph *g  = &hm->g;

  PetscFunctionBegin;
  if (g->state == HJMG_GRAPH_OFF) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: V-cycle by PCMG's path, not recorded (%s)\n", g->off));
  else if (!hm->graph) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: V-cycle by PCMG's path, not recorded (-pc_hjmg_graph false)\n"));
  else if (g->state == HJMG_GRAPH_REPLAY)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: V-cycle recorded by the %s backend and replayed (-pc_hjmg_graph true): %" PetscInt_FMT " replays, %" PetscInt_FMT " recordings, %s\n", g->ops->name, g->nreplay, g->nrecord, g->bc ? "on copies of the caller's vectors" : "on the caller's vectors"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: V-cycle recorded at the second PCApply after a setup where every level is hjmg's own on device vectors (-pc_hjmg_graph true)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
