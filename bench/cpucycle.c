static const char help[] = "C3/C4 of bench/README.md, the host cycle against its memory-bandwidth bound: on an n^dim DMDA with the\n"
                           "operator of examples/mg3d (ex45's 7-point Laplacian, 5-point in 2D, Dirichlet rows on the faces), one rank:\n"
                           "  (1) VecCopy bandwidth (read + write: 16 B/value, vectors of at least 2^23 values: beyond the caches) and MatMult\n"
                           "      of the same matrix;\n"
                           "  (2) one hjacobi cycle (PCApplyRichardson through KSPRICHARDSON, no norms), its marginal time per cycle,\n"
                           "      charged the bytes it must move at least: x read, b read, y written (24 B/point), and the coefficient\n"
                           "      planes and inverse diagonal of the rows it reads in full (those outside the box of constant rows);\n"
                           "      the ratio of that bandwidth to the copy's (the issue's target: >= 0.5).\n"
                           "Options: -dim <3> -n <97> -k_list <1,2,4,8> -reps <5> -target_seconds <0.2>; any -pc_hjacobi_ option.\n";

#include "hjbench.h"

/* ex45's operator (examples/mg3d.c without its symmetric variant): Dirichlet points keep their diagonal */
static PetscErrorCode Operator(DM da, Mat A)
{
  PetscInt    dim, mx, my, mz, xs, ys, zs, xm, ym, zm;
  MatStencil  row, col[7];
  PetscScalar v[7];
  PetscReal   hx, hy, hz, cx, cy, cz;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, &dim, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  hx = 1.0 / (mx - 1), hy = 1.0 / (my - 1), hz = dim == 3 ? 1.0 / (mz - 1) : 1.0;
  cx = hy * hz / hx, cy = hx * hz / hy, cz = dim == 3 ? hx * hy / hz : 0.0;
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscInt n = 0;
        row.i = i, row.j = j, row.k = k, row.c = 0;
        if (i == 0 || j == 0 || i == mx - 1 || j == my - 1 || (dim == 3 && (k == 0 || k == mz - 1))) {
          v[0] = 2.0 * (cx + cy + cz);
          PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, v, INSERT_VALUES));
          continue;
        }
        const PetscInt o[6][3] = {
          {-1, 0,  0 },
          {1,  0,  0 },
          {0,  -1, 0 },
          {0,  1,  0 },
          {0,  0,  -1},
          {0,  0,  1 }
        };
        const PetscReal c[6] = {cx, cx, cy, cy, cz, cz};
        for (PetscInt s = 0; s < 2 * dim; s++) {
          col[n].i = i + o[s][0], col[n].j = j + o[s][1], col[n].k = k + o[s][2], col[n].c = 0;
          v[n++] = -c[s];
        }
        col[n] = row;
        v[n++] = 2.0 * (cx + cy + cz);
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  KSP ksp;
  Mat A;
  Vec b, x, y;
  int what; /* 0 copy, 1 matmult, 2 cycles */
} Ctx;

static PetscErrorCode Run(Ctx *c, PetscInt n)
{
  PetscFunctionBeginUser;
  if (c->what == 0)
    for (PetscInt i = 0; i < n; i++) PetscCall(VecCopy(c->x, c->y));
  else if (c->what == 1)
    for (PetscInt i = 0; i < n; i++) PetscCall(MatMult(c->A, c->x, c->y));
  else {
    PetscCall(KSPSetTolerances(c->ksp, HJB_TOL_KEEP, HJB_TOL_KEEP, HJB_TOL_KEEP, n));
    PetscCall(KSPSolve(c->ksp, c->b, c->x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* median over reps of the time of n operations */
static PetscErrorCode Time(Ctx *c, PetscInt n, PetscInt reps, double *med)
{
  double t[64];

  PetscFunctionBeginUser;
  PetscCall(Run(c, 1)); /* warm-up */
  for (PetscInt r = 0; r < reps; r++) {
    double t0 = MPI_Wtime();
    PetscCall(Run(c, n));
    t[r] = MPI_Wtime() - t0;
  }
  *med = HJBenchMedian(reps, t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM        da;
  Mat       A;
  PC        pc;
  Ctx       c;
  PetscInt  dim = 3, n = 97, reps = 5, klist[16] = {1, 2, 4, 8}, nk = 16, N, nshell;
  PetscReal target = 0.2;
  double    tcopy, tmat, bw;
  char      cpu[256] = "unknown";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-target_seconds", &target, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-k_list", klist, &nk, NULL));
  if (nk == 16) nk = 4;
  reps = PetscMin(PetscMax(reps, 1), 64);
  { /* the CPU's name (Linux) */
    FILE *f = fopen("/proc/cpuinfo", "r");
    char  line[512];
    while (f && fgets(line, sizeof(line), f))
      if (!strncmp(line, "model name", 10)) {
        char *p = strchr(line, ':');
        if (p) PetscCall(PetscStrncpy(cpu, p + 2, sizeof(cpu)));
        cpu[strcspn(cpu, "\n")] = 0;
        break;
      }
    if (f) fclose(f);
  }
  if (dim == 3) PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  else PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Operator(da, A));
  PetscCall(DMCreateGlobalVector(da, &c.b));
  PetscCall(VecDuplicate(c.b, &c.x));
  PetscCall(VecDuplicate(c.b, &c.y));
  PetscCall(VecSetRandom(c.b, NULL));
  PetscCall(VecSet(c.x, 1.0));
  PetscCall(VecGetSize(c.b, &N));
  c.A = A;
  /* the points outside the box of constant rows (the faces), whose rows are read in full */
  nshell = N;
  {
    PetscInt in = 1;
    for (PetscInt d = 0; d < dim; d++) in *= PetscMax(0, n - 2); /* the faces: ex45's Dirichlet rows */
    nshell = N - in;
  }

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &c.ksp));
  PetscCall(KSPSetOperators(c.ksp, A, A));
  PetscCall(KSPSetType(c.ksp, KSPRICHARDSON));
  PetscCall(KSPSetNormType(c.ksp, KSP_NORM_NONE));
  PetscCall(KSPSetInitialGuessNonzero(c.ksp, PETSC_TRUE));
  PetscCall(KSPGetPC(c.ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCHJacobiSetOmega(pc, 0.8));
  PetscCall(KSPSetFromOptions(c.ksp));
  PetscCall(KSPSetUp(c.ksp));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cpucycle: CPU %s, %" PetscInt_FMT "D %" PetscInt_FMT "^%" PetscInt_FMT " (%" PetscInt_FMT " points, %" PetscInt_FMT " outside the box of constant rows), commit %s\n", cpu, dim, n, dim, N, nshell, HJBenchCommit()));
  { /* the copy on vectors of at least 2^23 values (64 MiB each), larger than the last-level cache: memory bandwidth */
    Ctx      cc = c;
    PetscInt nc = PetscMax(N, 1 << 23);
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, nc, &cc.x));
    PetscCall(VecDuplicate(cc.x, &cc.y));
    PetscCall(VecSet(cc.x, 1.0));
    PetscCall(VecSet(cc.y, 2.0));
    cc.what = 0;
    PetscCall(Time(&cc, 5, reps, &tcopy));
    tcopy /= 5;
    bw = 16.0 * nc / tcopy;
    tcopy *= (double)N / nc; /* the copy of N values at that bandwidth */
    PetscCall(VecDestroy(&cc.x));
    PetscCall(VecDestroy(&cc.y));
  }
  c.what = 1;
  PetscCall(Time(&c, 10, reps, &tmat));
  tmat /= 10;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "VecCopy %.3f ms (%.2f GB/s), MatMult %.3f ms\n", 1e3 * tcopy, 1e-9 * bw, 1e3 * tmat));
  for (PetscInt i = 0; i < nk; i++) {
    PetscInt t[3], o[3], lo, hi;
    double   tlo, thi, per, bytes;

    PetscCall(PCHJacobiSetSubiterations(pc, klist[i]));
    PetscCall(KSPSetUp(c.ksp));
    c.what = 2;
    PetscCall(Time(&c, 1, 1, &thi)); /* sets up */
    hi = PetscMax(2, (PetscInt)(target / PetscMax(thi, 1e-6)));
    lo = PetscMax(1, hi / 5);
    if (lo == hi) hi = lo + 1;
    PetscCall(Time(&c, hi, reps, &thi));
    PetscCall(Time(&c, lo, reps, &tlo));
    per   = (thi - tlo) / (hi - lo);
    bytes = 24.0 * N + 8.0 * (2 * dim + 1) * nshell;
    PetscCall(PCHJacobiGetTileSize(pc, &t[0], &t[1], &t[2]));
    PetscCall(PCHJacobiGetOverlap(pc, &o[0], &o[1], &o[2]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cycle k %" PetscInt_FMT " tile %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": %.3f ms per cycle (%.2f MatMult), %.0f MB at least, %.2f GB/s = %.2f of the copy's bandwidth\n", klist[i], t[0], t[1], t[2], 1e3 * per, per / tmat, 1e-6 * bytes, 1e-9 * bytes / per, bytes / per / bw));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT bench=cpucycle cpu=\"%s\" dim=%" PetscInt_FMT " n=%" PetscInt_FMT " k=%" PetscInt_FMT " tile=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " copy_ms=%.4f matmult_ms=%.4f cycle_ms=%.4f bytes=%.0f ratio_copy=%.3f\n", cpu, dim, n, klist[i], t[0], t[1], t[2], 1e3 * tcopy, 1e3 * tmat, 1e3 * per, bytes, bytes / per / bw));
  }
  PetscCall(KSPDestroy(&c.ksp));
  PetscCall(VecDestroy(&c.b));
  PetscCall(VecDestroy(&c.x));
  PetscCall(VecDestroy(&c.y));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
