static char help[] = "PCHJMG's stencil transfers against DMDA's assembled interpolation: a KSP with -pc_type hjmg and Galerkin\n\
coarse operators on a DMDA (-dim 1|2|3, -da_grid_x/y/z, -dof, -periodic), set up; for every level the installed\n\
interpolation (the stencil transfer where hjmg checked P, else P) against DMCreateInterpolation() of the level's two\n\
DMDAs, made here: P x, y + P x, P^T r, z + P^T r on random vectors, relative difference <= 1e-13 (hjtest PASS/FAIL\n\
lines, and 'level l: stencil' or 'level l: product': the stencil unless -pc_hjmg_stencil_transfer false or perturbed;\n\
on several ranks on host vectors only with -pc_hjmg_stencil_transfer true). Then new operator values (PCMG's setup\n\
again: Galerkin products need the levels' own P) and PCReset, compared again each time; -malloc_dump finds no leak.\n\
-perturb <l>: level l's interpolation is given (PCMGSetInterpolation) with one entry changed: hjmg must refuse it\n\
  (the level keeps the product) and every comparison is against that matrix.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* a diagonally dominant operator with every dof coupled to its star neighbours (values from the grid index) */
static PetscErrorCode Assemble(DM da, PetscScalar s, Mat A)
{
  PetscInt dim, M[3], dof, xs[3], xm[3];

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
    for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
      for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++)
        for (PetscInt c = 0; c < dof; c++) {
          MatStencil  row = {.k = k, .j = j, .i = i, .c = c}, col[7];
          PetscScalar v[7];
          PetscInt    n = 0;

          col[n] = row;
          v[n++] = s * (2.0 * dim + 1.0 + 0.1 * c);
          for (PetscInt d = 0; d < dim; d++)
            for (PetscInt e = -1; e <= 1; e += 2) {
              PetscInt p[3] = {i, j, k};
              p[d] += e;
              if (p[d] < 0 || p[d] >= M[d]) continue; /* periodic: DMDA wraps MatSetValuesStencil's indices itself */
              col[n]   = row;
              col[n].i = p[0];
              col[n].j = p[1];
              col[n].k = p[2];
              v[n++]   = -s;
            }
          PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
        }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *rel)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, a, b));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *rel = nb > 0 ? nd / nb : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every level's installed interpolation T against R (the reference P: made here from the level's DMs, or the
   perturbed matrix the test gave) */
static PetscErrorCode Compare(PC pc, PetscInt perturbed, Mat Pgiven[], const char *when, PetscBool *ok)
{
  PetscInt    nlevels;
  PetscMPIInt size;
  PetscBool   on = PETSC_TRUE, given = PETSC_FALSE;
  PetscInt    refused = -1;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pc_hjmg_stencil_transfer", &on, &given));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_refused", &refused, NULL));
  PetscCall(PCMGGetLevels(pc, &nlevels));
  for (PetscInt l = 1; l < nlevels; l++) {
    KSP         kf, kc;
    DM          dmf, dmc;
    Mat         T, R;
    Vec         xc, yc, zc, xf, yf, zf;
    PetscReal   e[4], worst = 0;
    const char *name;
    PetscBool   shell;

    PetscCall(PCMGGetInterpolation(pc, l, &T));
    PetscCall(PetscObjectTypeCompare((PetscObject)T, MATSHELL, &shell));
    PetscCall(PetscObjectGetName((PetscObject)T, &name));
    if (Pgiven[l]) {
      R = Pgiven[l];
      PetscCall(PetscObjectReference((PetscObject)R));
    } else {
      PetscCall(PCMGGetSmoother(pc, l, &kf));
      PetscCall(PCMGGetSmoother(pc, l - 1, &kc));
      PetscCall(KSPGetDM(kf, &dmf));
      PetscCall(KSPGetDM(kc, &dmc));
      PetscCall(DMCreateInterpolation(dmc, dmf, &R, NULL));
    }
    PetscCall(MatCreateVecs(R, &xc, &xf));
    PetscCall(VecDuplicate(xc, &yc));
    PetscCall(VecDuplicate(xc, &zc));
    PetscCall(VecDuplicate(xf, &yf));
    PetscCall(VecDuplicate(xf, &zf));
    PetscCall(VecSetRandom(xc, NULL));
    PetscCall(VecSetRandom(xf, NULL));
    PetscCall(VecSetRandom(zc, NULL));
    PetscCall(VecSetRandom(zf, NULL));
    /* P x */
    PetscCall(MatMult(T, xc, yf));
    PetscCall(MatMult(R, xc, zf));
    PetscCall(RelDiff(yf, zf, &e[0]));
    /* z + P x, in place as PCMG's MatInterpolateAdd */
    PetscCall(VecSetRandom(yf, NULL));
    PetscCall(VecCopy(yf, zf));
    PetscCall(MatInterpolateAdd(T, xc, yf, yf));
    PetscCall(MatMultAdd(R, xc, zf, zf));
    PetscCall(RelDiff(yf, zf, &e[1]));
    /* P^T r (MatRestrict) */
    PetscCall(MatRestrict(T, xf, yc));
    PetscCall(MatMultTranspose(R, xf, zc));
    PetscCall(RelDiff(yc, zc, &e[2]));
    /* z + P^T r into a third vector (the stencil's; PETSc 3.22's aijcusparse MatMultTransposeAdd(A, x, y, z) with z != y
       adds z's old values too, so a level that kept P is asked in place) */
    PetscCall(VecSetRandom(yc, NULL));
    if (shell) PetscCall(MatMultTransposeAdd(T, xf, yc, zc));
    else {
      PetscCall(VecCopy(yc, zc));
      PetscCall(MatMultTransposeAdd(T, xf, zc, zc));
    }
    PetscCall(MatMultTransposeAdd(R, xf, yc, yc));
    PetscCall(RelDiff(zc, yc, &e[3]));
    for (int q = 0; q < 4; q++) worst = PetscMax(worst, e[q]);
    {
      /* the DMDAs' own P: hjmg's stencil; on several ranks on host vectors only when asked for (-pc_hjmg_stencil_transfer true) */
      PetscBool device;

      PetscCall(PetscObjectTypeCompareAny((PetscObject)xf, &device, VECSEQCUDA, VECMPICUDA, ""));
      const PetscBool expect = (PetscBool)(on && l != perturbed && l != refused && (size == 1 || given || device));
      const PetscBool good   = (PetscBool)(worst <= 1e-13 && shell == expect);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s %s level %" PetscInt_FMT ": %s (%s): P x %.1e, y + P x %.1e, P^T r %.1e, z + P^T r %.1e\n", good ? "PASS" : "FAIL", when, l, shell ? "stencil" : "product", name ? name : "", (double)e[0], (double)e[1], (double)e[2], (double)e[3]));
      *ok = (PetscBool)(*ok && good);
    }
    PetscCall(VecDestroy(&xc));
    PetscCall(VecDestroy(&yc));
    PetscCall(VecDestroy(&zc));
    PetscCall(VecDestroy(&xf));
    PetscCall(VecDestroy(&yf));
    PetscCall(VecDestroy(&zf));
    PetscCall(MatDestroy(&R));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM             da;
  Mat            A, Pgiven[8] = {NULL};
  KSP            ksp;
  PC             pc;
  PetscInt       dim = 3, dof = 1, levels = 3, perturb = 0, own[2][16], nown[2] = {16, 16};
  PetscBool      periodic = PETSC_FALSE, ok = PETSC_TRUE, give = PETSC_FALSE, aij = PETSC_FALSE;
  DMBoundaryType bt;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dof", &dof, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &levels, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-perturb", &perturb, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-periodic", &periodic, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-give", &give, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-aij", &aij, NULL));
  if (aij) give = PETSC_TRUE;
  bt = periodic ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
  {
    PetscBool set[2];
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-own_fine", own[1], &nown[1], &set[1]));
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-own_coarse", own[0], &nown[0], &set[0]));
    for (int q = 0; q < 2; q++)
      if (!set[q]) nown[q] = 0;
  }
  if (nown[0] || nown[1]) { /* 1D, 2 levels: both grids with the ownership given (sizes 17 and 9): PCMG's own coarsening never gives these */
    PetscCheck(dim == 1 && levels == 2 && !periodic, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-own_fine and -own_coarse: 1D, 2 levels, not periodic");
    give = PETSC_TRUE;
  }
  if (dim == 1) PetscCall(DMDACreate1d(PETSC_COMM_WORLD, bt, nown[1] ? 17 : periodic ? 32 : 33, dof, 1, nown[1] ? own[1] : NULL, &da));
  else if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, bt, bt, DMDA_STENCIL_STAR, periodic ? 32 : 33, periodic ? 24 : 25, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, bt, bt, bt, DMDA_STENCIL_STAR, periodic ? 16 : 17, periodic ? 24 : 13, periodic ? 32 : 21, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, 1.0, A));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJMG));
  PetscCall(PCMGSetLevels(pc, levels, NULL));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH));
  if (give || perturb > 0) { /* the interpolations given (PCMGSetInterpolation): DMCreateInterpolation of the same coarsening
                                as PCMG's, optionally converted to AIJ (dof > 1: the values' AIJ instead of a MAIJ, as CUDA
                                builds of PETSc make it), level `perturb` with one entry changed */
    DM dms[8];

    PetscCheck(levels <= 8, PETSC_COMM_WORLD, PETSC_ERR_SUP, "at most 8 levels");
    dms[levels - 1] = da;
    PetscCall(PetscObjectReference((PetscObject)da));
    if (nown[0]) PetscCall(DMDACreate1d(PETSC_COMM_WORLD, bt, 9, dof, 1, own[0], &dms[0]));
    else
      for (PetscInt l = levels - 1; l > 0; l--) PetscCall(DMCoarsen(dms[l], PetscObjectComm((PetscObject)da), &dms[l - 1]));
    if (nown[0]) PetscCall(DMSetUp(dms[0]));
    for (PetscInt l = 1; l < levels; l++) {
      PetscCall(DMCreateInterpolation(dms[l - 1], dms[l], &Pgiven[l], NULL));
      if (aij) PetscCall(MatConvert(Pgiven[l], MATAIJ, MAT_INPLACE_MATRIX, &Pgiven[l]));
      if (l == perturb) { /* this rank's first row, its first entry scaled (MAIJ: the AIJ inside) */
        Mat                Paij = Pgiven[l];
        PetscInt           ncols, r0, c0;
        const PetscInt    *cols;
        const PetscScalar *vals;
        PetscScalar        v;
        PetscBool          maij;

        PetscCall(PetscObjectTypeCompareAny((PetscObject)Pgiven[l], &maij, MATSEQMAIJ, MATMPIMAIJ, ""));
        if (maij) PetscCall(MatMAIJGetAIJ(Pgiven[l], &Paij));
        PetscCall(MatGetOwnershipRange(Paij, &r0, NULL));
        PetscCall(MatGetRow(Paij, r0, &ncols, &cols, &vals));
        c0 = cols[0];
        v  = vals[0] * 1.25;
        PetscCall(MatRestoreRow(Paij, r0, &ncols, &cols, &vals));
        PetscCall(MatSetValues(Paij, 1, &r0, 1, &c0, &v, INSERT_VALUES));
        PetscCall(MatAssemblyBegin(Paij, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(Paij, MAT_FINAL_ASSEMBLY));
      }
      PetscCall(PCMGSetInterpolation(pc, l, Pgiven[l]));
    }
    for (PetscInt l = 0; l < levels; l++) { /* PCMG coarsens no DM when every interpolation is given: the levels get these */
      KSP smoother;

      PetscCall(PCMGGetSmoother(pc, l, &smoother));
      PetscCall(KSPSetDM(smoother, dms[l]));
      PetscCall(HJKSPSetDMActive(smoother, PETSC_FALSE));
      PetscCall(DMDestroy(&dms[l]));
    }
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(Compare(pc, perturb, Pgiven, "first setup", &ok));
  PetscCall(Assemble(da, 2.0, A)); /* new values: PCMG's setup again (Galerkin reuse with the levels' own P) */
  PetscCall(KSPSetUp(ksp));
  PetscCall(Compare(pc, perturb, Pgiven, "new values", &ok));
  if (!give && !perturb) { /* PCReset: PCMG makes the interpolations again, hjmg checks and installs again */
    PetscCall(PCReset(pc));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetUp(ksp));
    PetscCall(Compare(pc, perturb, Pgiven, "after PCReset", &ok));
  }
  { /* a solve through the installed transfers */
    Vec                b, x;
    PetscInt           its;
    KSPConvergedReason reason;

    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecSet(b, 1.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s solve: %s in %" PetscInt_FMT " iterations\n", reason > 0 ? "PASS" : "FAIL", KSPConvergedReasons[reason], its));
    ok = (PetscBool)(ok && reason > 0);
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
  }
  PetscCall(KSPDestroy(&ksp));
  for (PetscInt l = 0; l < 8; l++) PetscCall(MatDestroy(&Pgiven[l]));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s test_transfer\n", ok ? "PASS" : "FAIL"));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
