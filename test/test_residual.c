static const char help[] = "The residual from PCHJACOBI's stencil, \"PCHJacobiResidual_C\": r = b - A x equals MatResidual's (relative 1e-12\n"
                           "in norm and in the largest entry) on random b and x, also with x = b, and after a values-only refresh;\n"
                           "r = b or r = x is an error (PETSC_ERR_ARG_IDN), as in MatResidual; done is false and r untouched before PCSetUp, after MatScale of the Pmat without a\n"
                           "new PCSetUp, when Amat is not the Pmat, and for dof > 1 (where no check of values is made).\n"
                           "-bind_cpu: b, x and r bound to the CPU (a CUDA PC's host fallback). -expect_refused: done must be false after setup too\n"
                           "(host vectors under a device backend: the caller uses MatResidual). Problem options as test_reference.\n";

#include "hjtest.h"

typedef PetscErrorCode (*ResidualFn)(PC, Vec, Vec, Vec, PetscBool *);

static PetscInt  nchecks, nfail;
static PetscReal tol = 1e-12;

/* ||y - ref|| / ||ref|| and max |y - ref| / max |ref| */
static PetscErrorCode Differences(Vec y, Vec ref, PetscReal *nrm, PetscReal *mx)
{
  Vec       d;
  PetscReal nd, nr;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(y, &d));
  PetscCall(VecWAXPY(d, -1.0, ref, y));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(ref, NORM_2, &nr));
  *nrm = nr > 0 ? nd / nr : nd;
  if (PetscIsInfOrNanReal(*nrm)) *nrm = PETSC_MAX_REAL;
  PetscCall(VecDestroy(&d));
  PetscCall(HJCompareVec(y, ref, mx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r from the PC; done must be true and r must equal MatResidual(A, b, x) */
static PetscErrorCode ExpectDone(PC pc, Mat A, Vec b, Vec x, Vec r, const char *what)
{
  ResidualFn f;
  PetscBool  done = PETSC_FALSE;
  Vec        ref;
  PetscReal  nrm = 0, mx = 0;
  char       line[200];

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiResidual_C", &f));
  PetscCheck(f, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] PCHJACOBI composes no PCHJacobiResidual_C");
  PetscCall(VecDuplicate(b, &ref));
  PetscCall(MatResidual(A, b, x, ref));
  PetscCall((*f)(pc, b, x, r, &done));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: done", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, done ? 0.0 : 1.0, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(Differences(r, ref, &nrm, &mx));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: r = MatResidual (norm)", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, nrm, tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: r = MatResidual (largest entry)", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, mx, tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r aliasing b or x: the error MatResidual gives (argument aliasing), and b, x left as they were */
static PetscErrorCode ExpectAliasError(PC pc, Vec b, Vec x, PetscBool rb, const char *what)
{
  ResidualFn     f;
  PetscBool      done = PETSC_FALSE, same;
  PetscErrorCode ierr;
  Vec            v0, v = rb ? b : x;
  char           line[200];

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiResidual_C", &f));
  PetscCall(VecDuplicate(v, &v0));
  PetscCall(VecCopy(v, v0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = (*f)(pc, b, x, v, &done);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: error PETSC_ERR_ARG_IDN", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, ierr == PETSC_ERR_ARG_IDN ? 0.0 : 1.0, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecEqual(v, v0, &same));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: vector untouched", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, same ? 0.0 : 1.0, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecDestroy(&v0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* done must be false and r left as it was */
static PetscErrorCode ExpectRefused(PC pc, Vec b, Vec x, Vec r, const char *what)
{
  ResidualFn f;
  PetscBool  done = PETSC_TRUE, same;
  Vec        r0;
  char       line[200];

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiResidual_C", &f));
  PetscCheck(f, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] PCHJACOBI composes no PCHJacobiResidual_C");
  PetscCall(VecSet(r, 12345.0));
  PetscCall(VecDuplicate(r, &r0));
  PetscCall(VecCopy(r, r0));
  PetscCall((*f)(pc, b, x, r, &done));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: not done", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, done ? 1.0 : 0.0, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecEqual(r, r0, &same));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s: r untouched", what));
  PetscCall(HJReport(PETSC_COMM_WORLD, line, same ? 0.0 : 1.0, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(VecDestroy(&r0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreatePC(Mat Amat, Mat Pmat, PetscBool setup, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)Pmat), pc));
  PetscCall(PCSetType(*pc, PCHJACOBI));
  PetscCall(PCSetOperators(*pc, Amat, Pmat));
  PetscCall(PCSetFromOptions(*pc));
  if (setup) PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem p;
  Mat       A, B;
  PC        pc, pc2;
  Vec       b, x, r;
  PetscBool bind = PETSC_FALSE, refused = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bind_cpu", &bind, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_refused", &refused, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 11, A));
  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  if (bind) {
    PetscCall(VecBindToCPU(b, PETSC_TRUE));
    PetscCall(VecBindToCPU(x, PETSC_TRUE));
    PetscCall(VecBindToCPU(r, PETSC_TRUE));
  }
  PetscCall(HJProblemFillVec(&p, 21, b));
  PetscCall(HJProblemFillVec(&p, 22, x));

  /* before PCSetUp: nothing to compute with */
  PetscCall(CreatePC(A, A, PETSC_FALSE, &pc));
  PetscCall(ExpectRefused(pc, b, x, r, "before PCSetUp"));
  PetscCall(PCSetUp(pc));
  if (p.dof > 1) PetscCall(ExpectRefused(pc, b, x, r, "dof > 1"));
  else {
    if (refused) PetscCall(ExpectRefused(pc, b, x, r, "set up, host vectors under a device backend"));
    else {
      PetscCall(ExpectDone(pc, A, b, x, r, "set up"));
      PetscCall(ExpectDone(pc, A, b, b, r, "x = b"));
    }
  }
  PetscCall(ExpectAliasError(pc, b, x, PETSC_TRUE, "r = b"));
  PetscCall(ExpectAliasError(pc, b, x, PETSC_FALSE, "r = x"));

  /* new values without a new setup: the stencil is stale */
  PetscCall(MatScale(A, 1.5));
  PetscCall(ExpectRefused(pc, b, x, r, "after MatScale without PCSetUp"));
  PetscCall(PCSetUp(pc)); /* a values-only refresh */
  if (p.dof == 1 && !refused) PetscCall(ExpectDone(pc, A, b, x, r, "after MatScale and PCSetUp"));

  /* an operator other than the Pmat */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(CreatePC(B, A, PETSC_TRUE, &pc2));
  PetscCall(ExpectRefused(pc2, b, x, r, "Amat != Pmat"));

  PetscCall(PCDestroy(&pc2));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
