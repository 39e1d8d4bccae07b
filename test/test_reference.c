static const char help[] = "Compares PCHJACOBI (PCApply, PCApplyRichardson = c cycles per iteration, KSPRICHARDSON's fast path,\n"
                           "PCApplyTranspose, a changed operator) with a literal implementation of doc/algorithm.md on a random DMDA\n"
                           "operator, and checks the adjoint identity <v, M u> = <M^T v, u> (-check_transpose 0: neither).\n"
                           "  -dim 1|2|3 -n N (or -da_grid_x ...) -kind star|box -da_stencil star|box -periodic -symmetric\n"
                           "  -dirichlet_boundary -dirichlet_fraction f -prealloc_only -seed s -tol t -rich_its i,j,...\n"
                           "  -pc_set_dm: give the PC the DMDA (default: the PC finds it through the matrix); -pc_view\n"
                           "  -constant -perturb_row r: constant coefficients (one row perturbed); -reuse_perturb_row r: perturb for the new values\n"
                           "  -reuse_box: the new values add box couplings (a new nonzero pattern)\n"
                           "  -dof d: d fields per grid point (point-block; d > 8 is an error)\n"
                           "  -check_overlap_comm: PCApply and PCApplyRichardson equal bit for bit with -pc_hjacobi_overlap_comm true and false\n"
                           "  -check_constant_tiles: the same with -pc_hjacobi_cuda_constant_tiles 0 and -1 (CUDA: the constant-stencil kernel on the tiles inside, or not)\n"
                           "  -bind_vecs_cpu: b, x and the work vectors bound to the CPU (CUDA vectors with host arrays: the CUDA backend's host fallback)\n"
                           "  -bind_mat_cpu: the matrix bound to the CPU as well (a device MatMultTranspose would write a bound vector's device copy, which its host arrays do not see)\n"
                           "  bad inputs: -dm_kind none|shell -wide -zero_diag_row r -missing_diag_row r\n";

#include "hjtest.h"
#include <petscdmshell.h>

/* <v, M u> = <M^T v, u> to tol relative (PCApply and PCApplyTranspose; Mu, MTv: work vectors) */
static PetscErrorCode CheckAdjoint(PC pc, Vec u, Vec v, Vec Mu, Vec MTv, PetscReal tol, PetscInt *nchecks, PetscInt *nfail)
{
  PetscScalar a, at;
  PetscReal   rel;

  PetscFunctionBeginUser;
  PetscCall(PCApply(pc, u, Mu));
  PetscCall(PCApplyTranspose(pc, v, MTv));
  PetscCall(VecTDot(Mu, v, &a)); /* bilinear (no conjugation): M^T is the plain transpose, as PETSc's */
  PetscCall(VecTDot(u, MTv, &at));
  rel = PetscAbsScalar(a - at) / PetscMax(PetscMax(PetscAbsScalar(a), PetscAbsScalar(at)), PETSC_SMALL);
  PetscCall(HJReport(PetscObjectComm((PetscObject)pc), "adjoint identity <v, M u> = <M^T v, u>", rel, tol, PETSC_TRUE, nchecks, nfail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply and PCApplyRichardson (its iterations from x0) with option opt at val[0] and at val[1], two ways of running
   the same cycles (what): the results must agree to the last bit. The PC is set up again for each value (an option the
   backend reads at setup) and at the end, with the option put back where it was given; where it was not, the PC keeps
   val[1]'s setting (PETSc applies only options that are present), so a caller gives the default there or the option
   on the command line. */
static PetscErrorCode CheckSameBits(PC pc, const char *opt, const char *const val[2], const char *what, Vec b, Vec x0, PetscInt its, PetscInt *nchecks, PetscInt *nfail)
{
  Vec                         y[2][2], work;
  PetscReal                   rel;
  PetscInt                    outits;
  PetscBool                   given;
  PCRichardsonConvergedReason reason;
  char                        line[160], old[64];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, opt, old, sizeof(old), &given));
  PetscCall(VecDuplicate(b, &work));
  for (PetscInt v = 0; v < 2; v++) {
    PetscCall(VecDuplicate(b, &y[v][0]));
    PetscCall(VecDuplicate(b, &y[v][1]));
    PetscCall(PetscOptionsSetValue(NULL, opt, val[v]));
    PetscCall(PCSetFromOptions(pc));
    PetscCall(PCSetUp(pc));
    PetscCall(PCApply(pc, b, y[v][0]));
    PetscCall(VecCopy(x0, y[v][1]));
    PetscCall(PCApplyRichardson(pc, b, y[v][1], work, 0.0, 0.0, 0.0, its, PETSC_FALSE, &outits, &reason));
  }
  if (given) PetscCall(PetscOptionsSetValue(NULL, opt, old));
  else PetscCall(PetscOptionsClearValue(NULL, opt));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(HJCompareVec(y[1][0], y[0][0], &rel));
  PetscCall(PetscSNPrintf(line, sizeof(line), "PCApply, %s bit for bit", what));
  PetscCall(HJReport(PetscObjectComm((PetscObject)pc), line, rel, 0.0, PETSC_TRUE, nchecks, nfail));
  PetscCall(HJCompareVec(y[1][1], y[0][1], &rel));
  PetscCall(PetscSNPrintf(line, sizeof(line), "PCApplyRichardson its %" PetscInt_FMT ", %s bit for bit", its, what));
  PetscCall(HJReport(PetscObjectComm((PetscObject)pc), line, rel, 0.0, PETSC_TRUE, nchecks, nfail));
  for (PetscInt v = 0; v < 2; v++) {
    PetscCall(VecDestroy(&y[v][0]));
    PetscCall(VecDestroy(&y[v][1]));
  }
  PetscCall(VecDestroy(&work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem                   p;
  HJParams                    par;
  Mat                         A;
  PC                          pc;
  Vec                         b, x0, y, work;
  HJCSR                       csr, csrT;
  PetscScalar                *bf, *x0f, *ref;
  PetscReal                   tol    = 1e-12, rel;
  PetscInt                    its[8] = {1, 3}, nits = 8, nchecks = 0, nfail = 0, vseed = 11, outits;
  PetscBool                   set, setdm = PETSC_FALSE, transpose = PETSC_TRUE, isshell, wasbox, overlapcomm = PETSC_FALSE, consttiles = PETSC_FALSE, bindcpu = PETSC_FALSE, bindmat = PETSC_FALSE;
  DM                          shell = NULL;
  char                        what[128];
  PCRichardsonConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-rich_its", its, &nits, &set));
  if (!set) nits = 2;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pc_set_dm", &setdm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_transpose", &transpose, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_overlap_comm", &overlapcomm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_constant_tiles", &consttiles, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bind_vecs_cpu", &bindcpu, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bind_mat_cpu", &bindmat, NULL));

  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, vseed, A));
  if (bindmat) PetscCall(MatBindToCPU(A, PETSC_TRUE)); /* with -bind_vecs_cpu: the whole problem on the CPU */

  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PetscStrcmp(p.dmkind, "shell", &isshell));
  if (isshell) { /* a DM that is not a DMDA */
    PetscCall(DMShellCreate(PETSC_COMM_WORLD, &shell));
    PetscCall(PCSetDM(pc, shell));
  } else if (setdm) PetscCall(PCSetDM(pc, p.da));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCheck(p.dof <= 8, PETSC_COMM_WORLD, PETSC_ERR_SUP, "[hjtest] PCSetUp accepted a grid with %" PetscInt_FMT " fields per point; the library caps dof at 8", p.dof);
  PetscCall(PCViewFromOptions(pc, NULL, "-pc_view"));
  PetscCall(HJParamsGet(pc, &p, PETSC_TRUE, &par));
  PetscCall(HJProblemView(&p, &par));

  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &work));
  if (bindcpu) { /* CUDA vectors whose arrays are on the host: PCHJACOBI's CUDA backend runs the host cycles on them */
    PetscCall(VecBindToCPU(b, PETSC_TRUE));
    PetscCall(VecBindToCPU(x0, PETSC_TRUE));
    PetscCall(VecBindToCPU(y, PETSC_TRUE));
    PetscCall(VecBindToCPU(work, PETSC_TRUE));
  }
  PetscCall(HJProblemFillVec(&p, 21, b));
  PetscCall(HJProblemFillVec(&p, 22, x0));
  PetscCall(HJGatherVec(b, &bf));
  PetscCall(HJGatherVec(x0, &x0f));
  PetscCall(PetscMalloc1(p.N * p.dof, &ref));
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));

  /* PCApply: c cycles from zero; whatever y holds must not matter */
  PetscCall(VecSet(y, 1.0e3));
  PetscCall(PCApply(pc, b, y));
  PetscCall(PetscArrayzero(ref, p.N * p.dof));
  PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, par.c));
  PetscCall(HJCompareRef(y, ref, &rel));
  PetscCall(HJReport(PETSC_COMM_WORLD, "PCApply", rel, tol, PETSC_TRUE, &nchecks, &nfail));

  /* PCApplyRichardson: its iterations of c cycles each from a nonzero guess (the library's man page: c cycles per
     iteration, which is what KSPRICHARDSON's generic loop with PCApply gives; doc/algorithm.md "PCApplyRichardson") */
  for (PetscInt i = 0; i < nits; i++) {
    PetscCall(VecCopy(x0, y));
    PetscCall(PCApplyRichardson(pc, b, y, work, 0.0, 0.0, 0.0, its[i], PETSC_FALSE, &outits, &reason));
    PetscCall(PetscArraycpy(ref, x0f, p.N * p.dof));
    PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, its[i] * par.c));
    PetscCall(HJCompareRef(y, ref, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCApplyRichardson its %" PetscInt_FMT " nonzero guess", its[i]));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
    if (outits != its[i] || reason != PCRICHARDSON_CONVERGED_ITS) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest FAIL PCApplyRichardson reported %" PetscInt_FMT " iterations and reason %d (want %" PetscInt_FMT ", %d)\n", outits, (int)reason, its[i], (int)PCRICHARDSON_CONVERGED_ITS));
      nfail++;
    }
  }
  /* PCApplyRichardson with guesszero: y's contents must be ignored */
  {
    PetscCall(VecSet(y, -7.0e2));
    PetscCall(PCApplyRichardson(pc, b, y, work, 0.0, 0.0, 0.0, its[nits - 1], PETSC_TRUE, &outits, &reason));
    PetscCall(PetscArrayzero(ref, p.N * p.dof));
    PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, its[nits - 1] * par.c));
    PetscCall(HJCompareRef(y, ref, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCApplyRichardson its %" PetscInt_FMT " zero guess", its[nits - 1]));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
  }

  if (overlapcomm) { /* tiles are independent within a cycle: the interior ones during the ghost exchange or after it */
    const char *const val[2] = {"false", "true"};
    PetscCall(CheckSameBits(pc, "-pc_hjacobi_overlap_comm", val, "exchange overlapped = not overlapped", b, x0, its[nits - 1], &nchecks, &nfail));
  }
  if (consttiles) { /* the tiles inside the box of one row on the CUDA kernels' constant-stencil instantiation, or not */
    const char *const val[2] = {"-1", "0"};
    PetscCall(CheckSameBits(pc, "-pc_hjacobi_cuda_constant_tiles", val, "constant tiles = variable kernel everywhere", b, x0, its[nits - 1], &nchecks, &nfail));
  }

  /* KSPRICHARDSON with scale 1, KSPConvergedSkip: PETSc takes the PCApplyRichardson fast path (the MG smoother path) */
  {
    KSP      ksp;
    PC       kpc;
    PetscInt kits, n = its[nits - 1];
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPRICHARDSON));
    PetscCall(KSPGetPC(ksp, &kpc));
    PetscCall(PCSetType(kpc, PCHJACOBI));
    if (setdm) PetscCall(PCSetDM(kpc, p.da));
    PetscCall(PCSetFromOptions(kpc));
    PetscCall(KSPSetTolerances(ksp, HJ_TOL_KEEP, HJ_TOL_KEEP, HJ_TOL_KEEP, n));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
    PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
    PetscCall(VecCopy(x0, y));
    PetscCall(KSPSolve(ksp, b, y));
    PetscCall(KSPGetIterationNumber(ksp, &kits));
    PetscCall(PetscArraycpy(ref, x0f, p.N * p.dof));
    PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, n * par.c));
    PetscCall(HJCompareRef(y, ref, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "KSPRICHARDSON+hjacobi %" PetscInt_FMT " its (%" PetscInt_FMT " done)", n, kits));
    PetscCall(HJReport(PETSC_COMM_WORLD, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
    PetscCall(KSPDestroy(&ksp));
  }

  /* PCApplyTranspose: M^T b as doc/algorithm.md defines it (whatever y holds must not matter), and the adjoint identity
     <v, M u> = <M^T v, u> on the random vectors u = x0, v = b (PCApply is checked against the reference above) */
  if (transpose) {
    PetscCall(HJGatherMatrix(A, PETSC_TRUE, &csrT));
    PetscCall(VecSet(y, 3.0e2));
    PetscCall(PCApplyTranspose(pc, b, y));
    PetscCall(PetscArrayzero(ref, p.N * p.dof));
    PetscCall(HJRefTransposeCycles(&p, &csrT, &par, bf, ref, par.c));
    PetscCall(HJCompareRef(y, ref, &rel));
    PetscCall(HJReport(PETSC_COMM_WORLD, "PCApplyTranspose", rel, tol, PETSC_TRUE, &nchecks, &nfail));
    PetscCall(HJCSRDestroy(&csrT));
    PetscCall(CheckAdjoint(pc, x0, b, work, y, tol, &nchecks, &nfail));
  }

  /* new values, same pattern: the next PCApply must see them (PCSetUp through the matrix state) */
  PetscCall(HJCSRDestroy(&csr));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reuse_perturb_row", &p.perturb_row, NULL)); /* e.g. constant -> variable */
  wasbox = p.box;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reuse_box", &p.box, NULL)); /* star -> box: a new nonzero pattern */
  PetscCall(HJProblemAssemble(&p, vseed + 100, A));
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
  PetscCall(PCApply(pc, b, y));
  PetscCall(HJParamsGet(pc, &p, PETSC_FALSE, &par)); /* a new pattern: omega chosen again (unless given) */
  PetscCall(PetscArrayzero(ref, p.N * p.dof));
  PetscCall(HJRefCycles(&p, &csr, &par, bf, ref, par.c));
  PetscCall(HJCompareRef(y, ref, &rel));
  PetscCall(HJReport(PETSC_COMM_WORLD, p.box && !wasbox ? "PCApply after new matrix values with box couplings" : "PCApply after new matrix values", rel, tol, PETSC_TRUE, &nchecks, &nfail));
  if (transpose) { /* A^T's stencil must follow the new values too */
    PetscCall(HJGatherMatrix(A, PETSC_TRUE, &csrT));
    PetscCall(PCApplyTranspose(pc, b, y));
    PetscCall(PetscArrayzero(ref, p.N * p.dof));
    PetscCall(HJRefTransposeCycles(&p, &csrT, &par, bf, ref, par.c));
    PetscCall(HJCompareRef(y, ref, &rel));
    PetscCall(HJReport(PETSC_COMM_WORLD, "PCApplyTranspose after new matrix values", rel, tol, PETSC_TRUE, &nchecks, &nfail));
    PetscCall(HJCSRDestroy(&csrT));
    PetscCall(CheckAdjoint(pc, x0, b, work, y, tol, &nchecks, &nfail));
  }

  PetscCall(HJCSRDestroy(&csr));
  PetscCall(PetscFree(ref));
  PetscCall(PetscFree(bf));
  PetscCall(PetscFree(x0f));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&work));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&shell));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
