static const char help[] = "Symmetry of PCHJACOBI's PCApply for overlap 0 and a symmetric operator, and KSPCG with it.\n"
                           "  |x'My - y'Mx| / (|x| |My|) on random x, y; then KSPSolve (KSPSetFromOptions: run with -ksp_type cg\n"
                           "  -pc_type hjacobi) must converge (reason > 0) with a small true residual.\n"
                           "  -expect_nonsymmetric: overlap > 0 instead, the asymmetry must be visible (> -tol_nonsym, 1e-8)\n"
                           "  plus the operator options of test_reference (-dim, -n, -kind, ...), -tol t\n";

#include "hjtest.h"

int main(int argc, char **argv)
{
  HJProblem          p;
  HJParams           par;
  Mat                A;
  KSP                ksp;
  PC                 pc;
  Vec                b, x, y, Mx, My, r;
  PetscScalar        xMy, yMx;
  PetscReal          tol = 1e-12, tolns = 1e-8, nx, nMy, asym, nb, nr;
  PetscInt           nchecks = 0, nfail = 0, d, its;
  PetscBool          nonsym = PETSC_FALSE, isk;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol_nonsym", &tolns, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_nonsymmetric", &nonsym, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-symmetric", "1"));

  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 3, A));
  PetscCall(MatIsSymmetric(A, 0.0, &isk));
  PetscCheck(isk, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] the test operator is not symmetric");

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, HJ_TOL_KEEP, HJ_TOL_KEEP, 2000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCHJACOBI, &isk));
  PetscCheck(isk, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] the PC must be hjacobi");
  PetscCall(HJParamsGet(pc, &p, PETSC_TRUE, &par));
  PetscCall(HJProblemView(&p, &par));
  for (d = 0; d < p.dim; d++) PetscCheck(nonsym ? par.o[d] > 0 : par.o[d] == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] run with -pc_hjacobi_overlap 0 (or > 0 with -expect_nonsymmetric)");

  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &Mx));
  PetscCall(VecDuplicate(b, &My));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(HJProblemFillVec(&p, 41, x));
  PetscCall(HJProblemFillVec(&p, 42, y));
  PetscCall(PCApply(pc, x, Mx));
  PetscCall(PCApply(pc, y, My));
  PetscCall(VecTDot(My, x, &xMy)); /* x^T M y: bilinear, also for complex scalars */
  PetscCall(VecTDot(Mx, y, &yMx));
  PetscCall(VecNorm(x, NORM_2, &nx));
  PetscCall(VecNorm(My, NORM_2, &nMy));
  asym = PetscAbsScalar(xMy - yMx) / (nx * nMy);
  PetscCall(HJReport(PETSC_COMM_WORLD, nonsym ? "PCApply visibly nonsymmetric |x'My - y'Mx|/(|x||My|)" : "PCApply symmetric |x'My - y'Mx|/(|x||My|)", asym, nonsym ? tolns : tol, nonsym ? PETSC_FALSE : PETSC_TRUE, &nchecks, &nfail));

  if (!nonsym) {
    PetscCall(HJProblemFillVec(&p, 43, b));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &nr));
    PetscCall(VecNorm(b, NORM_2, &nb));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s KSPSolve: reason %s, %" PetscInt_FMT " iterations, true relative residual %.3e\n", reason > 0 && nr <= 1e-8 * nb ? "PASS" : "FAIL", KSPConvergedReasons[reason], its, (double)(nr / nb)));
    nchecks++;
    if (!(reason > 0 && nr <= 1e-8 * nb)) nfail++;
  }

  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&Mx));
  PetscCall(VecDestroy(&My));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
