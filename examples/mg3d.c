static char help[] = "3D Poisson (the operator of PETSc's ksp tutorial ex45) solved by FGMRES with geometric multigrid\n\
whose levels are smoothed by hierarchical Jacobi. Every level is re-discretised on a coarsened DMDA.\n\
-dim 2: the 2D 5-point Poisson with the same boundary treatment, scaled by h^2 (B3's 2D case, e.g. -da_grid_x 4097).\n\
Defaults, each replaced by the same option given on the command line:\n\
  -ksp_type fgmres -ksp_rtol 1e-8 -pc_type mg -pc_mg_levels <coarsen down to about 5^3>\n\
  -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi   (the last three only when the PC is mg)\n\
  -mg_levels_up_ksp_type, -mg_levels_up_pc_type: the same as the down-smoothers' (used with -pc_mg_distinct_smoothup)\n\
Grid: -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 (each n with n - 1 divisible by 2^(levels-1)).\n\
Hierarchical Jacobi on every level: -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_hjacobi_subiterations 4 ...\n\
Move it to the GPU with -dm_vec_type cuda -dm_mat_type aijcusparse.\n\
-symmetric: interior rows drop their couplings to the (known) boundary values, which move to the right-hand side,\n\
  so A is symmetric (for CG with a symmetric preconditioner); by default A is ex45's (nonsymmetric) matrix.\n\
Prints the iterations and the time of a second solve (the first one sets everything up).\n\
-transpose: the second solve is A^T x = b (KSPSolveTranspose()), its residual ||b - A^T x||.\n\
-sweep k:omega:its:tile,...  then, for each entry, set every level's hjacobi smoother to k sub-iterations, damping\n\
  omega (0: chosen from the operator), its smoothing iterations and tile (edge; 0 keeps the current one), solve once to set up, and time a second\n\
  solve. The entries apply one after the other.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* ex45's scaling: h^3 times -Laplacian (2D: h^2), Dirichlet points keep only their diagonal. In 2D there is no z
   coupling (cz = 0). */
static PetscErrorCode Spacing(DM da, PetscReal *hxhydhz, PetscReal *hxhzdhy, PetscReal *hyhzdhx, PetscReal *hxhyhz)
{
  PetscInt  dim, mx, my, mz;
  PetscReal hx, hy, hz;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  hx       = 1.0 / (mx - 1);
  hy       = 1.0 / (my - 1);
  hz       = dim == 3 ? 1.0 / (mz - 1) : 1.0;
  *hxhydhz = dim == 3 ? hx * hy / hz : 0.0;
  *hxhzdhy = hx * hz / hy;
  *hyhzdhx = hy * hz / hx;
  *hxhyhz  = hx * hy * hz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a boundary point of the grid (in 2D, z is not a direction) */
static inline PetscBool OnBoundary(PetscInt dim, PetscInt i, PetscInt j, PetscInt k, PetscInt mx, PetscInt my, PetscInt mz)
{
  return (PetscBool)(i == 0 || j == 0 || i == mx - 1 || j == my - 1 || (dim == 3 && (k == 0 || k == mz - 1)));
}

static PetscBool symmetric = PETSC_FALSE; /* -symmetric */
static PetscBool transpose = PETSC_FALSE; /* -transpose */

static PetscErrorCode ComputeMatrix(KSP ksp, Mat J, Mat A, void *ctx)
{
  DM        da;
  PetscInt  dim, mx, my, mz, xs, ys, zs, xm, ym, zm;
  PetscReal cz, cy, cx, vol;

  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(Spacing(da, &cz, &cy, &cx, &vol));
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil row    = {.k = k, .j = j, .i = i};
        MatStencil col[7] = {
          row, {.k = k,     .j = j - 1, .i = i    },
           {.k = k,     .j = j + 1, .i = i    },
           {.k = k,     .j = j,     .i = i - 1},
           {.k = k,     .j = j,     .i = i + 1},
           {.k = k - 1, .j = j,     .i = i    },
           {.k = k + 1, .j = j,     .i = i    }
        };
        PetscScalar v[7] = {2.0 * (cx + cy + cz), -cy, -cy, -cx, -cx, -cz, -cz};
        PetscBool   bnd  = OnBoundary(dim, i, j, k, mx, my, mz);
        PetscInt    n    = bnd ? 1 : 2 * dim + 1;

        if (symmetric && !bnd) { /* keep only the interior neighbours */
          n = 1;
          for (PetscInt c = 1; c < 2 * dim + 1; c++) {
            const MatStencil q = col[c];
            if (!OnBoundary(dim, q.i, q.j, q.k, mx, my, mz)) {
              col[n] = q;
              v[n++] = v[c];
            }
          }
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ComputeRHS(KSP ksp, Vec b, void *ctx)
{
  DM           da;
  PetscInt     dim, mx, my, mz, xs, ys, zs, xm, ym, zm;
  PetscReal    cz, cy, cx, vol;
  PetscScalar *ba;

  PetscFunctionBeginUser;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(Spacing(da, &cz, &cy, &cx, &vol));
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArray(b, &ba)); /* the owned box, x fastest */
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscBool bnd = OnBoundary(dim, i, j, k, mx, my, mz);
        PetscScalar    *v   = &ba[(i - xs) + xm * ((j - ys) + ym * (k - zs))];
        *v                  = bnd ? 2.0 * (cx + cy + cz) : vol; /* u = 1 on the boundary, -Laplacian u = 1 */
        if (symmetric && !bnd)                                  /* the boundary neighbours' known values (1) times their couplings */
          *v += (i == 1) * cx + (i == mx - 2) * cx + (j == 1) * cy + (j == my - 2) * cy + (dim == 3) * ((k == 1) * cz + (k == mz - 2) * cz);
      }
  PetscCall(VecRestoreArray(b, &ba));
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

/* the PCMG defaults of this example; the levels halve the grid while every size stays odd and above 5 */
static PetscErrorCode DefaultMultigrid(DM da)
{
  PetscInt  dim, m[3], levels = 1;
  char      pctype[64] = "mg", value[32];
  PetscBool ismg;

  PetscFunctionBeginUser;
  PetscCall(DefaultOption("-pc_type", "mg"));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PetscStrcmp(pctype, PCMG, &ismg));
  if (!ismg) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetInfo(da, &dim, &m[0], &m[1], &m[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  if (dim == 2) m[2] = m[0]; /* z does not coarsen */
  while (m[0] > 5 && m[1] > 5 && m[2] > 5 && (m[0] - 1) % 2 == 0 && (m[1] - 1) % 2 == 0 && (m[2] - 1) % 2 == 0) {
    for (PetscInt d = 0; d < 3; d++) m[d] = (m[d] - 1) / 2 + 1;
    levels++;
  }
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, levels));
  PetscCall(DefaultOption("-pc_mg_levels", value));
  PetscCall(DefaultOption("-mg_levels_ksp_type", KSPRICHARDSON));
  PetscCall(DefaultOption("-mg_levels_pc_type", PCHJACOBI));
  { /* -pc_mg_distinct_smoothup: PCMG gives the up-smoothers their own prefix (mg_levels_N_up_) and its defaults
       (Chebyshev/SOR); here they are the down-smoothers' types unless given */
    char      t[64];
    PetscBool set;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-mg_levels_ksp_type", t, sizeof(t), &set));
    if (set) PetscCall(DefaultOption("-mg_levels_up_ksp_type", t));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-mg_levels_pc_type", t, sizeof(t), &set));
    if (set) PetscCall(DefaultOption("-mg_levels_up_pc_type", t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "fgmres + mg (4 levels, smoother richardson/hjacobi)" */
static PetscErrorCode Describe(KSP ksp, char text[], size_t len, PetscInt *levels)
{
  KSPType   ktype, stype  = "";
  PCType    ptype, sptype = "";
  PC        pc;
  PetscBool ismg;

  PetscFunctionBeginUser;
  PetscCall(KSPGetType(ksp, &ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &ptype));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &ismg, PCMG, PCHJMG, ""));
  *levels = 1;
  if (ismg) {
    KSP smoother;
    PC  spc;

    PetscCall(PCMGGetLevels(pc, levels));
    PetscCall(PCMGGetSmoother(pc, *levels - 1, &smoother));
    PetscCall(KSPGetType(smoother, &stype));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PCGetType(spc, &sptype));
    PetscCall(PetscSNPrintf(text, len, "ksp=%s pc=%s levels=%" PetscInt_FMT " smoother=%s/%s", ktype, ptype, *levels, stype, sptype));
  } else PetscCall(PetscSNPrintf(text, len, "ksp=%s pc=%s", ktype, ptype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the second solve from x = 0 (the first one, done before, set everything up): one RESULT line */
static PetscLogStage stage = -1;

static PetscErrorCode TimedSolve(KSP ksp, Vec b, Vec x, const char tag[])
{
  Mat                A;
  Vec                r;
  DM                 da;
  PetscInt           dim, mx, my, mz, its, levels;
  PetscReal          rnorm, bnorm;
  PetscLogDouble     t0, t1;
  KSPConvergedReason reason;
  PetscMPIInt        size;
  VecType            vtype;
  char               solver[256];

  PetscFunctionBeginUser;
  if (stage < 0) PetscCall(PetscLogStageRegister("Timed solve", &stage)); /* -log_view: the timed solve alone */
  PetscCall(VecZeroEntries(x));
  PetscCall(VecNorm(b, NORM_2, &bnorm)); /* b where a GPU code's right-hand side is: ComputeRHS filled it on the host, and
                                            FGMRES's VecCopy from a vector valid on the host only copies it over PCIe at every solve */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscLogStagePush(stage));
  PetscCall(PetscTime(&t0));
  if (transpose) PetscCall(KSPSolveTranspose(ksp, b, x));
  else PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecNorm(x, NORM_2, &rnorm)); /* a reduction: waits for every rank and GPU */
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogStagePop());

  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  PetscCall(VecDuplicate(b, &r));
  if (transpose) PetscCall(MatMultTranspose(A, x, r));
  else PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecDestroy(&r));
  PetscCall(Describe(ksp, solver, sizeof(solver), &levels));
  PetscCall(VecGetType(x, &vtype));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "D Poisson %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %d MPI rank(s), vectors of type %s\n", dim, mx, my, mz, size, vtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  solver: %s%s%s\n", solver, tag[0] ? " " : "", tag));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s in %" PetscInt_FMT " iterations, %.4f s (second solve), ||b - A%s x|| / ||b|| = %.1e\n", KSPConvergedReasons[reason], its, transpose ? "^T" : "", t1 - t0, (double)(rnorm / bnorm)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT example=mg3d grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d vec=%s %s%s%s its=%" PetscInt_FMT " time=%.6e time_per_it=%.6e relres=%.3e reason=%s\n", mx, my, mz, size, vtype, solver, tag[0] ? " " : "", tag, its, t1 - t0, (t1 - t0) / PetscMax(its, 1), (double)(rnorm / bnorm), KSPConvergedReasons[reason]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -sweep entry "k:omega:its:tile" applied to every level's smoother (levels whose PC is not hjacobi are skipped) */
static PetscErrorCode ApplySweep(KSP ksp, PetscInt dim, const char entry[], char tag[], size_t len)
{
  PC        pc;
  PetscInt  levels, k = 4, its = 2, tile = 0;
  double    omega = 1.0;
  PetscBool ismg;

  PetscFunctionBeginUser;
  PetscCheck(sscanf(entry, "%" PetscInt_FMT ":%lf:%" PetscInt_FMT ":%" PetscInt_FMT, &k, &omega, &its, &tile) >= 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-sweep entry '%s': expected k:omega:its[:tile]", entry);
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &ismg, PCMG, PCHJMG, ""));
  PetscCheck(ismg, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-sweep changes the smoothers of PCMG: use it with -pc_type mg or hjmg");
  PetscCall(PCMGGetLevels(pc, &levels));
  for (PetscInt l = 1; l < levels; l++) {
    KSP       smoother;
    PC        spc;
    PetscBool ishj;

    PetscCall(PCMGGetSmoother(pc, l, &smoother));
    PetscCall(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, its));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PetscObjectTypeCompare((PetscObject)spc, PCHJACOBI, &ishj));
    if (!ishj) continue;
    PetscCall(PCHJacobiSetSubiterations(spc, k));
    PetscCall(PCHJacobiSetOmega(spc, omega > 0 ? (PetscReal)omega : PETSC_DECIDE)); /* 0: chosen from the operator */
    if (tile > 0) PetscCall(PCHJacobiSetTileSize(spc, tile, tile, dim == 3 ? tile : 1));
  }
  PetscCall(PetscSNPrintf(tag, len, "sweep=k%" PetscInt_FMT ":w%g:its%" PetscInt_FMT ":t%" PetscInt_FMT, k, omega, its, tile));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  KSP      ksp;
  DM       da;
  Vec      x, b;
  PetscInt dim = 3, mx, my, mz, nsweep = 64;
  char    *sweep[64];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-symmetric", &symmetric, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-transpose", &transpose, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim %" PetscInt_FMT ": this example solves the 2D or the 3D Poisson problem", dim);
  if (dim == 3) PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 33, 33, 33, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  else PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 33, 33, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DefaultMultigrid(da));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetComputeRHS(ksp, ComputeRHS, NULL));
  PetscCall(KSPSetComputeOperators(ksp, ComputeMatrix, NULL));
  PetscCall(KSPSetType(ksp, KSPFGMRES)); /* hjacobi with overlap > 0 is not symmetric: no CG by default */
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));

  /* the first solve assembles every level and sets the smoothers up; the second one, from x = 0, is timed */
  PetscCall(KSPSolve(ksp, NULL, NULL));
  PetscCall(KSPGetRhs(ksp, &b));
  PetscCall(KSPGetSolution(ksp, &x));
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE)); /* keep b and the operators of the first solve */
  PetscCall(TimedSolve(ksp, b, x, ""));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-sweep", sweep, &nsweep, NULL));
  for (PetscInt e = 0; e < nsweep; e++) {
    char tag[128];

    PetscCall(ApplySweep(ksp, dim, sweep[e], tag, sizeof(tag)));
    PetscCall(VecZeroEntries(x));
    PetscCall(KSPSolve(ksp, b, x)); /* sets the changed smoothers up */
    PetscCall(TimedSolve(ksp, b, x, tag));
    PetscCall(PetscFree(sweep[e]));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/* Its tests (ctest -L examples) are registered in examples/CMakeLists.txt. */
