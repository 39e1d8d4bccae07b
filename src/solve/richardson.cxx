/* PCApplyRichardson of PCHJACOBI (doc/algorithm.md "PCApplyRichardson"): its Richardson iterations of c cycles each,
   and the tolerances of the KSP that is solving when it asks for a convergence test. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petsc/private/kspimpl.h> /* ksp->rnorm: KSPGetResidualNorm() after the fast path */

/* How the PC knows whether KSP wants a convergence test.
   KSPRICHARDSON takes this fast path when its convergence test is KSPConvergedDefault or KSPConvergedSkip (and there is
   no monitor, no null space, scale 1: rich.c:61 in PETSc 3.18.5, rich.c:60 in 3.22) and passes ksp->rtol, ksp->abstol
   and ksp->divtol in both cases, so the arguments cannot tell the two apart: PCMG's smoothers (KSPConvergedSkip and
   KSP_NORM_NONE, mg.c:396-400 in 3.18.5, mg.c:411-415 in 3.22) still carry the default rtol 1e-5, while
   KSPSetTolerances(ksp, 0, 0, ...) is a legitimate request for "run max_it". What the PC does see is the KSP itself:
   KSPSolve() calls PCPreSolve(pc, ksp) before the solve and PCPostSolve() after it (itfunc.c:869/920 in 3.18.5,
   870/921 in 3.22). hjacobi records that KSP (borrowed, no reference: the KSP owns the PC) and tests only when its
   convergence test is KSPConvergedDefault and its norm type is not KSP_NORM_NONE. A PCApplyRichardson() called
   outside a KSPSolve (no KSP recorded) runs its iterations, as before. PCPreSolve allows two nested solves on one PC
   (a Chebyshev eigenvalue estimate shares its KSP's PC), hence the two-entry stack. */
static PetscErrorCode PCPreSolve_HJacobi(PC pc, KSP ksp, Vec b, Vec x)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(hj->nsolving < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "PCHJACOBI: more than two nested solves on one PC");
  hj->solving[hj->nsolving++] = ksp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCPostSolve_HJacobi(PC pc, KSP ksp, Vec b, Vec x)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (hj->nsolving > 0) hj->solving[--hj->nsolving] = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the KSP that is solving with this PC, if it wants KSPConvergedDefault's test on a norm */
static PetscErrorCode TestingKSP(PC pc, KSP *ksp)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  KSP         k  = hj->nsolving ? hj->solving[hj->nsolving - 1] : NULL;

  PetscFunctionBegin;
  *ksp = NULL;
  if (k) {
    PetscErrorCode (*test)(KSP, PetscInt, PetscReal, KSPConvergedReason *, void *);
    void       *ctx;
    KSPNormType nt;
    PC          kpc;
    PetscCall(KSPGetPC(k, &kpc));
    PetscCall(KSPGetConvergenceTest(k, &test, &ctx, NULL));
    PetscCall(KSPGetNormType(k, &nt));
    if (kpc == pc && test == KSPConvergedDefault && nt != KSP_NORM_NONE) *ksp = k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - A y|| with the Amat, as KSP's generic loop forms the residual */
static PetscErrorCode TrueResidualNorm(PC pc, Vec b, Vec y, Vec r, PetscReal *rnorm)
{
  PetscFunctionBegin;
  PetscCall(MatMult(pc->mat, y, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, rnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPConvergedDefault's decision for the unpreconditioned norm (iterativ.c:1378-1466 in 3.18.5): converged below
   max(rtol * rnorm0, abstol), diverged above dtol * rnorm0, NaN/Inf diverged; rnorm0 = ||b|| (or the initial residual
   norm when b = 0), which is also what it uses with a nonzero initial guess. */
static KSPConvergedReason Decide(PetscReal rnorm, PetscReal rnorm0, PetscReal rtol, PetscReal abstol, PetscReal dtol)
{
  if (PetscIsInfOrNanReal(rnorm)) return KSP_DIVERGED_NANORINF;
  if (rnorm <= PetscMax(rtol * rnorm0, abstol)) return rnorm < abstol ? KSP_CONVERGED_ATOL : KSP_CONVERGED_RTOL;
  if (rnorm >= dtol * rnorm0) return KSP_DIVERGED_DTOL;
  return KSP_CONVERGED_ITERATING;
}

/* its Richardson iterations from y, each c cycles: one cycle is the affine map x' = x + N (b - A x), so c cycles from
   y equal y + PCApply(b - A y), the iterates of KSPRICHARDSON's generic loop. With a testing KSP the true residual is
   checked before the first iteration and after every m iterations (m = -pc_hjacobi_richardson_check) and at the last;
   the solve stops at the first check that meets a tolerance, so at most m - 1 iterations after the generic loop
   would. Whatever the KSP's norm type, the norm tested is the unpreconditioned one (a preconditioned norm costs a
   PCApply per check and, with even k and omega = 1, can be small while the error is not). */
static PetscErrorCode PCApplyRichardson_HJacobi(PC pc, Vec b, Vec y, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PC_HJacobi        *hj = (PC_HJacobi *)pc->data;
  KSP                ksp;
  Vec                r = w;
  PetscReal          rnorm, rnorm0;
  PetscInt           done = 0;
  KSPConvergedReason kr;

  PetscFunctionBegin;
  PetscCall(TestingKSP(pc, &ksp));
  if (!ksp) { /* no test asked for (PCMG smoother, KSPConvergedSkip, a direct call): norm-free */
    PetscCall(HJBackendCycles(pc, &hj->sw.st, b, y, its * hj->cycles, guesszero));
    *outits = its;
    *reason = PCRICHARDSON_CONVERGED_ITS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!r || r == b || r == y) PetscCall(VecDuplicate(b, &r));
  PetscCall(VecNorm(b, NORM_2, &rnorm0));
  if (guesszero) rnorm = rnorm0;
  else PetscCall(TrueResidualNorm(pc, b, y, r, &rnorm));
  if (rnorm0 == 0.0) rnorm0 = rnorm;
  kr = Decide(rnorm, rnorm0, rtol, abstol, dtol);
  while (kr == KSP_CONVERGED_ITERATING && done < its) {
    const PetscInt n = PetscMin(hj->richcheck, its - done);
    PetscCall(HJBackendCycles(pc, &hj->sw.st, b, y, n * hj->cycles, (PetscBool)(guesszero && done == 0)));
    done += n;
    PetscCall(TrueResidualNorm(pc, b, y, r, &rnorm));
    kr = Decide(rnorm, rnorm0, rtol, abstol, dtol);
  }
  if (kr == KSP_CONVERGED_ITERATING) kr = KSP_DIVERGED_ITS; /* as the generic loop with a norm test at max_it */
  if (r != w) PetscCall(VecDestroy(&r));
  PetscCall(PetscInfo(pc, "Richardson with a true-residual test every %" PetscInt_FMT " iterations: %s after %" PetscInt_FMT " iterations, residual norm %g, initial %g\n", hj->richcheck, KSPConvergedReasons[kr], done, (double)rnorm, (double)rnorm0));
  ksp->rnorm = rnorm; /* what the generic loop leaves for KSPGetResidualNorm() (here the true residual norm) */
  *outits    = done;
  *reason    = (PCRichardsonConvergedReason)kr; /* KSPSolve_Richardson casts it back to KSPConvergedReason */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJRichardsonInstall(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  hj->richcheck            = 4;
  pc->ops->applyrichardson = PCApplyRichardson_HJacobi;
  pc->ops->presolve        = PCPreSolve_HJacobi;
  pc->ops->postsolve       = PCPostSolve_HJacobi;
  PetscFunctionReturn(PETSC_SUCCESS);
}
