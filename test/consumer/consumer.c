static const char help[] = "An outside program that uses an installed petsc-hjacobi (built by tools/check-install.sh through\n"
                           "pkg-config and through the CMake package): it registers the type with PCHJacobiInitializePackage(),\n"
                           "sets its parameters through the C API, and solves A x = b (a 2D variable-coefficient diffusion\n"
                           "operator on a DMDA, b = A x_exact for a random x_exact) with GMRES and PCHJACOBI.\n"
                           "Prints \"consumer PASS\" when the error against x_exact is below -tol.\n"
                           "  -da_grid_x/-da_grid_y (default 21 x 17) -tol <1e-6>\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* a coefficient in [1, 2) from the face's global position: the same on every rank, whatever the decomposition */
static PetscReal Face(PetscInt i, PetscInt j, PetscInt dir)
{
  unsigned long long h = (unsigned long long)(i * 7919 + j * 104729 + dir * 15485863) * 0x9e3779b97f4a7c15ULL;
  return 1.0 + (PetscReal)((h >> 11) % 1000) / 1000.0;
}

/* -div(a grad u) + 0.1 u with zero Dirichlet values outside: symmetric positive definite, random coefficients */
static PetscErrorCode Assemble(DM da, Mat A)
{
  PetscInt M, N, xs, ys, xm, ym;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++) {
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscReal a[4] = {Face(i, j, 0), Face(i + 1, j, 0), Face(i, j, 1), Face(i, j + 1, 1)}; /* W E S N */
      MatStencil      row  = {.i = i, .j = j}, col[5];
      PetscScalar     v[5];
      PetscInt        n = 0;

      if (i > 0) col[n] = (MatStencil){.i = i - 1, .j = j}, v[n++] = -a[0];
      if (i < M - 1) col[n] = (MatStencil){.i = i + 1, .j = j}, v[n++] = -a[1];
      if (j > 0) col[n] = (MatStencil){.i = i, .j = j - 1}, v[n++] = -a[2];
      if (j < N - 1) col[n] = (MatStencil){.i = i, .j = j + 1}, v[n++] = -a[3];
      col[n] = row, v[n++] = a[0] + a[1] + a[2] + a[3] + 0.1;
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM          da;
  Mat         A;
  Vec         x, xexact, b;
  KSP         ksp;
  PC          pc;
  PCType      type;
  PetscRandom rnd;
  PetscInt    tx, ty, tz, its;
  PetscReal   err, nrm, tol = 1e-6;
  PetscMPIInt size;
  PetscBool   ishj;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage()); /* a linked program registers the type itself (no -dll_append) */
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 21, 17, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, A));
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(xexact, rnd));
  PetscCall(MatMult(A, xexact, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCHJacobiSetTileSize(pc, 8, 6, 1)); /* odd-sized grid: tiles that do not divide it */
  PetscCall(PCHJacobiSetOverlap(pc, 2, 2, 0));
  PetscCall(PCHJacobiSetSubiterations(pc, 3));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));

  PetscCall(PCGetType(pc, &type));
  PetscCall(PetscStrcmp(type, PCHJACOBI, &ishj));
  PetscCheck(ishj, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[consumer] the PC is %s, not %s", type, PCHJACOBI);
  PetscCall(PCHJacobiGetTileSize(pc, &tx, &ty, &tz));
  PetscCheck(tx == 8 && ty == 6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[consumer] PCHJacobiGetTileSize() gives %" PetscInt_FMT "x%" PetscInt_FMT ", set 8x6", tx, ty);
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(VecAXPY(x, -1.0, xexact));
  PetscCall(VecNorm(x, NORM_2, &err));
  PetscCall(VecNorm(xexact, NORM_2, &nrm));
  PetscCheck(err <= tol * nrm, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "[consumer] FAIL: relative error %g > %g after %" PetscInt_FMT " iterations", (double)(err / nrm), (double)tol, its);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "consumer PASS: PC %s, %d rank(s), %d-bit PetscInt, %" PetscInt_FMT " GMRES iterations, relative error %.1e\n", type, (int)size, (int)(8 * sizeof(PetscInt)), its, (double)(err / nrm)));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
