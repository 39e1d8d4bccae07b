/* PCHJACOBI: the PETSc face of hierarchical Jacobi (setup, apply, options, view, setters).
   The method is doc/algorithm.md; the backends (host/, cuda/) run its cycles. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "arith/point.hpp"
#include "arith/tilefit.hpp"

PETSC_INTERN PetscErrorCode PCHJacobiCite_Private(void);

const char *const HJExtractPlaces[] = {"auto", "host", "device"};

/* The default tile: the backend's own where it has one for this stencil on every rank (HJBackendOps.defaulttile: the CUDA
   column kernel's), else hj::DefaultTile (arith/tilefit.hpp: whole directions where the rank boxes are short, within what
   the CUDA tile kernels hold, on the CUDA backend), of the largest rank box of the DMDA's partition, so that every rank
   runs the same tile. */
static PetscErrorCode HJDefaultTile(PC pc, const HJBackendOps *ops)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  const HJLayout *L  = &hj->layout;
  long long       mmax[3], t[3];
  PetscBool       set = PETSC_FALSE, all;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    mmax[d] = 1;
    for (PetscInt r = 0; r < L->procs[d]; r++) mmax[d] = PetscMax(mmax[d], (long long)(L->start[d][r + 1] - L->start[d][r]));
  }
  if (ops->defaulttile) { /* (it may fail on one rank, a device allocation: every rank stops, none waits in the reduction) */
    const PetscErrorCode ierr = (*ops->defaulttile)(pc, &hj->st, mmax, t, &set);
    PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: the %s backend's default tile failed (the rank concerned printed why above)", ops->name));
  }
  PetscCall(MPIU_Allreduce(&set, &all, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)pc))); /* one tile on every rank */
  if (!all) hj::DefaultTile((int)L->dim, (int)L->dof, (long long)sizeof(PetscScalar), ops->device, mmax, t);
  for (PetscInt d = 0; d < 3; d++) hj->tile[d] = (PetscInt)t[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiCheckParameters(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < hj->layout.dim; d++) { /* tile >= 1 and even overlap >= 0: the setters' checks (the default tile is >= 1) */
    PetscCheck(hj->overlap[d] < hj->tile[d], PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI overlap %" PetscInt_FMT " must be smaller than the tile %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_overlap, -pc_hjacobi_tile)", hj->overlap[d], hj->tile[d], d);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_HJacobi(PC pc)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  DM                  dm;
  const HJBackendOps *ops;

  PetscFunctionBegin;
  PetscCall(PCHJacobiCite_Private());
  PetscCall(HJFindGrid(pc, &dm)); /* grid/grid.cxx: the PC's DMDA, else the Pmat's; no grid: an error naming what works */

  PetscBool newlayout = (PetscBool)(!hj->haslayout || dm != hj->da || !HJLayoutSame(dm, &hj->layout));
  if (newlayout) { /* new grid: rebuild everything */
    if (hj->ops) PetscCall((*hj->ops->reset)(pc));
    hj->ops = NULL;
    PetscCall(HJLayoutDestroy(&hj->layout));
    PetscCall(PetscSFDestroy(&hj->ghostsf));
    PetscCall(HJLayoutCreate(dm, &hj->layout));
    PetscCall(PetscObjectReference((PetscObject)dm));
    PetscCall(DMDestroy(&hj->da));
    hj->da        = dm;
    hj->haslayout = PETSC_TRUE;
    PetscCall(HJStencilDestroy(&hj->st)); /* extracted for the old layout */
    PetscCall(HJStencilDestroy(&hj->stT));
    hj->hasT = PETSC_FALSE;
    PetscCall(HJLayoutCreateGhostSF(PetscObjectComm((PetscObject)pc), &hj->layout, &hj->ghostsf));
  }

  /* the backend, chosen once here and before the extraction: the backend extracts (a device one where the Pmat lives) */
  PetscCall(HJBackendSelect(pc, &ops));

  PetscCheck(hj->inner == PC_HJACOBI_INNER_PRECISION_NATIVE || ops->device, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_inner_precision single is implemented by the CUDA backend only; the host backend runs in PetscScalar precision (use -pc_hjacobi_inner_precision native)");

  /* New values only (the same Pmat object, nonzero pattern, layout and extracting backend): a value pass. Another
     pattern, matrix, grid or backend: a full extraction. A setup caused only by a parameter change (tile, overlap)
     keeps the stencil. The transpose is re-indexed from st when next asked for. PCHJACOBI_Extract times only this. */
  {
    PetscObjectId    id;
    PetscObjectState state, nzstate;
    PetscCall(PetscObjectGetId((PetscObject)pc->pmat, &id));
    PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
    PetscCall(MatGetNonzeroState(pc->pmat, &nzstate));
    if (!hj->st.noff || id != hj->stid || state != hj->ststate || ops != hj->stops) {
      const PetscBool valuesonly = (PetscBool)(hj->st.noff && id == hj->stid && nzstate == hj->stnzstate && ops == hj->stops && !newlayout);

      PetscCall(PetscInfo(pc, "%s extraction of the Pmat's stencil (%s backend)\n", valuesonly ? "values-only" : "full", ops->name));
      PetscCall(HJStencilDestroy(&hj->stT));
      hj->hasT = PETSC_FALSE;
      if (!valuesonly) PetscCall(HJStencilDestroy(&hj->st));
      Mat R;
      PetscCall(HJPmatReadable(pc->pmat, &R)); /* SBAIJ: an AIJ copy with both triangles (the same pattern each time) */
      PetscCall(PetscLogEventBegin(PCHJACOBI_Extract, pc, 0, 0, 0));
      PetscCall((*ops->extract)(pc, R, &hj->st, valuesonly));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Extract, pc, 0, 0, 0));
      if (R != pc->pmat) PetscCall(MatDestroy(&R));
      hj->stid      = id;
      hj->ststate   = state;
      hj->stnzstate = nzstate;
      hj->stops     = ops;
    }
  }
  if (!hj->tileset) PetscCall(HJDefaultTile(pc, ops)); /* after the extraction: a backend's default may depend on the stencil */
  PetscCall(PCHJacobiCheckParameters(pc));
  if (hj->ops && hj->ops != ops) PetscCall((*hj->ops->reset)(pc));
  hj->ops = ops;
  PetscCall(HJWeightsSetUp(pc)); /* omega, k and the sweeps' weights (weights/weights.cxx) before the backend sets up for them (its plan holds them) */
  {                              /* a per-rank failure in the backend's setup (the CUDA backend's tile against this rank's box and the device's
       limits, an allocation) stops every rank here rather than leaving the others in the first ghost exchange */
    const PetscErrorCode ierr = (*hj->ops->setup)(pc);
    PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: the %s backend's setup failed (the rank concerned printed why above)", hj->ops->name));
  }
  if (hj->ops->setupall) PetscCall((*hj->ops->setupall)(pc)); /* collective: every rank is set up now */
  PetscCall(HJBackendFallbackReset(pc, PETSC_FALSE));         /* the host data of host vectors: remade to the new sizes at its next use */
  hj->residualtold = NULL;                                    /* -info says again how the residual is computed (solve/residual.cxx) */
  {                                                           /* no PETSc version reads -pc_view itself (users' standard is -ksp_view); a PC that honours it views itself, once
       set up (PCSetUp marks it just after this) */
    const PetscBool called = pc->setupcalled ? PETSC_TRUE : PETSC_FALSE;
    pc->setupcalled        = PETSC_TRUE;
    PetscCall(PCViewFromOptions(pc, NULL, "-pc_view"));
    pc->setupcalled = called;
  }
  PetscCall(PetscInfo(pc, "%" PetscInt_FMT "D grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s stencil, %s coefficients, backend %s\n", hj->layout.dim, hj->layout.M[0], hj->layout.M[1], hj->layout.M[2], hj->st.kind == hj::STAR ? "star" : "box",
                      hj->st.constant ? "constant" : "variable", hj->ops->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_HJacobi(PC pc, Vec b, Vec x)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJBackendCycles(pc, &hj->st, b, x, hj->cycles, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = M^T b (doc/algorithm.md "PCApplyTranspose"): c cycles from zero of x' = x + N^T (b - A^T x). The first starts
   from x = 0, so its residual is b; the later ones need A^T x, the Pmat's MatMultTranspose (on the device for device
   matrices). With overlap 0 this equals the forward cycle with A^T's coefficients; with overlap it does not (the
   owned-core restriction moves from the output to the input). */
static PetscErrorCode PCApplyTranspose_HJacobi(PC pc, Vec b, Vec x)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (!hj->hasT) { /* collective: a per-rank failure (a device allocation) stops every rank */
    const PetscErrorCode ierr = HJStencilTranspose(pc);
    PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: A^T's stencil could not be made (the rank concerned printed why above)"));
  }
  PetscCall(HJBackendCorrectT(pc, &hj->stT, b, x, PETSC_FALSE));
  if (hj->cycles > 1) {
    if (hj->rT) { /* made for other vectors (another type or size) */
      PetscBool same;
      PetscInt  n, nr;
      PetscCall(PetscObjectTypeCompare((PetscObject)hj->rT, ((PetscObject)b)->type_name, &same));
      PetscCall(VecGetLocalSize(b, &n));
      PetscCall(VecGetLocalSize(hj->rT, &nr));
      if (!same || n != nr) PetscCall(VecDestroy(&hj->rT));
    }
    if (!hj->rT) PetscCall(VecDuplicate(b, &hj->rT));
  }
  for (PetscInt c = 1; c < hj->cycles; c++) {
    PetscCall(MatMultTranspose(pc->pmat, x, hj->rT));
    PetscCall(VecAYPX(hj->rT, -1.0, b));
    PetscCall(HJBackendCorrectT(pc, &hj->stT, hj->rT, x, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_HJacobi(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (hj->ops) PetscCall((*hj->ops->reset)(pc));
  hj->ops = NULL;
  PetscCall(HJBackendFallbackReset(pc, PETSC_TRUE));
  PetscCall(HJStencilDestroy(&hj->st));
  PetscCall(HJStencilDestroy(&hj->stT));
  hj->hasT  = PETSC_FALSE;
  hj->stops = NULL;
  PetscCall(VecDestroy(&hj->rT));
  PetscCall(HJWeightsReset(pc)); /* the estimate and the weights: chosen again at the next setup */
  PetscCall(PetscSFDestroy(&hj->ghostsf));
  PetscCall(HJLayoutDestroy(&hj->layout));
  hj->haslayout = PETSC_FALSE;
  PetscCall(DMDestroy(&hj->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_HJacobi(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_HJacobi(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetTileSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetTileSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOverlap_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOverlap_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetSubiterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSubiterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetCycles_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetCycles_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmega_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmega_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmegaRecompute_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmegaRecompute_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetBackend_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetBackend_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetInnerPrecision_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetInnerPrecision_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRichardsonCheck_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetRichardsonCheck_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetWeights_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetWeights_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetChebyshevInterval_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetChebyshevInterval_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSweepWeights_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRole_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidual_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidualRefusal_C", NULL));
  PetscCall(HJRichardsonInstall(pc, PETSC_FALSE));
  PetscCall(HJWeightsInstall(pc, PETSC_FALSE));
  PetscCall(HJBackendsDestroyOptions(pc));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_HJacobi(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  PetscBool   isascii;
  PetscInt    dim = hj->haslayout ? hj->layout.dim : 3;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  {
    char   t[64], o[64];
    size_t len;
    PetscCall(PetscSNPrintf(t, sizeof(t), "%" PetscInt_FMT, hj->tile[0]));
    PetscCall(PetscSNPrintf(o, sizeof(o), "%" PetscInt_FMT, hj->overlap[0]));
    for (PetscInt d = 1; d < dim; d++) {
      PetscCall(PetscStrlen(t, &len));
      PetscCall(PetscSNPrintf(t + len, sizeof(t) - len, " x %" PetscInt_FMT, hj->tile[d]));
      PetscCall(PetscStrlen(o, &len));
      PetscCall(PetscSNPrintf(o + len, sizeof(o) - len, " x %" PetscInt_FMT, hj->overlap[d]));
    }
    if (hj->tileset || hj->haslayout) PetscCall(PetscViewerASCIIPrintf(viewer, "  tile %s, overlap %s\n", t, o));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  tile (default for the grid's dimension), overlap %s\n", o));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  subiterations %" PetscInt_FMT ", cycles %" PetscInt_FMT "\n", hj->subits, hj->cycles));
  PetscCall(HJOmegaView(pc, viewer));
  PetscCall(HJWeightsView(pc, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Richardson fast path: true residual checked every %" PetscInt_FMT " iterations when the KSP tests norms\n", hj->richcheck));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s%s%s, inner precision %s\n", PCHJacobiBackends[hj->backend], hj->ops ? ", in use: " : "", hj->ops ? hj->ops->name : "", PCHJacobiInnerPrecisions[hj->inner]));
  if (!hj->haslayout || hj->ghostsf) {
    const PetscBool device = (PetscBool)(hj->ops && hj->ops->device), over = HJOverlapComm(hj);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchange of each cycle %s (-pc_hjacobi_overlap_comm %s%s)\n", over ? "overlapped with the tiles that read no ghost value" : "completed before any tile runs", over ? "true" : "false", hj->overlapcommset || !device ? "" : ", default"));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  no ghost exchange (one rank, no periodic direction)\n"));
  if (hj->haslayout && hj->st.noff) {
    const HJLayout *L      = &hj->layout;
    long long       ntiles = 1;
    for (PetscInt d = 0; d < L->dim; d++) ntiles *= hj::NumTiles(L->xm[d], hj->tile[d], hj->overlap[d]);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT "D grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s stencil (%" PetscInt_FMT " neighbours), %s coefficients; rank 0: %lld tiles\n", L->dim, L->M[0], L->M[1], L->M[2], hj->st.kind == hj::STAR ? "star" : "box",
                                     hj->st.noff, hj->st.constant ? "constant" : "variable", ntiles));
    for (PetscInt d = 0; d < L->dim; d++) /* HJStencil.zerodir: what a device backend's automatic kernel choice reads */
      if (hj->st.zerodir[d]) PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: no couplings along %c (the points along %c are independent)\n", "xyz"[d], "xyz"[d]));
    if (L->dof > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " fields per grid point: point-block Jacobi (%" PetscInt_FMT " x %" PetscInt_FMT " diagonal blocks inverted at setup)\n", L->dof, L->dof, L->dof));
    if (hj->ops && hj->ops->view) PetscCall((*hj->ops->view)(pc, viewer));
    PetscCall(HJBackendFallbackView(pc, viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one value sets every direction */
static void Spread(PetscInt v[3], PetscInt n)
{
  for (PetscInt d = n; d < 3; d++) v[d] = v[n - 1];
}

static PetscErrorCode PCSetFromOptions_HJacobi(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJacobi             *hj = (PC_HJacobi *)pc->data;
  PetscInt                v[3], n, k = hj->subits, c = hj->cycles;
  PetscBool               flg, recompute = hj->spec.recompute;
  char                    wstr[64];
  PCHJacobiBackend        be = hj->backend;
  PCHJacobiInnerPrecision ip = hj->inner;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Hierarchical Jacobi options");
  n = 3;
  for (PetscInt d = 0; d < 3; d++) v[d] = hj->tile[d];
  PetscCall(PetscOptionsIntArray("-pc_hjacobi_tile", "Tile size tx[,ty[,tz]] (one value: all directions; default per backend: host at least 1024 / 256x32 / 128x8x8 split evenly, CUDA 256 / 32x32 / 8x8x8, the column kernel its own)", "PCHJacobiSetTileSize", v, &n, &flg));
  if (flg) {
    PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_tile needs 1 to 3 integers");
    Spread(v, n);
    PetscCall(PCHJacobiSetTileSize(pc, v[0], v[1], v[2]));
  }
  n = 3;
  for (PetscInt d = 0; d < 3; d++) v[d] = hj->overlap[d];
  PetscCall(PetscOptionsIntArray("-pc_hjacobi_overlap", "Overlap ox[,oy[,oz]] of neighbouring tiles, even, < tile (one value: all directions)", "PCHJacobiSetOverlap", v, &n, &flg));
  if (flg) {
    PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_overlap needs 1 to 3 integers");
    Spread(v, n);
    PetscCall(PCHJacobiSetOverlap(pc, v[0], v[1], v[2]));
  }
  PetscCall(PetscOptionsInt("-pc_hjacobi_subiterations", "Jacobi sweeps inside a tile per cycle (k)", "PCHJacobiSetSubiterations", k, &k, &flg));
  if (flg) PetscCall(PCHJacobiSetSubiterations(pc, k));
  PetscCall(PetscOptionsInt("-pc_hjacobi_cycles", "Cycles per PCApply (c)", "PCHJacobiSetCycles", c, &c, &flg));
  if (flg) PetscCall(PCHJacobiSetCycles(pc, c));
  if (hj->om.user > 0) PetscCall(PetscSNPrintf(wstr, sizeof(wstr), "%g", (double)hj->om.user));
  else PetscCall(PetscStrcpy(wstr, "auto"));
  PetscCall(PetscOptionsString("-pc_hjacobi_omega", "Damping of every sweep, 0 < omega < 2, or auto (chosen from a spectrum estimate of D^{-1}A)", "PCHJacobiSetOmega", wstr, wstr, sizeof(wstr), &flg));
  if (flg) {
    PetscBool isauto;
    PetscCall(PetscStrcasecmp(wstr, "auto", &isauto));
    if (isauto) PetscCall(PCHJacobiSetOmega(pc, PETSC_DECIDE));
    else {
      PetscReal w;
      PetscCall(PetscOptionsStringToReal(wstr, &w));
      /* a number is a damping (PCHJacobiSetOmega() would take -1, PETSC_DECIDE, as auto): only auto asks for auto */
      PetscCheck(w > 0 && w < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_omega %s: give a damping 0 < omega < 2, or auto (chosen from the operator)", wstr);
      PetscCall(PCHJacobiSetOmega(pc, w));
    }
  }
  PetscCall(HJWeightsSetFromOptions(pc, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-pc_hjacobi_omega_recompute", "Estimate the spectrum for omega again whenever the Pmat's values change (default: only for a new matrix or nonzero pattern)", "PCHJacobiSetOmegaRecompute", recompute, &recompute, &flg));
  if (flg) PetscCall(PCHJacobiSetOmegaRecompute(pc, recompute));
  PetscCall(PetscOptionsEnum("-pc_hjacobi_backend", "Where the cycles run", "PCHJacobiSetBackend", PCHJacobiBackends, (PetscEnum)be, (PetscEnum *)&be, &flg));
  if (flg) PetscCall(PCHJacobiSetBackend(pc, be));
  {
    PetscInt place = hj->extract;
    PetscCall(PetscOptionsEList("-pc_hjacobi_extract", "Where the Pmat is read (testing: auto = on the device for an aijcusparse Pmat under the CUDA backend)", "PCHJACOBI", HJExtractPlaces, 3, HJExtractPlaces[hj->extract], &place, NULL));
    if (place != hj->extract) { /* read the Pmat again, where asked */
      hj->extract     = place;
      hj->stid        = 0;
      pc->setupcalled = 0;
    }
  }
  PetscCall(PetscOptionsEnum("-pc_hjacobi_inner_precision", "Precision of the sub-iterations (single: fp32 sweeps on the correction, x kept in PetscScalar; CUDA backend)", "PCHJacobiSetInnerPrecision", PCHJacobiInnerPrecisions, (PetscEnum)ip, (PetscEnum *)&ip, &flg));
  if (flg) PetscCall(PCHJacobiSetInnerPrecision(pc, ip));
  /* read at every cycle (the split of the tiles is made at every setup either way): no setup needed */
  PetscCall(PetscOptionsBool("-pc_hjacobi_overlap_comm", "Run the tiles that read no ghost value during the ghost exchange of each cycle (false: exchange, then every tile; default: true)", "PCHJACOBI", hj->overlapcomm, &hj->overlapcomm, &flg));
  if (flg) hj->overlapcommset = PETSC_TRUE;
  k = hj->richcheck;
  PetscCall(PetscOptionsInt("-pc_hjacobi_richardson_check", "Richardson iterations between true-residual checks when KSP tests norms (KSPRICHARDSON fast path)", "PCHJacobiSetRichardsonCheck", k, &k, &flg));
  if (flg) PetscCall(PCHJacobiSetRichardsonCheck(pc, k));
  PetscCall(HJBackendsSetFromOptions(pc, PetscOptionsObject)); /* the backends' developer options */
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------ setters and getters (implementations) ------------------------------ */
static PetscErrorCode PCHJacobiSetTileSize_HJacobi(PC pc, PetscInt tx, PetscInt ty, PetscInt tz)
{
  PC_HJacobi    *hj   = (PC_HJacobi *)pc->data;
  const PetscInt t[3] = {tx, ty, tz};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++)
    PetscCheck(t[d] >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI tile size must be >= 1 in every direction; got %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_tile)", t[d], d);
  for (PetscInt d = 0; d < 3; d++) hj->tile[d] = t[d];
  hj->tileset     = PETSC_TRUE;
  pc->setupcalled = 0; /* tile buffers and launch shapes depend on it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetTileSize_HJacobi(PC pc, PetscInt *tx, PetscInt *ty, PetscInt *tz)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (tx) *tx = hj->tile[0];
  if (ty) *ty = hj->tile[1];
  if (tz) *tz = hj->tile[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetOverlap_HJacobi(PC pc, PetscInt ox, PetscInt oy, PetscInt oz)
{
  PC_HJacobi    *hj   = (PC_HJacobi *)pc->data;
  const PetscInt o[3] = {ox, oy, oz};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++)
    PetscCheck(o[d] >= 0 && o[d] % 2 == 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI overlap must be even and >= 0 (each tile keeps half of a shared strip); got %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_overlap)", o[d], d);
  for (PetscInt d = 0; d < 3; d++) hj->overlap[d] = o[d];
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetOverlap_HJacobi(PC pc, PetscInt *ox, PetscInt *oy, PetscInt *oz)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (ox) *ox = hj->overlap[0];
  if (oy) *oy = hj->overlap[1];
  if (oz) *oz = hj->overlap[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetSubiterations_HJacobi(PC pc, PetscInt k)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI subiterations must be >= 1; got %" PetscInt_FMT " (-pc_hjacobi_subiterations)", k);
  if (k != hj->subits) pc->setupcalled = 0; /* a backend may choose its kernel by k (the CUDA backend: classic or tile) */
  hj->subits      = k;
  hj->subitsasked = k;
  hj->subitsset   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetSubiterations_HJacobi(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  *k = ((PC_HJacobi *)pc->data)->subits;
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
    if (hj->om.user > 0) pc->setupcalled = 0;
    hj->om.user = PETSC_DECIDE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(w > 0 && w < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI omega must satisfy 0 < omega < 2 (or be PETSC_DECIDE: chosen from the operator); got %g (-pc_hjacobi_omega)", (double)w);
  if (w != hj->omega || hj->om.user <= 0) pc->setupcalled = 0; /* the CUDA backend's launch descriptor holds it */
  hj->om.user = w;
  hj->omega   = w;
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
  *w = ((PC_HJacobi *)pc->data)->omega;
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
  hj->inner       = ip;
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetInnerPrecision_HJacobi(PC pc, PCHJacobiInnerPrecision *ip)
{
  PetscFunctionBegin;
  *ip = ((PC_HJacobi *)pc->data)->inner;
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

/*MC
   PCHJACOBI - Hierarchical (tiled) Jacobi on DMDA grids (Islam & Wang, HPEC 2022): each rank's box is cut into tiles;
   every tile copies its working region and a one-point halo, makes k damped Jacobi sweeps with the halo frozen, and
   writes back the points it owns; overlapping tiles share o points. One such pass is a cycle.

   Options Database Keys:
+  -pc_hjacobi_tile <tx[,ty[,tz]]> - tile size (default, host backend: equal tiles of at least 1024 in 1D, 256 x 32 in 2D, 128 x 8 x 8 in 3D; CUDA backend: 256 in 1D, 32 x 32 in 2D, 8 x 8 x 8 in 3D, a direction shorter than two of them on every rank one tile; where the column kernel runs, 3D star operators with few distinct rows on large rank boxes, its own tile, 30 x 14 x 48 at 257^3)
.  -pc_hjacobi_overlap <ox[,oy[,oz]]> - overlap of neighbouring tiles, even, < tile (default 0)
.  -pc_hjacobi_subiterations <k> - sweeps per tile per cycle (default 4); k = 1 is damped point Jacobi
.  -pc_hjacobi_cycles <c> - cycles per `PCApply()` (default 1)
.  -pc_hjacobi_omega <omega,auto> - damping, 0 < omega < 2 (default auto: chosen at setup from a spectrum estimate of D^{-1}A; see `PCHJacobiSetOmega()`)
.  -pc_hjacobi_omega_recompute <bool> - estimate again whenever the Pmat's values change (default false: only for a new Pmat or nonzero pattern)
.  -pc_hjacobi_weights <auto,constant,chebyshev,chebyshev_squared> - the weight of each of the k sweeps (default auto: chebyshev_squared for k > 1 with overlap 0 outside a multigrid smoother, else constant; see `PCHJacobiSetWeights()`)
.  -pc_hjacobi_chebyshev_interval <lo,hi> - the interval of the Chebyshev weights (default: hi from the spectrum estimate, lo from the tile size; see `PCHJacobiSetChebyshevInterval()`)
.  -pc_hjacobi_backend <auto,host,cuda> - where the cycles run (default auto: CUDA for CUDA vectors)
.  -pc_hjacobi_richardson_check <m> - `KSPRICHARDSON` with a norm test: true residual checked every m iterations (default 4)
-  -pc_hjacobi_inner_precision <native,single> - precision of the sub-iterations (CUDA backend; single sweeps the correction in fp32, no accuracy floor)

   Level: intermediate

   Notes:
   The Pmat must be an assembled AIJ matrix (`MATAIJ`, `MATAIJCUSPARSE`, ...) on a `DMDA` whose entries lie in the
   3^dim box around each point (star or box stencils, variable coefficients) and whose diagonal has no zeros.
   The DMDA is the PC's DM (`KSPSetDM()`), else the Pmat's (`DMCreateMatrix()`; also when the PC's DM is not a DMDA,
   e.g. a `DMSHELL`). `MATSBAIJ` is read through an AIJ copy (both triangles). As a sub-preconditioner it works where
   the block comes with its grid: `PCASM` with DMDA subdomains (`-pc_asm_dm_subdomains`, no `-da_overlap`: block
   Jacobi over ranks), `PCFIELDSPLIT` of a DMDA's fields, `PCMG` levels on DMDAs, `PCBJACOBI` on one rank; elsewhere
   (`PCBJACOBI` on more ranks, `PCREDUNDANT`, `PCGAMG` levels) `PCSetUp()` stops with an error listing these. With dof > 1 fields per point
   (up to 8) the method is point-block Jacobi: the dof x dof diagonal block of each point must be nonsingular and the
   division becomes a solve with it (host and CUDA backends).

   Setup reads the Pmat once per change: when only its values changed (the same matrix and nonzero pattern, as in
   Newton or time steps) it runs a value pass only. Under the CUDA backend an `MATAIJCUSPARSE` Pmat is read where it
   lives, on the device (no copy to the host).
   On the host the Pmat's coefficients are read in one pass (about as much work as a few `MatMult()`s); a new coupling
   its stencil lacks, a new pattern or a new matrix re-extracts. `-pc_view` reports the stencil, whether its
   coefficients are constant and, on rank 0, the directions without couplings.

   `PCApply()` makes c cycles from x = 0; `PCApplyRichardson()` (`-ksp_type richardson`, and the multigrid smoother
   `-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi`) makes c cycles per iteration from the current x, which
   is what Richardson's generic loop with `PCApply()` gives; `PCApplyTranspose()` applies the exact transpose M^T of
   `PCApply()`'s operator M for every tile, overlap, k, c and omega (each tile sweeps with A^T's coefficients on the
   residual of the points it owns and adds back its whole working region; with c > 1 the cycles between need
   `MatMultTranspose()` of the Pmat), so `KSPBICG` and other transpose-using methods work with any overlap.
   `-ksp_type richardson -pc_type hjacobi` honours the KSP's tolerances: with `KSPConvergedDefault()` the true
   residual is checked every m iterations (`PCHJacobiSetRichardsonCheck()`) and the solve stops as the generic loop
   would, at most m - 1 iterations later; as a multigrid smoother (`KSPConvergedSkip()`) no norm is computed.
   With overlap 0 the preconditioner is symmetric for symmetric A (usable with `KSPCG` and `KSPCHEBYSHEV`); with
   overlap > 0 it is not.


   Load it into any PETSc program with `-dll_append /path/libpetsc-hjacobi.so`, or link libpetsc-hjacobi and call
   `PCHJacobiInitializePackage()`. The method is defined in doc/algorithm.md of the source tree.

   Developer Notes:
   Each cycle takes the ghost values of the rank's box from its neighbours (one `PetscSF` broadcast; on one rank only
   with periodic directions). The tiles whose working region and halo touch no side the exchange writes run between
   the broadcast's begin and end, the others after it: with several tiles per rank and direction most of the exchange
   is hidden behind them. Tiles are independent within a cycle, so the result is the same bit for bit. The CUDA
   backend's fused sweep for k = 1 (one thread per point, no tiles) waits for the exchange. With MPI that is not
   GPU-aware the CUDA backend launches the interior tiles on a second stream, so that the exchange's copies through the
   host and its unpack on PETSc's stream do not wait for them.

   The following options are for developers and tests. They have no setter functions and choose how the cycles run,
   not the preconditioner they apply (the CUDA kernels agree to rounding, the others bit for bit):
+  -pc_hjacobi_overlap_comm <bool> - run the tiles that read no ghost value while each cycle's ghost exchange is under way, the others after it (default true; false: exchange, then every tile)
.  -pc_hjacobi_cuda_kernel <auto,shared,registers,columns> - CUDA tile kernel (auto: registers for 2D star stencils where the block fits, 1D tiles on rows when the y couplings are all zero, columns for 3D star stencils that are constant or have at most 16 distinct rows on ranks with at least 512 of its tiles, point-block for dof > 1, else shared)
.  -pc_hjacobi_cuda_strip <0,4,8> - points per thread of the register-strip kernel (0: 4 or 8, chosen per tile)
.  -pc_hjacobi_cuda_threads <n> - threads per block the tile kernels aim at, a multiple of 32 up to 512 (0: the default, 256, or 512 for variable box stencils); points per thread follow
.  -pc_hjacobi_cuda_side_stream <bool> - launch the interior tiles of a split cycle on a second stream, beside the exchange's copies and unpack on PETSc's stream (default true when MPI is not GPU-aware)
.  -pc_hjacobi_cuda_staged_exchange <bool> - on several ranks, stage the ghost exchange through pinned host memory: a gather kernel, one copy, PetscSF on host memory, one copy back, a scatter kernel (default true when MPI is not GPU-aware)
.  -pc_hjacobi_cuda_tile_kernel <bool> - run the tile kernel also for k = 1, instead of the fused sweep (testing)
-  -pc_hjacobi_extract <auto,host,device> - where the Pmat is read at setup (auto: on the device for an `MATAIJCUSPARSE` Pmat under the CUDA backend, else on the host)

.seealso: `PCCreate()`, `PCSetType()`, `PCJACOBI`, `PCHJacobiSetTileSize()`, `PCHJacobiSetOverlap()`,
          `PCHJacobiSetSubiterations()`, `PCHJacobiSetCycles()`, `PCHJacobiSetOmega()`, `PCHJacobiSetWeights()`, `PCHJacobiSetBackend()`
M*/
PetscErrorCode PCCreate_HJacobi(PC pc)
{
  PC_HJacobi *hj;

  PetscFunctionBegin;
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscNew(&hj));
  pc->data = (void *)hj;
  for (PetscInt d = 0; d < 3; d++) {
    hj->tile[d]    = 0; /* chosen per dimension at setup unless set */
    hj->overlap[d] = 0;
  }
  hj->subits      = 4;
  hj->subitsasked = 4;
  hj->cycles      = 1;
  hj->omega       = PETSC_DECIDE; /* chosen at setup (weights/weights.cxx, the omega rules of omega/omega.cxx) unless set */
  hj->om.user     = PETSC_DECIDE;
  hj->backend     = PC_HJACOBI_BACKEND_AUTO;
  hj->inner       = PC_HJACOBI_INNER_PRECISION_NATIVE;
  hj->overlapcomm = PETSC_TRUE;
  hj->abisize     = sizeof(PC_HJacobi);
  hj->abilast     = offsetof(PC_HJacobi, abiend);

  pc->ops->setup          = PCSetUp_HJacobi;
  pc->ops->apply          = PCApply_HJacobi;
  pc->ops->applytranspose = PCApplyTranspose_HJacobi;
  pc->ops->reset          = PCReset_HJacobi;
  pc->ops->destroy        = PCDestroy_HJacobi;
  pc->ops->setfromoptions = PCSetFromOptions_HJacobi;
  pc->ops->view           = PCView_HJacobi;

  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetTileSize_C", PCHJacobiSetTileSize_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetTileSize_C", PCHJacobiGetTileSize_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOverlap_C", PCHJacobiSetOverlap_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOverlap_C", PCHJacobiGetOverlap_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetSubiterations_C", PCHJacobiSetSubiterations_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSubiterations_C", PCHJacobiGetSubiterations_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetCycles_C", PCHJacobiSetCycles_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetCycles_C", PCHJacobiGetCycles_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmega_C", PCHJacobiSetOmega_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmega_C", PCHJacobiGetOmega_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetOmegaRecompute_C", PCHJacobiSetOmegaRecompute_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetOmegaRecompute_C", PCHJacobiGetOmegaRecompute_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetBackend_C", PCHJacobiSetBackend_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetBackend_C", PCHJacobiGetBackend_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetInnerPrecision_C", PCHJacobiSetInnerPrecision_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetInnerPrecision_C", PCHJacobiGetInnerPrecision_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRichardsonCheck_C", PCHJacobiSetRichardsonCheck_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetRichardsonCheck_C", PCHJacobiGetRichardsonCheck_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetWeights_C", PCHJacobiSetWeights_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetWeights_C", PCHJacobiGetWeights_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetChebyshevInterval_C", PCHJacobiSetChebyshevInterval_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetChebyshevInterval_C", PCHJacobiGetChebyshevInterval_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSweepWeights_C", PCHJacobiGetSweepWeights_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetRole_C", PCHJacobiSetRole_HJacobi));
  /* r = b - A x from the stencil for a multigrid that owns this PC as a smoother (solve/residual.cxx) */
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidual_C", PCHJacobiResidual_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidualRefusal_C", PCHJacobiResidualRefusal_HJacobi));
  PetscCall(HJRichardsonInstall(pc, PETSC_TRUE));
  PetscCall(HJWeightsInstall(pc, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
