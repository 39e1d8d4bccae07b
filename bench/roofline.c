static const char help[] = "B5 of ../shared/BENCHMARKS.md: roofline of PCHJACOBI's kernels on an n x n 2D Poisson DMDA.\n"
                           "  (1) device-to-device copy bandwidth (VecCopy; read + write counted) and VecAXPY (2 reads + 1 write);\n"
                           "  (2) the fused classic sweep (hjacobi k = 1): points/s and bytes/s at 24 B/point, against (1);\n"
                           "  (3) the hierarchical kernel (tile t x t, o = 0): point updates/s and the implied shared-memory traffic\n"
                           "      at 48 B/update against 128 B/clock/SM x SMs x clock.\n"
                           "Options: -n <8192> -reps <5> -target_seconds <0.1> (per timed repetition) -tile <32> -overlap <0>\n"
                           "         -k_list <16,32,64> -csv <file>; -dm_vec_type cuda -dm_mat_type aijcusparse for the GPU.\n";

/* Counting (stated in the output as well):
   - copy: VecCopy(x, y) reads n^2 and writes n^2 doubles: 16 B/point. VecAXPY(y, a, x): reads x and y, writes y: 24 B/point.
   - classic sweep, constant coefficients (the compact kernel: coefficients are kernel arguments): reads x (each value once;
     neighbour re-reads are assumed to hit in cache), reads b, writes x': 24 B/point. Per-cycle time is the marginal time
     (t(c_hi) - t(c_lo)) / (c_hi - c_lo), which removes the per-solve copies between x and the padded array that
     PCApplyRichardson makes once per call; the plain t(c_hi)/c_hi is printed too.
   - hierarchical kernel: point updates per cycle = k x (sum over tiles of the working-region area), which is k n^2 for
     o = 0. Shared-memory traffic per update: 5 reads (centre and 4 neighbours) + 1 write of 8 B = 48 B; b, the
     coefficients and the inverse diagonal are assumed to be in registers or constant memory. Two rates are printed:
     whole-cycle (including the cycle's global-memory load/store) and marginal between successive k
     ((t(k2) - t(k1)) / ((k2 - k1) x updates per sweep): the inner sweeps alone).
   - shared-memory peak: 128 B/clock/SM x SM count x SM clock (cudaDevAttrClockRate); HBM peak: 2 x memory clock x bus width. */
#include "hjbench.h"

typedef PetscErrorCode (*OpFn)(void *, PetscInt);

typedef struct {
  Vec x, y;
} VecCtx;

typedef struct {
  KSP ksp;
  Vec b, x;
} KSPCtx;

static PetscErrorCode OpCopy(void *ctx, PetscInt n)
{
  VecCtx *c = (VecCtx *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) PetscCall(VecCopy(c->x, c->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OpAXPY(void *ctx, PetscInt n)
{
  VecCtx *c = (VecCtx *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) PetscCall(VecAXPY(c->y, 1e-20, c->x)); /* nonzero alpha: VecAXPY skips alpha = 0 */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n cycles of PCApplyRichardson (KSPRICHARDSON fast path, no norms) */
static PetscErrorCode OpCycles(void *ctx, PetscInt n)
{
  KSPCtx *c = (KSPCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(KSPSetTolerances(c->ksp, HJB_TOL_KEEP, HJB_TOL_KEEP, HJB_TOL_KEEP, n));
  PetscCall(KSPSolve(c->ksp, c->b, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TimeOnce(OpFn op, void *ctx, PetscInt n, Vec sync, double *t)
{
  double t0;

  PetscFunctionBeginUser;
  *t = 0;
  PetscCall(HJBenchSync(sync));
  t0 = MPI_Wtime();
  PetscCall(op(ctx, n));
  PetscCall(HJBenchSync(sync));
  *t = MPI_Wtime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* how many operations make a repetition of about `target` seconds (after a warm-up of one) */
static PetscErrorCode Calibrate(OpFn op, void *ctx, Vec sync, double target, PetscInt *count)
{
  PetscInt n = 1;
  double   t = 0;

  PetscFunctionBeginUser;
  PetscCall(TimeOnce(op, ctx, 1, sync, &t));
  for (;;) {
    PetscCall(TimeOnce(op, ctx, n, sync, &t));
    if (t > 0.1 * target || n >= 1 << 20) break;
    n *= 4;
  }
  *count = PetscMax(1, (PetscInt)(n * target / PetscMax(t, 1e-9)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* median time of `reps` repetitions of n operations */
static PetscErrorCode Measure(OpFn op, void *ctx, PetscInt n, PetscInt reps, Vec sync, double *median)
{
  double *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(reps, &t));
  for (PetscInt i = 0; i < reps; i++) PetscCall(TimeOnce(op, ctx, n, sync, &t[i]));
  *median = HJBenchMedian(reps, t);
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* marginal time per cycle: slope between c_hi and c_hi/5 cycles; plain = t(c_hi)/c_hi */
static PetscErrorCode CycleTime(KSPCtx *kc, PetscInt reps, double target, double *marginal, double *plain, PetscInt *chi)
{
  PetscInt clo;
  double   thi = 0, tlo = 0;

  PetscFunctionBeginUser;
  PetscCall(Calibrate(OpCycles, kc, kc->x, target, chi));
  *chi = PetscMax(*chi, 10);
  clo  = PetscMax(1, *chi / 5);
  PetscCall(Measure(OpCycles, kc, *chi, reps, kc->x, &thi));
  PetscCall(Measure(OpCycles, kc, clo, reps, kc->x, &tlo));
  *plain    = thi / *chi;
  *marginal = (thi - tlo) / (double)(*chi - clo);
  if (*marginal <= 0) *marginal = *plain; /* noise on tiny grids */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the tile geometry of ALGORITHM.md (hj::NumTiles / hj::TileRange): sum of working-region widths along one direction */
static long long SumWidths(long long m, long long t, long long o)
{
  const long long n = m <= t ? 1 : (m - o + (t - o) - 1) / (t - o);
  long long       s = 0;
  if (n == 1) return m;
  for (long long i = 0; i < n; i++) {
    const long long w0 = i * (t - o), w1 = w0 + t < m ? w0 + t : m;
    s += w1 - w0;
  }
  return s;
}

static const char CSVHeader[] = "gpu,commit,N,test,tile,k,overlap,reps,ops_per_rep,time_per_op_s,points_per_s,bytes_per_point,bytes_per_s,ratio_to_copy,ratio_to_peak,note";

static PetscErrorCode Emit(MPI_Comm comm, FILE *csv, const HJBenchDevice *dev, PetscInt n, const char *test, PetscInt tile, PetscInt k, PetscInt o, PetscInt reps, PetscInt ops, double t, double pts, double bpp, double copybw, double peak, const char *note)
{
  PetscFunctionBeginUser;
  if (csv) {
    fprintf(csv, "%s,%s,%" PetscInt_FMT ",%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%g,%.6e,%.4f,%.4f,%s\n", dev->name, HJBenchCommit(), n, test, tile, k, o, reps, ops, t, pts / t, bpp, pts * bpp / t, copybw > 0 ? pts * bpp / t / copybw : NAN, peak > 0 ? pts * bpp / t / peak : NAN, note);
    fflush(csv);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm      comm;
  PetscInt      n = 8192, reps = 5, tile = 32, overlap = 0, klist[16] = {16, 32, 64}, nk = 3, xs, ys, xm, ym, ops;
  PetscReal     target = 0.1;
  char          csvpath[PETSC_MAX_PATH_LEN] = "";
  DM            da;
  Mat           A;
  Vec           b, x, y;
  KSP           ksp;
  PC            pc;
  HJBenchDevice dev;
  FILE         *csv;
  VecCtx        vc;
  KSPCtx        kc;
  double        t, tsetup, copybw, axpybw, pts, smempeak = 0, hbmpeak = 0, prevpc = 0, marginal, plain;
  long long     upsweep, upsweep_local;
  PetscInt      prevk = 0;
  VecType       vt;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  comm   = PETSC_COMM_WORLD;
  tsetup = MPI_Wtime();
  PetscOptionsBegin(comm, NULL, "roofline.c: B5", NULL);
  PetscCall(PetscOptionsInt("-n", "grid n x n", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-reps", "timed repetitions (median)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsReal("-target_seconds", "length of one timed repetition", NULL, target, &target, NULL));
  PetscCall(PetscOptionsInt("-tile", "hierarchical tile t (t x t)", NULL, tile, &tile, NULL));
  PetscCall(PetscOptionsInt("-overlap", "hierarchical overlap", NULL, overlap, &overlap, NULL));
  {
    PetscInt  m = 16;
    PetscBool set;
    PetscCall(PetscOptionsIntArray("-k_list", "hierarchical sub-iterations", NULL, klist, &m, &set));
    if (set) nk = m; /* an absent option sets m to 0 */
  }
  PetscCall(PetscOptionsString("-csv", "CSV file to append to", NULL, csvpath, csvpath, sizeof(csvpath), NULL));
  PetscOptionsEnd();

  PetscCall(HJBenchPoisson(comm, n, n, PETSC_FALSE, &da, &A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecSet(b, 1.0));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecSet(y, 2.0));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPMonitorCancel(ksp)); /* PCApplyRichardson's fast path */
  PetscCall(KSPRichardsonSetScale(ksp, 1.0));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  PetscCall(PCHJacobiSetTileSize(pc, tile, tile, 1));
  PetscCall(PCHJacobiSetOverlap(pc, 0, 0, 0));
  PetscCall(PCHJacobiSetSubiterations(pc, 1));
  PetscCall(PCSetUp(pc));
  tsetup = MPI_Wtime() - tsetup;

  PetscCall(HJBenchDeviceQuery(x, &dev));
  PetscCall(HJBenchCSVOpen(comm, csvpath, CSVHeader, argc, argv, &dev, &csv));
  PetscCall(VecGetType(x, &vt));
  pts = (double)n * (double)n;
  if (dev.sm_count > 0 && dev.clock_hz > 0) smempeak = 128.0 * dev.sm_count * dev.clock_hz;
  if (dev.mem_clock_hz > 0 && dev.bus_width_bits > 0) hbmpeak = 2.0 * dev.mem_clock_hz * dev.bus_width_bits / 8.0;
  PetscCall(PetscPrintf(comm, "== roofline.c (B5): %" PetscInt_FMT " x %" PetscInt_FMT " 2D Poisson, fp64 (%.0f MB per array), vectors %s, device %s, commit %s, setup %.1f s\n", n, n, 8 * pts / 1e6, vt, dev.name, HJBenchCommit(), tsetup));
  if (smempeak > 0)
    PetscCall(PetscPrintf(comm, "   device properties: %d SMs, SM clock %.0f MHz, shared memory %lld B/SM, L2 %.1f MB; memory clock %.0f MHz x %d-bit bus\n"
                                "   shared-memory peak = 128 B/clock/SM x %d SMs x %.3f GHz = %.2f TB/s; HBM peak = 2 x %.0f MHz x %d bit / 8 = %.2f TB/s\n",
                          dev.sm_count, dev.clock_hz / 1e6, dev.smem_per_sm, dev.l2_bytes / 1e6, dev.mem_clock_hz / 1e6, dev.bus_width_bits, dev.sm_count, dev.clock_hz / 1e9, smempeak / 1e12, dev.mem_clock_hz / 1e6, dev.bus_width_bits, hbmpeak / 1e12));
  else PetscCall(PetscPrintf(comm, "   device properties: not available (host vectors or no CUDA runtime): no peak ratios\n"));
  PetscCall(PetscPrintf(comm, "   every figure is the median of %" PetscInt_FMT " repetitions of about %g s each (MPI_Wtime around the operations + device sync)\n", reps, (double)target));

  /* (1) copy and AXPY */
  vc.x = x;
  vc.y = y;
  PetscCall(Calibrate(OpCopy, &vc, x, target, &ops));
  PetscCall(Measure(OpCopy, &vc, ops, reps, x, &t));
  copybw = 16.0 * pts * ops / t;
  PetscCall(PetscPrintf(comm, "copy     VecCopy   : %9.3f us/op  %8.2f GB/s  (16 B/point: read + write)", 1e6 * t / ops, copybw / 1e9));
  if (hbmpeak > 0) PetscCall(PetscPrintf(comm, ", %.3f of HBM peak", copybw / hbmpeak));
  PetscCall(PetscPrintf(comm, "\n"));
  PetscCall(Emit(comm, csv, &dev, n, "copy", 0, 0, 0, reps, ops, t / ops, pts, 16, copybw, hbmpeak, "VecCopy; ratio_to_peak = vs HBM peak"));
  PetscCall(Calibrate(OpAXPY, &vc, x, target, &ops));
  PetscCall(Measure(OpAXPY, &vc, ops, reps, x, &t));
  axpybw = 24.0 * pts * ops / t;
  PetscCall(PetscPrintf(comm, "axpy     VecAXPY   : %9.3f us/op  %8.2f GB/s  (24 B/point: 2 reads + 1 write), %.3f of copy\n", 1e6 * t / ops, axpybw / 1e9, axpybw / copybw));
  PetscCall(Emit(comm, csv, &dev, n, "axpy", 0, 0, 0, reps, ops, t / ops, pts, 24, copybw, hbmpeak, "VecAXPY; ratio_to_peak = vs HBM peak"));

  /* (2) the classic sweep */
  kc.ksp = ksp;
  kc.b   = b;
  kc.x   = x;
  PetscCall(CycleTime(&kc, reps, target, &marginal, &plain, &ops));
  PetscCall(PetscPrintf(comm, "classic  hjacobi k=1: %9.3f us/cycle (plain %.3f)  %8.2f Gpoints/s  %8.2f GB/s at 24 B/point  = %.3f of copy, %.3f of VecAXPY", 1e6 * marginal, 1e6 * plain, pts / marginal / 1e9, 24 * pts / marginal / 1e9, 24 * pts / marginal / copybw, 24 * pts / marginal / axpybw));
  if (hbmpeak > 0) PetscCall(PetscPrintf(comm, ", %.3f of HBM peak", 24 * pts / marginal / hbmpeak));
  PetscCall(PetscPrintf(comm, "\n"));
  PetscCall(Emit(comm, csv, &dev, n, "classic", 0, 1, 0, reps, ops, marginal, pts, 24, copybw, hbmpeak, "marginal time per cycle; ratio_to_peak = vs HBM peak"));

  /* (3) the hierarchical kernel */
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  if (overlap) PetscCall(PCHJacobiSetOverlap(pc, overlap, overlap, 0)); /* a new overlap means a new PCSetUp */
  upsweep_local = SumWidths(xm, tile, overlap) * SumWidths(ym, tile, overlap);
  PetscCallMPI(MPI_Allreduce(&upsweep_local, &upsweep, 1, MPI_LONG_LONG, MPI_SUM, comm));
  for (PetscInt i = 0; i < nk; i++) {
    const PetscInt k   = klist[i];
    const double   ups = (double)upsweep * k; /* point updates per cycle */
    char           note[128];
    PetscCall(PCHJacobiSetSubiterations(pc, k));
    PetscCall(PCSetUp(pc));
    PetscCall(CycleTime(&kc, reps, target, &marginal, &plain, &ops));
    PetscCall(PetscPrintf(comm, "hierarchical k=%-3" PetscInt_FMT " tile %" PetscInt_FMT "x%" PetscInt_FMT " o %" PetscInt_FMT ": %9.3f us/cycle  %8.2f Gupdates/s  shared memory at 48 B/update %8.3f TB/s", k, tile, tile, overlap, 1e6 * marginal, ups / marginal / 1e9, 48 * ups / marginal / 1e12));
    if (smempeak > 0) PetscCall(PetscPrintf(comm, " = %.3f of peak", 48 * ups / marginal / smempeak));
    PetscCall(PetscPrintf(comm, "\n"));
    PetscCall(PetscSNPrintf(note, sizeof(note), "whole cycle; points_per_s = point updates/s; ratio_to_peak = vs shared-memory peak"));
    PetscCall(Emit(comm, csv, &dev, n, "hierarchical", tile, k, overlap, reps, ops, marginal, ups, 48, copybw, smempeak, note));
    if (prevk > 0 && k > prevk && marginal > prevpc) {
      const double tsweep = (marginal - prevpc) / (double)(k - prevk), usw = (double)upsweep;
      PetscCall(PetscPrintf(comm, "   marginal k=%" PetscInt_FMT "->%" PetscInt_FMT ": %9.3f us per inner sweep  %8.2f Gupdates/s  shared memory at 48 B/update %8.3f TB/s", prevk, k, 1e6 * tsweep, usw / tsweep / 1e9, 48 * usw / tsweep / 1e12));
      if (smempeak > 0) PetscCall(PetscPrintf(comm, " = %.3f of peak", 48 * usw / tsweep / smempeak));
      PetscCall(PetscPrintf(comm, "\n"));
      PetscCall(PetscSNPrintf(note, sizeof(note), "marginal inner sweep between k=%" PetscInt_FMT " and k=%" PetscInt_FMT "; ratio_to_peak = vs shared-memory peak", prevk, k));
      PetscCall(Emit(comm, csv, &dev, n, "hierarchical_marginal", tile, k, overlap, reps, ops, tsweep, usw, 48, copybw, smempeak, note));
    }
    prevk  = k;
    prevpc = marginal;
  }
  if (csv) fclose(csv);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
