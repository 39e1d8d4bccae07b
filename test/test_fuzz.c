static const char help[] = "Option fuzzer: random -pc_hjacobi_* values, in and out of range, on random small DMDAs, many cases in one\n"
                           "process. Each case must either match the literal reference (PCApply, PCApplyRichardson) or stop with a\n"
                           "PETSc error that names the offending option (or, for a value PETSc cannot parse, the value). What is out of\n"
                           "range depends on the width of PetscInt: a tile or overlap of 3000000000 is legal with 64-bit indices.\n"
                           "  -cases n (default 200) -fuzz_seed s -verbose: print every case\n";

#include "hjtest.h"
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- a deterministic generator: every rank draws the same */
static uint64_t rng_state;
static uint64_t Next(void)
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static int Pick(int n)
{
  return (int)(Next() % (uint64_t)n);
}
static PetscBool clean; /* half of the cases draw only in-range values (overlap >= tile may still happen) */

/* ---------------------------------------------------------------- the error handler: keep the first message, return */
static char           first_msg[4096];
static PetscErrorCode Catch(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) {
    strncpy(first_msg, mess, sizeof(first_msg) - 1);
    first_msg[sizeof(first_msg) - 1] = 0;
  }
  return n;
}

/* ---------------------------------------------------------------- one case
   Every rank draws the same case, so an error (a setter's, PCSetUp's or PCApply's check) happens on every rank. */
typedef struct {
  char      opts[1024];   /* the options inserted for the case */
  PetscBool bad;          /* some value is out of range or unparsable: an error is expected */
  char      names[8][64]; /* options or values any of which the error message may name */
  PetscInt  nnames;
  PetscInt  dim, t[3], o[3], k, c; /* what the getters must report when the case is good */
  PetscBool tilegiven;             /* -pc_hjacobi_tile given (else t is the default before its whole-direction rule) */
  PetscReal w;
} Case;

static void Bad(Case *cs, const char *name)
{
  cs->bad = PETSC_TRUE;
  if (cs->nnames < 8) strncpy(cs->names[cs->nnames++], name, 63);
}
static void Add(Case *cs, const char *fmt, const char *a, const char *b)
{
  size_t l = strlen(cs->opts);
  snprintf(cs->opts + l, sizeof(cs->opts) - l, fmt, a, b);
}

/* an integer list option (tile, overlap): 1-3 values, or junk */
static void DrawIntArray(Case *cs, const char *name, const PetscInt *pool, int npool, PetscInt v[3], PetscBool *given)
{
  static const char *junk[]   = {"abc", "4,x", "1.5", "3000000000", "--2"};
  char               buf[128] = "";
  *given                      = PETSC_FALSE;
  if (Pick(3) == 0) return; /* not given */
  *given = PETSC_TRUE;
  if (!clean && Pick(12) == 0) {
    const char *j = junk[Pick(5)];
    Add(cs, " %s %s", name, j);
#if defined(PETSC_USE_64BIT_INDICES)
    /* Depends on the width of PetscInt: 3000000000 overflows a 32-bit PetscInt (PETSc's parser rejects it) but is a
       legal value for a 64-bit one, the same in every direction (a tile that large is clipped to the grid; an
       overlap that large is >= the tile, which the checks below expect to be named) */
    if (!strcmp(j, "3000000000")) {
      for (int d = 0; d < 3; d++) v[d] = 3000000000;
      return;
    }
#endif
    Bad(cs, name);
    Bad(cs, strcmp(j, "4,x") ? j : "x"); /* PETSc names the piece it cannot parse */
    *given = PETSC_FALSE;                /* the values are unknown */
    return;
  }
  {
    int n = 1 + Pick(3);
    for (int d = 0; d < n; d++) {
      size_t l = strlen(buf);
      v[d]     = pool[Pick(clean ? npool - 3 : npool)]; /* the last 3 of a pool are out of range */
      snprintf(buf + l, sizeof(buf) - l, "%s%" PetscInt_FMT, d ? "," : "", v[d]);
    }
    for (int d = n; d < 3; d++) v[d] = v[n - 1];
    Add(cs, " %s %s", name, buf);
  }
}

static void DrawInt(Case *cs, const char *name, PetscInt *v, PetscInt dflt)
{
  /* not "": PETSc takes "-pc_hjacobi_subiterations" with no value as not given (the default stays) */
  static const char    *junk[] = {"abc", "2.5", "1e3", "x1"};
  static const PetscInt pool[] = {1, 1, 2, 3, 4, 5, 7, 0, -1, -2147483647};
  char                  buf[64];
  *v = dflt;
  if (Pick(2) == 0) return;
  if (!clean && Pick(10) == 0) {
    const char *j = junk[Pick(4)];
    Add(cs, " %s %s", name, j);
    Bad(cs, name);
    Bad(cs, j);
    return;
  }
  *v = pool[Pick(clean ? 7 : 10)];
  snprintf(buf, sizeof(buf), "%" PetscInt_FMT, *v);
  Add(cs, " %s %s", name, buf);
  if (*v < 1) Bad(cs, name);
}

static PetscErrorCode DrawCase(PetscMPIInt size, Case *cs)
{
  static const PetscInt tpool[] = {1, 2, 3, 4, 5, 6, 8, 16, 1000000, 0, -1, -8};
  static const PetscInt opool[] = {0, 0, 2, 2, 4, 6, 999998, 1, 3, -2};
  static const char    *wgood[] = {"1", "0.5", "1.5", "1e-3", "1.999", "auto"};
  static const char    *wbad[]  = {"0", "2", "-0.5", "2.5", "nan", "inf", "-inf", "1e400", "abc", "0x", "-1", "-2"}; /* -1, -2: PETSC_DECIDE, PETSC_DEFAULT */
  static const char    *be[]    = {"auto", "host", "cuda", "foo", "HOST"};
  static const char    *ip[]    = {"native", "single", "double"};
  const char           *kinds[] = {"star", "box"};
  PetscInt              t[3], o[3], n[3];
  PetscBool             tg, og;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cs, sizeof(*cs)));
  clean = (PetscBool)Pick(2);
  /* the problem: always valid */
  cs->dim = 1 + Pick(3);
  for (int d = 0; d < 3; d++) n[d] = cs->dim == 1 ? 3 + Pick(40) : (cs->dim == 2 ? 3 + Pick(12) : 3 + Pick(5));
  {
    size_t l = strlen(cs->opts);
    snprintf(cs->opts + l, sizeof(cs->opts) - l, "-dim %d -da_grid_x %d -da_grid_y %d -da_grid_z %d -kind %s -da_stencil %s%s -seed %d", (int)cs->dim, (int)n[0], (int)n[1], (int)n[2], kinds[Pick(2)], kinds[Pick(2)], Pick(4) == 0 ? " -periodic" : "", Pick(1000));
  }
  (void)size;
  /* the PC's options */
  DrawIntArray(cs, "-pc_hjacobi_tile", tpool, 12, t, &tg);
  DrawIntArray(cs, "-pc_hjacobi_overlap", opool, 10, o, &og);
  DrawInt(cs, "-pc_hjacobi_subiterations", &cs->k, 4);
  DrawInt(cs, "-pc_hjacobi_cycles", &cs->c, 1);
  cs->w = PETSC_DECIDE; /* chosen by the PC from the operator */
  if (Pick(2)) {
    if (!clean && Pick(4) == 0) {
      const char *w = wbad[Pick(12)];
      Add(cs, " %s %s", "-pc_hjacobi_omega", w);
      Bad(cs, "-pc_hjacobi_omega");
      Bad(cs, w);
    } else {
      const char *w = wgood[Pick(6)];
      Add(cs, " %s %s", "-pc_hjacobi_omega", w);
      cs->w = strcmp(w, "auto") ? atof(w) : PETSC_DECIDE;
    }
  }
  if (Pick(3) == 0) {
    int b = clean ? 4 * Pick(2) : Pick(5); /* clean: auto or HOST (PETSc matches names case-insensitively) */
    Add(cs, " %s %s", "-pc_hjacobi_backend", be[b]);
    if (b == 2 || b == 3) Bad(cs, "-pc_hjacobi_backend"); /* no CUDA vectors here; an unknown name */
    if (b == 3) Bad(cs, "foo");
  }
  if (Pick(4) == 0) {
    int i = clean ? 0 : Pick(3);
    Add(cs, " %s %s", "-pc_hjacobi_inner_precision", ip[i]);
    if (i) Bad(cs, "-pc_hjacobi_inner_precision"); /* single: CUDA backend only; double: unknown */
    if (i == 2) Bad(cs, "double");
  }
  /* what the PC must use: the tile and overlap checks (every direction in the setters, used ones at setup) */
  for (int d = 0; d < 3; d++) {
    static const PetscInt dflt[3][3] = {
      {1024, 1,  1},
      {256,  32, 1},
      {128,  8,  8}
    }; /* the host backend's targets: never above its tile */
    cs->t[d]      = tg ? t[d] : dflt[cs->dim - 1][d];
    cs->tilegiven = tg;
    cs->o[d]      = og ? o[d] : 0;
  }
  if (tg)
    for (int d = 0; d < 3; d++)
      if (t[d] < 1) Bad(cs, "-pc_hjacobi_tile");
  if (og) {
    for (int d = 0; d < 3; d++)
      if (o[d] < 0 || o[d] % 2) Bad(cs, "-pc_hjacobi_overlap");
    for (int d = 0; d < cs->dim; d++)
      if (cs->t[d] >= 1 && o[d] >= cs->t[d]) Bad(cs, "-pc_hjacobi_overlap");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  HJProblem    p;
  Mat          A;
  PC           pc;
  Vec          b, x0, y;
  HJCSR        csr;
  PetscScalar *bf, *x0f, *ref;
} Objs;

static PetscErrorCode Cleanup(Objs *ob)
{
  PetscFunctionBeginUser;
  PetscCall(HJCSRDestroy(&ob->csr));
  PetscCall(PetscFree(ob->bf));
  PetscCall(PetscFree(ob->x0f));
  PetscCall(PetscFree(ob->ref));
  PetscCall(VecDestroy(&ob->b));
  PetscCall(VecDestroy(&ob->x0));
  PetscCall(VecDestroy(&ob->y));
  PetscCall(PCDestroy(&ob->pc));
  PetscCall(MatDestroy(&ob->A));
  PetscCall(HJProblemDestroy(&ob->p));
  PetscCall(PetscMemzero(ob, sizeof(*ob)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the problem: no error expected */
static PetscErrorCode RunProblem(Objs *ob)
{
  PetscFunctionBeginUser;
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &ob->p));
  PetscCall(HJProblemCreateMatrix(&ob->p, &ob->A));
  PetscCall(HJProblemAssemble(&ob->p, 11, ob->A));
  PetscCall(DMCreateGlobalVector(ob->p.da, &ob->b));
  PetscCall(VecDuplicate(ob->b, &ob->x0));
  PetscCall(VecDuplicate(ob->b, &ob->y));
  PetscCall(HJProblemFillVec(&ob->p, 21, ob->b));
  PetscCall(HJProblemFillVec(&ob->p, 22, ob->x0));
  PetscCall(HJGatherVec(ob->b, &ob->bf));
  PetscCall(HJGatherVec(ob->x0, &ob->x0f));
  PetscCall(PetscMalloc1(ob->p.N, &ob->ref));
  PetscCall(HJGatherMatrix(ob->A, PETSC_FALSE, &ob->csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunPC(Objs *ob, const Case *cs, PetscReal *rel, PetscBool *params_ok)
{
  HJParams                    par;
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;
  PetscReal                   r2;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &ob->pc));
  PetscCall(PCSetType(ob->pc, PCHJACOBI));
  PetscCall(PCSetOperators(ob->pc, ob->A, ob->A));
  PetscCall(PCSetFromOptions(ob->pc));
  PetscCall(PCSetUp(ob->pc));
  PetscCall(VecSet(ob->y, 1.0e3));
  PetscCall(PCApply(ob->pc, ob->b, ob->y));
  /* the reference with the parameters the case asked for (the getters must agree) */
  PetscCall(HJParamsGet(ob->pc, &ob->p, PETSC_FALSE, &par));
  if (cs->w > 0) *params_ok = (PetscBool)(par.k == cs->k && par.c == cs->c && par.w == cs->w);
  else /* chosen at setup: some 0 < omega < 2, or the fallback k = 1, omega 1 (the reference runs what the getters say) */ *params_ok = (PetscBool)(par.c == cs->c && par.w > 0 && par.w < 2 && (par.k == cs->k || (par.k == 1 && par.w == 1)));
  for (PetscInt d = 0; d < cs->dim; d++)
    if ((cs->tilegiven && par.t[d] != cs->t[d]) || par.o[d] != cs->o[d]) *params_ok = PETSC_FALSE;
  if (!cs->tilegiven) { /* the host backend's default tile (hj::HostDefaultTile): floor(m / target) equal tiles of the
                           largest rank box m, or one tile of max(m, target) */
    const PetscInt *own[3] = {NULL, NULL, NULL};
    PetscInt        np[3] = {1, 1, 1}, m[3] = {1, 1, 1}, t[3];
    PetscCall(DMDAGetInfo(ob->p.da, NULL, NULL, NULL, NULL, &np[0], &np[1], &np[2], NULL, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetOwnershipRanges(ob->p.da, &own[0], &own[1], &own[2]));
    for (int d = 0; d < 3; d++) {
      t[d] = cs->t[d];
      for (PetscInt r = 0; d < cs->dim && r < np[d]; r++) m[d] = PetscMax(m[d], own[d][r]);
    }
    for (int d = 0; d < cs->dim; d++) {
      const PetscInt n = m[d] / t[d];
      t[d]             = n <= 1 ? PetscMax(m[d], t[d]) : (m[d] + n - 1) / n;
    }
    for (int d = 0; d < cs->dim; d++)
      if (par.t[d] != t[d]) *params_ok = PETSC_FALSE;
  }
  PetscCall(PetscArrayzero(ob->ref, ob->p.N));
  PetscCall(HJRefCycles(&ob->p, &ob->csr, &par, ob->bf, ob->ref, par.c));
  PetscCall(HJCompareRef(ob->y, ob->ref, rel));
  /* 2 Richardson iterations from a nonzero guess */
  PetscCall(VecCopy(ob->x0, ob->y));
  PetscCall(PCApplyRichardson(ob->pc, ob->b, ob->y, ob->b /* unused */, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
  PetscCall(PetscArraycpy(ob->ref, ob->x0f, ob->p.N));
  PetscCall(HJRefCycles(&ob->p, &ob->csr, &par, ob->bf, ob->ref, 2 * par.c));
  PetscCall(HJCompareRef(ob->y, ob->ref, &r2));
  *rel = PetscMax(*rel, r2);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    ncases = 200, seed = 2024, nok = 0, nerr = 0, nfail = 0, nparse = 0, nlib = 0, nbad = 0, nleak = 0;
  PetscInt    bykind[8]   = {0};
  const char *kindname[8] = {"tile", "overlap", "subiterations", "cycles", "omega", "backend", "inner_precision", "parse"};
  PetscBool   verbose = PETSC_FALSE, warmed = PETSC_FALSE;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cases", &ncases, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-fuzz_seed", &seed, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-verbose", &verbose, NULL));
  rng_state = (uint64_t)seed;

  for (PetscInt ic = 0; ic < ncases; ic++) {
    Case           cs;
    Objs           ob;
    PetscOptions   opts;
    PetscErrorCode ierr;
    PetscReal      rel   = 0;
    PetscBool      parok = PETSC_TRUE, named = PETSC_FALSE, pass;
    int            locerr, anyerr, allerr;
    const char    *outcome;

    PetscLogDouble mem0, mem1;
    PetscCall(PetscMallocGetCurrentUsage(&mem0)); /* 0 unless PETSc traces mallocs (-malloc_debug, -malloc_dump) */
    PetscCall(DrawCase(size, &cs));
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest case %" PetscInt_FMT " starts: %s\n", ic, cs.opts));
    PetscCall(PetscMemzero(&ob, sizeof(ob)));
    PetscCall(PetscOptionsCreate(&opts));
    PetscCall(PetscOptionsInsertString(opts, cs.opts));
    PetscCall(PetscOptionsPush(opts));
    PetscCall(RunProblem(&ob)); /* the problem itself must never fail */
    first_msg[0] = 0;
    PetscCall(PetscPushErrorHandler(Catch, NULL));
    ierr = RunPC(&ob, &cs, &rel, &parok);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscOptionsPop());
    PetscCall(PetscOptionsDestroy(&opts));
    PetscCall(Cleanup(&ob)); /* must work whatever state the failed case left */

    PetscCall(PetscMallocGetCurrentUsage(&mem1));
    /* a good case must free all it allocated, once PETSc's one-time allocations (citations, first SF, ...) are made
       by a first good case; failed cases are not checked: PETSc's option parsing leaks when it stops on an error */
    if (!ierr && warmed && mem1 != mem0) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "hjtest FAIL case %" PetscInt_FMT ": %g bytes not freed\n", ic, (double)(mem1 - mem0)));
      nleak++;
      nfail++;
    }
    if (!ierr) warmed = PETSC_TRUE;
    if (cs.bad) nbad++;
    locerr = ierr ? 1 : 0;
    PetscCallMPI(MPI_Allreduce(&locerr, &anyerr, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(&locerr, &allerr, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    if (ierr)
      for (PetscInt i = 0; i < cs.nnames; i++) {
        const char *nm = cs.names[i], *s = strstr(first_msg, nm);
        if (!s && strncmp(nm, "-pc_hjacobi_", 12) == 0) s = strstr(first_msg, nm + 1); /* PETSc may drop the dash */
        if (s) named = PETSC_TRUE;
      }
    if (anyerr != allerr) {
      pass    = PETSC_FALSE;
      outcome = "error on some ranks only";
    } else if (!ierr) {
      pass    = (PetscBool)(!cs.bad && parok && rel <= 1e-12);
      outcome = cs.bad ? "bad input ACCEPTED" : (!parok ? "getters disagree with the options" : (rel <= 1e-12 ? "ok" : "WRONG RESULT"));
      if (pass) nok++;
    } else {
      pass    = (PetscBool)(cs.bad && named);
      outcome = !cs.bad ? "error on a GOOD input" : (named ? "error" : "error does NOT name the option");
      if (cs.bad && named) {
        nerr++;
        for (int k = 0; k < 7; k++) {
          char key[64];
          snprintf(key, sizeof(key), "pc_hjacobi_%s", kindname[k]);
          if (strstr(first_msg, key)) {
            bykind[k]++;
            break;
          }
          if (k == 6) bykind[7]++;
        }
        if (strstr(first_msg, "PCHJACOBI") || strstr(first_msg, "pc_hjacobi")) nlib++;
        else nparse++;
      }
    }
    if (!pass) nfail++;
    if (verbose || !pass) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest %s case %" PetscInt_FMT ": %s | %s%s%s%s rel %.2e\n", pass ? "PASS" : "FAIL", ic, cs.opts, outcome, ierr ? " [" : "", ierr ? first_msg : "", ierr ? "]" : "", (double)rel));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest fuzz summary: %" PetscInt_FMT " cases on %d rank(s) with %d-bit PetscInt, %" PetscInt_FMT " with a bad value: %" PetscInt_FMT " ok (match the reference), %" PetscInt_FMT " expected errors naming the option (%" PetscInt_FMT " from the library, %" PetscInt_FMT " from PETSc's parser), %" PetscInt_FMT " good cases that leaked, %" PetscInt_FMT " failures\n", ncases, (int)size, (int)(8 * sizeof(PetscInt)), nbad, nok, nerr, nlib, nparse, nleak, nfail));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest fuzz errors by option:"));
  for (int k = 0; k < 8; k++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %s %" PetscInt_FMT, kindname[k], bykind[k]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCheck(nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " fuzz cases failed", nfail, ncases);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS fuzz: all %" PetscInt_FMT " cases\n", ncases));
  PetscCall(PetscFinalize());
  return 0;
}
