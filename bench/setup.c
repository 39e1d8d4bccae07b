/* B7 (bench/README.md): what PCHJACOBI's setup costs against MatMult of the same matrix, in one run.
   A variable-coefficient star operator on a 2D/3D DMDA with dof fields per point (blocks with couplings between
   fields) is assembled once; then, timed with the device synchronised:
     MatMult            (-reps times, the unit of every ratio)
     PCSetUp, full      (a new PC: layout, ghost exchange, extraction, backend setup, damping estimate)
     PCSetUp, values    (-reps times: MatScale changes the values, the nonzero pattern stays: a value-only refresh)
   and PETSc's own PCHJacobiExtract event (time and count) for each phase. With -dm_vec_type cuda -dm_mat_type
   aijcusparse everything lives on the GPU; add -log_view_gpu_time so that the event times are GPU times.
   Only the public API of petsc-hjacobi is used. */
#include "hjbench.h"

static char help[] = "B7: PCHJACOBI setup (full and value-only) against MatMult of the same matrix.\n"
                     "  -dim 2|3 -n <points per direction> -dof <fields per point> -reps <r>\n";

/* a fixed pseudo-random value in [0,1) of (point, salt): the operator is the same on every rank count */
static PetscReal Hash(PetscInt p, PetscInt salt)
{
  unsigned long long h = (unsigned long long)p * 0x9E3779B97F4A7C15ULL + (unsigned long long)salt * 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 31;
  h *= 0x94D049BB133111EBULL;
  h ^= h >> 29;
  return (PetscReal)(h >> 11) / 9007199254740992.0;
}

static PetscErrorCode Assemble(DM da, PetscInt dim, PetscInt dof, Mat A)
{
  PetscInt               xs[3], xm[3], gs[3], gm[3], M[3];
  ISLocalToGlobalMapping ltog;
  const PetscInt        *g;
  PetscScalar           *blk, *row;
  PetscInt               bs2 = dof * dof;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(DMDAGetGhostCorners(da, &gs[0], &gs[1], &gs[2], &gm[0], &gm[1], &gm[2]));
  PetscCall(DMGetLocalToGlobalMapping(da, &ltog));
  PetscCall(ISLocalToGlobalMappingGetBlockIndices(ltog, &g));
  PetscCall(PetscMalloc2(7 * bs2, &blk, 7 * bs2, &row));
  for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
    for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
      for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++) {
        const PetscInt p[3] = {i, j, k};
        const PetscInt l    = (i - gs[0]) + gm[0] * ((j - gs[1]) + gm[1] * (k - gs[2]));
        const PetscInt nat  = i + M[0] * (j + M[1] * k);
        PetscInt       cols[7], n = 1;
        PetscReal      sum = 0;
        cols[0]            = g[l];
        for (PetscInt d = 0; d < dim; d++)
          for (PetscInt s = -1; s <= 1; s += 2) {
            const PetscInt step = d == 0 ? 1 : (d == 1 ? gm[0] : gm[0] * gm[1]);
            if (p[d] + s < 0 || p[d] + s >= M[d]) continue;
            const PetscReal c = 1.0 + 0.5 * Hash(nat, 2 * d + (s > 0));
            cols[n]           = g[l + s * step];
            for (PetscInt a = 0; a < dof; a++)
              for (PetscInt b = 0; b < dof; b++) blk[n * bs2 + a * dof + b] = a == b ? -c : 0.01 * c;
            sum += c * (1 + 0.01 * (dof - 1));
            n++;
          }
        for (PetscInt a = 0; a < dof; a++)
          for (PetscInt b = 0; b < dof; b++) blk[a * dof + b] = a == b ? sum + 0.5 : 0.1 * Hash(nat, 10 + a * dof + b);
        /* one block row: MatSetValuesBlocked wants it row-major, [field a][column block e][field b] */
        for (PetscInt a = 0; a < dof; a++)
          for (PetscInt e = 0; e < n; e++)
            for (PetscInt b = 0; b < dof; b++) row[(a * n + e) * dof + b] = blk[e * bs2 + a * dof + b];
        PetscCall(MatSetValuesBlocked(A, 1, &cols[0], n, cols, row, INSERT_VALUES));
      }
  PetscCall(ISLocalToGlobalMappingRestoreBlockIndices(ltog, &g));
  PetscCall(PetscFree2(blk, row));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* seconds and count of PETSc event `name` so far (main stage) */
static PetscErrorCode EventSoFar(const char name[], double *t, int *count)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  *t     = info.time;
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt      dim = 3, n = 65, dof = 1, reps = 5;
  DM            da;
  Mat           A;
  Vec           x, y;
  PC            pc;
  double        t0, tmm, tfull, tval = 0, e0, e1, e2;
  int           c0, c1, c2;
  HJBenchDevice dev;
  PetscBool     logging;
  PetscMPIInt   size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-log_view", &logging));
  if (!logging) PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dof", &dof, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "hjbench: -dim 2 or 3");
  if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMSetMatrixPreallocateOnly(da, PETSC_TRUE));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, dim, dof, A));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(HJBenchDeviceQuery(x, &dev));

  /* MatMult: warm up, then the mean of reps */
  for (PetscInt r = 0; r < 2; r++) PetscCall(MatMult(A, x, y));
  PetscCall(HJBenchSync(y));
  t0 = MPI_Wtime();
  for (PetscInt r = 0; r < reps; r++) PetscCall(MatMult(A, x, y));
  PetscCall(HJBenchSync(y));
  tmm = (MPI_Wtime() - t0) / reps;

  /* full setup of a new PC */
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(EventSoFar("PCHJacobiExtract", &e0, &c0));
  PetscCall(HJBenchSync(y));
  t0 = MPI_Wtime();
  PetscCall(PCSetUp(pc));
  PetscCall(HJBenchSync(y));
  tfull = MPI_Wtime() - t0;
  PetscCall(EventSoFar("PCHJacobiExtract", &e1, &c1));
  PetscCall(PCApply(pc, x, y)); /* the setup is usable */

  /* value-only refreshes: same pattern, new values */
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(MatScale(A, 1.0 + 1e-3));
    PetscCall(HJBenchSync(y));
    t0 = MPI_Wtime();
    PetscCall(PCSetUp(pc));
    PetscCall(HJBenchSync(y));
    tval += MPI_Wtime() - t0;
  }
  tval /= reps;
  PetscCall(EventSoFar("PCHJacobiExtract", &e2, &c2));
  PetscCall(PCApply(pc, x, y));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SETUP %s: %" PetscInt_FMT "D %" PetscInt_FMT "^%" PetscInt_FMT " dof %" PetscInt_FMT ", %d ranks | MatMult %.3f ms | PCSetUp full %.3f ms = %.2f MatMults, PCHJacobiExtract %.3f ms = %.2f MatMults (%d calls) | PCSetUp values %.3f ms = %.2f MatMults, PCHJacobiExtract %.3f ms = %.2f MatMults (%d calls)\n",
                        dev.name, dim, n, dim, dof, (int)size, 1e3 * tmm, 1e3 * tfull, tfull / tmm, 1e3 * (e1 - e0), (e1 - e0) / tmm, c1 - c0, 1e3 * tval, tval / tmm, c2 > c1 ? 1e3 * (e2 - e1) / (c2 - c1) : 0.0, c2 > c1 ? (e2 - e1) / (c2 - c1) / tmm : 0.0, c2 - c1));
  PetscCall(PCDestroy(&pc));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
