static const char help[] = "New values in the same Pmat (same nonzero pattern, as a Newton or time step gives): the PC's next setup\n"
                           "refreshes the stencil in place; its PCApply must equal, bit for bit, that of a fresh PC on the same matrix,\n"
                           "and the literal reference of doc/algorithm.md. Run with -info :mat to see which path was taken.\n"
                           "  -dim -n -kind -da_stencil -periodic -dof ... as test_reference; -steps s: value changes (default 2)\n"
                           "  -first_star: the first values have star couplings only (box ones stored as zeros): box values then do not fit\n"
                           "  -then_perturb_row r: the new values perturb row r (constant -> variable); -pc_view\n"
                           "  -then_corner_row r: the new values give row r (natural index) nonzero box couplings, the other rows keep star\n"
                           "   values (-kind star -da_stencil box: box couplings stored as zeros); they do not fit the star stencil\n";

#include "hjtest.h"

static PetscInt nchecks, nfail;

/* y = PCApply(pc, b) against a fresh PC on A and against the reference */
static PetscErrorCode Check(PC pc, HJProblem *p, Mat A, Vec b, PetscReal tol, const char *what)
{
  PC           fresh;
  Vec          y, z;
  HJParams     par;
  HJCSR        csr;
  PetscScalar *bf, *ref;
  PetscReal    rel;
  char         msg[128];

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &z));
  PetscCall(PCApply(pc, b, y));
  PetscCall(PCCreate(p->comm, &fresh));
  PetscCall(PCSetType(fresh, PCHJACOBI));
  PetscCall(PCSetOperators(fresh, A, A));
  PetscCall(PCSetOptionsPrefix(fresh, "fresh_")); /* no -pc_view from it */
  PetscCall(PCSetFromOptions(fresh));
  PetscCall(HJParamsGet(pc, p, PETSC_FALSE, &par));
  PetscCall(PCHJacobiSetTileSize(fresh, par.t[0], par.t[1], par.t[2]));
  PetscCall(PCHJacobiSetOverlap(fresh, par.o[0], par.o[1], par.o[2]));
  PetscCall(PCHJacobiSetSubiterations(fresh, par.k));
  PetscCall(PCHJacobiSetCycles(fresh, par.c));
  PetscCall(PCHJacobiSetOmega(fresh, par.w));
  PetscCall(PCApply(fresh, b, z));
  PetscCall(HJCompareVec(y, z, &rel));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: refreshed PC equals a fresh PC (bit for bit)", what));
  PetscCall(HJReport(p->comm, msg, rel, 0.0, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
  PetscCall(HJGatherVec(b, &bf));
  PetscCall(PetscCalloc1(p->N * p->dof, &ref));
  PetscCall(HJRefCycles(p, &csr, &par, bf, ref, par.c));
  PetscCall(HJCompareRef(y, ref, &rel));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: against the reference", what));
  PetscCall(HJReport(p->comm, msg, rel, tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(PetscFree(ref));
  PetscCall(PetscFree(bf));
  PetscCall(HJCSRDestroy(&csr));
  PetscCall(PCDestroy(&fresh));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem p;
  Mat       A;
  PC        pc;
  Vec       b;
  PetscReal tol   = 1e-12;
  PetscInt  steps = 2, then_row = -1, then_corner = -1;
  PetscBool first_star = PETSC_FALSE, box;
  char      what[64];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-first_star", &first_star, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-then_perturb_row", &then_row, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-then_corner_row", &then_corner, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemView(&p, NULL));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  box = p.box;
  if (first_star) p.box = PETSC_FALSE;
  PetscCall(HJProblemAssemble(&p, 11, A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(HJProblemFillVec(&p, 21, b));
  PetscCall(Check(pc, &p, A, b, tol, "first values"));
  for (PetscInt s = 1; s <= steps; s++) { /* new values into the same matrix: PCSetUp sees its state change */
    PetscObjectState nz0, nz1;
    p.box = box;
    if (then_row >= 0) p.perturb_row = then_row;
    if (then_corner >= 0) p.corner_row = then_corner;
    PetscCall(MatGetNonzeroState(A, &nz0));
    PetscCall(HJProblemAssemble(&p, 11 + 100 * s, A));
    PetscCall(MatGetNonzeroState(A, &nz1));
    PetscCheck(nz0 == nz1 || (first_star && p.prealloc_only), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] new values changed the nonzero pattern");
    PetscCall(PCSetUp(pc));
    PetscCall(PetscSNPrintf(what, sizeof(what), "values %" PetscInt_FMT, s + 1));
    PetscCall(Check(pc, &p, A, b, tol, what));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %" PetscInt_FMT " checks, %" PetscInt_FMT " failed\n", nchecks, nfail));
  PetscCall(VecDestroy(&b));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
