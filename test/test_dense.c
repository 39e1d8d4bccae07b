static char help[] = "Singular and nonsingular variable-coefficient Laplacians on a DMDA (Neumann or periodic), for PCHJDENSE\n\
and PCHJMG on singular operators. Options:\n\
  -dim 2|3, -da_grid_x/y/z (default 9 x 7 x 5), -periodic (every direction periodic; default Neumann)\n\
  -nullspace <bool>: attach the constants as the operator's null space on every level (default true)\n\
  -shift s: add s times the identity (s > 0: nonsingular)\n\
  -colscale: the columns scaled by a variable factor (then the constants are not the null space; use -nullspace 0)\n\
  -check apply: the PC (the KSP's, -pc_type ...) against a reference PC (prefix ref_, -ref_pc_type svd by default:\n\
     the pseudo-inverse) applied to 4 random right-hand sides in the operator's range; both outputs without their\n\
     null-space component where -shift is 0. Prints relerr, the largest relative difference, and the largest relative\n\
     residual of the PC's output. -transpose: both PCs' transposes (PCApplyTranspose()). -reps n: then n more\n\
     applications of the PC, timed (microseconds per application).\n\
  -check solve: one KSP solve of a random right-hand side in the range (-inconsistent: a random one), then the true\n\
     relative residual; prints 'hjtest solve: honest' unless the KSP reports convergence at a true residual above\n\
     -honest_factor (default 100) times its rtol.\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

static PetscBool nullspace = PETSC_TRUE;
static PetscBool colscale  = PETSC_FALSE;
static PetscReal shift     = 0.0;

/* a face's coefficient, 0.5 .. 1.5, a hash of its physical midpoint (2 x index over the grid's points): each level of
   a hierarchy samples the same function */
static PetscReal Coef(PetscReal x, PetscReal y, PetscReal z)
{
  PetscReal h = PetscSinReal(12.9898 * x + 78.233 * y + 37.719 * z) * 43758.5453;

  return 0.5 + (h - PetscFloorReal(h));
}

static PetscErrorCode ComputeMatrix(KSP ksp, Mat J, Mat A, void *ctx)
{
  DM             da;
  PetscInt       dim, M[3], xs[3], xm[3];
  DMBoundaryType bx;
  MatStencil     row, col[7];
  PetscScalar    v[7];

  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, &bx, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
    for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
      for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++) {
        const PetscInt p[3] = {i, j, k};
        PetscInt       nc   = 1;
        PetscScalar    diag = shift;

        row.i = i;
        row.j = j;
        row.k = k;
        for (PetscInt d = 0; d < dim; d++)
          for (PetscInt s = -1; s <= 1; s += 2) {
            PetscInt  q[3] = {i, j, k};
            PetscReal c, mid[3];

            q[d] += s;
            if (bx != DM_BOUNDARY_PERIODIC && (q[d] < 0 || q[d] >= M[d])) continue; /* Neumann: no flux */
            for (PetscInt e = 0; e < 3; e++) mid[e] = e < dim ? (p[e] + (e == d ? 0.5 * s : 0.0)) / (M[e] - (bx == DM_BOUNDARY_PERIODIC ? 0 : 1)) : 0;
            if (bx == DM_BOUNDARY_PERIODIC) mid[d] = PetscFmodReal(mid[d] + 1.0, 1.0);
            c         = Coef(mid[0], mid[1], mid[2]);
            col[nc].i = q[0];
            col[nc].j = q[1];
            col[nc].k = q[2];
            v[nc++]   = -c;
            diag += c;
          }
        col[0] = row;
        v[0]   = diag;
        if (colscale) /* A D: singular, its null vector D^-1 1 (the rows no longer sum to zero) */
          for (PetscInt c = 0; c < nc; c++) v[c] *= Coef(0.37 * col[c].i, 0.61 * col[c].j, 0.23 * col[c].k);
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (nullspace && shift == 0) {
    MatNullSpace ns;

    PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &ns));
    PetscCall(MatSetNullSpace(A, ns));
    PetscCall(MatNullSpaceDestroy(&ns));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x without its constant component (singular operators), so that pseudo-solutions compare */
static PetscErrorCode Project(Vec x)
{
  PetscScalar s;
  PetscInt    n;

  PetscFunctionBeginUser;
  if (shift != 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecSum(x, &s));
  PetscCall(VecGetSize(x, &n));
  PetscCall(VecShift(x, -s / (PetscReal)n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM             da;
  KSP            ksp;
  PC             pc, ref;
  Mat            A;
  Vec            v, b, x, y, r;
  PetscRandom    rnd;
  PetscInt       dim      = 2;
  PetscBool      periodic = PETSC_FALSE, inconsistent = PETSC_FALSE, transpose = PETSC_FALSE;
  PetscReal      honest = 100;
  PetscInt       reps   = 0;
  PetscLogDouble tsetup, tfirst;
  char           check[16] = "solve";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-periodic", &periodic, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nullspace", &nullspace, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-colscale", &colscale, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-inconsistent", &inconsistent, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-transpose", &transpose, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-honest_factor", &honest, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-check", check, sizeof(check), NULL));
  {
    const DMBoundaryType bt = periodic ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;

    if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, bt, bt, DMDA_STENCIL_STAR, 9, 7, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
    else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, bt, bt, bt, DMDA_STENCIL_STAR, 9, 7, 5, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  }
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetComputeOperators(ksp, ComputeMatrix, NULL));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscTime(&tsetup));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&tfirst));
  tsetup = tfirst - tsetup;
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(DMCreateGlobalVector(da, &v));
  PetscCall(VecDuplicate(v, &b));
  PetscCall(VecDuplicate(v, &x));
  PetscCall(VecDuplicate(v, &y));
  PetscCall(VecDuplicate(v, &r));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  if (!strcmp(check, "apply")) {
    PetscReal err = 0, res = 0;

    PetscCall(PCCreate(PETSC_COMM_WORLD, &ref));
    PetscCall(PCSetOptionsPrefix(ref, "ref_"));
    PetscCall(PCSetType(ref, PCSVD));
    PetscCall(PCSetOperators(ref, A, A));
    PetscCall(PCSetFromOptions(ref));
    PetscCall(PCSetUp(ref));
    for (int t = 0; t < 4; t++) {
      if (t == 0) PetscCall(PetscTime(&tfirst));
      PetscReal nx, nd, bn, rn;

      PetscCall(VecSetRandom(v, rnd));
      PetscCall(MatMult(A, v, b)); /* in the range */
      PetscCall(transpose ? PCApplyTranspose(pc, b, x) : PCApply(pc, b, x));
      if (t == 0) { /* the first application (a factorization's device solves analyse at their first use) */
        PetscReal      nrm;
        PetscLogDouble t1;

        PetscCall(VecNorm(x, NORM_2, &nrm));
        PetscCall(PetscTime(&t1));
        tfirst = t1 - tfirst;
      }
      PetscCall(transpose ? PCApplyTranspose(ref, b, y) : PCApply(ref, b, y));
      if (transpose) {
        PetscCall(MatMultTranspose(A, x, r));
        PetscCall(VecAYPX(r, -1.0, b));
      } else PetscCall(MatResidual(A, b, x, r));
      PetscCall(VecNorm(r, NORM_2, &rn));
      PetscCall(VecNorm(b, NORM_2, &bn));
      PetscCall(Project(x));
      PetscCall(Project(y));
      PetscCall(VecNorm(y, NORM_2, &nx));
      PetscCall(VecAXPY(x, -1.0, y));
      PetscCall(VecNorm(x, NORM_2, &nd));
      err = PetscMax(err, nd / nx);
      res = PetscMax(res, rn / bn);
    }
    if (reps > 0) { /* the PC's application alone, timed after the checks above (its first use) */
      PetscLogDouble t0, t1;
      PetscReal      nrm;
      PetscInt       nrows;

      PetscCall(MatGetSize(A, &nrows, NULL));
      PetscCall(VecNorm(b, NORM_2, &nrm)); /* on CUDA vectors a norm waits for the stream */
      PetscCall(PetscTime(&t0));
      for (PetscInt i = 0; i < reps; i++) PetscCall(PCApply(pc, b, x));
      PetscCall(VecNorm(x, NORM_2, &nrm));
      PetscCall(PetscTime(&t1));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest dense: %" PetscInt_FMT " rows, %.2f us per application (%" PetscInt_FMT " applications); setup %.2f ms, first application %.2f ms\n", nrows, 1e6 * (t1 - t0) / reps, reps, 1e3 * tsetup, 1e3 * tfirst));
    }
    PetscCall(KSPViewFromOptions(ksp, NULL, "-ksp_view"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest dense: relerr=%.2e residual=%.2e\n", (double)err, (double)res));
    PetscCall(PCDestroy(&ref));
  } else {
    KSPConvergedReason reason;
    PetscInt           its;
    PetscReal          rtol, rn, bn;

    PetscCall(VecSetRandom(v, rnd));
    if (inconsistent) PetscCall(VecCopy(v, b));
    else PetscCall(MatMult(A, v, b));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
    PetscCall(MatResidual(A, b, x, r));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(b, NORM_2, &bn));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest solve: %s its=%" PetscInt_FMT " truerel=%.2e (rtol %.0e)\n", KSPConvergedReasons[reason], its, (double)(rn / bn), (double)rtol));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest solve: %s\n", reason > 0 && rn / bn > honest * rtol ? "FALSE CONVERGENCE" : "honest"));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
