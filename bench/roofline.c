static const char help[] = "B5 of bench/README.md: roofline of PCHJACOBI's kernels on an n x n 2D Poisson DMDA.\n"
                           "  (1) device-to-device copy bandwidth (VecCopy; read + write counted) and VecAXPY (2 reads + 1 write);\n"
                           "  (2) the fused classic sweep (hjacobi k = 1) at 24 B/point against (1) and the HBM peak;\n"
                           "  (3) the hierarchical kernel (tile t x t, o = 0): each whole cycle charged the bytes its kernel really moves,\n"
                           "      HBM (tiles with their halo, b, the result) against (1) and the HBM peak, shared memory (the kernel's own\n"
                           "      accesses per update) against 32 banks x 4 B/clock/SM x SMs x clock; the marginal cost of one more sweep.\n"
                           "Options: -n <8192> -reps <5> -target_seconds <0.1> (per timed repetition) -tile <32> -overlap <0>\n"
                           "         -k_list <16,32,64> -csv <file>; -dm_vec_type cuda -dm_mat_type aijcusparse for the GPU.\n";

/* Counting (stated in the output as well). Every byte figure is what the kernel must move at least; a ratio above 1 of
   a physical peak (HBM: 2 x memory clock x bus width; shared memory: 32 banks x 4 B per clock per SM) means the
   accounting is wrong, and bench/summary.py prints an ERROR line for it. The measured copy is not a peak: a sweep that
   reads twice what it writes can run slightly faster than a copy (H100 run2: classic 1.02 of the copy, 0.89 of the peak).
   - copy: VecCopy(x, y) reads n^2 and writes n^2 doubles: 16 B/point. VecAXPY(y, a, x): reads x and y, writes y: 24 B/point.
   - classic sweep, constant coefficients (the compact kernel: coefficients are kernel arguments): reads x (each value once;
     neighbour re-reads are assumed to hit in cache), reads b, writes x': 24 B/point. Per-cycle time is the marginal time
     (t(c_hi) - t(c_lo)) / (c_hi - c_lo), which removes the per-solve copies between x and the padded array that
     PCApplyRichardson makes once per call; the plain t(c_hi)/c_hi is printed too.
   - hierarchical kernel, one cycle (the kernel and its shared-memory scalar read back from -pc_view: HJKernelOf()):
     HBM: every tile loads its working region with the one-point halo, (wx + 2)(wy + 2) values of x (a halo re-read from
     HBM, not cache, at worst), reads b on its working region and writes its owned points: 8 B each (the roofline's operator
     has constant coefficients: no coefficient planes). The correction form (fp32 sub-iterations) reads the same x for its
     residual and re-reads the owned x for x + delta (counted once: L2 holds it for the cycle).
     Shared memory, in the sub-iteration scalar S (8 B fp64, 4 B fp32): filling both buffers (2 (wx + 2)(wy + 2) stores)
     and k sweeps of accesses per update: TileKernel reads the centre and 4 neighbours and writes 1 (6); the register
     strip of R points reads its left and right columns and the points above and below and writes R ((3R + 2)/R: 3.5 at
     R = 4, 3.25 at R = 8), plus R + 2 loads of each strip before the first sweep.
   - marginal inner sweep: (t(k2) - t(k1)) / (k2 - k1). It is a slope, not a bandwidth: with more sweeps per cycle more of
     the tiles' HBM phases overlap other tiles' sweeps, so the slope can be below one sweep's shared-memory time (H200
     followup: the register kernel's slope, 13.1 us at 4096^2, would be 1.07 of the shared-memory peak at 3.5 accesses of
     8 B per update). It gets no peak ratio; the whole cycles above carry the ratios.
   - shared-memory peak: 32 banks x 4 B per clock per SM x SM count x SM clock (cudaDevAttrClockRate); HBM peak:
     2 x memory clock x bus width. */
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

/* the tile geometry of doc/algorithm.md, step 1 (hj::NumTiles / hj::TileRange) along one direction: the number of tiles
   and the sum of their working-region widths */
static void TileSums(long long m, long long t, long long o, long long *ntiles, long long *sumw)
{
  const long long n = m <= t ? 1 : (m - o + (t - o) - 1) / (t - o);
  *ntiles           = n;
  *sumw             = 0;
  if (n == 1) {
    *sumw = m;
    return;
  }
  for (long long i = 0; i < n; i++) {
    const long long w0 = i * (t - o), w1 = w0 + t < m ? w0 + t : m;
    *sumw += w1 - w0;
  }
}

/* The tile kernel the PC runs and its sub-iteration scalar, from its -pc_view line "CUDA on ...: tile kernel (registers
   ...), ..., T threads x R points per thread ..., sub-iterations in single precision" (the public view: the plan is
   private). kernel: "registers", "shared", "rows", "point-block", "classic" or "host" (no CUDA plan: host backend). */
typedef struct {
  char kernel[32];
  int  strip;  /* points per thread (R of the register kernel) */
  int  sbytes; /* bytes of one sub-iteration scalar in shared memory */
} HJKernel;

static PetscErrorCode HJKernelOf(PC pc, HJKernel *kn)
{
  PetscViewer v;
  char       *buf;
  const char *line;
  size_t      len = 1 << 16;
  FILE       *fp;
  MPI_Comm    comm;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)pc, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscStrncpy(kn->kernel, "host", sizeof(kn->kernel)));
  kn->strip  = 1;
  kn->sbytes = (int)sizeof(PetscScalar);
  PetscCall(PetscCalloc1(len, &buf));
  /* an ASCII viewer (the PC prints its view only to those) on a FILE in memory; rank 0 writes, rank 0 parses */
  fp = fmemopen(buf, len - 1, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_SYS, "roofline: fmemopen failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(comm, fp, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  fclose(fp);
  if (!rank && (line = strstr(buf, "CUDA on "))) {
    const char *tk = strstr(line, "tile kernel ("), *pp = strstr(line, " points per thread");
    if (strstr(line, "fused classic sweep")) PetscCall(PetscStrncpy(kn->kernel, "classic", sizeof(kn->kernel)));
    else if (tk && !strncmp(tk + 13, "registers", 9)) PetscCall(PetscStrncpy(kn->kernel, "registers", sizeof(kn->kernel)));
    else if (tk && !strncmp(tk + 13, "point-block", 11)) PetscCall(PetscStrncpy(kn->kernel, "point-block", sizeof(kn->kernel)));
    else if (strstr(line, "every row an independent 1D problem")) PetscCall(PetscStrncpy(kn->kernel, "rows", sizeof(kn->kernel)));
    else PetscCall(PetscStrncpy(kn->kernel, "shared", sizeof(kn->kernel)));
    if (pp) { /* "... x R points per thread": R is the number before pp */
      const char *q = pp;
      while (q > line && q[-1] >= '0' && q[-1] <= '9') q--;
      kn->strip = atoi(q);
    }
    if (strstr(line, "sub-iterations in single precision")) kn->sbytes = 4;
  }
  PetscCallMPI(MPI_Bcast(kn, (PetscMPIInt)sizeof(*kn), MPI_BYTE, 0, comm));
  PetscCall(PetscInfo(pc, "roofline: -pc_view has %zu characters on this rank; kernel %s, %d points per thread, %d B per sub-iteration scalar\n", strlen(buf), kn->kernel, kn->strip, kn->sbytes));
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* shared-memory accesses per point update of one sweep (2D 5-point star; the header comment says why) */
static double SmemAccessesPerUpdate(const HJKernel *kn)
{
  if (!strcmp(kn->kernel, "registers")) return (3.0 * kn->strip + 2.0) / kn->strip;
  if (!strcmp(kn->kernel, "rows")) return 4.0; /* 1D: centre and 2 neighbours read, 1 written */
  return 6.0;                                  /* TileKernel 2D star: centre and 4 neighbours read, 1 written */
}

static const char CSVHeader[] = "gpu,commit,N,test,kernel,inner_bytes,tile,k,overlap,reps,ops_per_rep,time_per_op_s,points_per_s,hbm_bytes,hbm_bytes_per_s,ratio_to_copy,ratio_to_hbm_peak,smem_bytes,smem_bytes_per_s,ratio_to_smem_peak,note";

/* One CSV row: per operation (a copy, a cycle, a sweep) its time t, its points (or updates) pts, the HBM bytes and the
   shared-memory bytes it moves (0: none or not a bandwidth: no ratio), and the ratios to the measured copy and the peaks. */
typedef struct {
  const char *test, *kernel, *note;
  PetscInt    tile, k, o, reps, ops;
  int         sbytes;
  double      t, pts, hbm, smem;
} Row;

static PetscErrorCode Emit(FILE *csv, const HJBenchDevice *dev, PetscInt n, const Row *r, double copybw, double hbmpeak, double smempeak)
{
  PetscFunctionBeginUser;
  if (csv) {
    const double hb = r->hbm / r->t, sb = r->smem / r->t;
    PetscCheck(!strchr(r->note, ','), PETSC_COMM_SELF, PETSC_ERR_PLIB, "roofline: a CSV note must not hold a comma: %s", r->note);
    fprintf(csv, "%s,%s,%" PetscInt_FMT ",%s,%s,%d,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.6e,%.6e,%.4f,%.4f,%.6e,%.6e,%.4f,%s\n", dev->name, HJBenchCommit(), n, r->test, r->kernel, r->sbytes, r->tile, r->k, r->o, r->reps, r->ops, r->t, r->pts / r->t, r->hbm, hb, r->hbm > 0 && copybw > 0 ? hb / copybw : NAN, r->hbm > 0 && hbmpeak > 0 ? hb / hbmpeak : NAN, r->smem, sb, r->smem > 0 && smempeak > 0 ? sb / smempeak : NAN, r->note);
    fflush(csv);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* " = 0.xxx of NAME" when the peak is known */
static PetscErrorCode PrintRatio(MPI_Comm comm, double bps, double peak, const char *name)
{
  PetscFunctionBeginUser;
  if (peak > 0) PetscCall(PetscPrintf(comm, " = %.3f of %s%s", bps / peak, name, bps > peak ? " (ERROR: above a physical peak: the byte count is wrong)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm      comm;
  PetscInt      n = 8192, reps = 5, tile = 32, overlap = 0, klist[16] = {16, 32, 64}, nk = 3, xs, ys, xm, ym, ops;
  PetscReal     target                      = 0.1;
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
  long long     upsweep, halo, owned, ntiles;
  PetscInt      prevk = 0;
  HJKernel      kn;
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
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
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
  if (dev.sm_count > 0 && dev.clock_hz > 0) smempeak = 32 * 4.0 * dev.sm_count * dev.clock_hz; /* 32 banks x 4 B per clock */
  if (dev.mem_clock_hz > 0 && dev.bus_width_bits > 0) hbmpeak = 2.0 * dev.mem_clock_hz * dev.bus_width_bits / 8.0;
  PetscCall(PetscPrintf(comm, "== roofline.c (B5): %" PetscInt_FMT " x %" PetscInt_FMT " 2D Poisson, fp64 (%.0f MB per array), vectors %s, device %s, commit %s, setup %.1f s\n", n, n, 8 * pts / 1e6, vt, dev.name, HJBenchCommit(), tsetup));
  if (smempeak > 0)
    PetscCall(PetscPrintf(comm,
                          "   device properties: %d SMs, SM clock %.0f MHz, shared memory %lld B/SM, L2 %.1f MB; memory clock %.0f MHz x %d-bit bus\n"
                          "   shared-memory peak = 32 banks x 4 B/clock/SM x %d SMs x %.3f GHz = %.2f TB/s; HBM peak = 2 x %.0f MHz x %d bit / 8 = %.2f TB/s\n",
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
  PetscCall(PrintRatio(comm, copybw, hbmpeak, "HBM peak"));
  PetscCall(PetscPrintf(comm, "\n"));
  {
    Row r = {"copy", "VecCopy", "16 B/point", 0, 0, 0, reps, ops, 8, t / ops, pts, 16 * pts, 0};
    PetscCall(Emit(csv, &dev, n, &r, copybw, hbmpeak, smempeak));
  }
  PetscCall(Calibrate(OpAXPY, &vc, x, target, &ops));
  PetscCall(Measure(OpAXPY, &vc, ops, reps, x, &t));
  axpybw = 24.0 * pts * ops / t;
  PetscCall(PetscPrintf(comm, "axpy     VecAXPY   : %9.3f us/op  %8.2f GB/s  (24 B/point: 2 reads + 1 write), %.3f of copy", 1e6 * t / ops, axpybw / 1e9, axpybw / copybw));
  PetscCall(PrintRatio(comm, axpybw, hbmpeak, "HBM peak"));
  PetscCall(PetscPrintf(comm, "\n"));
  {
    Row r = {"axpy", "VecAXPY", "24 B/point", 0, 0, 0, reps, ops, 8, t / ops, pts, 24 * pts, 0};
    PetscCall(Emit(csv, &dev, n, &r, copybw, hbmpeak, smempeak));
  }

  /* (2) the classic sweep */
  kc.ksp = ksp;
  kc.b   = b;
  kc.x   = x;
  PetscCall(CycleTime(&kc, reps, target, &marginal, &plain, &ops));
  PetscCall(HJKernelOf(pc, &kn));
  PetscCall(PetscPrintf(comm, "classic  hjacobi k=1 (%s): %9.3f us/cycle (plain %.3f)  %8.2f Gpoints/s  %8.2f GB/s at 24 B/point  = %.3f of copy, %.3f of VecAXPY", kn.kernel, 1e6 * marginal, 1e6 * plain, pts / marginal / 1e9, 24 * pts / marginal / 1e9, 24 * pts / marginal / copybw, 24 * pts / marginal / axpybw));
  PetscCall(PrintRatio(comm, 24 * pts / marginal, hbmpeak, "HBM peak"));
  PetscCall(PetscPrintf(comm, "\n"));
  {
    Row r = {"classic", kn.kernel, "marginal time per cycle; 24 B/point (x and b read; x written)", 0, 1, 0, reps, ops, (int)sizeof(PetscScalar), marginal, pts, 24 * pts, 0};
    PetscCall(Emit(csv, &dev, n, &r, copybw, hbmpeak, smempeak));
  }

  /* (3) the hierarchical kernel: the bytes of one cycle (the header comment) */
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  if (overlap) PetscCall(PCHJacobiSetOverlap(pc, overlap, overlap, 0)); /* a new overlap means a new PCSetUp */
  {
    long long loc[4], glob[4], ntx, nty, swx, swy;
    TileSums(xm, tile, overlap, &ntx, &swx);
    TileSums(ym, tile, overlap, &nty, &swy);
    loc[0] = swx * swy;                         /* updates per sweep: sum of working-region areas */
    loc[1] = (swx + 2 * ntx) * (swy + 2 * nty); /* working regions with their halo */
    loc[2] = (long long)xm * ym;                /* owned points: written once */
    loc[3] = ntx * nty;                         /* tiles */
    PetscCallMPI(MPI_Allreduce(loc, glob, 4, MPI_LONG_LONG, MPI_SUM, comm));
    upsweep = glob[0];
    halo    = glob[1];
    owned   = glob[2];
    ntiles  = glob[3];
  }
  PetscCall(PetscPrintf(comm, "   hierarchical cycle, tile %" PetscInt_FMT "x%" PetscInt_FMT " o %" PetscInt_FMT ": %lld tiles, %lld updates per sweep, %lld values loaded with halos (%.3f per update)\n", tile, tile, overlap, ntiles, upsweep, halo, (double)halo / (double)upsweep));
  for (PetscInt i = 0; i < nk; i++) {
    const PetscInt k   = klist[i];
    const double   ups = (double)upsweep * k; /* point updates per cycle */
    double         acc, hbm, smem;
    char           note[256];
    PetscCall(PCHJacobiSetSubiterations(pc, k));
    PetscCall(PCSetUp(pc));
    PetscCall(CycleTime(&kc, reps, target, &marginal, &plain, &ops));
    PetscCall(HJKernelOf(pc, &kn));
    acc  = SmemAccessesPerUpdate(&kn);
    hbm  = 8.0 * ((double)halo + (double)upsweep + (double)owned); /* x with halos, b on working regions, the result */
    smem = (double)kn.sbytes * (2.0 * (double)halo + acc * ups + (!strcmp(kn.kernel, "registers") ? (kn.strip + 2.0) / kn.strip * (double)upsweep : 0));
    PetscCall(PetscPrintf(comm, "hierarchical k=%-3" PetscInt_FMT " %s (R %d, %d B): %9.3f us/cycle  %8.2f Gupdates/s;  HBM %.1f B/point: %8.2f GB/s = %.3f of copy", k, kn.kernel, kn.strip, kn.sbytes, 1e6 * marginal, ups / marginal / 1e9, hbm / upsweep, hbm / marginal / 1e9, hbm / marginal / copybw));
    PetscCall(PrintRatio(comm, hbm / marginal, hbmpeak, "HBM peak"));
    if (!strcmp(kn.kernel, "host")) smem = 0; /* the host backend's tiles live in caches, not shared memory */
    else {
      PetscCall(PetscPrintf(comm, ";  shared memory %.2f accesses x %d B per update: %8.3f TB/s", acc, kn.sbytes, smem / marginal / 1e12));
      PetscCall(PrintRatio(comm, smem / marginal, smempeak, "shared-memory peak"));
    }
    PetscCall(PetscPrintf(comm, "\n"));
    PetscCall(PetscSNPrintf(note, sizeof(note), "whole cycle; points_per_s = point updates/s; %.2f shared-memory accesses per update; R %d", acc, kn.strip));
    {
      Row r = {"hierarchical", kn.kernel, note, tile, k, overlap, reps, ops, kn.sbytes, marginal, ups, hbm, smem};
      PetscCall(Emit(csv, &dev, n, &r, copybw, hbmpeak, smempeak));
    }
    if (prevk > 0 && k > prevk && marginal > prevpc) {
      const double tsweep = (marginal - prevpc) / (double)(k - prevk), usw = (double)upsweep;
      PetscCall(PetscPrintf(comm, "   marginal k=%" PetscInt_FMT "->%" PetscInt_FMT ": %9.3f us per inner sweep  %8.2f Gupdates/s (a slope between whole cycles, not a bandwidth: no peak ratio)\n", prevk, k, 1e6 * tsweep, usw / tsweep / 1e9));
      PetscCall(PetscSNPrintf(note, sizeof(note), "marginal inner sweep between k=%" PetscInt_FMT " and k=%" PetscInt_FMT " (a slope: no peak ratio)", prevk, k));
      {
        Row r = {"hierarchical_marginal", kn.kernel, note, tile, k, overlap, reps, ops, kn.sbytes, tsweep, usw, 0, 0};
        PetscCall(Emit(csv, &dev, n, &r, copybw, hbmpeak, smempeak));
      }
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
