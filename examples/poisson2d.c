static char help[] = "The 2D experiment of Islam & Wang (2020): Richardson iteration with classic and with hierarchical Jacobi.\n\
2D Poisson, 5-point stencil, n x n unknowns (zero Dirichlet boundary eliminated), b = 1, x0 = 1;\n\
both solvers iterate until ||b - A x||_2 <= rtol ||b - A x0||_2.\n\
  -n <128>             grid points per direction (or -da_grid_x/-da_grid_y)\n\
  -rtol <1e-4>         residual reduction\n\
  -jacobi <true>       also run stock PETSc Jacobi (its options prefix is jacobi_)\n\
  -converge <true>     run to convergence (false: only the -time_cycles measurement)\n\
  -time_cycles <n>     then time exactly n cycles without norms (0: each solver's own cycle count)\n\
  -reps <5>            timed repetitions of -time_cycles (the median is reported)\n\
The hierarchical solver has no options prefix: -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_overlap 2\n\
Move it to the GPU with -dm_vec_type cuda -dm_mat_type aijcusparse.\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

/* Stop when ||b - A x|| <= rtol ||b - A x0||, tested every cycle (ctx holds ||b - A x0||). A test of one's own also
   keeps KSPRICHARDSON from passing all max_it cycles to PCApplyRichardson(), which runs them without testing. */
static PetscErrorCode StopAtRelativeResidual(KSP ksp, PetscInt it, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  PetscReal *rnorm0 = (PetscReal *)ctx, rtol;

  PetscFunctionBeginUser;
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
  if (it == 0) *rnorm0 = rnorm;
  *reason = KSP_CONVERGED_ITERATING;
  if (PetscIsInfOrNanReal(rnorm)) *reason = KSP_DIVERGED_NANORINF;
  else if (rnorm <= rtol * *rnorm0) *reason = KSP_CONVERGED_RTOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* diagonal 4, -1 for each neighbour inside the grid: the zero boundary values are eliminated */
static PetscErrorCode AssemblePoisson(DM da, Mat A)
{
  PetscInt M, N, xs, ys, xm, ym;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++) {
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil  row = {.i = i, .j = j}, col[5];
      PetscScalar v[5];
      PetscInt    n = 0;

      if (i > 0) col[n] = (MatStencil){.i = i - 1, .j = j}, v[n++] = -1;
      if (i < M - 1) col[n] = (MatStencil){.i = i + 1, .j = j}, v[n++] = -1;
      if (j > 0) col[n] = (MatStencil){.i = i, .j = j - 1}, v[n++] = -1;
      if (j < N - 1) col[n] = (MatStencil){.i = i, .j = j + 1}, v[n++] = -1;
      col[n] = row, v[n++] = 4;
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateRichardson(Mat A, PCType pctype, const char prefix[], PetscReal rtol, PetscReal *rnorm0, KSP *ksp)
{
  PC       pc;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetInitialGuessNonzero(*ksp, PETSC_TRUE));
  PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(*ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 10 * n)); /* Jacobi needs about 2 n sweeps for 1e-4 */
  PetscCall(KSPSetConvergenceTest(*ksp, StopAtRelativeResidual, rnorm0, NULL));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(KSPSetUp(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a name for the table and the key=value fields of the RESULT line */
static PetscErrorCode Describe(KSP ksp, char name[], char fields[], size_t len, char shortname[], size_t shortlen)
{
  PC        pc;
  PCType    type;
  PetscBool ishj, isjac;

  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &type));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCHJACOBI, &ishj));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCJACOBI, &isjac));
  PetscCall(PetscSNPrintf(name, len, "Richardson with -pc_type %s", type));
  PetscCall(PetscSNPrintf(fields, len, "method=%s", type));
  PetscCall(PetscSNPrintf(shortname, shortlen, "-pc_type %s", type));
  if (isjac) PetscCall(PetscSNPrintf(name, len, "classic Jacobi (stock PETSc -pc_type jacobi)"));
  if (isjac) PetscCall(PetscSNPrintf(shortname, shortlen, "Classic Jacobi"));
  if (ishj) {
    PetscInt            t[3], o[3], k, c;
    PetscReal           w;
    PCHJacobiBackend    be;
    PCHJacobiWeightType wt;

    PetscCall(PCHJacobiGetTileSize(pc, &t[0], &t[1], NULL));
    PetscCall(PCHJacobiGetOverlap(pc, &o[0], &o[1], NULL));
    PetscCall(PCHJacobiGetSubiterations(pc, &k));
    PetscCall(PCHJacobiGetCycles(pc, &c));
    PetscCall(PCHJacobiGetOmega(pc, &w));
    PetscCall(PCHJacobiGetBackend(pc, &be));
    PetscCall(PCHJacobiGetWeights(pc, &wt));
    PetscCall(PetscSNPrintf(shortname, shortlen, "hierarchical Jacobi"));
    PetscCall(PetscSNPrintf(name, len, "hierarchical Jacobi (tile %" PetscInt_FMT "x%" PetscInt_FMT ", k = %" PetscInt_FMT ", overlap %" PetscInt_FMT ")", t[0], t[1], k, o[0]));
    if (c > 1) PetscCall(PetscSNPrintf(name, len, "hierarchical Jacobi (tile %" PetscInt_FMT "x%" PetscInt_FMT ", k = %" PetscInt_FMT ", overlap %" PetscInt_FMT ", c = %" PetscInt_FMT ")", t[0], t[1], k, o[0], c));
    PetscCall(PetscSNPrintf(fields, len, "method=hjacobi tile=%" PetscInt_FMT "x%" PetscInt_FMT " overlap=%" PetscInt_FMT "x%" PetscInt_FMT " k=%" PetscInt_FMT " c=%" PetscInt_FMT " omega=%.6g weights=%s backend=%s", t[0], t[1], o[0], o[1], k, c, (double)w, PCHJacobiWeightTypes[wt], PCHJacobiBackends[be]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one solve from x0 = 1, timed on the wall clock. The VecNorm() is inside the timed region on purpose: a reduction,
   it returns only when every rank (and its GPU) has finished, so the time is the solver's, not its launch's. */
static PetscErrorCode TimedSolve(KSP ksp, Vec b, Vec x, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;
  PetscReal      norm;

  PetscFunctionBeginUser;
  PetscCall(VecSet(x, 1.0));
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)ksp)));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecNorm(x, NORM_2, &norm));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ResidualNorm(Mat A, Vec b, Vec x, PetscReal *norm)
{
  Vec r;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, norm));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  KSP            ksp;
  char           name[256], fields[256], shortname[64];
  PetscReal      rnorm0;    /* ||b - A x0||, set by the convergence test */
  PetscInt       cycles;    /* to convergence */
  PetscLogDouble time;      /* to convergence */
  PetscLogDouble cycletime; /* median time of the -time_cycles measurement */
} Solver;

/* the convergence run: a short warm-up solve, then the solve that counts cycles */
static PetscErrorCode Converge(Solver *s, Mat A, Vec b, Vec x, PetscInt n, PetscReal r0)
{
  PetscReal          rtol, abstol, dtol, relres;
  PetscInt           maxit;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(KSPGetTolerances(s->ksp, &rtol, &abstol, &dtol, &maxit));
  PetscCall(KSPSetTolerances(s->ksp, rtol, abstol, dtol, 2));
  PetscCall(TimedSolve(s->ksp, b, x, &s->time));
  PetscCall(KSPSetTolerances(s->ksp, rtol, abstol, dtol, maxit));
  PetscCall(TimedSolve(s->ksp, b, x, &s->time));
  PetscCall(KSPGetIterationNumber(s->ksp, &s->cycles));
  PetscCall(KSPGetConvergedReason(s->ksp, &reason));
  PetscCall(ResidualNorm(A, b, x, &relres));
  relres /= r0;
  if (reason < 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "WARNING: %s did not converge: %s after %" PetscInt_FMT " cycles\n", s->name, KSPConvergedReasons[reason], s->cycles));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT mode=converge n=%" PetscInt_FMT " %s cycles=%" PetscInt_FMT " time=%.6e relres=%.3e reason=%s\n", n, s->fields, s->cycles, s->time, (double)relres, KSPConvergedReasons[reason]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* exactly `cycles` cycles, no norms, no convergence test: a warm-up, then the median of `reps` solves */
static PetscErrorCode TimeCycles(Solver *s, Mat A, Vec b, Vec x, PetscInt n, PetscReal r0, PetscInt cycles, PetscInt reps)
{
  PetscReal rtol, abstol, dtol, relres, *t;

  PetscFunctionBeginUser;
  PetscCall(KSPGetTolerances(s->ksp, &rtol, &abstol, &dtol, NULL));
  PetscCall(KSPSetTolerances(s->ksp, rtol, abstol, dtol, cycles));
  PetscCall(KSPSetNormType(s->ksp, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(s->ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(PetscMalloc1(reps + 1, &t));
  for (PetscInt r = 0; r <= reps; r++) { /* t[0]: warm-up */
    PetscCall(TimedSolve(s->ksp, b, x, &s->cycletime));
    t[r] = (PetscReal)s->cycletime;
  }
  PetscCall(PetscSortReal(reps, t + 1));
  s->cycletime = t[1 + reps / 2];
  PetscCall(PetscFree(t));
  PetscCall(ResidualNorm(A, b, x, &relres));
  relres /= r0;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-58s %8" PetscInt_FMT " cycles %11.4f s\n", s->name, cycles, s->cycletime));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT mode=fixed n=%" PetscInt_FMT " %s cycles=%" PetscInt_FMT " time=%.6e time_per_cycle=%.6e reps=%" PetscInt_FMT " relres=%.3e\n", n, s->fields, cycles, s->cycletime, s->cycletime / cycles, reps, (double)relres));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM          da;
  Mat         A;
  Vec         b, x;
  Solver      s[2];
  PetscInt    n = 128, M, N, timecycles = -1, reps = 5, first;
  PetscReal   rtol   = 1e-4, r0;
  PetscBool   jacobi = PETSC_TRUE, converge = PETSC_TRUE;
  PetscMPIInt size;
  VecType     vtype;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "2D Poisson: classic against hierarchical Jacobi", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-rtol", "residual reduction to reach", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsBool("-jacobi", "also run stock PETSc Jacobi (prefix jacobi_)", NULL, jacobi, &jacobi, NULL));
  PetscCall(PetscOptionsBool("-converge", "run to convergence", NULL, converge, &converge, NULL));
  PetscCall(PetscOptionsInt("-time_cycles", "time exactly this many cycles without norms (0: each solver's cycle count)", NULL, timecycles, &timecycles, NULL));
  PetscCall(PetscOptionsInt("-reps", "timed repetitions of -time_cycles", NULL, reps, &reps, NULL));
  PetscOptionsEnd();
  PetscCheck(converge || timecycles > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-converge false needs -time_cycles n with n > 0");
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps must be >= 1");

  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssemblePoisson(da, A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(b, 1.0));
  PetscCall(VecSet(x, 1.0));
  PetscCall(ResidualNorm(A, b, x, &r0));
  PetscCall(VecGetType(b, &vtype));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));

  first = jacobi ? 0 : 1;
  for (PetscInt m = first; m < 2; m++) {
    PetscCall(CreateRichardson(A, m ? PCHJACOBI : PCJACOBI, m ? NULL : "jacobi_", rtol, &s[m].rnorm0, &s[m].ksp));
    PetscCall(Describe(s[m].ksp, s[m].name, s[m].fields, sizeof(s[m].name), s[m].shortname, sizeof(s[m].shortname)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "2D Poisson, 5-point stencil, %" PetscInt_FMT " x %" PetscInt_FMT " unknowns, %d MPI rank(s), vectors of type %s\n", M, N, size, vtype));

  if (converge) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Richardson iteration from x0 = 1 until ||b - A x|| <= %g ||b - A x0||:\n", (double)rtol));
    for (PetscInt m = first; m < 2; m++) PetscCall(Converge(&s[m], A, b, x, M, r0));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n  %-58s %8s %11s\n", "method", "cycles", "time (s)"));
    for (PetscInt m = first; m < 2; m++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-58s %8" PetscInt_FMT " %11.4f\n", s[m].name, s[m].cycles, s[m].time));
    if (jacobi) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s needed %" PetscInt_FMT " sweeps over the grid, %s %" PetscInt_FMT " cycles: %.1fx faster.\n", s[0].shortname, s[0].cycles, s[1].shortname, s[1].cycles, s[0].time / s[1].time));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "(A hierarchical cycle: every tile does k Jacobi sweeps on its points, then the tiles exchange edges.\n Both times include a residual norm every cycle; -time_cycles 0 times the cycles alone.)\n"));
    }
  }
  if (timecycles >= 0) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nTiming cycles alone (no norms), median of %" PetscInt_FMT " after a warm-up:\n", reps));
    for (PetscInt m = first; m < 2; m++) {
      PetscInt c = timecycles > 0 ? timecycles : s[m].cycles;
      PetscCall(TimeCycles(&s[m], A, b, x, M, r0, c, reps));
    }
    if (jacobi) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %.1fx\n", timecycles ? "Time ratio for the same number of cycles" : "Speedup to the solution", s[0].cycletime / s[1].cycletime));
  }

  for (PetscInt m = first; m < 2; m++) PetscCall(KSPDestroy(&s[m].ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/* Its tests (ctest -L examples) are registered in examples/CMakeLists.txt. */
