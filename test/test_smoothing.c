static char help[] = "hjacobi smooths: one cycle (PCApplyRichardson, b = 0) applied to sine modes of the 2D 5-point Laplacian\n\
(Dirichlet eliminated) reduces every high-frequency mode (max(p,q) > N/2) by at least the factor -bound, and leaves the\n\
smoothest mode almost unchanged (it is a smoother, not a solver). Options: -n N, -bound b, the -pc_hjacobi_* options.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* x(i,j) = sin(pi p (i+1)/(N+1)) sin(pi q (j+1)/(N+1)) */
static PetscErrorCode Mode(DM da, PetscInt N, PetscInt p, PetscInt q, Vec x)
{
  PetscInt      xs, ys, xm, ym;
  PetscScalar **a;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, x, &a));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) a[j][i] = PetscSinReal(PETSC_PI * p * (i + 1) / (N + 1)) * PetscSinReal(PETSC_PI * q * (j + 1) / (N + 1));
  PetscCall(DMDAVecRestoreArray(da, x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                          da;
  Mat                         A;
  PC                          pc;
  Vec                         x, b, w;
  PetscInt                    N     = 33, xs, ys, xm, ym, its;
  PetscReal                   bound = 0.6, worst = 0, smooth, n0, n1;
  PCRichardsonConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &N, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bound", &bound, NULL));
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, N, N, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil row =
                   {
                     .i = i, .j = j
      },
                 col[5] = {row, {.i = i - 1, .j = j}, {.i = i + 1, .j = j}, {.i = i, .j = j - 1}, {.i = i, .j = j + 1}};
      PetscScalar v[5]  = {4, -1, -1, -1, -1};
      PetscInt    n     = 0;
      MatStencil  c[5];
      PetscScalar cv[5];
      for (PetscInt e = 0; e < 5; e++)
        if (col[e].i >= 0 && col[e].i < N && col[e].j >= 0 && col[e].j < N) c[n] = col[e], cv[n++] = v[e];
      PetscCall(MatSetValuesStencil(A, 1, &row, n, c, cv, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetDM(pc, da));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &w));
  PetscCall(VecSet(b, 0.0)); /* the error equation: A e = 0 */
  for (PetscInt q = 1; q <= N; q++)
    for (PetscInt p = 1; p <= N; p++) {
      PetscReal r;
      if (PetscMax(p, q) <= N / 2 && !(p == 1 && q == 1)) continue;
      PetscCall(Mode(da, N, p, q, x));
      PetscCall(VecNorm(x, NORM_2, &n0));
      PetscCall(PCApplyRichardson(pc, b, x, w, 0, 0, 0, 1, PETSC_FALSE, &its, &reason));
      PetscCall(VecNorm(x, NORM_2, &n1));
      r = n1 / n0;
      if (p == 1 && q == 1) smooth = r;
      else worst = PetscMax(worst, r);
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "smoothing %s: worst high-frequency reduction per cycle %.4f (bound %.4f), smoothest mode %.4f\n", worst <= bound && smooth > 0.9 ? "PASS" : "FAIL", (double)worst, (double)bound, (double)smooth));
  PetscCheck(worst <= bound && smooth > 0.9, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "hjtest: hjacobi does not smooth as expected");
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&w));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
