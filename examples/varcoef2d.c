static char help[] = "2D variable-coefficient problem -a(x,y) u_xx - b(x,y) u_yy = 1 on the unit square, u = 0 on its boundary\n\
(the model problem of H. Chen, Parallel implementation of multipreconditioned conjugate gradient methods, eq. (1)),\n\
5-point finite differences on n x n interior points, solved by CG with hierarchical Jacobi (overlap 0: symmetric).\n\
  -n <128>          grid points per direction (or -da_grid_x/-da_grid_y)\n\
  -contrast <10>    a = 1 + (contrast - 1) y and b = 1 + (contrast - 1) x, so each varies from 1 to contrast\n\
Any other preconditioner: -pc_type jacobi, ...; the PC's options as usual: -pc_hjacobi_subiterations 8 ...\n\
Move it to the GPU with -dm_vec_type cuda -dm_mat_type aijcusparse.\n\
Prints the iterations and the time of a second solve (the first one sets everything up).\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* The problem is eq. (1) of H. Chen, Parallel Implementation of Multipreconditioned Conjugate Gradient Methods (UBC,
   2022), which asks only a, b > 0. Ours vary across the domain and turn its anisotropy around: near (0,1) the x-coupling is
   `contrast` times the y-coupling, near (1,0) the other way round. */
static PetscReal CoefA(PetscReal x, PetscReal y, PetscReal c)
{
  return 1 + (c - 1) * y;
}
static PetscReal CoefB(PetscReal x, PetscReal y, PetscReal c)
{
  return 1 + (c - 1) * x;
}

/* Row (i,j) couples to its east neighbour with -(a(p) + a(east))/2, the coefficient averaged over the face between
   them, and so on: the same number from both sides, so A is symmetric (and, diagonally dominant, positive definite).
   As a does not depend on x nor b on y, the averages are that report's A_ij, B_ij: this is exactly its scheme (3). */
static PetscErrorCode AssembleOperator(DM da, PetscReal contrast, Mat A)
{
  PetscInt  M, N, xs, ys, xm, ym;
  PetscReal hx, hy;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  hx = 1.0 / (M + 1);
  hy = 1.0 / (N + 1);
  for (PetscInt j = ys; j < ys + ym; j++) {
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscReal x = (i + 1) * hx, y = (j + 1) * hy;
      const PetscReal ax = CoefA(x, y, contrast), by = CoefB(x, y, contrast);
      const PetscReal aw = (ax + CoefA(x - hx, y, contrast)) / 2, ae = (ax + CoefA(x + hx, y, contrast)) / 2;
      const PetscReal bs = (by + CoefB(x, y - hy, contrast)) / 2, bn = (by + CoefB(x, y + hy, contrast)) / 2;
      MatStencil      row = {.i = i, .j = j}, col[5];
      PetscScalar     v[5];
      PetscInt        n = 0;

      /* neighbours on the boundary hold u = 0: their columns are dropped, their face stays in the diagonal */
      if (i > 0) col[n] = (MatStencil){.i = i - 1, .j = j}, v[n++] = -aw;
      if (i < M - 1) col[n] = (MatStencil){.i = i + 1, .j = j}, v[n++] = -ae;
      if (j > 0) col[n] = (MatStencil){.i = i, .j = j - 1}, v[n++] = -bs;
      if (j < N - 1) col[n] = (MatStencil){.i = i, .j = j + 1}, v[n++] = -bn;
      col[n] = row, v[n++] = aw + ae + bs + bn;
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                 da;
  Mat                A;
  Vec                b, x, r;
  KSP                ksp;
  PC                 pc;
  PCType             pctype;
  VecType            vtype;
  PetscInt           n        = 128, M, N, its;
  PetscReal          contrast = 10, rnorm, bnorm;
  PetscLogDouble     t0, t1;
  KSPConvergedReason reason;
  PetscMPIInt        size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-contrast", &contrast, NULL));
  PetscCheck(contrast > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-contrast must be positive");

  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleOperator(da, contrast, A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecSet(b, 1.0 / ((M + 1) * (N + 1)))); /* h^2 f with f = 1 */

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(KSPSolve(ksp, b, x)); /* warm-up: sets the PC up, touches every buffer */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecNorm(x, NORM_2, &rnorm)); /* a reduction: waits for every rank and GPU */
  PetscCall(PetscTime(&t1));

  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(VecGetType(x, &vtype));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "-a u_xx - b u_yy = 1, contrast %.6g, %" PetscInt_FMT " x %" PetscInt_FMT " unknowns, %d MPI rank(s), vectors of type %s\n", (double)contrast, M, N, size, vtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  CG with -pc_type %s: %s in %" PetscInt_FMT " iterations, %.4f s (second solve), ||b - A x|| / ||b|| = %.1e\n", pctype, KSPConvergedReasons[reason], its, t1 - t0, (double)(rnorm / bnorm)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT example=varcoef2d n=%" PetscInt_FMT " contrast=%.6g ranks=%d vec=%s pc=%s its=%" PetscInt_FMT " time=%.6e time_per_it=%.6e relres=%.3e reason=%s\n", M, (double)contrast, size, vtype, pctype, its, t1 - t0, (t1 - t0) / PetscMax(its, 1), (double)(rnorm / bnorm), KSPConvergedReasons[reason]));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/* Its tests (ctest -L examples) are registered in examples/CMakeLists.txt. */
