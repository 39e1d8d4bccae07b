static const char help[] = "KSPRICHARDSON + PCHJACOBI honours the KSP's tolerances (PCApplyRichardson with a true-residual check every m\n"
                           "iterations), checked against KSPRICHARDSON's generic loop (forced by a convergence test of the test's own,\n"
                           "which computes the true residual of every iterate): the stopping iteration is the first multiple of m at or\n"
                           "after the generic loop's, the iterate is the generic loop's at that iteration, reasons RTOL, ATOL, DTOL,\n"
                           "DIVERGED_ITS; with b = 0 and a nonzero guess rtol is relative to the initial residual (as KSPConvergedDefault);\n"
                           "with KSPConvergedSkip, or KSP_NORM_NONE, exactly max_it iterations and no norm.\n"
                           "  -rtol r (1e-3), plus the operator options of test_reference and -pc_hjacobi_* (-pc_hjacobi_richardson_check m)\n";

#include "hjtest.h"

static PetscInt  nchecks, nfail;
static PetscReal tol = 1e-12;

typedef struct {
  PetscReal bnorm, rtol;
  PetscInt  stopat; /* >= 0: run exactly this many iterations; else stop on rtol in the true residual */
} RefCtx;

/* the generic loop's test, written here: with KSP_NORM_UNPRECONDITIONED, rnorm is ||b - A x_n|| */
static PetscErrorCode RefTest(KSP ksp, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *vctx)
{
  RefCtx *ctx = (RefCtx *)vctx;

  PetscFunctionBeginUser;
  *reason = KSP_CONVERGED_ITERATING;
  if (ctx->stopat >= 0) {
    if (n >= ctx->stopat) *reason = KSP_CONVERGED_ITS;
  } else if (rnorm <= ctx->rtol * ctx->bnorm) *reason = KSP_CONVERGED_RTOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Check(MPI_Comm comm, PetscBool ok, const char *what, const char *fmt, PetscInt a, PetscInt b, double v)
{
  char line[512];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(line, sizeof(line), fmt, a, b, v));
  PetscCall(PetscPrintf(comm, "hjtest %s %s: %s\n", ok ? "PASS" : "FAIL", what, line));
  nchecks++;
  if (!ok) nfail++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeKSP(Mat A, PetscBool ref, KSP *ksp)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetFromOptions(pc));
  if (ref) PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the generic loop from x0 (NULL: zero): stop on rtol (stopat < 0) or after stopat iterations */
static PetscErrorCode Reference(Mat A, Vec b, Vec x0, RefCtx *ctx, Vec x, PetscInt *its)
{
  KSP ksp;

  PetscFunctionBeginUser;
  PetscCall(MakeKSP(A, PETSC_TRUE, &ksp));
  PetscCall(KSPSetConvergenceTest(ksp, RefTest, ctx, NULL));
  PetscCall(KSPSetTolerances(ksp, 0, 0, 1e10, 100000));
  if (x0) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the fast path: KSPConvergedDefault with (rtol, abstol, dtol, maxit), or KSPConvergedSkip */
static PetscReal lastrnorm; /* KSPGetResidualNorm() after the last Fast() */

static PetscErrorCode Fast(Mat A, Vec b, Vec x0, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt maxit, PetscBool skip, Vec x, PetscInt *its, KSPConvergedReason *reason, PetscInt *m)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(MakeKSP(A, PETSC_FALSE, &ksp));
  PetscCall(KSPSetTolerances(ksp, rtol, abstol, dtol, maxit));
  if (skip) PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetFromOptions(ksp)); /* -ksp_norm_type none (main() sets it for one solve) */
  if (x0) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPGetResidualNorm(ksp, &lastrnorm));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCHJacobiGetRichardsonCheck(pc, m));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RelResidual(Mat A, Vec b, Vec x, PetscReal bnorm, PetscReal *rel)
{
  Vec r;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, rel));
  *rel /= bnorm;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* with rtol: the fast path stops at the first multiple of m at or after the generic loop's stop, with its iterate.
   rtol is relative to ||b||, or with b = 0 to the initial residual ||A x0|| (KSPConvergedDefault's special case). */
static PetscErrorCode CheckRtol(HJProblem *p, Mat A, Vec b, Vec x0, PetscReal rtol, const char *what)
{
  RefCtx             ctx;
  Vec                xf, xr;
  PetscInt           itsref, its, m, want;
  KSPConvergedReason reason;
  PetscReal          rel, diff;
  char               name[256];

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &xf));
  PetscCall(VecDuplicate(b, &xr));
  PetscCall(VecNorm(b, NORM_2, &ctx.bnorm));
  if (ctx.bnorm == 0) {
    PetscCheck(x0, p->comm, PETSC_ERR_ARG_WRONG, "[hjtest] b = 0 and a zero guess: nothing to solve");
    PetscCall(MatMult(A, x0, xf));
    PetscCall(VecNorm(xf, NORM_2, &ctx.bnorm));
  }
  ctx.rtol   = rtol;
  ctx.stopat = -1;
  PetscCall(Reference(A, b, x0, &ctx, xr, &itsref));
  PetscCall(Fast(A, b, x0, rtol, 1e-50, 1e10, 100000, PETSC_FALSE, xf, &its, &reason, &m));
  want = ((itsref + m - 1) / m) * m;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s: stops at the first check after the generic loop's stop", what));
  PetscCall(Check(p->comm, (PetscBool)(reason == KSP_CONVERGED_RTOL && its == want), name, "%" PetscInt_FMT " iterations, expected %" PetscInt_FMT " (reason CONVERGED_RTOL), %g", its, want, (double)reason));
  PetscCall(RelResidual(A, b, xf, ctx.bnorm, &rel));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s: true relative residual below rtol", what));
  PetscCall(Check(p->comm, (PetscBool)(rel <= rtol), name, "iterations %" PetscInt_FMT ", generic loop %" PetscInt_FMT ", residual %.3e", its, itsref, (double)rel));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s: KSPGetResidualNorm() is the true residual norm", what));
  PetscCall(HJReport(p->comm, name, PetscAbsReal(lastrnorm / ctx.bnorm - rel) / rel, 1e-10, PETSC_TRUE, &nchecks, &nfail));
  ctx.stopat = its; /* the generic loop's iterate at the same iteration */
  PetscCall(Reference(A, b, x0, &ctx, xr, &itsref));
  PetscCall(HJCompareVec(xf, xr, &diff));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s: iterate equals the generic loop's", what));
  PetscCall(HJReport(p->comm, name, diff, tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecDestroy(&xf));
  PetscCall(VecDestroy(&xr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem          p;
  Mat                A;
  Vec                b, x0, x, xr;
  PetscReal          rtol = 1e-3, bnorm, diff;
  PetscInt           its, itsref, m, maxit;
  KSPConvergedReason reason;
  RefCtx             ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 5, A));
  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &xr));
  PetscCall(HJProblemFillVec(&p, 31, b));
  PetscCall(HJProblemFillVec(&p, 32, x0));
  PetscCall(VecNorm(b, NORM_2, &bnorm));

  PetscCall(CheckRtol(&p, A, b, NULL, rtol, "zero guess"));
  PetscCall(CheckRtol(&p, A, b, x0, rtol, "nonzero guess"));
  { /* b = 0: rtol relative to the initial residual, not DIVERGED_DTOL at 0 iterations */
    Vec z;
    PetscCall(VecDuplicate(b, &z));
    PetscCall(VecZeroEntries(z));
    PetscCall(CheckRtol(&p, A, z, x0, rtol, "b = 0, nonzero guess"));
    PetscCall(VecDestroy(&z));
  }

  /* max_it before convergence: DIVERGED_ITS after max_it iterations, as the generic loop with a norm test */
  ctx.bnorm  = bnorm;
  ctx.rtol   = rtol;
  ctx.stopat = -1;
  PetscCall(Reference(A, b, NULL, &ctx, xr, &itsref));
  maxit = PetscMax(1, itsref / 2 + 1);
  PetscCall(Fast(A, b, NULL, rtol, 1e-50, 1e10, maxit, PETSC_FALSE, x, &its, &reason, &m));
  PetscCall(Check(p.comm, (PetscBool)(reason == KSP_DIVERGED_ITS && its == maxit), "max_it before rtol: DIVERGED_ITS at max_it", "%" PetscInt_FMT " iterations, max_it %" PetscInt_FMT ", reason %g", its, maxit, (double)reason));
  /* abstol met first: CONVERGED_ATOL */
  PetscCall(Fast(A, b, NULL, 1e-30, 0.5 * bnorm, 1e10, 100000, PETSC_FALSE, x, &its, &reason, &m));
  PetscCall(Check(p.comm, (PetscBool)(reason == KSP_CONVERGED_ATOL && its >= 1 && its % m == 0), "abstol: CONVERGED_ATOL at a check", "%" PetscInt_FMT " iterations, check every %" PetscInt_FMT ", reason %g", its, m, (double)reason));
  /* an initial guess far worse than zero with dtol 10: DIVERGED_DTOL before any iteration */
  PetscCall(VecScale(x0, 1e3));
  PetscCall(Fast(A, b, x0, rtol, 1e-50, 10, 100000, PETSC_FALSE, x, &its, &reason, &m));
  PetscCall(Check(p.comm, (PetscBool)(reason == KSP_DIVERGED_DTOL && its == 0), "dtol: DIVERGED_DTOL", "%" PetscInt_FMT " iterations (expected %" PetscInt_FMT "), reason %g", its, (PetscInt)0, (double)reason));
  PetscCall(VecScale(x0, 1e-3));
  /* KSPConvergedSkip (the PCMG smoother's test): exactly max_it iterations, the generic loop's iterate */
  maxit = 7;
  PetscCall(Fast(A, b, x0, rtol, 1e-50, 1e10, maxit, PETSC_TRUE, x, &its, &reason, &m));
  PetscCall(Check(p.comm, (PetscBool)(reason == KSP_CONVERGED_ITS && its == maxit), "KSPConvergedSkip: max_it iterations", "%" PetscInt_FMT " iterations, max_it %" PetscInt_FMT ", reason %g", its, maxit, (double)reason));
  ctx.stopat = maxit;
  PetscCall(Reference(A, b, x0, &ctx, xr, &itsref));
  PetscCall(HJCompareVec(x, xr, &diff));
  PetscCall(HJReport(p.comm, "KSPConvergedSkip: iterate equals the generic loop's", diff, tol, PETSC_TRUE, &nchecks, &nfail));
  /* KSP_NORM_NONE (-ksp_norm_type none) with the default test: no norm, exactly max_it iterations (rtol 0.5 would stop
     a tested solve within a few), the generic loop's iterate */
  maxit = 50;
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_norm_type", "none"));
  PetscCall(Fast(A, b, x0, 0.5, 1e-50, 1e10, maxit, PETSC_FALSE, x, &its, &reason, &m));
  PetscCall(PetscOptionsClearValue(NULL, "-ksp_norm_type"));
  PetscCall(Check(p.comm, (PetscBool)(reason == KSP_CONVERGED_ITS && its == maxit), "KSP_NORM_NONE: max_it iterations", "%" PetscInt_FMT " iterations, max_it %" PetscInt_FMT ", reason %g", its, maxit, (double)reason));
  ctx.stopat = maxit;
  PetscCall(Reference(A, b, x0, &ctx, xr, &itsref));
  PetscCall(HJCompareVec(x, xr, &diff));
  PetscCall(HJReport(p.comm, "KSP_NORM_NONE: iterate equals the generic loop's", diff, tol, PETSC_TRUE, &nchecks, &nfail));

  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xr));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
