/* PCHJACOBI: the PETSc face of hierarchical Jacobi (setup, apply, options, view, setters).
   The method is doc/algorithm.md; the backends (host/, cuda/) run its cycles. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "arith/point.hpp"
#include "arith/tilefit.hpp"

PETSC_INTERN PetscErrorCode PCHJacobiCite_Private(void);

const char *const HJExtractPlaces[] = {"auto", "host", "device"};

/* The tile in use: the user's, else the backend's own default where it has one for this stencil (and k) on every rank
   (HJBackendOps.defaulttile: the CUDA column kernel's), else hj::DefaultTile (arith/tilefit.hpp: whole directions where
   the rank boxes are short, within what the CUDA tile kernels hold, on the CUDA backend), of the largest rank box of the
   DMDA's partition, so that every rank runs the same tile. */
static PetscErrorCode HJTileResolve(PC pc, const HJBackendOps *ops)
{
  PC_HJacobi     *hj = (PC_HJacobi *)pc->data;
  const HJLayout *L  = &hj->sw.layout;
  long long       mmax[3], t[3];
  PetscBool       set = PETSC_FALSE, all;

  PetscFunctionBegin;
  if (hj->asked.tileset) {
    for (PetscInt d = 0; d < 3; d++) hj->sw.tile[d] = hj->asked.tile[d];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt d = 0; d < 3; d++) {
    mmax[d] = 1;
    for (PetscInt r = 0; r < L->procs[d]; r++) mmax[d] = PetscMax(mmax[d], (long long)(L->start[d][r + 1] - L->start[d][r]));
  }
  if (ops->defaulttile) { /* (it may fail on one rank, a device allocation: every rank stops, none waits in the reduction) */
    const PetscErrorCode ierr = (*ops->defaulttile)(pc, &hj->sw.st, hj->asked.k, mmax, t, &set);
    PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: the %s backend's default tile failed (the rank concerned printed why above)", ops->name));
  }
  {
    const PetscMPIInt mine = set ? 1 : 0; /* an int reduction: MPIU_BOOL is deprecated from PETSc 3.24 */
    PetscMPIInt       every;

    PetscCallMPI(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)pc))); /* one tile on every rank */
    all = every ? PETSC_TRUE : PETSC_FALSE;
  }
  if (!all) hj::DefaultTile((int)L->dim, (int)L->dof, (long long)sizeof(PetscScalar), ops->device, mmax, t);
  for (PetscInt d = 0; d < 3; d++) hj->sw.tile[d] = (PetscInt)t[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiCheckParameters(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < hj->sw.layout.dim; d++) { /* tile >= 1 and even overlap >= 0: the setters' checks (the default tile is >= 1) */
    PetscCheck(hj->sw.overlap[d] < hj->sw.tile[d], PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI overlap %" PetscInt_FMT " must be smaller than the tile %" PetscInt_FMT " in direction %" PetscInt_FMT " (-pc_hjacobi_overlap, -pc_hjacobi_tile)",
               hj->sw.overlap[d], hj->sw.tile[d], d);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_HJacobi(PC pc)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  DM                  dm;
  const HJBackendOps *ops;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateIncrease((PetscObject)pc)); /* a new setup: what a recorded V-cycle holds (src/mg/graph.cxx) is stale */
  PetscCall(PCHJacobiCite_Private());
  PetscCall(HJFindGrid(pc, &dm)); /* grid/grid.cxx: the PC's DMDA, else the Pmat's; no grid: an error naming what works */

  PetscBool newlayout = (PetscBool)(!hj->sw.haslayout || dm != hj->da || !HJLayoutSame(dm, &hj->sw.layout));
  if (newlayout) { /* new grid: rebuild everything */
    if (hj->ops) PetscCall((*hj->ops->reset)(pc));
    hj->ops = NULL;
    PetscCall(HJLayoutDestroy(&hj->sw.layout));
    PetscCall(PetscSFDestroy(&hj->sw.ghostsf));
    PetscCall(HJLayoutCreate(dm, &hj->sw.layout));
    PetscCall(PetscObjectReference((PetscObject)dm));
    PetscCall(DMDestroy(&hj->da));
    hj->da           = dm;
    hj->sw.haslayout = PETSC_TRUE;
    PetscCall(HJStencilDestroy(&hj->sw.st)); /* extracted for the old layout */
    PetscCall(HJStencilDestroy(&hj->sw.stT));
    hj->hasT         = PETSC_FALSE;
    hj->sw.ghostmade = PETSC_FALSE; /* made after the extraction, for its kind */
  }

  /* the backend, chosen once here and before the extraction: the backend extracts (a device one where the Pmat lives) */
  PetscCall(HJBackendSelect(pc, &ops));

  PetscCheck(hj->sw.inner == PC_HJACOBI_INNER_PRECISION_NATIVE || ops->device, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_inner_precision single is implemented by the CUDA backend only; the host backend runs in PetscScalar precision (use -pc_hjacobi_inner_precision native)");

  /* New values only (the same Pmat object, nonzero pattern, layout and extracting backend): a value pass. Another
     pattern, matrix, grid or backend: a full extraction. A setup caused only by a parameter change (tile, overlap)
     keeps the stencil. The transpose is re-indexed from st when next asked for. PCHJACOBI_Extract times only this. */
  {
    PetscObjectId    id;
    PetscObjectState state, nzstate;
    PetscCall(PetscObjectGetId((PetscObject)pc->pmat, &id));
    PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
    PetscCall(MatGetNonzeroState(pc->pmat, &nzstate));
    if (!hj->sw.st.noff || id != hj->stid || state != hj->ststate || ops != hj->stops) {
      const PetscBool valuesonly = (PetscBool)(hj->sw.st.noff && id == hj->stid && nzstate == hj->stnzstate && ops == hj->stops && !newlayout);

      PetscCall(PetscInfo(pc, "%s extraction of the Pmat's stencil (%s backend)\n", valuesonly ? "values-only" : "full", ops->name));
      PetscCall(HJStencilDestroy(&hj->sw.stT));
      hj->hasT = PETSC_FALSE;
      if (!valuesonly) PetscCall(HJStencilDestroy(&hj->sw.st));
      Mat R;
      PetscCall(HJPmatReadable(pc->pmat, &R)); /* SBAIJ: an AIJ copy with both triangles (the same pattern each time) */
      PetscCall(PetscLogEventBegin(PCHJACOBI_Extract, pc, 0, 0, 0));
      PetscCall((*ops->extract)(pc, R, &hj->sw.st, valuesonly));
      PetscCall(PetscLogEventEnd(PCHJACOBI_Extract, pc, 0, 0, 0));
      if (R != pc->pmat) PetscCall(MatDestroy(&R));
      hj->stid      = id;
      hj->ststate   = state;
      hj->stnzstate = nzstate;
      hj->stops     = ops;
    }
  }
  { /* the ghost exchange of the stencil's kind (the same on every rank): a star stencil's sends no edge or corner */
    const PetscBool faces = (PetscBool)(hj->sw.st.kind == hj::STAR);

    if (!hj->sw.ghostmade || faces != hj->sw.ghostfaces) {
      PetscCall(PetscSFDestroy(&hj->sw.ghostsf));
      PetscCall(HJLayoutCreateGhostSF(PetscObjectComm((PetscObject)pc), &hj->sw.layout, faces, &hj->sw.ghostsf));
      hj->sw.ghostmade  = PETSC_TRUE;
      hj->sw.ghostfaces = faces;
    }
  }
  if (hj->ops && hj->ops != ops) PetscCall((*hj->ops->reset)(pc));
  hj->ops = ops;
  /* What the sweeps use, each value written once, in the order of their dependencies (doc/design.md "Asked and used"):
     the tile (after the extraction: a backend's default depends on the stencil, and the CUDA column kernel's on the
     largest k the sweeps may run, k as asked: the omega rules only ever lower k, to 1, where no tile kernel runs; the
     estimate's stencil products set up the host backend's tiles), then k and omega (the estimate and the omega rules),
     then the sweeps' weights (the Chebyshev interval's lo depends on the tile); then the backend sets up for them (its
     plan holds them). */
  PetscCall(HJTileResolve(pc, ops));
  PetscCall(PCHJacobiCheckParameters(pc));
  PetscCall(HJWeightsChooseK(pc));
  PetscCall(HJWeightsSetUp(pc));
  hj->sw.overlapcomm      = hj->asked.overlapcommset ? hj->asked.overlapcomm : PETSC_TRUE; /* default true on every backend (doc/design.md "Communication hidden") */
  hj->sw.overlapcommgiven = hj->asked.overlapcommset;
  { /* a per-rank failure in the backend's setup (the CUDA backend's tile against this rank's box and the device's
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
  PetscCall(PetscInfo(pc, "%" PetscInt_FMT "D grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s stencil, %s coefficients, backend %s\n", hj->sw.layout.dim, hj->sw.layout.M[0], hj->sw.layout.M[1], hj->sw.layout.M[2], hj->sw.st.kind == hj::STAR ? "star" : "box",
                      hj->sw.st.constant ? "constant" : "variable", hj->ops->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_HJacobi(PC pc, Vec b, Vec x)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJBackendCycles(pc, &hj->sw.st, b, x, hj->cycles, PETSC_TRUE));
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
  PetscCall(HJBackendCorrectT(pc, &hj->sw.stT, b, x, PETSC_FALSE));
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
    PetscCall(HJBackendCorrectT(pc, &hj->sw.stT, hj->rT, x, PETSC_TRUE));
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
  PetscCall(HJStencilDestroy(&hj->sw.st));
  PetscCall(HJStencilDestroy(&hj->sw.stT));
  hj->hasT  = PETSC_FALSE;
  hj->stops = NULL;
  PetscCall(VecDestroy(&hj->rT));
  PetscCall(HJWeightsReset(pc)); /* the estimate and the weights: chosen again at the next setup */
  PetscCall(PetscSFDestroy(&hj->sw.ghostsf));
  hj->sw.ghostmade = PETSC_FALSE;
  PetscCall(HJLayoutDestroy(&hj->sw.layout));
  hj->sw.haslayout = PETSC_FALSE;
  PetscCall(DMDestroy(&hj->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_HJacobi(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_HJacobi(pc));
  PetscCall(HJSettersCompose(pc, PETSC_FALSE));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidual_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidualRefusal_C", NULL));
  PetscCall(HJBackendsDestroyOptions(pc));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_HJacobi(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  PetscBool   isascii;
  PetscInt    dim = hj->sw.haslayout ? hj->sw.layout.dim : 3;
  /* what setup resolved; before setup (or after a setter) what was asked */
  const PetscBool used = pc->setupcalled ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt *tile = used ? hj->sw.tile : hj->asked.tile, k = used ? hj->sw.k : hj->asked.k;
  const PetscBool over = used ? hj->sw.overlapcomm : (PetscBool)(!hj->asked.overlapcommset || hj->asked.overlapcomm);

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  {
    char   t[64], o[64];
    size_t len;
    PetscCall(PetscSNPrintf(t, sizeof(t), "%" PetscInt_FMT, tile[0]));
    PetscCall(PetscSNPrintf(o, sizeof(o), "%" PetscInt_FMT, hj->sw.overlap[0]));
    for (PetscInt d = 1; d < dim; d++) {
      PetscCall(PetscStrlen(t, &len));
      PetscCall(PetscSNPrintf(t + len, sizeof(t) - len, " x %" PetscInt_FMT, tile[d]));
      PetscCall(PetscStrlen(o, &len));
      PetscCall(PetscSNPrintf(o + len, sizeof(o) - len, " x %" PetscInt_FMT, hj->sw.overlap[d]));
    }
    if (hj->asked.tileset || used) PetscCall(PetscViewerASCIIPrintf(viewer, "  tile %s, overlap %s\n", t, o));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  tile (default for the grid's dimension), overlap %s\n", o));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  subiterations %" PetscInt_FMT ", cycles %" PetscInt_FMT "\n", k, hj->cycles));
  PetscCall(HJOmegaView(pc, viewer));
  PetscCall(HJWeightsView(pc, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Richardson fast path: true residual checked every %" PetscInt_FMT " iterations when the KSP tests norms\n", hj->richcheck));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  backend %s%s%s, inner precision %s\n", PCHJacobiBackends[hj->backend], hj->ops ? ", in use: " : "", hj->ops ? hj->ops->name : "", PCHJacobiInnerPrecisions[hj->sw.inner]));
  if (!hj->sw.haslayout || hj->sw.ghostsf) {
    const PetscBool device = (PetscBool)(hj->ops && hj->ops->device);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchange of each cycle %s (-pc_hjacobi_overlap_comm %s%s)\n", over ? "overlapped with the tiles that read no ghost value" : "completed before any tile runs", over ? "true" : "false", hj->asked.overlapcommset || !device ? "" : ", default"));
    if (hj->sw.ghostsf) { /* the ranks rank 0's leaves come from (from the graph: PetscSFGetRootRanks's count changed type between PETSc versions) */
      PetscInt           nleaves, nranks = 0;
      const PetscSFNode *iremote;
      PetscMPIInt       *ranks;

      PetscCall(PetscSFGetGraph(hj->sw.ghostsf, NULL, &nleaves, NULL, &iremote));
      PetscCall(PetscMalloc1(nleaves, &ranks));
      for (PetscInt l = 0; l < nleaves; l++) ranks[l] = (PetscMPIInt)iremote[l].rank;
      nranks = nleaves;
      PetscCall(PetscSortRemoveDupsMPIInt(&nranks, ranks));
      PetscCall(PetscFree(ranks));
      PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0's ghost layer comes from %" PetscInt_FMT " rank(s), itself counted where a periodic direction wraps onto it (%s)\n", nranks, hj->sw.ghostfaces ? "its faces only: a star stencil reads no edge or corner" : "faces, edges and corners: a box stencil"));
    }
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  no ghost exchange (one rank, no periodic direction)\n"));
  if (hj->sw.haslayout && hj->sw.st.noff) {
    const HJLayout *L      = &hj->sw.layout;
    long long       ntiles = 1;
    for (PetscInt d = 0; d < L->dim; d++) ntiles *= hj::NumTiles(L->xm[d], hj->sw.tile[d], hj->sw.overlap[d]);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT "D grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s stencil (%" PetscInt_FMT " neighbours), %s coefficients; rank 0: %lld tiles\n", L->dim, L->M[0], L->M[1], L->M[2],
                                     hj->sw.st.kind == hj::STAR ? "star" : "box", hj->sw.st.noff, hj->sw.st.constant ? "constant" : "variable", ntiles));
    for (PetscInt d = 0; d < L->dim; d++) /* HJStencil.zerodir: what a device backend's automatic kernel choice reads */
      if (hj->sw.st.zerodir[d]) PetscCall(PetscViewerASCIIPrintf(viewer, "  rank 0: no couplings along %c (the points along %c are independent)\n", "xyz"[d], "xyz"[d]));
    if (L->dof > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " fields per grid point: point-block Jacobi (%" PetscInt_FMT " x %" PetscInt_FMT " diagonal blocks inverted at setup)\n", L->dof, L->dof, L->dof));
    if (hj->ops && hj->ops->view) PetscCall((*hj->ops->view)(pc, viewer));
    PetscCall(HJBackendFallbackView(pc, viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the options of the sweeps' weights (part of PCSetFromOptions_HJacobi) */
static PetscErrorCode WeightsSetFromOptions(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJacobi         *hj    = (PC_HJacobi *)pc->data;
  PCHJacobiWeightType type  = hj->asked.weights;
  PetscReal           iv[3] = {hj->asked.lo, hj->asked.hi, 0};
  PetscInt            n     = 3; /* room for a third value, refused below */
  PetscBool           flg, given;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-pc_hjacobi_weights", "Weights of the k sweeps: constant (omega in every sweep), chebyshev (1/Chebyshev nodes of [lo, hi], degree k), chebyshev_squared (degree k/2, squared), auto (constant for a multigrid smoother, k = 1 or overlap > 0, else chebyshev_squared)", "PCHJacobiSetWeights", PCHJacobiWeightTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
  if (flg) PetscCall(PCHJacobiSetWeights(pc, type));
  PetscCall(PetscOptionsRealArray("-pc_hjacobi_chebyshev_interval", "Interval lo,hi of the Chebyshev weights (0 < lo < hi; 0: chosen at setup, lo from the tile size, hi from the spectrum estimate)", "PCHJacobiSetChebyshevInterval", iv, &n, &flg));
  PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_chebyshev_interval", &given));
  if (flg || given) { /* PETSc reports an option given without values as not set, with n = 0 */
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_chebyshev_interval needs two numbers lo,hi (0 for one chosen at setup); got %" PetscInt_FMT, n);
    PetscCall(PCHJacobiSetChebyshevInterval(pc, iv[0], iv[1]));
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
  PetscInt                v[3], n, k = hj->asked.k, c = hj->cycles;
  PetscBool               flg, recompute = hj->spec.recompute;
  char                    wstr[64];
  PCHJacobiBackend        be = hj->backend;
  PCHJacobiInnerPrecision ip = hj->sw.inner;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Hierarchical Jacobi options");
  n = 3;
  for (PetscInt d = 0; d < 3; d++) v[d] = hj->asked.tile[d];
  PetscCall(PetscOptionsIntArray("-pc_hjacobi_tile", "Tile size tx[,ty[,tz]] (one value: all directions; default per backend: host at least 1024 / 256x32 / 128x8x8 split evenly, CUDA 256 / 32x32 / 8x8x8, the column kernel its own)", "PCHJacobiSetTileSize", v, &n, &flg));
  if (flg) {
    PetscCheck(n >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_tile needs 1 to 3 integers");
    Spread(v, n);
    PetscCall(PCHJacobiSetTileSize(pc, v[0], v[1], v[2]));
  }
  n = 3;
  for (PetscInt d = 0; d < 3; d++) v[d] = hj->sw.overlap[d];
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
  if (hj->asked.omega > 0) PetscCall(PetscSNPrintf(wstr, sizeof(wstr), "%g", (double)hj->asked.omega));
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
  PetscCall(WeightsSetFromOptions(pc, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-pc_hjacobi_omega_recompute", "Estimate the spectrum for omega again whenever the Pmat's values change (default: only for a new matrix or nonzero pattern)", "PCHJacobiSetOmegaRecompute", recompute, &recompute, &flg));
  if (flg) PetscCall(PCHJacobiSetOmegaRecompute(pc, recompute));
  PetscCall(PetscOptionsEnum("-pc_hjacobi_backend", "Where the cycles run", "PCHJacobiSetBackend", PCHJacobiBackends, (PetscEnum)be, (PetscEnum *)&be, &flg));
  if (flg) PetscCall(PCHJacobiSetBackend(pc, be));
  {
    PetscInt place = hj->sw.extract;
    PetscCall(PetscOptionsEList("-pc_hjacobi_extract", "Where the Pmat is read (testing: auto = on the device for an aijcusparse Pmat under the CUDA backend)", "PCHJACOBI", HJExtractPlaces, 3, HJExtractPlaces[hj->sw.extract], &place, NULL));
    if (place != hj->sw.extract) { /* read the Pmat again, where asked */
      hj->sw.extract  = place;
      hj->stid        = 0;
      pc->setupcalled = 0;
    }
  }
  PetscCall(PetscOptionsEnum("-pc_hjacobi_inner_precision", "Precision of the sub-iterations (single: fp32 sweeps on the correction, x kept in PetscScalar; CUDA backend)", "PCHJacobiSetInnerPrecision", PCHJacobiInnerPrecisions, (PetscEnum)ip, (PetscEnum *)&ip, &flg));
  if (flg) PetscCall(PCHJacobiSetInnerPrecision(pc, ip));
  {
    PetscBool over = hj->asked.overlapcomm;
    PetscCall(PetscOptionsBool("-pc_hjacobi_overlap_comm", "Run the tiles that read no ghost value during the ghost exchange of each cycle (false: exchange, then every tile; default: true)", "PCHJACOBI", over, &over, &flg));
    if (flg && (over != hj->asked.overlapcomm || !hj->asked.overlapcommset)) pc->setupcalled = 0; /* resolved at setup */
    if (flg) hj->asked.overlapcomm = over, hj->asked.overlapcommset = PETSC_TRUE;
  }
  k = hj->richcheck;
  PetscCall(PetscOptionsInt("-pc_hjacobi_richardson_check", "Richardson iterations between true-residual checks when KSP tests norms (KSPRICHARDSON fast path)", "PCHJacobiSetRichardsonCheck", k, &k, &flg));
  if (flg) PetscCall(PCHJacobiSetRichardsonCheck(pc, k));
  PetscCall(HJBackendsSetFromOptions(pc, PetscOptionsObject)); /* the backends' developer options */
  PetscOptionsHeadEnd();
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
.  -pc_hjacobi_cuda_kernel <auto,shared,registers,columns> - CUDA tile kernel (auto: registers for 2D star stencils where the block fits, 1D tiles on rows when the y couplings are all zero, columns for 3D star stencils that are constant or have at most 16 distinct rows on ranks with at least 128 of its tiles, point-block for dof > 1, else shared)
.  -pc_hjacobi_cuda_strip <0,4,8> - points per thread of the register-strip kernel (0: 4 or 8, chosen per tile)
.  -pc_hjacobi_cuda_threads <n> - threads per block the tile kernels aim at, a multiple of 32 up to 512 (0: the default, 256, or 512 for variable box stencils); points per thread follow
.  -pc_hjacobi_cuda_side_stream <bool> - launch the interior tiles of a split cycle on a second stream, beside the exchange's copies and unpack on PETSc's stream (default true when MPI is not GPU-aware)
.  -pc_hjacobi_cuda_staged_exchange <bool> - on several ranks, stage the ghost exchange through pinned host memory: a gather kernel, one copy, PetscSF on host memory, one copy back, a scatter kernel (default true when MPI is not GPU-aware)
.  -pc_hjacobi_cuda_tile_kernel <bool> - run the tile kernel also for k = 1, instead of the fused sweep (testing)
.  -pc_hjacobi_cuda_constant_tiles <n> - for a variable operator with one row inside a boundary shell (most PETSc tutorials' operators), the tiles whose working region lies inside run the shared or register kernel's constant-stencil instantiation, where those tiles hold at least n points (default 524288; 0: always, -1: never)
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
  static_assert(offsetof(PC_HJacobi, sw) == 0, "PC_HJacobi begins with its HJSweeps (HJSweepsOf)");
  hj->asked.k           = 4;
  hj->asked.omega       = PETSC_DECIDE; /* chosen at setup (weights/weights.cxx, the omega rules of omega/omega.cxx) unless set */
  hj->asked.overlapcomm = PETSC_TRUE;
  hj->cycles            = 1;
  hj->omega             = PETSC_DECIDE;
  hj->backend           = PC_HJACOBI_BACKEND_AUTO;
  hj->sw.inner          = PC_HJACOBI_INNER_PRECISION_NATIVE;

  pc->ops->setup          = PCSetUp_HJacobi;
  pc->ops->apply          = PCApply_HJacobi;
  pc->ops->applytranspose = PCApplyTranspose_HJacobi;
  pc->ops->reset          = PCReset_HJacobi;
  pc->ops->destroy        = PCDestroy_HJacobi;
  pc->ops->setfromoptions = PCSetFromOptions_HJacobi;
  pc->ops->view           = PCView_HJacobi;

  PetscCall(HJSettersCompose(pc, PETSC_TRUE));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidual_C", PCHJacobiResidual_HJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiResidualRefusal_C", PCHJacobiResidualRefusal_HJacobi));
  PetscCall(HJRichardsonInstall(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
