static char help[] = "The Helmholtz equation -Laplacian u - (1 - alpha i) k^2 u = f (a point source, u = 0 on the boundary of the\n\
unit square or cube) solved by GMRES preconditioned by geometric multigrid on the complex-shifted Laplacian\n\
-Laplacian - (1 - beta i) k^2 (Erlangga, Vuik and Oosterlee 2004, beta = 0.5), whose levels are smoothed by\n\
hierarchical Jacobi. Needs PETSc with complex scalars.\n\
The Helmholtz operator is the Amat, the shifted Laplacian the Pmat; PCMG builds its coarse levels from the Pmat\n\
(Galerkin) and smooths with the Pmat on every level.\n\
Defaults, each replaced by the same option given on the command line:\n\
  -ksp_type gmres -ksp_pc_side right -ksp_gmres_restart 100 -ksp_rtol 1e-6 -pc_type mg -pc_mg_galerkin both\n\
  -pc_mg_levels <coarsen down to about 9 points per direction>\n\
  -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi   (the last two only when the PC is mg)\n\
PETSc's Chebyshev/Jacobi smoother on the same grid and shift: -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi\n\
Problem: -dim 2|3 (2), -da_grid_x n ... (257 in 2D, 65 in 3D; n - 1 divisible by 2^(levels-1)), -k wavenumber (40),\n\
  -alpha damping of the Helmholtz operator (0.01), -beta shift of the preconditioning operator (0.5).\n\
Move it to the GPU with -dm_vec_type cuda -dm_mat_type aijcusparse.\n\
Prints the iterations and the time of the first solve (PCSetUp included: what a user's run pays) and of a second one.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

#if !defined(PETSC_USE_COMPLEX)
  #error "examples/helmholtz.c needs PETSc with complex scalars (--with-scalar-type=complex)"
#endif

/* h^2 (-Laplacian - shift k^2) with the 2*dim+1-point stencil; boundary rows keep their diagonal only (u = 0 there) */
static PetscErrorCode Assemble(DM da, PetscReal k, PetscScalar shift, Mat A)
{
  PetscInt dim, m[3], xs, ys, zs, xm, ym, zm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, &dim, &m[0], &m[1], &m[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  const PetscReal   h    = 1.0 / (m[0] - 1);
  const PetscScalar diag = 2.0 * dim - shift * k * k * h * h;
  for (PetscInt kk = zs; kk < zs + zm; kk++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil      row = {.k = kk, .j = j, .i = i}, col[7];
        PetscScalar     v[7];
        PetscInt        n   = 0;
        const PetscBool bnd = (PetscBool)(i == 0 || j == 0 || i == m[0] - 1 || j == m[1] - 1 || (dim == 3 && (kk == 0 || kk == m[2] - 1)));

        col[n] = row;
        v[n++] = bnd ? 2.0 * dim : diag;
        for (PetscInt d = 0; d < dim && !bnd; d++)
          for (PetscInt s = -1; s <= 1; s += 2) {
            MatStencil q = row;
            if (d == 0) q.i += s;
            else if (d == 1) q.j += s;
            else q.k += s;
            col[n] = q;
            v[n++] = -1.0;
          }
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DefaultOption(const char name[], const char value[])
{
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the example's solver defaults; the levels halve the grid while it keeps at least 9 points per direction */
static PetscErrorCode DefaultSolver(DM da)
{
  PetscInt  m, levels = 1;
  char      pctype[64] = "mg", value[32];
  PetscBool ismg;

  PetscFunctionBeginUser;
  PetscCall(DefaultOption("-ksp_type", "gmres"));
  PetscCall(DefaultOption("-ksp_pc_side", "right"));
  PetscCall(DefaultOption("-ksp_gmres_restart", "100"));
  PetscCall(DefaultOption("-ksp_rtol", "1e-6"));
  PetscCall(DefaultOption("-pc_type", "mg"));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PetscStrcmp(pctype, PCMG, &ismg));
  if (!ismg) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetInfo(da, NULL, &m, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt n = m - 1; n % 2 == 0 && n / 2 >= 8; n /= 2) levels++;
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, levels));
  PetscCall(DefaultOption("-pc_mg_levels", value));
  PetscCall(DefaultOption("-pc_mg_galerkin", "both"));
  PetscCall(DefaultOption("-mg_levels_ksp_type", "richardson"));
  PetscCall(DefaultOption("-mg_levels_pc_type", "hjacobi"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solve from x = 0; prints iterations, time and the true relative residual */
static PetscErrorCode Solve(KSP ksp, Mat A, Vec b, Vec x, const char what[])
{
  PetscLogDouble     t0, t1;
  PetscInt           its;
  PetscReal          rnorm, bnorm;
  KSPConvergedReason reason;
  Vec                r;
  PC                 pc;
  KSP                smoother;
  PCType             pctype;
  KSPType            ksptype, stype = "-";
  PCType             spctype = "-";
  PetscBool          ismg;

  PetscFunctionBeginUser;
  PetscCall(VecZeroEntries(x));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecNorm(x, NORM_2, &rnorm)); /* a reduction: waits for every rank and GPU */
  PetscCall(PetscTime(&t1));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPGetType(ksp, &ksptype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCMG, &ismg));
  if (ismg) {
    PC       spc;
    PetscInt levels;
    PetscCall(PCMGGetLevels(pc, &levels));
    PetscCall(PCMGGetSmoother(pc, levels - 1, &smoother));
    PetscCall(KSPGetType(smoother, &stype));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PCGetType(spc, &spctype));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %s in %" PetscInt_FMT " iterations, %.4f s, ||b - A x|| / ||b|| = %.1e\n", what, KSPConvergedReasons[reason], its, t1 - t0, (double)(rnorm / bnorm)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT example=helmholtz solve=%s ksp=%s pc=%s smoother=%s/%s its=%" PetscInt_FMT " time=%.6e relres=%.3e reason=%s\n", what, ksptype, pctype, stype, spctype, its, t1 - t0, (double)(rnorm / bnorm), KSPConvergedReasons[reason]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  KSP         ksp;
  PC          pc;
  DM          da;
  Mat         A, P;
  Vec         x, b;
  PetscInt    dim = 2, m[3], xs, ys, zs, xm, ym, zm;
  PetscReal   k = 40, alpha = 0.01, beta = 0.5;
  PetscMPIInt size;
  VecType     vtype;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-k", &k, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-alpha", &alpha, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-beta", &beta, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim %" PetscInt_FMT ": this example solves the 2D or the 3D problem", dim);
  if (dim == 3) PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 65, 65, 65, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  else PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 257, 257, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &m[0], &m[1], &m[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(m[1] == m[0] && (dim == 2 || m[2] == m[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "this example takes the same number of points in every direction");
  PetscCall(DefaultSolver(da));

  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMCreateMatrix(da, &P));
  PetscCall(Assemble(da, k, 1.0 - alpha * PETSC_i, A));
  PetscCall(Assemble(da, k, 1.0 - beta * PETSC_i, P));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecZeroEntries(b));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  { /* the point source at the centre, on whichever rank owns it (every rank gets and restores the array: that
       invalidates the norm VecZeroEntries() cached on every rank) */
    const PetscInt c = (m[0] - 1) / 2;
    PetscScalar   *a;
    PetscCall(VecGetArray(b, &a));
    if (c >= xs && c < xs + xm && c >= ys && c < ys + ym && (dim == 2 || (c >= zs && c < zs + zm))) a[(c - xs) + xm * ((c - ys) + ym * (dim == 3 ? c - zs : 0))] = 1.0;
    PetscCall(VecRestoreArray(b, &a));
  }

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da)); /* PCMG's grid hierarchy; the operators are ours */
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetUseAmat(pc, PETSC_FALSE)); /* PCMG smooths and restricts with the shifted Laplacian (the Pmat) */
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(VecGetType(x, &vtype));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "D Helmholtz, %" PetscInt_FMT " points per direction, k = %g (k h = %.3f), damping %g, shifted Laplacian beta = %g; %d MPI rank(s), vectors of type %s\n", dim, m[0], (double)k, (double)(k / (m[0] - 1)), (double)alpha, (double)beta, size, vtype));
  PetscCall(Solve(ksp, A, b, x, "first")); /* PCSetUp included */
  PetscCall(Solve(ksp, A, b, x, "second"));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/* Its tests (ctest -L examples) are registered in examples/CMakeLists.txt. */
