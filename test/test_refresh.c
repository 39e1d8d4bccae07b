static const char help[] = "Values-only refresh of PCHJACOBI (the same Pmat, new values): PCApply, PCApplyRichardson and PCApplyTranspose after\n"
                           "the change equal those of a PC set up afresh on the new values (and the literal reference), and differ from the\n"
                           "old ones (a refresh that kept stale values fails). -mode values: same pattern and kind; fits: a box-pattern Pmat\n"
                           "holding star values gets box values (same pattern, the stencil kind must change); pattern: new nonzeros (a new\n"
                           "nonzero state, full extraction). -refreshes n: that many changes in a row. Problem options as test_reference.\n";

#include "hjtest.h"

static PetscInt  nchecks, nfail;
static PetscReal tol = 1e-14;

/* y = PCApply(b), r = 2 Richardson iterations from x0, t = PCApplyTranspose(b) */
static PetscErrorCode Outputs(PC pc, Vec b, Vec x0, Vec y, Vec r, Vec t)
{
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;
  Vec                         w;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &w));
  PetscCall(PCApply(pc, b, y));
  PetscCall(VecCopy(x0, r));
  PetscCall(PCApplyRichardson(pc, b, r, w, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
  PetscCall(PCApplyTranspose(pc, b, t));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreshPC(Mat A, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), pc));
  PetscCall(PCSetType(*pc, PCHJACOBI));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem    p;
  Mat          A;
  PC           pc, fresh;
  Vec          b, x0, y[3], r[3], y0[3];
  HJParams     par;
  HJCSR        csr;
  PetscScalar *bf, *ref;
  PetscReal    rel, dif;
  PetscInt     mode = 0, nref = 2;
  const char  *modes[] = {"values", "fits", "pattern"};
  char         what[160];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-mode", modes, 3, &mode, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-refreshes", &nref, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCheck(mode == 0 || !p.box, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] -mode fits/pattern start from star values (-kind star)");
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 11, A));
  PetscCall(FreshPC(A, &pc));
  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x0));
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecDuplicate(b, &y[i]));
    PetscCall(VecDuplicate(b, &r[i]));
    PetscCall(VecDuplicate(b, &y0[i]));
  }
  PetscCall(HJProblemFillVec(&p, 21, b));
  PetscCall(HJProblemFillVec(&p, 22, x0));
  PetscCall(Outputs(pc, b, x0, y0[0], y0[1], y0[2]));

  for (PetscInt k = 0; k < nref; k++) {
    PetscObjectState nz0, nz1;
    PetscCall(MatGetNonzeroState(A, &nz0));
    if (mode > 0) p.box = PETSC_TRUE; /* box values where star values were: the stencil kind changes at the first change */
    PetscCall(HJProblemAssemble(&p, 77 + k, A));
    PetscCall(MatGetNonzeroState(A, &nz1));
    PetscCheck((nz0 == nz1) == (mode < 2 || k > 0), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] the test meant %s nonzero pattern, but the nonzero state %s", mode < 2 || k > 0 ? "the same" : "a new", nz0 == nz1 ? "stayed" : "changed");
    /* the same PC: PCApply sees the new state and sets up again */
    PetscCall(Outputs(pc, b, x0, y[0], y[1], y[2]));
    PetscCall(FreshPC(A, &fresh));
    PetscCall(Outputs(fresh, b, x0, r[0], r[1], r[2]));
    for (PetscInt i = 0; i < 3; i++) {
      const char *op[] = {"PCApply", "PCApplyRichardson", "PCApplyTranspose"};
      PetscCall(HJCompareVec(y[i], r[i], &rel));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s change %" PetscInt_FMT ": %s after the refresh = a fresh PC's", modes[mode], k + 1, op[i]));
      PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
      PetscCall(HJCompareVec(y[i], y0[i], &dif));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s change %" PetscInt_FMT ": %s differs from before the change", modes[mode], k + 1, op[i]));
      PetscCall(HJReport(PETSC_COMM_WORLD, what, dif, 1e-8, PETSC_FALSE, &nchecks, &nfail));
      PetscCall(VecCopy(y[i], y0[i]));
    }
    /* and against the literal reference (not the library): PCApply = c cycles from zero with the new A */
    PetscCall(HJParamsGet(pc, &p, PETSC_FALSE, &par));
    PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
    PetscCall(HJGatherVec(b, &bf));
    PetscCall(PetscCalloc1(p.N * p.dof, &ref));
    PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, par.c));
    PetscCall(HJCompareRef(y[0], ref, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s change %" PetscInt_FMT ": PCApply = reference", modes[mode], k + 1));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, PetscMax(tol, 1e-12), PETSC_TRUE, &nchecks, &nfail)); /* -tol: single inner precision */
    PetscCall(PetscFree(ref));
    PetscCall(PetscFree(bf));
    PetscCall(HJCSRDestroy(&csr));
    PetscCall(PCDestroy(&fresh));
  }

  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(VecDestroy(&y[i]));
    PetscCall(VecDestroy(&r[i]));
    PetscCall(VecDestroy(&y0[i]));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
