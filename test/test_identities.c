static const char help[] = "Identities of doc/algorithm.md against PETSc's own KSPRICHARDSON + PCJACOBI (damped point-Jacobi sweeps, sweep j damped\n"
                           "by the PC's weight w_j (PCHJacobiGetSweepWeights): constant, chebyshev, chebyshev_squared;\n"
                           "PCPBJACOBI, point-block Jacobi, when the grid has -dof > 1 fields per point).\n"
                           "  -mode jacobi1: subiterations forced to 1; one cycle = one damped Jacobi sweep, any tile/overlap/ranks\n"
                           "  -mode cone:    one rank, overlap/2 >= subiterations k in every dimension; one cycle = k sweeps\n"
                           "  -mode differs: like cone, but the setting (e.g. overlap 0, k > 1) must NOT reproduce k sweeps\n"
                           "  plus the operator options of test_reference (-dim, -n, -kind, ...), -tol t, -rich_its i,j,...\n";

#include "hjtest.h"

/* n iterations of x <- x + w D^{-1} (b - A x) by PETSc's KSPRICHARDSON + PCJACOBI, from x (nonzero) or from 0;
   with a matrix block size > 1 (DMCreateMatrix() on a DMDA with dof > 1) D is block diagonal: PCPBJACOBI */
static PetscErrorCode JacobiSweepsOn(Mat A, PetscReal w, PetscInt n, PetscBool nonzero, Vec b, Vec x)
{
  KSP      ksp;
  PC       pc;
  PetscInt bs;

  PetscFunctionBeginUser;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPRichardsonSetScale(ksp, w));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, bs > 1 ? PCPBJACOBI : PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, HJ_TOL_KEEP, HJ_TOL_KEEP, HJ_TOL_KEEP, n));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same on the host: PCPBJACOBI runs on a host (MATAIJ) copy of A with host vectors when A lives on the GPU (on
   2 ranks with aijcusparse, PETSc 3.22's GPU PCPBJACOBI disagreed with both our backends on an H100, where the
   literal reference agreed with hjacobi; see bench/results/nvidia-h100/README.md) */
static PetscErrorCode JacobiSweeps(Mat A, PetscReal w, PetscInt n, PetscBool nonzero, Vec b, Vec x)
{
  PetscInt  bs, nloc;
  PetscBool host;
  Mat       Ah;
  Vec       bh, xh;

  PetscFunctionBeginUser;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &host, MATSEQAIJ, MATMPIAIJ, ""));
  if (bs == 1 || host) {
    PetscCall(JacobiSweepsOn(A, w, n, nonzero, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &Ah));
  PetscCall(MatSetBlockSize(Ah, bs));
  PetscCall(VecGetLocalSize(x, &nloc));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), nloc, PETSC_DETERMINE, &bh));
  PetscCall(VecDuplicate(bh, &xh));
  for (PetscInt i = 0; i < 2; i++) { /* bh <- b, xh <- x through their host arrays */
    const PetscScalar *src;
    PetscScalar       *dst;
    PetscCall(VecGetArrayRead(i ? x : b, &src));
    PetscCall(VecGetArrayWrite(i ? xh : bh, &dst));
    PetscCall(PetscArraycpy(dst, src, nloc));
    PetscCall(VecRestoreArrayWrite(i ? xh : bh, &dst));
    PetscCall(VecRestoreArrayRead(i ? x : b, &src));
  }
  PetscCall(JacobiSweepsOn(Ah, w, n, nonzero, bh, xh));
  {
    const PetscScalar *src;
    PetscScalar       *dst;
    PetscCall(VecGetArrayRead(xh, &src));
    PetscCall(VecGetArrayWrite(x, &dst));
    PetscCall(PetscArraycpy(dst, src, nloc));
    PetscCall(VecRestoreArrayWrite(x, &dst));
    PetscCall(VecRestoreArrayRead(xh, &src));
  }
  PetscCall(VecDestroy(&bh));
  PetscCall(VecDestroy(&xh));
  PetscCall(MatDestroy(&Ah));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n damped Jacobi sweeps with the PC's per-sweep weights: sweep i (0-based) has the weight of the PC's sweep i mod s
   (s sweeps per cycle; doc/algorithm.md: every cycle runs w_1..w_k); runs of equal weights go to one KSPRICHARDSON */
static PetscErrorCode WeightedSweeps(Mat A, const HJParams *par, PetscInt s, PetscInt n, PetscBool nonzero, Vec b, Vec x)
{
  PetscFunctionBeginUser;
  PetscCheck(s >= 1 && s <= par->k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " sweeps per cycle with %" PetscInt_FMT " weights", s, par->k);
  for (PetscInt i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && par->wts[j % s] == par->wts[i % s]; j++) { }
    PetscCall(JacobiSweeps(A, par->wts[i % s], j - i, (PetscBool)(nonzero || i > 0), b, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char                 *modes[] = {"jacobi1", "cone", "differs"};
  PetscInt                    mode = 0, its[8] = {1, 2}, nits = 8, nchecks = 0, nfail = 0, s, k, outits, d;
  HJProblem                   p;
  HJParams                    par;
  Mat                         A;
  PC                          pc;
  Vec                         b, x0, y, z, work;
  PetscReal                   tol = 1e-12, rel;
  PetscBool                   set, small;
  char                        what[160];
  PCRichardsonConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-mode", modes, 3, &mode, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-rich_its", its, &nits, &set));
  if (!set) nits = 2;
  small = mode == 2 ? PETSC_FALSE : PETSC_TRUE; /* "differs" wants a visible difference */

  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 5, A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  if (mode == 0) { /* the setter after the options wins */
    PetscCall(PCHJacobiSetSubiterations(pc, 1));
    PetscCall(PCHJacobiGetSubiterations(pc, &k));
    PetscCheck(k == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] PCHJacobiGetSubiterations returns %" PetscInt_FMT " after PCHJacobiSetSubiterations(pc, 1)", k);
  }
  PetscCall(PCSetUp(pc));
  PetscCall(HJParamsGet(pc, &p, PETSC_FALSE, &par));
  PetscCall(HJProblemView(&p, &par));
  if (mode != 0) {
    PetscCheck(p.size == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] -mode cone/differs: run on one rank (rank edges freeze halos)");
    for (d = 0; d < p.dim; d++) PetscCheck(mode == 2 || par.o[d] / 2 >= par.k, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] -mode cone needs overlap/2 >= subiterations in every dimension");
  }
  s = mode == 0 ? 1 : par.k; /* Jacobi sweeps per cycle; a Richardson iteration is c cycles */

  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &z));
  PetscCall(VecDuplicate(b, &work));
  PetscCall(HJProblemFillVec(&p, 31, b));
  PetscCall(HJProblemFillVec(&p, 32, x0));

  /* PCApplyRichardson(its) from x0 == its*c*s Jacobi sweeps from x0 */
  for (PetscInt i = 0; i < nits; i++) {
    PetscCall(VecCopy(x0, y));
    PetscCall(PCApplyRichardson(pc, b, y, work, 0.0, 0.0, 0.0, its[i], PETSC_FALSE, &outits, &reason));
    PetscCall(VecCopy(x0, z));
    PetscCall(WeightedSweeps(A, &par, s, its[i] * par.c * s, PETSC_TRUE, b, z));
    PetscCall(HJCompareVec(y, z, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCApplyRichardson its %" PetscInt_FMT " vs %" PetscInt_FMT " Jacobi sweeps (nonzero guess)", its[i], its[i] * par.c * s));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, small, &nchecks, &nfail));
  }
  /* PCApply == c*s Jacobi sweeps from zero */
  PetscCall(VecSet(y, 5.0e2));
  PetscCall(PCApply(pc, b, y));
  PetscCall(VecSet(z, -4.0e2));
  PetscCall(WeightedSweeps(A, &par, s, par.c * s, PETSC_FALSE, b, z));
  PetscCall(HJCompareVec(y, z, &rel));
  PetscCall(PetscSNPrintf(what, sizeof(what), "PCApply vs %" PetscInt_FMT " Jacobi sweeps from zero", par.c * s));
  PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, small, &nchecks, &nfail));
  /* KSPRICHARDSON + hjacobi (the fast path) == its*c*s Jacobi sweeps */
  {
    KSP      ksp;
    PetscInt n = its[nits - 1];
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPRICHARDSON));
    PetscCall(KSPSetPC(ksp, pc));
    PetscCall(KSPSetTolerances(ksp, HJ_TOL_KEEP, HJ_TOL_KEEP, HJ_TOL_KEEP, n));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
    PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
    PetscCall(VecCopy(x0, y));
    PetscCall(KSPSolve(ksp, b, y));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecCopy(x0, z));
    PetscCall(WeightedSweeps(A, &par, s, n * par.c * s, PETSC_TRUE, b, z));
    PetscCall(HJCompareVec(y, z, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "KSPRICHARDSON+hjacobi %" PetscInt_FMT " its vs %" PetscInt_FMT " Jacobi sweeps", n, n * par.c * s));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, small, &nchecks, &nfail));
  }

  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&work));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
