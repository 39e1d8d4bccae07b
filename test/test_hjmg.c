static char help[] = "PCHJMG (-pc_type hjmg) on a 3D Poisson operator given with KSPSetOperators (no operator callbacks):\n\
-attach_dm 1 (default): the DMDA is the KSP's (inactive) DM and PCMG makes the coarse operators by Galerkin products;\n\
  three solves: as assembled, after new values in the same matrix, after PCReset(); each must converge to the true\n\
  relative residual -tol (hjtest PASS/FAIL lines), -malloc_dump finds no leak.\n\
-attach_dm 0: no DM anywhere on the KSP: PCHJMG with more than one level must stop with an error that says so.\n\
-n <17>: grid points per direction; -scale <2>: the factor of the new values.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* 7-point Laplacian times s (Dirichlet points keep their diagonal) */
static PetscErrorCode Assemble(DM da, PetscScalar s, Mat A)
{
  PetscInt M, xs, ys, zs, xm, ym, zm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil  row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        PetscInt    n = 0;

        col[n] = row;
        v[n++] = 6.0 * s;
        if (i > 0 && j > 0 && k > 0 && i < M - 1 && j < M - 1 && k < M - 1) {
          const PetscInt d[6][3] = {
            {-1, 0,  0 },
            {1,  0,  0 },
            {0,  -1, 0 },
            {0,  1,  0 },
            {0,  0,  -1},
            {0,  0,  1 }
          };
          for (PetscInt e = 0; e < 6; e++) {
            col[n].i = i + d[e][0];
            col[n].j = j + d[e][1];
            col[n].k = k + d[e][2];
            v[n++]   = -s;
          }
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve(KSP ksp, Mat A, Vec b, Vec x, PetscReal tol, const char what[], PetscBool *ok)
{
  Vec                r;
  PetscReal          rn, bn;
  PetscInt           its;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(VecZeroEntries(x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatResidual(A, b, x, r));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCall(VecDestroy(&r));
  const PetscBool good = (PetscBool)(reason > 0 && rn <= tol * bn);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s %s: %s in %" PetscInt_FMT " iterations, true relative residual %.2e (tolerance %.0e)\n", good ? "PASS" : "FAIL", what, KSPConvergedReasons[reason], its, (double)(rn / bn), (double)tol));
  *ok = (PetscBool)(*ok && good);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApplyTranspose is the adjoint of PCApply: |v'(M u) - u'(M^T v)| / (|v| |M u|) <= 1e-12 on random u, v (the
   transposed V-cycle, its gathered coarse levels' transpose with -pc_hjmg_gather_size) */
static PetscErrorCode Adjoint(PC pc, Vec b, PetscBool *ok)
{
  Vec         u, v, Mu, MTv;
  PetscRandom rnd;
  PetscScalar vMu, uMTv;
  PetscReal   nv, nMu, rel;
  PetscBool   good;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &u));
  PetscCall(VecDuplicate(b, &v));
  PetscCall(VecDuplicate(b, &Mu));
  PetscCall(VecDuplicate(b, &MTv));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)pc), &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PCApply(pc, u, Mu));
  PetscCall(PCApplyTranspose(pc, v, MTv));
  PetscCall(VecDot(Mu, v, &vMu));
  PetscCall(VecDot(MTv, u, &uMTv));
  PetscCall(VecNorm(v, NORM_2, &nv));
  PetscCall(VecNorm(Mu, NORM_2, &nMu));
  rel  = PetscAbsScalar(vMu - uMTv) / (nv * nMu);
  good = (PetscBool)(rel <= 1e-12);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s PCApplyTranspose is PCApply's adjoint: |v'Mu - u'M^Tv| / (|v| |Mu|) = %.2e (tolerance 1e-12)\n", good ? "PASS" : "FAIL", (double)rel));
  *ok = (PetscBool)(*ok && good);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&Mu));
  PetscCall(VecDestroy(&MTv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM        da;
  Mat       A;
  Vec       b, x;
  KSP       ksp;
  PC        pc;
  PetscInt  n   = 17;
  PetscReal tol = 1e-6, scale = 2;
  PetscBool attach = PETSC_TRUE, ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-attach_dm", &attach, NULL));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, 1.0, A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  if (attach) {
    PetscCall(KSPSetDM(ksp, da));
    PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  }
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPFGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 100));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJMG));
  PetscCall(PCMGSetLevels(pc, 3, NULL));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH));
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(Solve(ksp, A, b, x, tol, "first solve", &ok));
  PetscCall(Adjoint(pc, b, &ok));
  PetscCall(Assemble(da, scale, A)); /* the same matrix, new values: PCSetUp again, the level objects kept */
  PetscCall(Solve(ksp, A, b, x, tol, "new values", &ok));
  PetscCall(PCReset(pc)); /* PCMG's levels emptied; hjmg installs on the new ones */
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(Solve(ksp, A, b, x, tol, "after PCReset", &ok));
  { /* a residual the user gives after setup, with a matrix of theirs (an AIJ copy of level 1's operator): PCMG calls
       every residual function of the level with that matrix, so hjmg's must neither take it for its shell nor replace
       it; PCApplyTranspose runs the transposed residual with it too */
    KSP  smoother;
    Mat  A1, U;
    Vec  y;
    char text[64];

    PetscCall(PCMGGetSmoother(pc, 1, &smoother));
    PetscCall(KSPGetOperators(smoother, &A1, NULL));
    PetscCall(MatDuplicate(A1, MAT_COPY_VALUES, &U));
    PetscCall(PCMGSetResidual(pc, 1, PCMGResidualDefault, U));
    PetscCall(Solve(ksp, A, b, x, tol, "a residual matrix of the user's on level 1", &ok));
    PetscCall(VecDuplicate(b, &y));
    PetscCall(PCApplyTranspose(pc, b, y)); /* errors (or worse) if hjmg's transposed residual met U */
    PetscCall(VecNorm(y, NORM_2, &scale));
    PetscCall(PetscSNPrintf(text, sizeof(text), "%s", PetscIsNormalReal(scale) && scale > 0 ? "PASS" : "FAIL"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s PCApplyTranspose with the user's residual matrix: norm %.3e\n", text, (double)scale));
    ok = (PetscBool)(ok && PetscIsNormalReal(scale) && scale > 0);
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&U));
  }
  PetscCall(KSPView(ksp, PETSC_VIEWER_STDOUT_WORLD));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s test_hjmg\n", ok ? "PASS" : "FAIL"));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
