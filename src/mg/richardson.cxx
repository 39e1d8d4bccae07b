/* hjmg's PCApplyRichardson (doc/design.md "The V-cycle as one graph"): PCMG's iteration (KSPRICHARDSON's fast path:
   each V-cycle from the current x, the finest level's residual after its pre-smoothing tested against the tolerances,
   the cycle stopped there when it meets them) where, as for PCApply (src/mg/graph.cxx), every level is hjmg's own and
   the vectors' backend records: each V-cycle then replays two recordings, the finest level's pre-smoothing and residual,
   and, unless that residual's norm (read on the host between them) meets the tolerance, the rest of the V-cycle. The
   first call after a setup records its first V-cycle (run once on the recordings' streams, where what is made at
   first use is made, then recorded, replayed from the same x and compared with the run) and replays the later ones. The cycle is
   PCMG's (PCMGMCycle_Private and PCApplyRichardson_MG, PETSC_INTERN in libpetsc) written again for what
   HJMGLevelsOwn admits: multiplicative cycles of KSPSolve smoothers, the levels' residual, restriction and
   interpolation, the same calls in the same order and PCMG's events, so a run and a replay give PCMG's iterates. */
#include "mg/hjmg.h"
#include <petsc/private/kspimpl.h>

static const PCRichardsonConvergedReason kNotSet = (PCRichardsonConvergedReason)0; /* PETSc 3.19 names it PCRICHARDSON_NOT_SET */

static PetscErrorCode RichOff(PC pc, const char *why)
{
  HJMGRichGraph *r = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->rg;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(r->off, why, sizeof(r->off)));
  r->state = HJMG_GRAPH_OFF;
  PetscCall(PetscInfo(pc, "Richardson iteration by PCMG's path, not recorded: %s\n", why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGRichardsonReset(PC pc)
{
  HJMGRichGraph *r = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->rg;

  PetscFunctionBegin;
  for (void *&rec : r->rec)
    if (r->ops && r->ops->forget) PetscCall((*r->ops->forget)(&rec));
  PetscCall(PetscFree(r->sig));
  PetscCall(PetscMemzero(r, sizeof(*r)));
  r->state = HJMG_GRAPH_FIRST;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* level l's smoothing by k (PCMGMCycle_Private's pre- and post-smoothing) */
static PetscErrorCode Smooth(PC pc, PC_MG_Levels *lev, KSP k)
{
  PetscFunctionBegin;
  if (lev->eventsmoothsolve) PetscCall(PetscLogEventBegin(lev->eventsmoothsolve, 0, 0, 0, 0));
  PetscCall(KSPSolve(k, lev->b, lev->x));
  PetscCall(KSPCheckSolve(k, pc, lev->x));
  if (lev->eventsmoothsolve) PetscCall(PetscLogEventEnd(lev->eventsmoothsolve, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the first part of level l's cycle: its pre-smoothing and, above the coarsest, its residual */
static PetscErrorCode Down(PC pc, PetscInt l)
{
  PC_MG_Levels *lev = ((PC_MG *)pc->data)->levels[l];

  PetscFunctionBegin;
  PetscCall(Smooth(pc, lev, lev->smoothd));
  if (l == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (lev->eventresidual) PetscCall(PetscLogEventBegin(lev->eventresidual, 0, 0, 0, 0));
  PetscCall((*lev->residual)(lev->A, lev->b, lev->x, lev->r));
  if (lev->eventresidual) PetscCall(PetscLogEventEnd(lev->eventresidual, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Cycle(PC, PetscInt);

/* the rest of level l's cycle (l >= 1): its residual restricted, the coarser levels' cycles from zero (one on level 1,
   the level's cycles above), the correction interpolated, the post-smoothing */
static PetscErrorCode Up(PC pc, PetscInt l)
{
  PC_MG_Levels *lev = ((PC_MG *)pc->data)->levels[l], *c = ((PC_MG *)pc->data)->levels[l - 1];
  PetscInt      cycles = l == 1 ? 1 : (PetscInt)lev->cycles;

  PetscFunctionBegin;
  if (lev->eventinterprestrict) PetscCall(PetscLogEventBegin(lev->eventinterprestrict, 0, 0, 0, 0));
  PetscCall(MatRestrict(lev->restrct, lev->r, c->b));
  if (lev->eventinterprestrict) PetscCall(PetscLogEventEnd(lev->eventinterprestrict, 0, 0, 0, 0));
  PetscCall(VecZeroEntries(c->x));
  while (cycles--) PetscCall(Cycle(pc, l - 1));
  if (lev->eventinterprestrict) PetscCall(PetscLogEventBegin(lev->eventinterprestrict, 0, 0, 0, 0));
  PetscCall(MatInterpolateAdd(lev->interpolate, c->x, lev->x, lev->x));
  if (lev->eventinterprestrict) PetscCall(PetscLogEventEnd(lev->eventinterprestrict, 0, 0, 0, 0));
  PetscCall(Smooth(pc, lev, lev->smoothu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Cycle(PC pc, PetscInt l)
{
  PetscFunctionBegin;
  PetscCall(Down(pc, l));
  if (l > 0) PetscCall(Up(pc, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the part (0: Down, 1: Up) of the finest level's cycle; with the recording's backend on its stream, recorded or run */
static PetscErrorCode Part(PC pc, int part, PetscInt top, PetscBool onrec, PetscBool record, PetscBool *ok)
{
  HJMGRichGraph *r = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->rg;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (!onrec) {
    PetscCall(part ? Up(pc, top) : Down(pc, top));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall((*r->ops->recordbegin)(&r->rec[part], record));
  ierr = part ? Up(pc, top) : Down(pc, top);
  PetscCall((*r->ops->recordend)(r->rec[part], record, ok));
  PetscCheck(ierr == PETSC_SUCCESS, PetscObjectComm((PetscObject)pc), PETSC_ERR_LIB, "PCHJMG: the Richardson iteration's V-cycle could not be %s on the recording's stream (the call above failed); -pc_hjmg_graph false keeps PCMG's path", record ? "recorded" : "run");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Replay(PC pc, int part)
{
  HJMGRichGraph *r = &((PC_HJMG *)((PC_MG *)pc->data)->innerctx)->rg;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(HJMG_Graph, pc, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCall((*r->ops->replay)(r->rec[part]));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogEventEnd(HJMG_Graph, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's test after the finest level's residual (PCMGMCycle_Private): *reason set when ||r|| meets mg->ttol */
static PetscErrorCode Test(PC pc, PC_MG_Levels *fine, PCRichardsonConvergedReason *reason)
{
  PC_MG    *mg = (PC_MG *)pc->data;
  PetscReal rnorm;

  PetscFunctionBegin;
  if (!mg->ttol) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecNorm(fine->r, NORM_2, &rnorm));
  if (rnorm <= mg->ttol) {
    *reason = rnorm < mg->abstol ? PCRICHARDSON_CONVERGED_ATOL : PCRICHARDSON_CONVERGED_RTOL;
    PetscCall(PetscInfo(pc, "Linear solver has converged. Residual norm %g is less than %s %g\n", (double)rnorm, rnorm < mg->abstol ? "the absolute tolerance" : "the relative tolerance times the initial residual norm", (double)(rnorm < mg->abstol ? mg->abstol : mg->ttol)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether this call's iteration can be recorded (why not), beyond HJMGGraphEligible */
static PetscErrorCode RichEligible(PC pc, Vec b, Vec x, const HJBackendOps **ops, char buf[], size_t len, const char **why)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;

  PetscFunctionBegin;
  PetscCall(HJMGGraphEligible(pc, b, x, ops, buf, len, why));
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);
  if (mg->am != PC_MG_MULTIPLICATIVE) *why = "the cycle is not multiplicative";
  else if (n < 2) *why = "one level";
  for (PetscInt l = 0; l < n && !*why; l++) {
    PetscErrorCode (*f)(PC, PetscBool *) = NULL;
    for (KSP k : {mg->levels[l]->smoothd, mg->levels[l]->smoothu}) {
      PC kpc;

      if (!k || f) continue;
      PetscCall(KSPGetPC(k, &kpc));
      PetscCall(PetscObjectQueryFunction((PetscObject)kpc, "PCPreSolveChangeRHS_C", &f));
    }
    if (f) *why = "a smoother's PC changes the right-hand side before its solve";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend that records from now on; recordings of another one are forgotten by their own */
static PetscErrorCode RichUse(HJMGRichGraph *r, const HJBackendOps *ops)
{
  PetscFunctionBegin;
  if (r->ops != ops && r->ops && r->ops->forget)
    for (void *&rec : r->rec) PetscCall((*r->ops->forget)(&rec));
  r->ops = ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the state for this call: OFF runs PCMG's iteration; FIRST and RECORD record if this call allows it (else OFF); a
   REPLAY whose recording no longer holds records again or, when what changed is refused, goes OFF */
static PetscErrorCode RichState(PC pc, Vec b, Vec x)
{
  PC_HJMG            *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  HJMGRichGraph      *r  = &hm->rg;
  const char         *why;
  char                buf[256];
  const HJBackendOps *ops;

  PetscFunctionBegin;
  if (!hm->graph && r->state != HJMG_GRAPH_OFF) PetscCall(RichOff(pc, "-pc_hjmg_graph false"));
  if (r->state == HJMG_GRAPH_OFF) PetscFunctionReturn(PETSC_SUCCESS);
  if (r->state == HJMG_GRAPH_REPLAY) {
    PetscInt  n;
    PetscBool same = PETSC_FALSE;

    PetscCall(HJMGGraphSignature(pc, NULL, &n));
    if (n == r->nsig) {
      PetscCall(HJMGGraphSignature(pc, r->sig + n, &n));
      PetscCall(PetscArraycmp(r->sig + n, r->sig, n, &same));
    }
    if (same) { /* the arrays */
      const PetscScalar *ba;
      PetscScalar       *xa;
      PetscMemType       mt;

      PetscCall(VecGetArrayReadAndMemType(b, &ba, &mt));
      PetscCall(VecGetArrayAndMemType(x, &xa, &mt));
      same = (PetscBool)((const void *)ba == r->barr && (void *)xa == r->xarr);
      PetscCall(VecRestoreArrayAndMemType(x, &xa));
      PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
    }
    if (same) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscInfo(pc, "the Richardson iteration's vectors, a level's operator or a smoother changed since its V-cycle was recorded: recording again\n"));
  }
  PetscCall(RichEligible(pc, b, x, &ops, buf, sizeof(buf), &why));
  if (why) PetscCall(RichOff(pc, why));
  else {
    PetscCall(RichUse(r, ops));
    r->state = HJMG_GRAPH_RECORD;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RECORD, at an iteration from x: the two parts run on the recordings' streams (what is made at first use is made
   there), x kept, the run's result kept as the reference, the parts recorded and replayed from the kept x, the replay
   compared with the reference; *reason set when the run's test met the tolerance (nothing recorded: RECORD stays) */
static PetscErrorCode RichRecord(PC pc, PetscInt top, Vec b, Vec x, PCRichardsonConvergedReason *reason)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  HJMGRichGraph *r  = &((PC_HJMG *)mg->innerctx)->rg;
  Vec            x0, ref;
  PetscBool      ok0, ok1;
  PetscInt       before, after;
  PetscReal      diff = 0, size = 0;
  char           why[256];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(HJMG_Record, pc, b, x, 0));
  PetscCall(VecDuplicate(x, &x0));
  PetscCall(VecCopy(x, x0));
  PetscCall(Part(pc, 0, top, PETSC_TRUE, PETSC_FALSE, &ok0));
  PetscCall(Test(pc, mg->levels[top], reason));
  if (*reason) {
    PetscCall(VecDestroy(&x0));
    PetscCall(PetscLogEventEnd(HJMG_Record, pc, b, x, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Part(pc, 1, top, PETSC_TRUE, PETSC_FALSE, &ok1));
  PetscCall(VecDuplicate(x, &ref));
  PetscCall(VecCopy(x, ref));
  PetscCall(VecCopy(x0, x));
  /* no norm of x known while recording: KSPSolve takes a cached zero norm for a zero initial guess (the start of a
     solve), and the recording would then never read x */
  PetscCall(PetscObjectStateIncrease((PetscObject)x));
  PetscCall(HJMGLevelsFallbacks(pc, &before));
  PetscCall(Part(pc, 0, top, PETSC_TRUE, PETSC_TRUE, &ok0));
  PetscCall(Part(pc, 1, top, PETSC_TRUE, PETSC_TRUE, &ok1));
  PetscCall(HJMGLevelsFallbacks(pc, &after));
  if (!ok0 || !ok1) PetscCall(RichOff(pc, "the capture was invalidated (a level's work synchronizes with the host or allocates)"));
  else if (after != before) PetscCall(RichOff(pc, "a level's residual or transfer ran PETSc's product, which the recording does not hold"));
  else {
    PetscCall((*r->ops->replay)(r->rec[0]));
    PetscCall((*r->ops->replay)(r->rec[1]));
    PetscCall(PetscObjectStateIncrease((PetscObject)x)); /* written on the device: no cached norm holds */
    PetscCall(VecWAXPY(x0, -1.0, x, ref));               /* ref - replay (x0 is free again) */
    PetscCall(VecNorm(x0, NORM_INFINITY, &diff));
    PetscCall(VecNorm(x, NORM_INFINITY, &size));
    if (!(diff <= 1e3 * PETSC_MACHINE_EPSILON * size)) {
      PetscCall(PetscSNPrintf(why, sizeof(why), "a replay of the recording differed from PCMG's path by %g (relative, max norm): some level's work runs outside PETSc's current stream", size > 0 ? (double)(diff / size) : (double)diff));
      PetscCall(RichOff(pc, why));
    }
  }
  if (r->state == HJMG_GRAPH_OFF) PetscCall(VecCopy(ref, x)); /* the run's V-cycle */
  else {
    const PetscScalar *ba;
    PetscScalar       *xa;
    PetscMemType       mt;

    PetscCall(PetscFree(r->sig));
    PetscCall(HJMGGraphSignature(pc, NULL, &r->nsig));
    PetscCall(PetscMalloc1(2 * r->nsig, &r->sig));
    PetscCall(HJMGGraphSignature(pc, r->sig, &r->nsig));
    PetscCall(VecGetArrayReadAndMemType(b, &ba, &mt));
    PetscCall(VecGetArrayAndMemType(x, &xa, &mt));
    r->barr = ba;
    r->xarr = xa;
    PetscCall(VecRestoreArrayAndMemType(x, &xa));
    PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
    r->nrecord++;
    r->nreplay++;
    r->state = HJMG_GRAPH_REPLAY;
    PetscCall(PetscInfo(pc, "Richardson iteration's V-cycle recorded in two parts: a replay matches PCMG's path to %g (relative)\n", size > 0 ? (double)(diff / size) : (double)diff));
  }
  PetscCall(VecDestroy(&ref));
  PetscCall(VecDestroy(&x0));
  PetscCall(PetscLogEventEnd(HJMG_Record, pc, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGRichardson(PC pc, Vec b, Vec x, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool zeroguess, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  PC_HJMG       *hm = (PC_HJMG *)mg->innerctx;
  HJMGRichGraph *r  = &hm->rg;
  PC_MG_Levels **lv;
  PetscInt       n, top, i;

  PetscFunctionBegin;
  PetscCall(RichState(pc, b, x)); /* (the first call after a setup records: its first V-cycle runs before the recording, so what is made at first use is made then) */
  if (r->state == HJMG_GRAPH_OFF) {
    PetscCall((*hm->applyrichardson)(pc, b, x, w, rtol, abstol, dtol, its, zeroguess, outits, reason));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* PCApplyRichardson_MG's preparation */
  lv  = mg->levels;
  n   = lv[0]->levels;
  top = n - 1;
  for (PetscInt l = 0; l < n; l++)
    if (!lv[l]->A) {
      PetscCall(KSPGetOperators(lv[l]->smoothu, &lv[l]->A, NULL));
      PetscCall(PetscObjectReference((PetscObject)lv[l]->A));
    }
  PetscCall(VecDestroy(&lv[top]->b)); /* (no smoother changes the right-hand side: RichEligible) */
  lv[top]->b = b;
  lv[top]->x = x;
  mg->rtol   = rtol;
  mg->abstol = abstol;
  mg->dtol   = dtol;
  if (rtol) {
    PetscReal rnorm;

    if (zeroguess) PetscCall(VecNorm(b, NORM_2, &rnorm));
    else {
      PetscCall((*lv[top]->residual)(lv[top]->A, b, x, w));
      PetscCall(VecNorm(w, NORM_2, &rnorm));
    }
    mg->ttol = PetscMax(rtol * rnorm, abstol);
  } else mg->ttol = abstol ? abstol : 0.0;
  for (PetscInt l = 1; l < n; l++) { /* the smoothers solve the whole system: no stop on a small residual */
    PetscCall(KSPSetTolerances(lv[l]->smoothu, 0, HJ_TOL_KEEP, HJ_TOL_KEEP, HJ_TOL_KEEP));
    if (lv[l]->smoothu != lv[l]->smoothd) {
      PetscCall(KSPSetInitialGuessNonzero(lv[l]->smoothd, PETSC_TRUE));
      PetscCall(KSPSetTolerances(lv[l]->smoothd, 0, HJ_TOL_KEEP, HJ_TOL_KEEP, HJ_TOL_KEEP));
    }
  }
  *reason = kNotSet;
  for (i = 0; i < its; i++) {
    PetscBool ok;

    if (r->state == HJMG_GRAPH_RECORD) PetscCall(RichRecord(pc, top, b, x, reason));
    else {
      PetscCall(Replay(pc, 0));
      PetscCall(PetscObjectStateIncrease((PetscObject)x)); /* written on the device: no cached norm holds */
      PetscCall(PetscObjectStateIncrease((PetscObject)lv[top]->r));
      PetscCall(Test(pc, lv[top], reason));
      if (!*reason) {
        PetscCall(Replay(pc, 1));
        PetscCall(PetscObjectStateIncrease((PetscObject)x)); /* written on the device: no cached norm holds */
        r->nreplay++;
      }
    }
    if (*reason) break;
    if (r->state == HJMG_GRAPH_OFF) { /* the recording was refused: PCMG's cycles from here (the same iterates) */
      for (i++; i < its && !*reason; i++) {
        PetscCall(Part(pc, 0, top, PETSC_FALSE, PETSC_FALSE, &ok));
        PetscCall(Test(pc, lv[top], reason));
        if (!*reason) PetscCall(Part(pc, 1, top, PETSC_FALSE, PETSC_FALSE, &ok));
        else break;
      }
      break;
    }
  }
  if (*reason == kNotSet) *reason = PCRICHARDSON_CONVERGED_ITS;
  *outits    = i;
  lv[top]->b = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGRichardsonView(PC pc, PetscViewer viewer)
{
  PC_HJMG       *hm = (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
  HJMGRichGraph *r  = &hm->rg;

  PetscFunctionBegin;
  if (!hm->graph) PetscFunctionReturn(PETSC_SUCCESS);
  if (pc->ops->applyrichardson && pc->ops->applyrichardson != HJMGRichardson) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: Richardson iteration (-ksp_type richardson) by PCMG's path until the next setup (PCMGSetType() since the last one)\n"));
  else if (r->state == HJMG_GRAPH_OFF) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: Richardson iteration (-ksp_type richardson) by PCMG's path, not recorded (%s)\n", r->off));
  else if (r->state == HJMG_GRAPH_REPLAY)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: Richardson iteration's V-cycles recorded by the %s backend in two parts and replayed: %" PetscInt_FMT " V-cycles replayed, %" PetscInt_FMT " recordings\n", r->ops->name, r->nreplay, r->nrecord));
  PetscFunctionReturn(PETSC_SUCCESS);
}
