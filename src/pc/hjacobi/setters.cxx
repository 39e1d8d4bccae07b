/* PCHJACOBI's setters and getters, the PETSc face of its parameters: the implementations (composed on the PC by
   HJSettersCompose) and the public functions with their manual pages. A setter writes what the user asked
   (PC_HJacobi.asked, or a parameter used as given) and marks the PC for setup; PCSetUp resolves what the sweeps use
   (src/pc/hjacobi/hjacobi.cxx). The options that call them are read in PCSetFromOptions_HJacobi. */
#include <petschjacobi/private/pchjacobiimpl.h>

/* ------------------------------ implementations ------------------------------ */
static PetscErrorCode PCHJacobiSetTileSize_HJacobi(PC pc, PetscInt tx, PetscInt ty, PetscInt tz)
{
  PC_HJacobi    *hj   = (PC_HJacobi *)pc->data;
  const PetscInt t[3] = {tx, ty, tz};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++)
    PetscCheck(t[d] >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI tile size must be >= 1 in every direction; got %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_tile)", t[d], d);
  for (PetscInt d = 0; d < 3; d++) hj->asked.tile[d] = t[d];
  hj->asked.tileset = PETSC_TRUE;
  pc->setupcalled   = 0; /* tile buffers and launch shapes depend on it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetTileSize_HJacobi(PC pc, PetscInt *tx, PetscInt *ty, PetscInt *tz)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  const PetscInt *t = pc->setupcalled ? hj->sw.tile : hj->asked.tile; /* in use; before setup as given (0: chosen there) */
  if (tx) *tx = t[0];
  if (ty) *ty = t[1];
  if (tz) *tz = t[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetOverlap_HJacobi(PC pc, PetscInt ox, PetscInt oy, PetscInt oz)
{
  PC_HJacobi    *hj   = (PC_HJacobi *)pc->data;
  const PetscInt o[3] = {ox, oy, oz};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++)
    PetscCheck(o[d] >= 0 && o[d] % 2 == 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI overlap must be even and >= 0 (each tile keeps half of a shared strip); got %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_overlap)", o[d], d);
  for (PetscInt d = 0; d < 3; d++) hj->sw.overlap[d] = o[d];
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetOverlap_HJacobi(PC pc, PetscInt *ox, PetscInt *oy, PetscInt *oz)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (ox) *ox = hj->sw.overlap[0];
  if (oy) *oy = hj->sw.overlap[1];
  if (oz) *oz = hj->sw.overlap[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetSubiterations_HJacobi(PC pc, PetscInt k)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI subiterations must be >= 1; got %" PetscInt_FMT " (-pc_hjacobi_subiterations)", k);
  if (k != hj->asked.k || !hj->asked.kset) pc->setupcalled = 0; /* a backend may choose its kernel by k (the CUDA backend: classic or tile) */
  hj->asked.k    = k;
  hj->asked.kset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetSubiterations_HJacobi(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  *k             = pc->setupcalled ? hj->sw.k : hj->asked.k; /* in use; before setup as asked */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetCycles_HJacobi(PC pc, PetscInt c)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(c >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI cycles must be >= 1; got %" PetscInt_FMT " (-pc_hjacobi_cycles)", c);
  hj->cycles = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetCycles_HJacobi(PC pc, PetscInt *c)
{
  PetscFunctionBegin;
  *c = ((PC_HJacobi *)pc->data)->cycles;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetOmega_HJacobi(PC pc, PetscReal w)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (w == (PetscReal)PETSC_DECIDE || w == (PetscReal)PETSC_DEFAULT) { /* auto: chosen at the next setup */
    if (hj->asked.omega > 0) pc->setupcalled = 0;
    hj->asked.omega = PETSC_DECIDE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(w > 0 && w < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI omega must satisfy 0 < omega < 2 (or be PETSC_DECIDE: chosen from the operator); got %g (-pc_hjacobi_omega)", (double)w);
  if (w != hj->asked.omega) pc->setupcalled = 0; /* the weights hold it */
  hj->asked.omega = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetOmegaRecompute_HJacobi(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  ((PC_HJacobi *)pc->data)->spec.recompute = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetOmegaRecompute_HJacobi(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((PC_HJacobi *)pc->data)->spec.recompute;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetOmega_HJacobi(PC pc, PetscReal *w)
{
  PetscFunctionBegin;
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  *w             = pc->setupcalled ? hj->omega : hj->asked.omega; /* in use; before setup as asked (PETSC_DECIDE: auto) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetBackend_HJacobi(PC pc, PCHJacobiBackend be)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(be >= PC_HJACOBI_BACKEND_AUTO && be <= PC_HJACOBI_BACKEND_CUDA, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJacobiBackend %d", (int)be);
  hj->backend     = be;
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetBackend_HJacobi(PC pc, PCHJacobiBackend *be)
{
  PetscFunctionBegin;
  *be = ((PC_HJacobi *)pc->data)->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetInnerPrecision_HJacobi(PC pc, PCHJacobiInnerPrecision ip)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(ip == PC_HJACOBI_INNER_PRECISION_NATIVE || ip == PC_HJACOBI_INNER_PRECISION_SINGLE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJacobiInnerPrecision %d", (int)ip);
#if defined(PETSC_USE_COMPLEX)
  PetscCheck(ip == PC_HJACOBI_INNER_PRECISION_NATIVE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_inner_precision single is not available with complex scalars (the fp32 correction form is real only); use -pc_hjacobi_inner_precision native");
#endif
  hj->sw.inner    = ip;
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetInnerPrecision_HJacobi(PC pc, PCHJacobiInnerPrecision *ip)
{
  PetscFunctionBegin;
  *ip = ((PC_HJacobi *)pc->data)->sw.inner;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetWeights_HJacobi(PC pc, PCHJacobiWeightType type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(type >= PC_HJACOBI_WEIGHTS_AUTO && type <= PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJacobiWeightType %d (-pc_hjacobi_weights auto, constant, chebyshev or chebyshev_squared)", (int)type);
  if (type != hj->asked.weights) pc->setupcalled = 0; /* the backends' plans hold the weights */
  hj->asked.weights = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetWeights_HJacobi(PC pc, PCHJacobiWeightType *type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  *type = hj->sw.w ? hj->wt.used : hj->asked.weights;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetChebyshevInterval_HJacobi(PC pc, PetscReal lo, PetscReal hi)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (lo == (PetscReal)PETSC_DECIDE || lo == (PetscReal)PETSC_DEFAULT) lo = 0;
  if (hi == (PetscReal)PETSC_DECIDE || hi == (PetscReal)PETSC_DEFAULT) hi = 0;
  PetscCall(HJWeightsCheckInterval(pc, lo, hi));
  if (lo != hj->asked.lo || hi != hj->asked.hi) pc->setupcalled = 0;
  hj->asked.lo = lo;
  hj->asked.hi = hi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetChebyshevInterval_HJacobi(PC pc, PetscReal *lo, PetscReal *hi)
{
  PC_HJacobi     *hj    = (PC_HJacobi *)pc->data;
  const PetscBool inuse = (PetscBool)(hj->sw.w && (hj->wt.used == PC_HJACOBI_WEIGHTS_CHEBYSHEV || hj->wt.used == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED));

  PetscFunctionBegin;
  if (lo) *lo = inuse ? hj->wt.lo : (hj->asked.lo > 0 ? hj->asked.lo : (PetscReal)PETSC_DECIDE);
  if (hi) *hi = inuse ? hj->wt.hi : (hj->asked.hi > 0 ? hj->asked.hi : (PetscReal)PETSC_DECIDE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetSweepWeights_HJacobi(PC pc, PetscInt *k, const PetscReal *w[])
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(hj->sw.w, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCHJacobiGetSweepWeights() needs PCSetUp() first: the weights are chosen there");
  if (k) *k = hj->sw.k;
  if (w) *w = hj->wt.w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the role, set by code that knows what the PC is used as (HJ_ROLE_UNSET: from the options prefix) */
static PetscErrorCode PCHJacobiSetRole_HJacobi(PC pc, PetscInt role)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(role >= HJ_ROLE_UNSET && role <= HJ_ROLE_SMOOTHER, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJACOBI role %" PetscInt_FMT, role);
  if ((HJRole)role != hj->wt.role) pc->setupcalled = 0;
  hj->wt.role = (HJRole)role;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetRichardsonCheck_HJacobi(PC pc, PetscInt m)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(m >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Richardson check period must be >= 1 iteration; got %" PetscInt_FMT " (-pc_hjacobi_richardson_check)", m);
  hj->richcheck = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetRichardsonCheck_HJacobi(PC pc, PetscInt *m)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  *m = hj->richcheck;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJSetRole(PC pc, HJRole role)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCHJacobiSetRole_C", (PC, PetscInt), (pc, (PetscInt)role));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* composes the implementations on a PCHJACOBI (add), or removes them (PCDestroy) */
PetscErrorCode HJSettersCompose(PC pc, PetscBool add)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetTileSize_C", add ? PCHJacobiSetTileSize_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetTileSize_C", add ? PCHJacobiGetTileSize_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOverlap_C", add ? PCHJacobiSetOverlap_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOverlap_C", add ? PCHJacobiGetOverlap_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetSubiterations_C", add ? PCHJacobiSetSubiterations_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSubiterations_C", add ? PCHJacobiGetSubiterations_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetCycles_C", add ? PCHJacobiSetCycles_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetCycles_C", add ? PCHJacobiGetCycles_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmega_C", add ? PCHJacobiSetOmega_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmegaRecompute_C", add ? PCHJacobiSetOmegaRecompute_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmegaRecompute_C", add ? PCHJacobiGetOmegaRecompute_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmega_C", add ? PCHJacobiGetOmega_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetBackend_C", add ? PCHJacobiSetBackend_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetBackend_C", add ? PCHJacobiGetBackend_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetInnerPrecision_C", add ? PCHJacobiSetInnerPrecision_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetInnerPrecision_C", add ? PCHJacobiGetInnerPrecision_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetWeights_C", add ? PCHJacobiSetWeights_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetWeights_C", add ? PCHJacobiGetWeights_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetChebyshevInterval_C", add ? PCHJacobiSetChebyshevInterval_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetChebyshevInterval_C", add ? PCHJacobiGetChebyshevInterval_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSweepWeights_C", add ? PCHJacobiGetSweepWeights_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRole_C", add ? PCHJacobiSetRole_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRichardsonCheck_C", add ? PCHJacobiSetRichardsonCheck_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetRichardsonCheck_C", add ? PCHJacobiGetRichardsonCheck_HJacobi : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------ public setters ------------------------------------------ */
/*@
  PCHJacobiSetTileSize - Sets the tile size t: the grid points one tile (one GPU thread block) updates per direction

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
- tx, ty, tz - tile size in x, y, z (directions the grid lacks are ignored)

  Options Database Key:
. -pc_hjacobi_tile <tx[,ty[,tz]]> - one value sets every direction; the default depends on the backend: host, equal tiles of at least 1024 (1D), 256 x 32 (2D), 128 x 8 x 8 (3D) points, as many as fit the largest rank box (long rows for the CPU's vector loops, a tile in L2); CUDA, 256 (1D), 32 x 32 (2D), 8 x 8 x 8 (3D), and one tile in a direction whose largest rank box is shorter than two of them (when that tile stays within 4096 points); where the column kernel runs (3D star operators with few distinct rows on large rank boxes) its own default tile, 30 x 14 x 48 at 257^3

  Level: intermediate

  Note:
  The CUDA backend holds a tile and its halo in shared memory; a tile that does not fit the device is an error at setup.

.seealso: `PCHJACOBI`, `PCHJacobiSetOverlap()`, `PCHJacobiSetSubiterations()`
@*/
PetscErrorCode PCHJacobiSetTileSize(PC pc, PetscInt tx, PetscInt ty, PetscInt tz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCHJacobiSetTileSize_C", (PC, PetscInt, PetscInt, PetscInt), (pc, tx, ty, tz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetTileSize - Gets the tile size (after `PCSetUp()`, the one in use)

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameters:
+ tx, ty, tz - tile size per direction (pass `NULL` for those not needed)

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetTileSize()`
@*/
PetscErrorCode PCHJacobiGetTileSize(PC pc, PetscInt *tx, PetscInt *ty, PetscInt *tz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetTileSize_C", (PC, PetscInt *, PetscInt *, PetscInt *), (pc, tx, ty, tz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetOverlap - Sets the overlap o: the points two neighbouring tiles share per direction

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
- ox, oy, oz - overlap per direction: even, 0 <= o < tile

  Options Database Key:
. -pc_hjacobi_overlap <ox[,oy[,oz]]> - one value sets every direction; default 0

  Level: intermediate

  Note:
  Of each shared strip, the o/2 points nearer a tile's centre belong to it. With o > 0 the preconditioner is not
  symmetric (restricted additive Schwarz style): use it with GMRES/FGMRES, BiCG (`PCApplyTranspose()` is its exact
  transpose) or as a Richardson smoother, not with CG.

.seealso: `PCHJACOBI`, `PCHJacobiSetTileSize()`
@*/
PetscErrorCode PCHJacobiSetOverlap(PC pc, PetscInt ox, PetscInt oy, PetscInt oz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCHJacobiSetOverlap_C", (PC, PetscInt, PetscInt, PetscInt), (pc, ox, oy, oz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetOverlap - Gets the overlap of neighbouring tiles

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameters:
+ ox, oy, oz - overlap per direction (pass `NULL` for those not needed)

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetOverlap()`
@*/
PetscErrorCode PCHJacobiGetOverlap(PC pc, PetscInt *ox, PetscInt *oy, PetscInt *oz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetOverlap_C", (PC, PetscInt *, PetscInt *, PetscInt *), (pc, ox, oy, oz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetSubiterations - Sets k, the Jacobi sweeps each tile makes per cycle with its halo frozen

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
- k  - sweeps per cycle, >= 1 (k = 1 is plain damped Jacobi)

  Options Database Key:
. -pc_hjacobi_subiterations <k> - default 4

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetCycles()`
@*/
PetscErrorCode PCHJacobiSetSubiterations(PC pc, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, k, 2);
  PetscTryMethod(pc, "PCHJacobiSetSubiterations_C", (PC, PetscInt), (pc, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetSubiterations - Gets k, the sweeps per tile per cycle

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. k - sweeps per cycle

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetSubiterations()`
@*/
PetscErrorCode PCHJacobiGetSubiterations(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetSubiterations_C", (PC, PetscInt *), (pc, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetCycles - Sets c, the cycles one `PCApply()` makes from a zero initial guess

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
- c  - cycles, >= 1

  Options Database Key:
. -pc_hjacobi_cycles <c> - default 1

  Level: intermediate

  Note:
  `PCApplyRichardson()` (the `KSPRICHARDSON` and multigrid-smoother path) makes c cycles per iteration.

.seealso: `PCHJACOBI`, `PCHJacobiSetSubiterations()`
@*/
PetscErrorCode PCHJacobiSetCycles(PC pc, PetscInt c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, c, 2);
  PetscTryMethod(pc, "PCHJacobiSetCycles_C", (PC, PetscInt), (pc, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetCycles - Gets c, the cycles per `PCApply()`

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. c - cycles

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetCycles()`
@*/
PetscErrorCode PCHJacobiGetCycles(PC pc, PetscInt *c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetCycles_C", (PC, PetscInt *), (pc, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetOmega - Sets the damping omega of every sweep, or asks for it to be chosen from the operator

  Logically Collective

  Input Parameters:
+ pc    - the `PCHJACOBI` preconditioner
- omega - damping, 0 < omega < 2 (1 is the paper's update), or `PETSC_DECIDE` (the default): chosen at `PCSetUp()`

  Options Database Key:
. -pc_hjacobi_omega <omega,auto> - a number 0 < omega < 2, or auto (the default)

  Level: intermediate

  Notes:
  A given omega is used as is. With `PETSC_DECIDE`, `PCSetUp()` estimates the spectrum of D^{-1} A (D the diagonal, or
  the dof x dof diagonal blocks) with 10 Arnoldi steps and takes omega = 2/(lo + hi), where hi is 1.1 times the
  largest real part of the Ritz values and lo = max(the smallest real part, hi/(2 dim)): the damping that smooths the
  high frequencies of a dim-dimensional Laplacian evenly (4/5 in 2D), and the optimal Richardson damping of a
  well-conditioned operator; it is then limited so that every Ritz value theta contracts, |1 - omega theta| <= 0.9.
  When no omega does (a Ritz value with real part <= 0: an indefinite operator; or a spectrum far off the real axis),
  the k sweeps approximate nothing and the PC falls back to point (block) Jacobi: k = 1 and omega = 1, exactly
  `PCJACOBI` (`PCPBJACOBI` for dof > 1); if the user set k, k is kept with omega 1. `-pc_view` and `-info` say what
  was chosen and why; `PCHJacobiGetOmega()` and `PCHJacobiGetSubiterations()` return the values in use after setup.
  k = 1 also gets the chosen omega (it matters to the Richardson smoother; in a Krylov method it only scales the
  preconditioner): `-pc_hjacobi_subiterations 1 -pc_hjacobi_omega 1` is exactly `PCJACOBI`.
  The estimate is reused while the Pmat is the same object with the same nonzero pattern (see
  `PCHJacobiSetOmegaRecompute()`); its cost appears as the event PCHJacobiEstimate in `-log_view`.

.seealso: `PCHJACOBI`, `PCHJacobiGetOmega()`, `PCHJacobiSetOmegaRecompute()`
@*/
PetscErrorCode PCHJacobiSetOmega(PC pc, PetscReal omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, omega, 2);
  PetscTryMethod(pc, "PCHJacobiSetOmega_C", (PC, PetscReal), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetOmega - Gets the damping omega in use (after `PCSetUp()`: the one chosen from the operator, unless given)

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. omega - the damping; `PETSC_DECIDE` before the first `PCSetUp()` when it is to be chosen there

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetOmega()`
@*/
PetscErrorCode PCHJacobiGetOmega(PC pc, PetscReal *omega)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetOmega_C", (PC, PetscReal *), (pc, omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetOmegaRecompute - Estimates the spectrum behind the automatic omega again whenever the Pmat's values change

  Logically Collective

  Input Parameters:
+ pc  - the `PCHJACOBI` preconditioner
- flg - `PETSC_TRUE`: a new estimate at every setup that sees new values; `PETSC_FALSE` (default): only for a new
        Pmat object or nonzero pattern (the values of a Newton or time-stepping sequence change little)

  Options Database Key:
. -pc_hjacobi_omega_recompute <bool> - default false

  Level: advanced

  Note:
  Only matters when omega is chosen by the PC (`PCHJacobiSetOmega()` with `PETSC_DECIDE`, the default). The precedent
  is `PCGAMGSetRecomputeEstEig()`.

.seealso: `PCHJACOBI`, `PCHJacobiSetOmega()`, `PCHJacobiGetOmegaRecompute()`
@*/
PetscErrorCode PCHJacobiSetOmegaRecompute(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCHJacobiSetOmegaRecompute_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetOmegaRecompute - Gets whether the omega estimate is redone when the Pmat's values change

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. flg - the flag

  Level: advanced

.seealso: `PCHJACOBI`, `PCHJacobiSetOmegaRecompute()`
@*/
PetscErrorCode PCHJacobiGetOmegaRecompute(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetOmegaRecompute_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetBackend - Chooses where the cycles run

  Logically Collective

  Input Parameters:
+ pc      - the `PCHJACOBI` preconditioner
- backend - `PC_HJACOBI_BACKEND_AUTO` (CUDA when the Pmat's vectors are CUDA vectors), `PC_HJACOBI_BACKEND_HOST` or `PC_HJACOBI_BACKEND_CUDA`

  Options Database Key:
. -pc_hjacobi_backend <auto,host,cuda> - default auto

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiBackend`
@*/
PetscErrorCode PCHJacobiSetBackend(PC pc, PCHJacobiBackend backend)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, backend, 2);
  PetscTryMethod(pc, "PCHJacobiSetBackend_C", (PC, PCHJacobiBackend), (pc, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetBackend - Gets the backend requested

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. backend - the backend

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetBackend()`
@*/
PetscErrorCode PCHJacobiGetBackend(PC pc, PCHJacobiBackend *backend)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetBackend_C", (PC, PCHJacobiBackend *), (pc, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetInnerPrecision - Sets the precision of the sub-iterations inside a tile

  Logically Collective

  Input Parameters:
+ pc        - the `PCHJACOBI` preconditioner
- precision - `PC_HJACOBI_INNER_PRECISION_NATIVE` (`PetscScalar`) or `PC_HJACOBI_INNER_PRECISION_SINGLE`

  Options Database Key:
. -pc_hjacobi_inner_precision <native,single> - default native

  Level: advanced

  Note:
  Single precision sub-iterations (CUDA backend, double `PetscScalar`) run in correction form: each cycle forms the
  residual b - A x of every tile once in `PetscScalar`, iterates the tile's correction from zero in float (half the
  shared-memory and coefficient traffic of the sweeps) and adds it to x in `PetscScalar`. Only the correction is rounded:
  a cycle differs from the native one by about 1e-7 relative to the residual at its start, never to x, so a Richardson
  solve with hjacobi alone reaches the same residual as with native sub-iterations (no floor from the inner precision,
  whatever the size of x). Each cycle reads x and the double coefficients once more than the native sweeps (the residual).

.seealso: `PCHJACOBI`
@*/
PetscErrorCode PCHJacobiSetInnerPrecision(PC pc, PCHJacobiInnerPrecision precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, precision, 2);
  PetscTryMethod(pc, "PCHJacobiSetInnerPrecision_C", (PC, PCHJacobiInnerPrecision), (pc, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetInnerPrecision - Gets the precision of the sub-iterations

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. precision - the precision

  Level: advanced

.seealso: `PCHJACOBI`, `PCHJacobiSetInnerPrecision()`
@*/
PetscErrorCode PCHJacobiGetInnerPrecision(PC pc, PCHJacobiInnerPrecision *precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetInnerPrecision_C", (PC, PCHJacobiInnerPrecision *), (pc, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetWeights - Sets how the weights w_1..w_k of a tile's k sweeps are chosen

  Logically Collective

  Input Parameters:
+ pc   - the `PCHJACOBI` preconditioner
- type - `PC_HJACOBI_WEIGHTS_AUTO` (the default), `PC_HJACOBI_WEIGHTS_CONSTANT`, `PC_HJACOBI_WEIGHTS_CHEBYSHEV` or
         `PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED`

  Options Database Key:
. -pc_hjacobi_weights <auto,constant,chebyshev,chebyshev_squared> - the weights

  Level: intermediate

  Notes:
  Sweep j of a tile is y <- y + w_j D^{-1}(b - A y). constant: w_j = omega (`PCHJacobiSetOmega()`; the paper's
  method). chebyshev: w_j = 1/l_j, l_j the k Chebyshev nodes of an interval [lo, hi] (`PCHJacobiSetChebyshevInterval()`;
  by default hi from the spectrum estimate of D^{-1}A that the automatic omega makes, and lo from the tile size), taken
  in Leja order; the k sweeps are then the Chebyshev polynomial of degree k of the tile's operator, which solves each
  tile far better than k equal sweeps at the same cost. chebyshev_squared: each of the k/2 Chebyshev nodes twice
  (1/hi last for odd k): the square of the Chebyshev polynomial of degree k/2, never negative; the same preconditioner
  as chebyshev up to a positive scalar (CG and GMRES iterate alike), and with overlap 0 a Richardson iteration that
  converges where block Jacobi does, where chebyshev's may diverge. The weights are chosen once per `PCSetUp()`.
  auto: constant for a multigrid smoother (a `PCMG` level: the PC's options prefix contains mg_levels_), where the
  high frequencies must be damped evenly and k is small, for k = 1, and for overlap > 0 (whose Richardson iteration
  with Chebyshev weights diverged in some measured cases); chebyshev_squared elsewhere (`PCApply()` in a
  Krylov method, `-ksp_type richardson -pc_type hjacobi`); constant also when the omega was given, or when the
  spectrum estimate finds no damping that contracts or Ritz values off the real axis (`-pc_view` and `-info` say which
  and why).
  The properties of the method hold with either: k = 1 is one Jacobi sweep damped by w_1, overlap 0 gives a symmetric
  positive definite preconditioner for SPD A (hi bounds the spectrum from above, so every factor stays below 1), and
  `PCApplyTranspose()` is exact. A given omega does not change Chebyshev weights (it is still the damping of constant
  weights, e.g. of k = 1, and what `PCHJacobiGetOmega()` returns).

.seealso: `PCHJACOBI`, `PCHJacobiGetWeights()`, `PCHJacobiSetChebyshevInterval()`, `PCHJacobiGetSweepWeights()`, `PCHJacobiSetOmega()`
@*/
PetscErrorCode PCHJacobiSetWeights(PC pc, PCHJacobiWeightType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscTryMethod(pc, "PCHJacobiSetWeights_C", (PC, PCHJacobiWeightType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetWeights - Gets the weights of the sweeps: after `PCSetUp()` the ones in use (constant or Chebyshev),
  before it the ones asked for

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. type - the weights

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`
@*/
PetscErrorCode PCHJacobiGetWeights(PC pc, PCHJacobiWeightType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetWeights_C", (PC, PCHJacobiWeightType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetChebyshevInterval - Sets the interval [lo, hi] whose Chebyshev nodes give the sweeps' weights

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
. lo - lower end, > 0, or `PETSC_DECIDE` (the default): the smallest eigenvalue of a tile's D^{-1}A_TT for a Laplacian
       with the tile's frozen halo, 1 - (1/dim) sum_d cos(pi/(t_d + 1)), scaled by hi/2
- hi - upper end, > lo, or `PETSC_DECIDE` (the default): 1.1 times the largest real part of the Ritz values of D^{-1}A
       (the spectrum estimate of the automatic omega), rounded up to 0.01

  Options Database Key:
. -pc_hjacobi_chebyshev_interval <lo,hi> - the interval (0 for an end chosen at setup)

  Level: advanced

  Notes:
  hi must be at least the largest eigenvalue of D^{-1}A_TT: a larger one would grow in every cycle. lo may be larger or
  smaller than the smallest: the polynomial stays within [-1, 1] on all of [0, hi]; lo near the tile's smallest
  eigenvalue solves tiles best. Used by `PC_HJACOBI_WEIGHTS_CHEBYSHEV` (and auto where it chooses Chebyshev); given
  both ends, setup still estimates the spectrum to check hi: a hi below the estimate's bound is taken and said
  (`-pc_view`, `-info`). The ends must satisfy 1.5e-8 <= lo < hi <= 6.7e7 (weights within 1/sqrt(eps) of 1). The
  estimated hi is reused, as omega is, while the Pmat keeps its nonzero pattern: when new values can raise the largest eigenvalue, use `PCHJacobiSetOmegaRecompute()` (a polynomial
  of degree k grows faster above hi than k equal sweeps do).

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`, `PCHJacobiGetChebyshevInterval()`
@*/
PetscErrorCode PCHJacobiSetChebyshevInterval(PC pc, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, lo, 2);
  PetscValidLogicalCollectiveReal(pc, hi, 3);
  PetscTryMethod(pc, "PCHJacobiSetChebyshevInterval_C", (PC, PetscReal, PetscReal), (pc, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetChebyshevInterval - Gets the Chebyshev interval: after `PCSetUp()` with Chebyshev weights the one in use,
  else the one given (`PETSC_DECIDE` for an end chosen at setup)

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameters:
+ lo - lower end (or `NULL`)
- hi - upper end (or `NULL`)

  Level: advanced

.seealso: `PCHJACOBI`, `PCHJacobiSetChebyshevInterval()`
@*/
PetscErrorCode PCHJacobiGetChebyshevInterval(PC pc, PetscReal *lo, PetscReal *hi)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetChebyshevInterval_C", (PC, PetscReal *, PetscReal *), (pc, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PCHJacobiGetSweepWeights - Gets the weights w_1..w_k of the k sweeps in use, in the order the sweeps run

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner, set up

  Output Parameters:
+ k - the number of sweeps (or `NULL`)
- w - the weights, owned by the PC and valid until its next setup (or `NULL`)

  Level: developer

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`
@*/
PetscErrorCode PCHJacobiGetSweepWeights(PC pc, PetscInt *k, const PetscReal *w[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetSweepWeights_C", (PC, PetscInt *, const PetscReal **), (pc, k, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetRichardsonCheck - Sets m, how often `PCApplyRichardson()` checks the true residual when the solving
  `KSP` asks for a convergence test

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
- m  - Richardson iterations (each c cycles) between two residual checks, >= 1

  Options Database Key:
. -pc_hjacobi_richardson_check <m> - default 4

  Level: intermediate

  Notes:
  `-ksp_type richardson -pc_type hjacobi` runs in `PCApplyRichardson()` without computing norms between cycles. When
  the `KSP`'s convergence test is `KSPConvergedDefault()` (the default) and its norm type is not `KSP_NORM_NONE`,
  the true residual norm ||b - A x|| is computed before the first iteration, every m iterations and after the last,
  and the solve stops as `KSPConvergedDefault()` would (rtol relative to ||b||, abstol, dtol, NaN) with the right
  reason and iteration count, at most m - 1 iterations after the generic loop would stop; `KSPGetResidualNorm()` then
  returns the last true residual norm. The unpreconditioned norm is tested whatever the `KSP`'s norm type. Each check costs a
  `MatMult()` and a norm. As a multigrid smoother (`KSPConvergedSkip()`) no norm is ever computed.

.seealso: `PCHJACOBI`, `PCHJacobiSetCycles()`, `KSPRICHARDSON`, `KSPSetTolerances()`
@*/
PetscErrorCode PCHJacobiSetRichardsonCheck(PC pc, PetscInt m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, m, 2);
  PetscTryMethod(pc, "PCHJacobiSetRichardsonCheck_C", (PC, PetscInt), (pc, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetRichardsonCheck - Gets m, the Richardson iterations between two true-residual checks

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. m - the check period

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetRichardsonCheck()`
@*/
PetscErrorCode PCHJacobiGetRichardsonCheck(PC pc, PetscInt *m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetRichardsonCheck_C", (PC, PetscInt *), (pc, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
