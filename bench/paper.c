static const char help[] = "B1/B2 of bench/README.md: the paper's experiments (Islam & Wang, Tables 1-4).\n"
                           "Time for hierarchical Jacobi (PCHJACOBI) to cut ||b - A x||_2 by -rtol from x0 = 1, against classic Jacobi\n"
                           "(hjacobi k = 1, one fused sweep per cycle) and stock PETSc (KSPRICHARDSON + PCJACOBI), one process, one sweep.\n"
                           "Options (defaults in brackets):\n"
                           "  -mode 2d|1d        2d: 5-point Poisson on n x ny (B1); 1d: ny copies of the 1D Poisson of n points (B2) [2d]\n"
                           "  -n <1024> -ny <n>  grid; -rhs one|paper: b = 1 or b = h^2, h = 1/(n+1) (the paper's eq. 7/14) [one]\n"
                           "  -rtol <1e-4>       stop when ||b - A x|| <= rtol ||b - A x0||\n"
                           "  -tiles 32,64x32    tile list (2d: 't' is t x t; 1d: 't' is t x 1) [32]\n"
                           "  -k_list 1,4,8,16,32,64,128 -o_list 0,2,4,6,8,12,16   swept as tile > overlap > k (k = 1: classic, run once)\n"
                           "  -configs k:o[:tile],...   explicit list instead of the product (run in the order given)\n"
                           "  -extra_configs k:o[:tile],...   run after the product (e.g. a larger tile)\n"
                           "  -reps <5> -warmup_cycles <50> -chunk_frac <0.01> -exact_count <true> -max_cycles <2 x classic + 1000>\n"
                           "  -max_seconds <0: none>   stop the sweep cleanly when the wall time since start passes this\n"
                           "  -classic_count measure|check|exact   how classic's cycle count is found [check: measured and compared with the\n"
                           "      computed count; when the measurement does not fit -max_seconds, the computed count is used, marked]\n"
                           "  -classic_time_cycles <20000>   cycles timed for classic's time per cycle with -classic_count exact\n"
                           "  -stock <true> -stock_its <1000> -stock_verify_max <20000>   stock PETSc baseline\n"
                           "  -validate_n <0>    also check measured = stock = computed classic counts on an n x n problem [0: off]\n"
                           "  -classic_fp32 <true with -pc_hjacobi_inner_precision single>   also time classic Jacobi in fp32 (row classic_fp32)\n"
                           "  -classic_fp32_tiles <2d: 32,64; 1d: 32,128,512>   tiles tried for it (the fastest per cycle is kept)\n"
                           "  -csv <file>        append CSV rows (header if the file is new)\n"
                           "The hjacobi KSP reads the usual options (-pc_hjacobi_backend, -pc_hjacobi_omega, ...); the stock KSP has prefix stock_.\n";

/* What is measured (B1/B2 of bench/README.md, "find the cycle count first, then time exactly that many cycles without norms"):
   (a) cycle count: from x0 = 1, cycles run in chunks (KSPSolve with KSPRICHARDSON, max_it = chunk, KSPConvergedSkip,
       KSP_NORM_NONE: PCApplyRichardson's fast path, `chunk` cycles per call); after each chunk the true residual
       ||b - A x||_2 is computed here (MatMult, VecAYPX, VecNorm). chunk = max(1, chunk_frac x cycles so far). With
       -exact_count (default) the last chunk is bisected from a saved copy of x, so the count is the exact first cycle
       count n with ||r_n|| <= rtol ||r_0|| (what KSPConvergedDefault would stop at), at a cost of at most one more chunk.
   (b) time: x = 1, a device synchronisation, then MPI_Wtime() around KSPSolve(cycles) followed by a device
       synchronisation (cudaDeviceSynchronize() with the CUDA runtime linked, else a VecNorm of x, inside the timed region).
       Median of -reps repetitions; a warm-up of -warmup_cycles cycles precedes them (and the search of (a), which runs
       the same kernels at least `cycles` times, immediately before).
   (c) stock PETSc: KSPRICHARDSON (scale = hjacobi's omega) + PCJACOBI on the same matrix (aijcusparse on the GPU),
       KSPConvergedSkip, no norms, timed over -stock_its iterations (median of -reps); its iterates are classic's, so
       its time is reported as time/iteration x classic's cycle count (B1). With classic's count <=
       -stock_verify_max its own iteration count is measured too (KSPConvergedDefault relative to ||b - A x0||, i.e.
       KSPConvergedDefaultSetUIRNorm) and must equal classic's.
   Classic's count: measured as in (a); -classic_count check also computes it exactly (ExactClassicCount) and compares;
   -classic_count exact only computes it and times classic over -classic_time_cycles cycles (time per cycle x count).
   (d) classic fp32 (with -pc_hjacobi_inner_precision single; B1 asks to "also report an fp32 classic sweep, so
       that the gain of the method and the gain of the precision can be told apart"): classic's fused sweep always runs
       in PetscScalar, so a second hjacobi KSP runs k = 1 on the tile kernel (-pc_hjacobi_cuda_tile_kernel), which with
       single inner precision sweeps the correction in fp32 (x kept in fp64): one cycle = one damped Jacobi sweep
       rounded to fp32, whatever the tile (doc/algorithm.md). Its tile is the fastest per cycle of -classic_fp32_tiles
       (each timed as classic is with -classic_count exact: median of -reps runs of min(-classic_time_cycles, classic's
       count) cycles). Its count: with -classic_count exact the computed one (exact arithmetic's, fp64 classic's too):
       the fp32 rounding is relative to each cycle's correction, i.e. to the residual, not to x, so it should move the
       count by a few cycles at most, and measuring it would cost what measuring fp64 classic's would (the reason for
       `exact`); -validate_n measures the fp32 count against the computed one on its smaller problem. Otherwise the
       count is measured as in (a) (check: and compared with fp64 classic's and the computed one). 10 cycles of it
       from x0 = 1 are compared with 10 of fp64 classic: their difference relative to the change of x is ~1e-8 for
       fp32 sweeps and ~1e-16 (or 0) for fp64 ones; at most 1e-12 marks the row with a WARNING (not fp32). Every
       row gets a third speedup, over this row (CSV column speedup_vs_classic_fp32).
   The right-hand side: -rhs one is b = 1 taken literally; -rhs paper is b = h^2 = 1/(n+1)^2, the system the paper
   solved (its update x = (b dx^2 + neighbours)/d with b = 1; bench/README.md gives the evidence). */
#include "hjbench.h"
#include <math.h>

#define HJB_BIG 1000000000 /* "no limit" for cycle counts */

typedef enum {
  CLASSIC_MEASURE,
  CLASSIC_CHECK,
  CLASSIC_EXACT
} ClassicCount;
static const char *const ClassicCounts[] = {"measure", "check", "exact", "ClassicCount", "CLASSIC_", NULL};
typedef enum {
  RHS_ONE,
  RHS_PAPER
} RhsKind;
static const char *const RhsKinds[] = {"one", "paper", "RhsKind", "RHS_", NULL};

typedef struct {
  PetscInt  nx, ny;
  PetscBool oned;
  PetscReal beta; /* b = beta everywhere */
  DM        da;
  Mat       A;
  Vec       b, x, r, xsave;
  PetscReal rnorm0; /* ||b - A x0||, x0 = 1 */
} Problem;

typedef struct {
  PetscReal rtol, chunk_frac;
  PetscBool exact_count;
  PetscInt  reps, warmup;
  double    deadline; /* MPI_Wtime() after which the sweep stops; 0: none */
} Settings;

typedef enum {
  SEARCH_OK,
  SEARCH_MAXCYCLES,
  SEARCH_BUDGET,
  SEARCH_DIVERGED
} SearchStatus;

typedef struct {
  const char *method;
  PetscInt    tx, ty, k, o;
  PetscInt    cycles;
  double      time, tpc;
  PetscInt    reps;
  char        how[320];
} Row;

typedef struct {
  FILE         *csv;
  const char   *mode, *rhs;
  char          inner[16]; /* -pc_hjacobi_inner_precision: native (PetscScalar) or single sub-iterations */
  PetscInt      nx, ny;
  PetscBool     fp32c; /* a classic_fp32 row is measured: print its speedup column */
  HJBenchDevice dev;
} Output;

static PetscErrorCode ProblemCreate(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscBool oned, RhsKind rhs, Problem *P)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->nx   = nx;
  P->ny   = ny;
  P->oned = oned;
  P->beta = rhs == RHS_PAPER ? 1.0 / ((PetscReal)(nx + 1) * (PetscReal)(nx + 1)) : 1.0;
  PetscCall(HJBenchPoisson(comm, nx, ny, oned, &P->da, &P->A));
  PetscCall(DMCreateGlobalVector(P->da, &P->b));
  PetscCall(VecDuplicate(P->b, &P->x));
  PetscCall(VecDuplicate(P->b, &P->r));
  PetscCall(VecDuplicate(P->b, &P->xsave));
  PetscCall(VecSet(P->b, P->beta));
  PetscCall(VecSet(P->x, 1.0));
  PetscCall(MatMult(P->A, P->x, P->r));
  PetscCall(VecAYPX(P->r, -1.0, P->b));
  PetscCall(VecNorm(P->r, NORM_2, &P->rnorm0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProblemDestroy(Problem *P)
{
  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&P->b));
  PetscCall(VecDestroy(&P->x));
  PetscCall(VecDestroy(&P->r));
  PetscCall(VecDestroy(&P->xsave));
  PetscCall(MatDestroy(&P->A));
  PetscCall(DMDestroy(&P->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - A x||_2 */
static PetscErrorCode Residual(Problem *P, PetscReal *nrm)
{
  PetscFunctionBeginUser;
  PetscCall(MatMult(P->A, P->x, P->r));
  PetscCall(VecAYPX(P->r, -1.0, P->b));
  PetscCall(VecNorm(P->r, NORM_2, nrm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m cycles (hjacobi) or m iterations (stock) from the current x, no norms */
static PetscErrorCode RunCycles(KSP ksp, Problem *P, PetscInt m)
{
  PetscFunctionBeginUser;
  PetscCall(KSPSetTolerances(ksp, HJB_TOL_KEEP, HJB_TOL_KEEP, HJB_TOL_KEEP, m));
  PetscCall(KSPSolve(ksp, P->b, P->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NoNormSetup(KSP ksp)
{
  PetscFunctionBeginUser;
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPRICHARDSON + PCHJACOBI on P: PCApplyRichardson's fast path, one cycle per iteration */
static PetscErrorCode HJKSPCreate(Problem *P, KSP *ksp)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)P->A), ksp));
  PetscCall(KSPSetOperators(*ksp, P->A, P->A));
  PetscCall(KSPSetDM(*ksp, P->da));
  PetscCall(HJKSPSetDMActive(*ksp, PETSC_FALSE));
  PetscCall(KSPSetType(*ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCHJacobiSetOmega(pc, 1.0)); /* the paper's update unless -pc_hjacobi_omega: the classic counts assume it */
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(NoNormSetup(*ksp));
  PetscCall(KSPMonitorCancel(*ksp)); /* the fast path needs no monitors, scale 1 and KSPConvergedSkip/Default */
  PetscCall(KSPRichardsonSetScale(*ksp, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* classic Jacobi in fp32 ((d) above): an hjacobi KSP as HJKSPCreate's, with -pc_hjacobi_cuda_tile_kernel set while it
   reads the options (and restored after), so that k = 1 runs the tile kernel, in fp32 under
   -pc_hjacobi_inner_precision single. The KSPs read their options only here: the other KSP keeps the fused sweep. */
static PetscErrorCode HJKSPCreateClassicFP32(Problem *P, KSP *ksp)
{
  char      old[64] = "";
  PetscBool had;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_hjacobi_cuda_tile_kernel", old, sizeof(old), &had));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_hjacobi_cuda_tile_kernel", "true"));
  PetscCall(HJKSPCreate(P, ksp));
  if (had) PetscCall(PetscOptionsSetValue(NULL, "-pc_hjacobi_cuda_tile_kernel", old[0] ? old : NULL));
  else PetscCall(PetscOptionsClearValue(NULL, "-pc_hjacobi_cuda_tile_kernel"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* stock PETSc: KSPRICHARDSON + PCJACOBI (prefix stock_); norms = PETSC_TRUE: default convergence test on the
   unpreconditioned residual (for counting iterations), else no norms (for timing) */
static PetscErrorCode StockKSPCreate(Problem *P, PetscBool norms, PetscReal rtol, PetscReal omega, KSP *ksp)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)P->A), ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, "stock_"));
  PetscCall(KSPSetOperators(*ksp, P->A, P->A));
  PetscCall(KSPSetType(*ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(KSPMonitorCancel(*ksp));
  PetscCall(KSPRichardsonSetScale(*ksp, omega)); /* x += omega D^-1 (b - A x): classic's iterates */
  if (norms) {
    PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetInitialGuessNonzero(*ksp, PETSC_TRUE));
    PetscCall(KSPSetTolerances(*ksp, rtol, 0.0, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(KSPConvergedDefaultSetUIRNorm(*ksp)); /* rtol relative to ||b - A x0||, not ||b|| */
  } else PetscCall(NoNormSetup(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (a): the first cycle count n with ||b - A x_n|| <= rtol ||b - A x_0||, x_0 = 1 */
static PetscErrorCode CountCycles(KSP ksp, Problem *P, const Settings *S, PetscInt maxc, PetscInt *count, PetscInt *ran, double *secs, SearchStatus *status)
{
  const PetscReal tol  = S->rtol * P->rnorm0;
  PetscInt        done = 0, chunk = 1;
  PetscReal       rn;
  double          t0 = MPI_Wtime();

  PetscFunctionBeginUser;
  *count  = -1;
  *ran    = 0;
  *status = SEARCH_OK;
  PetscCall(VecSet(P->x, 1.0));
  if (P->rnorm0 <= tol) {
    *count = 0;
    *secs  = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (;;) {
    chunk = (PetscInt)(S->chunk_frac * done);
    if (chunk < 1) chunk = 1;
    if (done + chunk > maxc) chunk = maxc - done;
    if (chunk <= 0) {
      *status = SEARCH_MAXCYCLES;
      break;
    }
    if (S->exact_count && chunk > 1) PetscCall(VecCopy(P->x, P->xsave));
    PetscCall(RunCycles(ksp, P, chunk));
    done += chunk;
    *ran += chunk;
    PetscCall(Residual(P, &rn));
    if (PetscIsInfOrNanReal(rn) || rn > 1e10 * P->rnorm0) {
      *status = SEARCH_DIVERGED;
      break;
    }
    if (rn <= tol) break;
    if (S->deadline > 0 && MPI_Wtime() > S->deadline) {
      *status = SEARCH_BUDGET;
      break;
    }
  }
  if (*status == SEARCH_OK) {
    PetscInt lo = done - chunk, hi = done; /* xsave holds x_lo (not converged), x_hi converged */
    if (S->exact_count)
      while (hi - lo > 1) {
        const PetscInt m = (hi - lo) / 2;
        PetscCall(VecCopy(P->xsave, P->x));
        PetscCall(RunCycles(ksp, P, m));
        *ran += m;
        PetscCall(Residual(P, &rn));
        if (rn <= tol) hi = lo + m;
        else {
          lo += m;
          PetscCall(VecCopy(P->x, P->xsave));
        }
      }
    *count = hi;
  }
  *secs = MPI_Wtime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (b): median time of `cycles` cycles (iterations) from x0 = 1 */
static PetscErrorCode TimeRun(KSP ksp, Problem *P, const Settings *S, PetscInt cycles, PetscInt reps, double *median)
{
  double *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(reps, &t));
  PetscCall(VecSet(P->x, 1.0));
  PetscCall(RunCycles(ksp, P, PetscMax(1, PetscMin(cycles, S->warmup))));
  for (PetscInt i = 0; i < reps; i++) {
    double t0;
    PetscCall(VecSet(P->x, 1.0));
    PetscCall(HJBenchSync(P->x));
    t0 = MPI_Wtime();
    PetscCall(RunCycles(ksp, P, cycles));
    PetscCall(HJBenchSync(P->x));
    t[i] = MPI_Wtime() - t0;
  }
  *median = HJBenchMedian(reps, t);
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Classic Jacobi's cycle count in exact arithmetic. A = d I - T with the Dirichlet-eliminated Laplacian is diagonalised
   by the discrete sine basis v_ij(p,q) = s(i,p) s(j,q), s(i,p) = sqrt(2/(n+1)) sin(i pi p/(n+1)); a damped Jacobi sweep
   with constant diagonal d multiplies the residual's component on v_ij by mu_ij = 1 - omega lambda_ij / d:
     2d: lambda_ij = (2 - 2cos(i pi/(nx+1))) + (2 - 2cos(j pi/(ny+1))), d = 4;  1d: lambda_i = 2 - 2cos(i pi/(nx+1)), d = 2.
   r0 = b - A 1 = beta - m(p) [- m(q)] with m = the number of missing neighbours along a direction (1 at each end), so
   its components are c_ij = beta S_i S_j - M_i S_j - S_i M_j (2d), c_i = beta S_i - M_i (1d; every row the same),
   S_i = <1, s_i>, M_i = <m, s_i>. The count is the least n with sum c^2 mu^(2n) <= rtol^2 sum c^2 (doubling, then
   bisection; O(nx ny log n) on the host). */
/* ||r_n||^2 = sum_t c2[t] |mu_t|^(2n), l2[t] = 2 log|mu_t| */
static PetscReal Res2(PetscInt nterms, const PetscReal *c2, const PetscReal *l2, PetscInt n)
{
  PetscReal s = 0;
  for (PetscInt t = 0; t < nterms; t++) s += c2[t] * PetscExpReal((PetscReal)n * l2[t]);
  return s;
}

static PetscErrorCode ExactClassicCount(PetscInt nx, PetscInt ny, PetscBool oned, PetscReal beta, PetscReal omega, PetscReal rtol, PetscInt maxn, PetscInt *count)
{
  PetscInt   nd = oned ? 1 : 2, nterms = 0, lo, hi;
  PetscInt   n[2] = {nx, ny};
  PetscReal *S[2], *M[2], *lam[2], *c2, *l2, total = 0, target, cmax = 0;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < nd; d++) {
    const PetscReal h = 1.0 / (PetscReal)(n[d] + 1), sc = PetscSqrtReal(2.0 * h);
    PetscCall(PetscMalloc3(n[d], &S[d], n[d], &M[d], n[d], &lam[d]));
    for (PetscInt i = 1; i <= n[d]; i++) {
      PetscReal s = 0;
      for (PetscInt p = 1; p <= n[d]; p++) s += PetscSinReal(PETSC_PI * (PetscReal)i * (PetscReal)p * h);
      S[d][i - 1]   = sc * s;
      M[d][i - 1]   = sc * (PetscSinReal(PETSC_PI * (PetscReal)i * h) + PetscSinReal(PETSC_PI * (PetscReal)i * (PetscReal)n[d] * h));
      lam[d][i - 1] = 2.0 - 2.0 * PetscCosReal(PETSC_PI * (PetscReal)i * h);
    }
  }
  {
    const PetscInt nt = oned ? nx : nx * ny;
    PetscCall(PetscMalloc2(nt, &c2, nt, &l2));
  }
  for (PetscInt j = 0; j < (oned ? 1 : ny); j++)
    for (PetscInt i = 0; i < nx; i++) {
      const PetscReal c  = oned ? beta * S[0][i] - M[0][i] : beta * S[0][i] * S[1][j] - M[0][i] * S[1][j] - S[0][i] * M[1][j];
      const PetscReal mu = oned ? 1.0 - omega * lam[0][i] / 2.0 : 1.0 - omega * (lam[0][i] + lam[1][j]) / 4.0;
      total += c * c;
      cmax         = PetscMax(cmax, c * c);
      c2[nterms]   = c * c;
      l2[nterms++] = 2.0 * PetscLogReal(PetscMax(PetscAbsReal(mu), 1e-300));
    }
  { /* drop the components that vanish by symmetry (even i or j): they are rounding noise */
    PetscInt m = 0;
    for (PetscInt t = 0; t < nterms; t++)
      if (c2[t] > 1e-28 * cmax) {
        c2[m]   = c2[t];
        l2[m++] = l2[t];
      }
    nterms = m;
  }
  target = rtol * rtol * total;
  *count = -1;
  if (total <= target) *count = 0;
  else {
    lo = 0;
    hi = 1;
    while (hi <= maxn && Res2(nterms, c2, l2, hi) > target) {
      lo = hi;
      hi *= 2;
    }
    if (hi <= maxn || Res2(nterms, c2, l2, maxn) <= target) {
      if (hi > maxn) hi = maxn;
      while (hi - lo > 1) {
        const PetscInt m = lo + (hi - lo) / 2;
        if (Res2(nterms, c2, l2, m) <= target) hi = m;
        else lo = m;
      }
      *count = hi;
    }
  }
  PetscCall(PetscFree2(c2, l2));
  for (PetscInt d = 0; d < nd; d++) PetscCall(PetscFree3(S[d], M[d], lam[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* stock PETSc's own iteration count (KSPConvergedDefault, unpreconditioned norm), -1 if it did not converge */
static PetscErrorCode StockCount(Problem *P, PetscReal rtol, PetscReal omega, PetscInt maxits, PetscInt *its)
{
  KSP                ksp;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(StockKSPCreate(P, PETSC_TRUE, rtol, omega, &ksp));
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_DEFAULT, maxits));
  PetscCall(VecSet(P->x, 1.0));
  PetscCall(KSPSolve(ksp, P->b, P->x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, its));
  if (reason != KSP_CONVERGED_RTOL) *its = -1;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* set tile/overlap only when they change (they force a new PCSetUp), k always (no new setup); returns the PCSetUp error */
static PetscErrorCode SetParams(PC pc, PetscInt tx, PetscInt ty, PetscInt k, PetscInt o, PetscBool oned, PetscErrorCode *setuperr)
{
  PetscInt ctx, cty, cox, coy;

  PetscFunctionBeginUser;
  PetscCall(PCHJacobiGetTileSize(pc, &ctx, &cty, NULL));
  PetscCall(PCHJacobiGetOverlap(pc, &cox, &coy, NULL));
  if (ctx != tx || cty != ty) PetscCall(PCHJacobiSetTileSize(pc, tx, ty, 1));
  if (cox != o || coy != (oned ? 0 : o)) PetscCall(PCHJacobiSetOverlap(pc, o, oned ? 0 : o, 0));
  PetscCall(PCHJacobiSetSubiterations(pc, k));
  { /* classic (k = 1) is the paper's Jacobi sweep with omega 1 whatever the weights of the hierarchical rows */
    PCHJacobiWeightType w = PC_HJACOBI_WEIGHTS_AUTO;
    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-pc_hjacobi_weights", PCHJacobiWeightTypes, (PetscEnum *)&w, NULL));
    PetscCall(PCHJacobiSetWeights(pc, k == 1 ? PC_HJACOBI_WEIGHTS_CONSTANT : w));
  }
  *setuperr = PCSetUp(pc); /* an error here (e.g. a tile too large for the device) skips the configuration */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* speedup_vs_classic_fp32 (last, so that older readers' column numbers hold): over the classic_fp32 row of the same run,
   nan without one */
static const char CSVHeader[] = "gpu,commit,mode,N,method,tile,k,overlap,cycles,time_s,time_per_cycle_s,speedup_vs_classic,speedup_vs_stock,reps,cycles_how,rhs,ny,inner,speedup_vs_classic_fp32";

/* tclassic, tstock, tclassic32: the baselines' times (<= 0 or nan: none) */
static PetscErrorCode EmitRow(MPI_Comm comm, const Output *out, const Row *r, double tclassic, double tstock, double tclassic32)
{
  char   tile[32], x32[16] = "";
  double spc = (r->time > 0 && tclassic > 0) ? tclassic / r->time : NAN, sps = (r->time > 0 && tstock > 0) ? tstock / r->time : NAN, sp32 = (r->time > 0 && tclassic32 > 0) ? tclassic32 / r->time : NAN;

  PetscFunctionBeginUser;
  if (r->tx > 0) PetscCall(PetscSNPrintf(tile, sizeof(tile), "%" PetscInt_FMT "x%" PetscInt_FMT, r->tx, r->ty));
  else PetscCall(PetscStrncpy(tile, "-", sizeof(tile)));
  if (out->fp32c) PetscCall(PetscSNPrintf(x32, sizeof(x32), " %8.3f", sp32));
  PetscCall(PetscPrintf(comm, "%-12s %-7s %4" PetscInt_FMT " %3" PetscInt_FMT " %10" PetscInt_FMT " %11.4e %11.4e %8.3f%s %8.3f %3" PetscInt_FMT "  %s\n", r->method, tile, r->k, r->o, r->cycles, r->time, r->tpc, spc, x32, sps, r->reps, r->how));
  if (out->csv) {
    fprintf(out->csv, "%s,%s,%s,%" PetscInt_FMT ",%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.4f,%.4f,%" PetscInt_FMT ",%s,%s,%" PetscInt_FMT ",%s,%.4f\n", out->dev.name, HJBenchCommit(), out->mode, out->nx, r->method, tile, r->k, r->o, r->cycles, r->time, r->tpc, spc, sps, r->reps, r->how,
            out->rhs, out->ny, out->inner, sp32);
    fflush(out->csv);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintTableHeader(MPI_Comm comm, const Output *out)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "%-12s %-7s %4s %3s %10s %11s %11s %8s%s %8s %3s  %s\n", "method", "tile", "k", "o", "cycles", "time[s]", "t/cycle[s]", "xclassic", out->fp32c ? " xcl_fp32" : "", "xstock", "rep", "how the count was found"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* classic's count three ways on a small problem: measured (hjacobi k = 1), stock PETSc's own, computed; with
   out->fp32c also classic fp32's measured count against them (not part of OK/MISMATCH: fp32 rounding may move it) */
static PetscErrorCode Validate(MPI_Comm comm, PetscInt n0, PetscBool oned, RhsKind rhs, const Settings *S0, PetscReal omega, const Output *out)
{
  Problem        Q;
  KSP            ksp;
  PC             pc;
  Settings       S = *S0;
  PetscInt       measured, ran, stock, exact;
  double         secs;
  SearchStatus   st;
  PetscErrorCode serr;
  Row            row = {"count_check", 0, 0, 1, 0, 0, NAN, NAN, 0, ""};

  PetscFunctionBeginUser;
  S.exact_count = PETSC_TRUE;
  S.deadline    = 0;
  PetscCall(ProblemCreate(comm, n0, oned ? 16 : n0, oned, rhs, &Q));
  PetscCall(HJKSPCreate(&Q, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(SetParams(pc, 32, oned ? 1 : 32, 1, 0, oned, &serr));
  PetscCall(serr);
  PetscCall(CountCycles(ksp, &Q, &S, HJB_BIG, &measured, &ran, &secs, &st));
  PetscCall(StockCount(&Q, S.rtol, omega, 100 * measured + 100, &stock));
  PetscCall(ExactClassicCount(Q.nx, Q.ny, oned, Q.beta, omega, S.rtol, HJB_BIG, &exact));
  row.cycles = measured;
  PetscCall(PetscSNPrintf(row.how, sizeof(row.how), "N=%" PetscInt_FMT " measured=%" PetscInt_FMT " stock=%" PetscInt_FMT " computed=%" PetscInt_FMT " %s", n0, measured, stock, exact, (measured == stock && stock == exact) ? "OK" : "MISMATCH"));
  PetscCall(PetscPrintf(comm, "count check on %" PetscInt_FMT " x %" PetscInt_FMT ": classic (hjacobi k=1) %" PetscInt_FMT ", stock KSPRICHARDSON+PCJACOBI %" PetscInt_FMT ", computed in the sine basis %" PetscInt_FMT ": %s\n", Q.nx, Q.ny, measured, stock, exact, (measured == stock && stock == exact) ? "OK" : "MISMATCH"));
  if (out->fp32c) { /* classic fp32's count, measured: how far fp32 sweeps move it from exact arithmetic's */
    KSP      k32;
    PC       pc32;
    PetscInt m32 = -1, ran32;
    size_t   len;
    PetscCall(HJKSPCreateClassicFP32(&Q, &k32));
    PetscCall(KSPGetPC(k32, &pc32));
    PetscCall(SetParams(pc32, 32, oned ? 1 : 32, 1, 0, oned, &serr));
    PetscCall(serr);
    PetscCall(CountCycles(k32, &Q, &S, 2 * exact + 1000, &m32, &ran32, &secs, &st));
    if (st != SEARCH_OK) m32 = -1;
    PetscCall(PetscStrlen(row.how, &len));
    PetscCall(PetscSNPrintf(row.how + len, sizeof(row.how) - len, "; classic_fp32 measured=%" PetscInt_FMT " (%s%+" PetscInt_FMT " cycles vs computed)", m32, m32 == exact ? "equal: " : "", m32 - exact));
    PetscCall(PetscPrintf(comm, "count check on %" PetscInt_FMT " x %" PetscInt_FMT ": classic fp32 (tile kernel k=1 in single) %" PetscInt_FMT " (%+" PetscInt_FMT " against the computed count%s)\n", Q.nx, Q.ny, m32, m32 - exact, st == SEARCH_OK ? "" : "; the search did not converge"));
    PetscCall(KSPDestroy(&k32));
  }
  PetscCall(EmitRow(comm, out, &row, NAN, NAN, NAN)); /* under the main problem's N; the checked size is in `how` */
  PetscCall(KSPDestroy(&ksp));
  PetscCall(ProblemDestroy(&Q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt k, o, tx, ty;
} Config;

/* "32" -> t x t (2d) or t x 1 (1d); "64x32" -> 64 x 32 */
static PetscErrorCode ParseTile(const char *s, PetscBool oned, PetscInt *tx, PetscInt *ty)
{
  long a = 0, b = 0;
  int  n = sscanf(s, "%ldx%ld", &a, &b);

  PetscFunctionBeginUser;
  PetscCheck(n >= 1 && a > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "paper: cannot read tile '%s'", s);
  *tx = (PetscInt)a;
  *ty = n == 2 ? (PetscInt)b : (oned ? 1 : (PetscInt)a);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm       comm;
  double         tstart;
  PetscInt       nx = 1024, ny = -1, reps = 5, warmup = 50, stock_its = 1000, stock_verify_max = 20000, classic_time_cycles = 20000, validate_n = 0, maxc = -1;
  PetscInt       klist[64] = {1, 4, 8, 16, 32, 64, 128}, nk = 7, olist[64] = {0, 2, 4, 6, 8, 12, 16}, no = 7, ntiles = 16, nconf = 0, nconfstr = 256, nextra = 64;
  char          *tilestr[16], *confstr[256], *extrastr[64], *f32str[16], csvpath[PETSC_MAX_PATH_LEN] = "", modestr[8] = "2d", inner[16] = "native";
  PetscInt       nf32 = 16;
  PetscBool      oned, stock = PETSC_TRUE, flg, hasconf, single, fp32c;
  PetscReal      max_seconds = 0, omega = 1.0;
  ClassicCount   ccmode = CLASSIC_CHECK;
  RhsKind        rhs    = RHS_ONE;
  Settings       S      = {1e-4, 0.01, PETSC_TRUE, 5, 50, 0};
  Problem        P;
  KSP            ksp;
  PC             pc;
  Output         out;
  Config        *conf;
  Row            rc = {"classic", 0, 0, 1, 0, -1, NAN, NAN, 0, ""}, rs = {"stock", 0, 0, 1, 0, -1, NAN, NAN, 0, ""}, best = {NULL, 0, 0, 0, 0, -1, NAN, NAN, 0, ""};
  Row            rf = {"classic_fp32", 0, 0, 1, 0, -1, NAN, NAN, 0, ""};
  PetscErrorCode serr;
  PetscInt       classic_exact = -1;
  VecType        vt;
  MatType        mt;
  double         tsetup;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  comm   = PETSC_COMM_WORLD;
  tstart = MPI_Wtime();

  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_hjacobi_inner_precision", inner, sizeof(inner), NULL));
  PetscCall(PetscStrcasecmp(inner, "single", &single));
  fp32c = single;
  PetscOptionsBegin(comm, NULL, "paper.c: B1/B2 benchmark driver", NULL);
  PetscCall(PetscOptionsString("-mode", "2d (B1) or 1d (B2)", NULL, modestr, modestr, sizeof(modestr), NULL));
  PetscCall(PetscOptionsInt("-n", "grid points along x", NULL, nx, &nx, NULL));
  PetscCall(PetscOptionsInt("-ny", "grid points along y (1d: number of copies)", NULL, ny, &ny, NULL));
  PetscCall(PetscOptionsEnum("-rhs", "right-hand side: one (b = 1) or paper (b = h^2)", NULL, RhsKinds, (PetscEnum)rhs, (PetscEnum *)&rhs, NULL));
  PetscCall(PetscOptionsReal("-rtol", "residual reduction", NULL, S.rtol, &S.rtol, NULL));
  PetscCall(PetscOptionsStringArray("-tiles", "tile list", NULL, tilestr, &ntiles, &flg));
  if (!flg) ntiles = 0;
  {
    PetscInt  m = 64;
    PetscBool set;
    PetscCall(PetscOptionsIntArray("-k_list", "sub-iterations", NULL, klist, &m, &set));
    if (set) nk = m; /* an absent option sets m to 0 */
    m = 64;
    PetscCall(PetscOptionsIntArray("-o_list", "overlaps", NULL, olist, &m, &set));
    if (set) no = m;
  }
  PetscCall(PetscOptionsStringArray("-configs", "explicit k:o[:tile] list", NULL, confstr, &nconfstr, &hasconf));
  if (!hasconf) nconfstr = 0;
  PetscCall(PetscOptionsStringArray("-extra_configs", "k:o[:tile] list run after the product", NULL, extrastr, &nextra, &flg));
  if (!flg) nextra = 0;
  PetscCall(PetscOptionsInt("-reps", "timed repetitions", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-warmup_cycles", "warm-up cycles before timing", NULL, warmup, &warmup, NULL));
  PetscCall(PetscOptionsReal("-chunk_frac", "cycle-search chunk as a fraction of the cycles so far", NULL, S.chunk_frac, &S.chunk_frac, NULL));
  PetscCall(PetscOptionsBool("-exact_count", "bisect the last chunk: exact counts", NULL, S.exact_count, &S.exact_count, NULL));
  PetscCall(PetscOptionsInt("-max_cycles", "skip configurations needing more cycles", NULL, maxc, &maxc, NULL));
  PetscCall(PetscOptionsReal("-max_seconds", "wall-time budget of the whole run", NULL, max_seconds, &max_seconds, NULL));
  PetscCall(PetscOptionsEnum("-classic_count", "classic's count: measure, check (measure and compute), exact (compute)", NULL, ClassicCounts, (PetscEnum)ccmode, (PetscEnum *)&ccmode, NULL));
  PetscCall(PetscOptionsInt("-classic_time_cycles", "cycles timed for classic's time per cycle (-classic_count exact)", NULL, classic_time_cycles, &classic_time_cycles, NULL));
  PetscCall(PetscOptionsBool("-stock", "measure stock PETSc (KSPRICHARDSON + PCJACOBI)", NULL, stock, &stock, NULL));
  PetscCall(PetscOptionsInt("-stock_its", "stock iterations timed", NULL, stock_its, &stock_its, NULL));
  PetscCall(PetscOptionsInt("-stock_verify_max", "count stock's own iterations when classic's count is at most this", NULL, stock_verify_max, &stock_verify_max, NULL));
  PetscCall(PetscOptionsInt("-validate_n", "check classic counts on an n x n problem (0: no)", NULL, validate_n, &validate_n, NULL));
  PetscCall(PetscOptionsString("-csv", "CSV file to append to", NULL, csvpath, csvpath, sizeof(csvpath), NULL));
  PetscCall(PetscOptionsBool("-classic_fp32", "also time classic Jacobi with fp32 sweeps (k = 1 on the tile kernel; needs -pc_hjacobi_inner_precision single)", NULL, fp32c, &fp32c, NULL));
  PetscCall(PetscOptionsStringArray("-classic_fp32_tiles", "tiles tried for classic fp32 (the fastest per cycle is kept)", NULL, f32str, &nf32, &flg));
  if (!flg) nf32 = 0;
  PetscOptionsEnd();
  PetscCheck(!fp32c || single, comm, PETSC_ERR_ARG_INCOMP, "paper: -classic_fp32 measures fp32 sweeps and needs -pc_hjacobi_inner_precision single");
  oned = (modestr[0] == '1') ? PETSC_TRUE : PETSC_FALSE;
  if (ny < 0) ny = nx;
  S.reps     = reps;
  S.warmup   = warmup;
  S.deadline = max_seconds > 0 ? tstart + max_seconds : 0;

  /* the configurations */
  PetscCall(PetscMalloc1(nconfstr + nextra + (PetscInt)(PetscMax(ntiles, 1) * nk * no), &conf));
  {
    PetscInt tx0 = 32, ty0 = oned ? 1 : 32;
    if (ntiles) PetscCall(ParseTile(tilestr[0], oned, &tx0, &ty0));
    if (!hasconf)
      for (PetscInt t = 0; t < PetscMax(ntiles, 1); t++) {
        PetscInt tx = tx0, ty = ty0;
        if (ntiles) PetscCall(ParseTile(tilestr[t], oned, &tx, &ty));
        for (PetscInt io = 0; io < no; io++)
          for (PetscInt ik = 0; ik < nk; ik++) {
            if (klist[ik] <= 1) continue; /* k = 1 is classic, run once below */
            conf[nconf].k  = klist[ik];
            conf[nconf].o  = olist[io];
            conf[nconf].tx = tx;
            conf[nconf].ty = ty;
            nconf++;
          }
      }
    for (PetscInt c = 0; c < nconfstr + nextra; c++) {
      const char *cs = c < nconfstr ? confstr[c] : extrastr[c - nconfstr];
      long        k = 0, o = 0;
      char        tl[64] = "";
      int         n      = sscanf(cs, "%ld:%ld:%63s", &k, &o, tl);
      PetscCheck(n >= 2 && k >= 1 && o >= 0, comm, PETSC_ERR_ARG_WRONG, "paper: -configs/-extra_configs entry '%s' is not k:o[:tile]", cs);
      conf[nconf].k  = (PetscInt)k;
      conf[nconf].o  = (PetscInt)o;
      conf[nconf].tx = tx0;
      conf[nconf].ty = ty0;
      if (n == 3) PetscCall(ParseTile(tl, oned, &conf[nconf].tx, &conf[nconf].ty));
      if (conf[nconf].k > 1) nconf++;
    }
    for (PetscInt t = 0; t < ntiles; t++) PetscCall(PetscFree(tilestr[t]));
    for (PetscInt c = 0; c < nconfstr; c++) PetscCall(PetscFree(confstr[c]));
    for (PetscInt c = 0; c < nextra; c++) PetscCall(PetscFree(extrastr[c]));

    /* the problem and the hjacobi solver */
    PetscCall(ProblemCreate(comm, nx, ny, oned, rhs, &P));
    PetscCall(HJKSPCreate(&P, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCHJacobiGetOmega(pc, &omega));
    PetscCall(SetParams(pc, tx0, ty0, 1, 0, oned, &serr));
    PetscCall(serr);
    rc.tx = rc.ty = 0;
  }
  tsetup = MPI_Wtime() - tstart;

  PetscCall(HJBenchDeviceQuery(P.x, &out.dev));
  PetscCall(HJBenchCSVOpen(comm, csvpath, CSVHeader, argc, argv, &out.dev, &out.csv));
  out.mode = oned ? "1d" : "2d";
  out.rhs  = rhs == RHS_PAPER ? "paper" : "one";
  PetscCall(PetscStrncpy(out.inner, inner, sizeof(out.inner)));
  out.fp32c = fp32c;
  out.nx    = nx;
  out.ny    = ny;
  PetscCall(VecGetType(P.x, &vt));
  PetscCall(MatGetType(P.A, &mt));
  PetscCall(PetscPrintf(comm, "== paper.c %s: %s, %" PetscInt_FMT " x %" PetscInt_FMT " (%s), b = %g%s, x0 = 1, rtol %g, ||r0|| = %.6e\n", oned ? "B2" : "B1", oned ? "1D Poisson copies (x couplings only, diag 2)" : "2D 5-point Poisson (diag 4)", nx, ny, oned ? "n x copies" : "grid",
                        (double)P.beta, rhs == RHS_PAPER ? " (= h^2, the paper's scaling)" : "", (double)S.rtol, (double)P.rnorm0));
  PetscCall(PetscPrintf(comm, "   device %s, vectors %s, matrix %s, omega %g, commit %s, setup %.2f s, budget %s%g s, %" PetscInt_FMT " hierarchical configurations queued\n", out.dev.name, vt, mt, (double)omega, HJBenchCommit(), tsetup, max_seconds > 0 ? "" : "none ", max_seconds, nconf));
  PetscCall(PetscPrintf(comm, "   time = median of %" PetscInt_FMT " runs of exactly `cycles` cycles from x0 = 1 (MPI_Wtime around KSPSolve + device sync), no norms; stock = its time/iteration x classic's count\n", reps));

  if (validate_n > 0) {
    PetscCall(Validate(comm, validate_n, oned, rhs, &S, omega, &out));
    PetscCall(PetscPrintf(comm, "\n"));
  }

  /* classic: hjacobi k = 1 */
  {
    PetscInt     ran;
    double       secs;
    SearchStatus st = SEARCH_OK;
    if (ccmode != CLASSIC_MEASURE) PetscCall(ExactClassicCount(nx, ny, oned, P.beta, omega, S.rtol, HJB_BIG, &classic_exact));
    if (ccmode == CLASSIC_EXACT) {
      double   tt;
      PetscInt tc = PetscMax(1, classic_time_cycles);
      PetscCheck(classic_exact > 0, comm, PETSC_ERR_PLIB, "paper: the exact classic count failed");
      PetscCall(TimeRun(ksp, &P, &S, tc, reps, &tt));
      rc.cycles = classic_exact;
      rc.tpc    = tt / tc;
      rc.time   = rc.tpc * rc.cycles;
      rc.reps   = reps;
      PetscCall(PetscSNPrintf(rc.how, sizeof(rc.how), "computed (sine basis; not measured); time = time/cycle over %" PetscInt_FMT " cycles x count", tc));
    } else {
      PetscCall(CountCycles(ksp, &P, &S, maxc > 0 ? maxc : HJB_BIG, &rc.cycles, &ran, &secs, &st));
      rc.reps = reps;
      if (st == SEARCH_OK && S.deadline > 0) { /* reps that fit the budget */
        const double est = secs * rc.cycles / PetscMax(ran, 1), left = S.deadline - MPI_Wtime();
        rc.reps = PetscMin(reps, (PetscInt)(left / PetscMax(est, 1e-9)));
      }
      if (ccmode == CLASSIC_CHECK && classic_exact > 0 && ran > 0 && (st == SEARCH_BUDGET || rc.reps < 1)) {
        /* classic measured where it fits: here it does not fit -max_seconds, so the computed count and the time per
           cycle of the search's own cycles (which include a residual norm per chunk: an upper bound), marked as such */
        rc.tpc    = secs / ran;
        rc.cycles = classic_exact;
        rc.time   = rc.tpc * rc.cycles;
        rc.reps   = 0;
        PetscCall(PetscSNPrintf(rc.how, sizeof(rc.how), "computed (sine basis): the measurement did not fit -max_seconds; time = time/cycle of the search's %" PetscInt_FMT " cycles x count", ran));
        PetscCall(PetscPrintf(comm, "   classic: its measurement does not fit -max_seconds (%" PetscInt_FMT " cycles run in %.2f s): computed count %" PetscInt_FMT " x the search's time per cycle\n", ran, secs, classic_exact));
      } else {
        PetscCheck(st == SEARCH_OK, comm, PETSC_ERR_NOT_CONVERGED, "paper: classic's cycle search stopped (%s); raise -max_seconds/-max_cycles or use -classic_count check or exact", st == SEARCH_BUDGET ? "time budget" : (st == SEARCH_MAXCYCLES ? "max_cycles" : "diverged"));
        PetscCheck(rc.reps >= 1, comm, PETSC_ERR_NOT_CONVERGED, "paper: no time left to time classic (search took %.1f s); raise -max_seconds", secs);
        PetscCall(TimeRun(ksp, &P, &S, rc.cycles, rc.reps, &rc.time));
        rc.tpc = rc.time / rc.cycles;
      }
      if (rc.reps > 0) {
        if (ccmode == CLASSIC_CHECK) PetscCall(PetscSNPrintf(rc.how, sizeof(rc.how), "measured (computed %" PetscInt_FMT ": %s)", classic_exact, classic_exact == rc.cycles ? "match" : "MISMATCH"));
        else PetscCall(PetscStrncpy(rc.how, "measured", sizeof(rc.how)));
        PetscCall(PetscPrintf(comm, "   classic count %" PetscInt_FMT " measured in %.2f s (%" PetscInt_FMT " cycles run)%s\n", rc.cycles, secs, ran, ccmode == CLASSIC_CHECK ? (classic_exact == rc.cycles ? "; equals the computed count" : "; DIFFERS from the computed count") : ""));
      }
    }
  }

  /* stock PETSc: time per iteration x classic's count */
  if (stock) {
    KSP    sk;
    double tt;
    PetscCall(StockKSPCreate(&P, PETSC_FALSE, S.rtol, omega, &sk));
    PetscCall(TimeRun(sk, &P, &S, stock_its, reps, &tt));
    rs.tpc    = tt / stock_its;
    rs.cycles = rc.cycles;
    rs.time   = rs.tpc * rs.cycles;
    rs.reps   = reps;
    PetscCall(PetscSNPrintf(rs.how, sizeof(rs.how), "classic's count x time/iteration over %" PetscInt_FMT " its", stock_its));
    if (rc.cycles <= stock_verify_max) {
      PetscInt sits;
      size_t   len;
      PetscCall(StockCount(&P, S.rtol, omega, 2 * rc.cycles + 10, &sits));
      PetscCall(PetscStrlen(rs.how, &len));
      PetscCall(PetscSNPrintf(rs.how + len, sizeof(rs.how) - len, " (own count %" PetscInt_FMT ": %s)", sits, sits == rc.cycles ? "match" : "MISMATCH"));
    }
    PetscCall(KSPDestroy(&sk));
  }

  /* classic fp32: hjacobi k = 1 on the tile kernel with fp32 sweeps ((d) above) */
  if (fp32c) {
    KSP         k32;
    PC          pc32;
    PetscInt    tc = PetscMax(1, PetscMin(classic_time_cycles, rc.cycles)), ntry = nf32 ? nf32 : (oned ? 3 : 2);
    const char *deftiles[3] = {"32", oned ? "128" : "64", "512"};
    double      tbest       = -1;
    char        tried[128] = "", warn[64] = "";
    PetscReal   dn, xn;

    PetscCall(HJKSPCreateClassicFP32(&P, &k32));
    PetscCall(KSPGetPC(k32, &pc32));
    for (PetscInt t = 0; t < ntry; t++) {
      PetscInt tx = 0, ty = 0;
      double   tt;
      size_t   len;
      PetscCall(ParseTile(nf32 ? f32str[t] : deftiles[t], oned, &tx, &ty));
      PetscCall(SetParams(pc32, tx, ty, 1, 0, oned, &serr));
      PetscCall(PetscStrlen(tried, &len));
      if (serr) {
        PetscCall(PetscPrintf(comm, "-- classic fp32, tile %" PetscInt_FMT "x%" PetscInt_FMT ": PCSetUp failed (error %d), skipped\n", tx, ty, (int)serr));
        PetscCall(PetscSNPrintf(tried + len, sizeof(tried) - len, "%s%" PetscInt_FMT "x%" PetscInt_FMT ":failed", len ? " " : "", tx, ty));
        continue;
      }
      PetscCall(TimeRun(k32, &P, &S, tc, reps, &tt));
      PetscCall(PetscPrintf(comm, "   classic fp32, tile %" PetscInt_FMT "x%" PetscInt_FMT ": %.4g us per cycle (median of %" PetscInt_FMT " runs of %" PetscInt_FMT " cycles)\n", tx, ty, 1e6 * tt / tc, reps, tc));
      PetscCall(PetscSNPrintf(tried + len, sizeof(tried) - len, "%s%" PetscInt_FMT "x%" PetscInt_FMT ":%.4gus", len ? " " : "", tx, ty, 1e6 * tt / tc));
      if (tbest < 0 || tt < tbest) tbest = tt, rf.tx = tx, rf.ty = ty;
    }
    PetscCheck(tbest > 0, comm, PETSC_ERR_ARG_WRONG, "paper: classic fp32 could not be set up with any tile of -classic_fp32_tiles");
    PetscCall(SetParams(pc32, rf.tx, rf.ty, 1, 0, oned, &serr));
    PetscCall(serr);
    PetscCall(PetscPrintf(comm, "   classic fp32 runs on (the fastest tile; the fp64 classic row runs the fused sweep):\n"));
    PetscCall(PCView(pc32, PETSC_VIEWER_STDOUT_(comm)));
    /* 10 cycles of each from x0 = 1: an fp32 sweep differs from an fp64 one by ~1e-8 of the change of x */
    PetscCall(VecSet(P.x, 1.0));
    PetscCall(RunCycles(ksp, &P, 10));
    PetscCall(VecCopy(P.x, P.xsave));
    PetscCall(VecSet(P.x, 1.0));
    PetscCall(RunCycles(k32, &P, 10));
    PetscCall(VecAXPY(P.xsave, -1.0, P.x)); /* x64 - x32 */
    PetscCall(VecNorm(P.xsave, NORM_2, &dn));
    PetscCall(VecShift(P.x, -1.0)); /* x32 - x0 */
    PetscCall(VecNorm(P.x, NORM_2, &xn));
    dn = xn > 0 ? dn / xn : dn;
    PetscCall(PetscPrintf(comm, "   classic fp32 against fp64 classic after 10 cycles from x0 = 1: ||x32 - x64|| / ||x32 - x0|| = %.3e (fp32 sweeps: ~1e-8; fp64: ~1e-16 or 0)\n", (double)dn));
    if (!(dn > 1e-12)) { /* not an error: the run's other rows stand; the row says it */
      PetscCall(PetscPrintf(comm, "   WARNING: classic fp32 gave fp64 classic's iterates (difference %.1e): its sweeps did not run in fp32; its row is marked\n", (double)dn));
      PetscCall(PetscStrncpy(warn, "WARNING: fp64 iterates (not fp32); ", sizeof(warn)));
    }
    if (ccmode == CLASSIC_EXACT) {
      rf.cycles = classic_exact;
      rf.tpc    = tbest / tc;
      rf.time   = rf.tpc * rf.cycles;
      rf.reps   = reps;
      PetscCall(PetscSNPrintf(rf.how, sizeof(rf.how), "%scomputed (sine basis: exact arithmetic's count = fp64 classic's; not measured); time = time/cycle over %" PetscInt_FMT " cycles x count; tile kernel k=1 fp32 correction form; tiles %s; 10-cycle diff vs fp64 %.1e", warn, tc, tried, (double)dn));
    } else {
      PetscInt     ran;
      double       secs;
      SearchStatus st;
      PetscCall(CountCycles(k32, &P, &S, 2 * rc.cycles + 1000, &rf.cycles, &ran, &secs, &st));
      if (st != SEARCH_OK) {
        rf.cycles = -1;
        PetscCall(PetscSNPrintf(rf.how, sizeof(rf.how), "not timed: count search stopped (%s)", st == SEARCH_BUDGET ? "time budget" : (st == SEARCH_MAXCYCLES ? "over 2x classic's count" : "diverged")));
      } else {
        rf.reps = reps;
        if (S.deadline > 0) {
          const double est = secs * rf.cycles / PetscMax(ran, 1), left = S.deadline - MPI_Wtime();
          rf.reps = PetscMax(1, PetscMin(reps, (PetscInt)(left / PetscMax(est, 1e-9)))); /* a baseline: at least one run */
        }
        PetscCall(TimeRun(k32, &P, &S, rf.cycles, rf.reps, &rf.time));
        rf.tpc = rf.time / rf.cycles;
        {
          char cmp[64] = "";
          if (ccmode == CLASSIC_CHECK) PetscCall(PetscSNPrintf(cmp, sizeof(cmp), "; computed %" PetscInt_FMT, classic_exact));
          PetscCall(PetscSNPrintf(rf.how, sizeof(rf.how), "%smeasured (fp64 classic %" PetscInt_FMT "%s); tile kernel k=1 fp32 correction form; tiles %s; 10-cycle diff vs fp64 %.1e", warn, rc.cycles, cmp, tried, (double)dn));
        }
        PetscCall(PetscPrintf(comm, "   classic fp32 count %" PetscInt_FMT " measured in %.2f s (%" PetscInt_FMT " cycles run); fp64 classic %" PetscInt_FMT "\n", rf.cycles, secs, ran, rc.cycles));
      }
    }
    PetscCall(KSPDestroy(&k32));
  }
  PetscCall(PetscPrintf(comm, "\n"));
  PetscCall(PrintTableHeader(comm, &out));
  if (stock) PetscCall(EmitRow(comm, &out, &rs, rc.time, rs.time, rf.time));
  PetscCall(EmitRow(comm, &out, &rc, rc.time, rs.time, rf.time));
  if (fp32c) PetscCall(EmitRow(comm, &out, &rf, rc.time, rs.time, rf.time));

  /* hierarchical configurations */
  if (maxc <= 0) maxc = 2 * rc.cycles + 1000;
  for (PetscInt c = 0; c < nconf; c++) {
    Row          r = {"hierarchical", conf[c].tx, conf[c].ty, conf[c].k, conf[c].o, -1, NAN, NAN, 0, "measured"};
    PetscInt     ran;
    double       secs;
    SearchStatus st;
    if (conf[c].o % 2 || conf[c].o >= conf[c].tx || (!oned && conf[c].o >= conf[c].ty)) continue; /* o must be even and < tile */
    if (S.deadline > 0 && MPI_Wtime() > S.deadline) {
      PetscCall(PetscPrintf(comm, "-- time budget (-max_seconds %g) used up: %" PetscInt_FMT " of %" PetscInt_FMT " configurations not run\n", max_seconds, nconf - c, nconf));
      break;
    }
    PetscCall(SetParams(pc, conf[c].tx, conf[c].ty, conf[c].k, conf[c].o, oned, &serr));
    if (serr) {
      PetscCall(PetscPrintf(comm, "-- tile %" PetscInt_FMT "x%" PetscInt_FMT " k %" PetscInt_FMT " o %" PetscInt_FMT ": PCSetUp failed (error %d), skipped\n", conf[c].tx, conf[c].ty, conf[c].k, conf[c].o, (int)serr));
      continue;
    }
    PetscCall(CountCycles(ksp, &P, &S, maxc, &r.cycles, &ran, &secs, &st));
    if (st == SEARCH_BUDGET) {
      PetscCall(PetscPrintf(comm, "-- time budget used up during the cycle search of tile %" PetscInt_FMT "x%" PetscInt_FMT " k %" PetscInt_FMT " o %" PetscInt_FMT " (%" PetscInt_FMT " cycles in %.1f s); stopping\n", conf[c].tx, conf[c].ty, conf[c].k,
                            conf[c].o, ran, secs));
      break;
    }
    if (st != SEARCH_OK) {
      PetscCall(PetscStrncpy(r.how, st == SEARCH_MAXCYCLES ? "skipped: exceeds max_cycles" : "skipped: diverged", sizeof(r.how)));
      PetscCall(EmitRow(comm, &out, &r, rc.time, rs.time, rf.time));
      continue;
    }
    r.reps = reps;
    if (S.deadline > 0) {
      const double est = secs * r.cycles / PetscMax(ran, 1), left = S.deadline - MPI_Wtime();
      r.reps = PetscMin(reps, (PetscInt)(left / PetscMax(est, 1e-9)));
      if (r.reps < 1) {
        PetscCall(PetscStrncpy(r.how, "measured; not timed: time budget used up", sizeof(r.how)));
        PetscCall(EmitRow(comm, &out, &r, rc.time, rs.time, rf.time));
        PetscCall(PetscPrintf(comm, "-- time budget used up: stopping\n"));
        break;
      }
      if (r.reps < reps) PetscCall(PetscStrncpy(r.how, "measured; fewer reps (time budget)", sizeof(r.how)));
    }
    PetscCall(TimeRun(ksp, &P, &S, r.cycles, r.reps, &r.time));
    r.tpc = r.time / r.cycles;
    PetscCall(EmitRow(comm, &out, &r, rc.time, rs.time, rf.time));
    if (best.cycles < 0 || r.time < best.time) best = r;
  }
  if (best.cycles >= 0)
    PetscCall(PetscPrintf(comm, "\nbest: tile %" PetscInt_FMT "x%" PetscInt_FMT ", k %" PetscInt_FMT ", overlap %" PetscInt_FMT ": %" PetscInt_FMT " cycles, %.4e s; %.2fx classic, %.2fx stock PETSc (stock = time/iteration x classic's count)\n", best.tx,
                          best.ty, best.k, best.o, best.cycles, best.time, rc.time / best.time, rs.time / best.time));
  if (best.cycles >= 0 && fp32c && rf.time > 0)
    PetscCall(PetscPrintf(comm, "      fp32: %.2fx classic fp32 (the method's gain at equal precision); classic fp32 is %.2fx fp64 classic (the precision's gain at k = 1)\n", rf.time / best.time, rc.time / rf.time));
  PetscCall(PetscPrintf(comm, "total wall time %.1f s\n", MPI_Wtime() - tstart));

  if (out.csv) fclose(out.csv);
  PetscCall(PetscFree(conf));
  for (PetscInt t = 0; t < nf32; t++) PetscCall(PetscFree(f32str[t]));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(ProblemDestroy(&P));
  PetscCall(PetscFinalize());
  return 0;
}
