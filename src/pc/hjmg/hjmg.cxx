/* PCHJMG: PCMG whose level smoothers are richardson + hjacobi by default, with the residual through the hjacobi
   smoother and a stored transpose for GPU restriction. A PCMG the way PCGAMG is one: PCCreate_HJMG makes the PC a
   PCMG, keeps PCMG's operations and calls them from its own (src/mg/levels.cxx does the work on the levels). */
#include "mg/hjmg.h"
#include <petsc/private/dmdaimpl.h>

static PC_HJMG *HJMGContext(PC pc)
{
  return (PC_HJMG *)((PC_MG *)pc->data)->innerctx;
}

/* PCMG's "PCMGSetLevels_C", then the smoothers' defaults on the levels it made (so that every -mg_levels_ option,
   read by KSPSetFromOptions() at PCMG's first setup, still overrides them) */
static PetscErrorCode PCMGSetLevels_HJMG(PC pc, PetscInt levels, MPI_Comm *comms)
{
  PC_MG          *mg   = (PC_MG *)pc->data;
  PC_HJMG        *hm   = HJMGContext(pc);
  const PetscBool same = (PetscBool)(mg->nlevels == levels); /* PCMG keeps its levels (and their smoothers) then */

  PetscFunctionBegin;
  PetscCheck(levels >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJMG needs at least one level, not %" PetscInt_FMT " (-pc_mg_levels or PCMGSetLevels()); omit -pc_mg_levels on a DMDA and hjmg chooses them", levels);
  if (!same) {
    PetscCall(HJMGLevelsReset(pc)); /* before PCMG frees the levels hjmg installed on */
    hm->autolevels = 0;             /* chosen by the caller (HJMGDefaultLevels sets it again after this call) */
    hm->autorows   = 0;
  }
  PetscCall((*hm->setlevels)(pc, levels, comms));
  if (!same) PetscCall(HJMGLevelsDefaults(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG makes the levels' interpolations from the PC's DM; without one (and without interpolations given) its setup
   would fail inside DMCoarsen() */
static PetscErrorCode HJMGCheckHierarchy(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;

  PetscFunctionBegin;
  if (n < 2 || pc->dm || mg->galerkin == PC_MG_GALERKIN_EXTERNAL) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 1; l < n; l++)
    PetscCheck(mg->levels[l]->interpolate || mg->levels[l]->restrct, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "PCHJMG with %" PetscInt_FMT " levels needs a DMDA to build the grid hierarchy (KSPSetDM() or PCSetDM()), or every level's interpolation (PCMGSetInterpolation()); level %" PetscInt_FMT " has none. One level (-pc_mg_levels 1) needs no DM", n, l);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many levels PCMG can coarsen the PC's DMDA into, by DMCoarsen()'s rule for DMDAs: each coarsening halves every
   direction (M/2 where periodic or with Q0 interpolation, else (M - 1)/2 + 1) and needs at least 2 points and one point
   per rank in every direction afterwards. -1: not a DMDA, or one that coarsens otherwise (another ratio, a hierarchy of
   ratios), which PETSc then checks itself. */
static PetscErrorCode HJMGLevelsAllowed(DM dm, PetscInt *allowed, PetscInt M[3])
{
  PetscBool             isda;
  PetscInt              dim, p[3], c[3];
  DMBoundaryType        bx[3];
  DMDAInterpolationType itype;

  PetscFunctionBegin;
  *allowed = -1;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (!isda) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const DM_DA *dd = (const DM_DA *)dm->data; /* the rule below is coarsening by 2 in every direction, no hierarchy */

    if (dd->coarsen_x != 2 || dd->coarsen_y != 2 || dd->coarsen_z != 2 || dd->refine_x_hier_n || dd->refine_y_hier_n || dd->refine_z_hier_n) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDAGetInfo(dm, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], NULL, NULL, &bx[0], &bx[1], &bx[2], NULL));
  PetscCall(DMDAGetInterpolationType(dm, &itype));
  for (*allowed = 1;; (*allowed)++) {
    PetscBool ok = PETSC_TRUE;

    for (PetscInt d = 0; d < dim; d++) {
      c[d] = (bx[d] == DM_BOUNDARY_PERIODIC || itype == DMDA_Q0) ? M[d] / 2 : (M[d] - 1) / 2 + 1;
      ok   = (PetscBool)(ok && c[d] >= 2 && c[d] >= p[d]);
    }
    if (!ok || *allowed > 64) break;
    for (PetscInt d = 0; d < dim; d++) M[d] = c[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* before PCMG's first setup: levels that PCMG would make from the DMDA and that it cannot coarsen into (PCMG's own
   error names neither the option nor the limit) */
static PetscErrorCode HJMGCheckLevels(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;
  PetscInt       allowed, M[3];

  PetscFunctionBegin;
  if (pc->setupcalled || n < 2 || !pc->dm || mg->galerkin == PC_MG_GALERKIN_EXTERNAL || mg->coarseSpaceType == PCMG_ADAPT_GDSW) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 1; l < n; l++)
    if (mg->levels[l]->interpolate || mg->levels[l]->restrct) PetscFunctionReturn(PETSC_SUCCESS); /* given by the code */
  PetscCall(HJMGLevelsAllowed(pc->dm, &allowed, M));
  PetscCheck(allowed < 0 || n <= allowed, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJMG: %" PetscInt_FMT " levels (-pc_mg_levels or PCMGSetLevels()) are more than this DMDA allows: it coarsens into at most %" PetscInt_FMT " levels (the coarsest %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "; each coarsening halves every direction and must leave at least 2 points and one point per rank); give -pc_mg_levels %" PetscInt_FMT " or fewer, or omit it and hjmg chooses", n, allowed, M[0], M[1], M[2], allowed);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's Richardson iteration (PCMGSetType() installs it for multiplicative cycles only, and again at each call):
   hjmg's, which records it where it can, in its place, calling it */
static PetscErrorCode HJMGRichardsonInstall(PC pc)
{
  PC_HJMG *hm = HJMGContext(pc);

  PetscFunctionBegin;
  if (pc->ops->applyrichardson && pc->ops->applyrichardson != HJMGRichardson) {
    hm->applyrichardson      = pc->ops->applyrichardson;
    pc->ops->applyrichardson = HJMGRichardson;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_HJMG(PC pc)
{
  PC_HJMG *hm = HJMGContext(pc);

  PetscFunctionBegin;
  PetscCall(HJMGGraphReset(pc)); /* a recording holds the previous operators, vectors and options */
  PetscCall(HJMGRichardsonReset(pc));
  PetscCall(HJMGCheckHierarchy(pc));
  PetscCall(HJMGCheckLevels(pc));
  PetscCall(HJMGGatherDefault(pc)); /* before the coarse default: the gathered levels' coarse solve is the inner hjmg's */
  PetscCall(HJMGCoarseDefault(pc));
  PetscCall(HJMGLevelsRoles(pc));            /* before PCMG sets the smoothers up: a role set later would set them up again */
  PetscCall(HJMGLevelsRestoreTransfers(pc)); /* PCMG's setup (Galerkin products, new interpolations) sees each level's own P */
  PetscCall((*hm->setup)(pc));
  PetscCall(HJMGLevelsSetUp(pc));     /* every setup: the operators, smoothers and interpolations may be new */
  PetscCall(HJMGGatherTranspose(pc)); /* PCTELESCOPE, set up by PCMG's setup, gets a transpose */
  PetscCall(HJMGRichardsonInstall(pc));
  { /* no PETSc version reads -pc_view itself: the PC views itself once set up (as PCHJACOBI) */
    const PetscBool called = pc->setupcalled ? PETSC_TRUE : PETSC_FALSE;
    pc->setupcalled        = PETSC_TRUE;
    PetscCall(PCViewFromOptions(pc, NULL, "-pc_view"));
    pc->setupcalled = called;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Without -pc_mg_levels PCMG makes as many levels as the DM has refinements: one for a DMDA created at its final size,
   a smoother alone. hjmg then halves the DMDA while it can, as examples/mg3d does: while every direction has more than
   5 points, an odd number (even where periodic), and keeps at least 2 per rank after halving. Where the coarse solve
   will be hjdense's inverse (device vectors, no coarse solve chosen) it also stops at the first grid whose operator that
   inverse takes (-pc_hjdense_max_size rows): each level below costs a V-cycle more launches (and on several ranks more
   messages) than the larger dense product (doc/design.md "The coarse solve"). */
static PetscErrorCode HJMGDefaultLevels(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  PC_HJMG       *hm = HJMGContext(pc);
  PetscBool      set, isda;
  PetscInt       dim, M[3], p[3], dof, refine, levels = 1, rows;
  PetscBool      byrows = PETSC_FALSE; /* halving stopped at hjdense's size, not by the rule alone */
  DMBoundaryType bx[3];

  PetscFunctionBegin;
  if (mg->levels || !pc->dm) PetscFunctionReturn(PETSC_SUCCESS); /* levels set by code, or no grid */
  PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_mg_levels", &set));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->dm, DMDA, &isda));
  if (set || !isda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetRefineLevel(pc->dm, &refine));
  if (refine > 0) PetscFunctionReturn(PETSC_SUCCESS); /* PCMG's rule: one level per refinement */
  PetscCall(DMDAGetInfo(pc->dm, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], &dof, NULL, &bx[0], &bx[1], &bx[2], NULL));
  PetscCall(HJMGCoarseDenseRows(pc, &rows));
  for (;;) {
    PetscInt  c[3], n = dof;
    PetscBool halve = PETSC_TRUE;

    for (PetscInt d = 0; d < dim; d++) n *= M[d];
    if (rows > 0 && levels > 1 && n <= rows) { /* hjdense's inverse takes this grid (below the finest) */
      byrows = PETSC_TRUE;
      break;
    }

    for (PetscInt d = 0; d < dim; d++) {
      const PetscBool periodic = (PetscBool)(bx[d] == DM_BOUNDARY_PERIODIC);

      c[d]  = periodic ? M[d] / 2 : (M[d] - 1) / 2 + 1;
      halve = (PetscBool)(halve && M[d] > 5 && (periodic ? M[d] % 2 == 0 : (M[d] - 1) % 2 == 0) && c[d] >= 2 * p[d]);
    }
    if (!halve) break;
    for (PetscInt d = 0; d < dim; d++) M[d] = c[d];
    levels++;
  }
  if (levels > 1) {
    PetscCall(PetscInfo(pc, "%" PetscInt_FMT " levels from the DMDA (no -pc_mg_levels, no refinements): coarsest grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", levels, M[0], dim > 1 ? M[1] : 1, dim > 2 ? M[2] : 1, byrows ? " (the first that hjdense's inverse takes)" : ""));
    PetscCall(PCMGSetLevels(pc, levels, NULL));
    hm->autolevels = levels;
    hm->autorows   = byrows ? rows : 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_HJMG(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJMG *hm = HJMGContext(pc);

  PetscFunctionBegin;
  PetscCall(HJMGDefaultLevels(pc));
  PetscCall((*hm->setfromoptions)(pc, PetscOptionsObject)); /* PCMG's: levels (PCMGSetLevels_HJMG), cycle, Galerkin, ... */
  PetscCall(HJMGRichardsonInstall(pc));                     /* (its -pc_mg_type installs PCMG's Richardson iteration again) */
  PetscOptionsHeadBegin(PetscOptionsObject, "HJMG options (PCMG with hjacobi smoothers)");
  PetscCall(PetscOptionsBool("-pc_hjmg_stencil_residual", "The residual of every level with an hjacobi smoother through that smoother (its stencil where it offers one, else MatResidual)", "PCHJMG", hm->stencilresidual, &hm->stencilresidual, NULL));
  PetscCall(PetscOptionsBool("-pc_hjmg_stencil_transfer", "Interpolation and restriction of every level by stencil loops (kernels on the GPU) where the interpolation is checked to be the DMDAs' Q1", "PCHJMG", hm->stenciltransfer, &hm->stenciltransfer, &hm->stenciltransferset));
  PetscCall(PetscOptionsInt("-pc_hjmg_gather_size", "On several ranks, the levels with fewer points per rank than this gathered onto one rank (PCTELESCOPE, an inner hjmg); 0: never (default: on device vectors 32768, on host vectors only when given)", "PCHJMG", hm->gathersize, &hm->gathersize, &hm->gathersizeset));
  PetscCall(PetscOptionsBool("-pc_hjmg_graph", "Record the V-cycle once (a CUDA graph on CUDA vectors) and replay it where every level is hjmg's own, on one rank (PCApply, and PCApplyRichardson in two parts)", "PCHJMG", hm->graph, &hm->graph, NULL));
  PetscCall(PetscOptionsBool("-pc_hjmg_explicit_restriction", "Restriction by the interpolation's transpose: a stored transpose on GPU AIJ matrices (MAT_FORM_EXPLICIT_TRANSPOSE)", "PCHJMG", hm->explicitrestriction, &hm->explicitrestriction, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's V-cycle, replayed from a recording where it can be (src/mg/graph.cxx) */
static PetscErrorCode PCApply_HJMG(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(HJMGGraphApply(pc, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's transpose; with the coarse levels gathered, through the transpose hjmg gave PCTELESCOPE */
static PetscErrorCode PCApplyTranspose_HJMG(PC pc, Vec x, Vec y)
{
  PC_HJMG *hm = HJMGContext(pc);

  PetscFunctionBegin;
  PetscCheck(!hm->gathered || hm->gatheredT, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCHJMG: the %" PetscInt_FMT " coarsest levels are gathered onto one rank and their coarse PC is no longer PCTELESCOPE, whose transpose hjmg provides; give -pc_hjmg_gather_size 0 for transposed solves", hm->gathered);
  PetscCall((*hm->applytranspose)(pc, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_HJMG(PC pc)
{
  PC_HJMG *hm = HJMGContext(pc);

  PetscFunctionBegin;
  PetscCall(HJMGGraphReset(pc));
  PetscCall(HJMGRichardsonReset(pc));
  PetscCall(HJMGLevelsReset(pc));
  PetscCall((*hm->reset)(pc));
  PetscCall(HJMGGatherReset(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_HJMG(PC pc)
{
  PC_MG *mg                     = (PC_MG *)pc->data;
  PetscErrorCode (*destroy)(PC) = HJMGContext(pc)->destroy;

  PetscFunctionBegin;
  PetscCall(HJMGGraphReset(pc));
  PetscCall(HJMGRichardsonReset(pc));
  PetscCall(HJMGLevelsReset(pc));
  PetscCall(PetscFree(mg->innerctx));
  PetscCall((*destroy)(pc)); /* PCMG's: the levels, pc->data and the composed functions */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* called by PCMG's view after its first lines (PC_MG.view) */
static PetscErrorCode PCView_HJMG(PC pc, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) PetscCall(HJMGLevelsView(pc, viewer));
  if (isascii) PetscCall(HJMGGraphView(pc, viewer));
  if (isascii) PetscCall(HJMGRichardsonView(pc, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCHJMG - "hjmg": geometric multigrid (`PCMG`) whose level smoothers are hierarchical Jacobi (`PCHJACOBI`) with
   `KSPRICHARDSON` by default, the residual of each level computed through its hjacobi smoother and the grid transfers
   computed on the stencil where the interpolation is the DMDAs' Q1 (optionally, the restriction by a stored transpose
   of the interpolation on the GPU).

   Options Database Keys:
+  -pc_hjmg_stencil_residual <bool> - the residual b - A x of every level with an hjacobi smoother through that smoother: from its stencil where `PCHJACOBI` offers one, else `MatResidual()` (default true)
.  -pc_hjmg_stencil_transfer <bool> - interpolation and restriction by point loops (CUDA kernels on CUDA vectors) on every level whose restriction is the interpolation's transpose and whose interpolation is, checked entry by entry at setup, the Q1 interpolation of its DMDA and the next coarser one refined by 2 (default: levels on one rank, and levels on several ranks on device vectors (the interpolation's vector type), where on two H200s at 257^3 under a CUDA-aware MPI it cut hjmg's time by 16-19% against PETSc's products (under an MPI that is not GPU-aware: strong the same, weak 14%); on host vectors levels on several ranks only when given true)
.  -pc_hjmg_gather_size <n> - on several ranks, the levels with fewer than n grid points per rank gathered onto one rank: the last level kept is `PCMG`'s coarse level, its solve `PCTELESCOPE` (the DMDA repartitioned onto one rank) with an inner hjmg on the remaining levels (rediscretized by the DM's `KSPSetComputeOperators()` callback where the outer levels are, else Galerkin coarse operators from the gathered level's Galerkin operator; the DM's vector and matrix types; on device vectors levels with Galerkin operators, or without a callback, are not gathered); each V-cycle then sends one gather and one scatter of that level instead of every coarser level's messages (default: 32768 on device vectors, where on 2 H200s at 257^3 it made hjmg 0-11% faster than without it; on host vectors only when given, where on 4 and 8 CPU cores it cuts messages but not time; `PCApplyTranspose()` runs `PCTELESCOPE`'s apply with the inner PC transposed, which needs the default `KSPPREONLY` inner KSP)
.  -pc_hjmg_graph <bool> - on one rank, where every level is hjmg's own (richardson + hjacobi smoothers without norms, the residual from the stencil, the stencil transfers, preonly + hjdense as the coarse solve) on device vectors whose backend records (CUDA), the V-cycle is recorded as one CUDA graph at the second `PCApply()` after a setup, checked against `PCMG`'s path once, and replayed by every later `PCApply()`; under `KSPRICHARDSON` (`PCApplyRichardson()`, `PCMG`'s iteration) the first call after a setup records its first V-cycle in two parts (the finest level's pre-smoothing and residual, then the rest: `PCMG`'s test of that residual's norm stays between them) and every later V-cycle replays them (default false; `-pc_view` says whether it is replayed or why not; events `PCHJMGRecord`, `PCHJMGGraph`)
-  -pc_hjmg_explicit_restriction <bool> - where the restriction is the interpolation's transpose and the interpolation is a GPU AIJ matrix (aijcusparse, aijhipsparse, aijkokkos), `MatSetOption`(P, `MAT_FORM_EXPLICIT_TRANSPOSE`, `PETSC_TRUE`): `MatMultTranspose()` uses a stored transpose instead of the transposed sparse product (default false: on an H100 it saves 0.3 ms per V-cycle at 257^3, and its first use, which forms the transpose, costs about 20 ms, so it pays from about the fifteenth solve with the same interpolation; nothing changes for CPU matrices)

   Every `PCMG` option works as for `PCMG` (`-pc_mg_levels`, `-pc_mg_galerkin`, `-pc_mg_cycle_type`, `-pc_mg_type`,
   `-pc_mg_distinct_smoothup`, `-pc_mg_log`, ...), and so does every level option (`-mg_levels_ksp_type`,
   `-mg_levels_pc_type`, `-mg_levels_N_up_pc_type`, `-mg_levels_pc_hjacobi_subiterations`, `-mg_coarse_pc_type`, ...).

   Level: intermediate

   Notes:
   As a solver, `-ksp_type richardson -pc_type hjmg` runs `PCMG`'s own iteration (`PCApplyRichardson()`: the residual that
   each V-cycle computes on the finest level after its first smoothing is the convergence test): one V-cycle and one
   norm per iteration, without a Krylov method's orthogonalization and operator products (on an H200, 3D 257^3: the same
   5 V-cycles in about half FGMRES's time). A Krylov method (`KSPFGMRES`, `KSPCG` with a symmetric cycle) pays where the
   V-cycle alone converges slowly.

   `-pc_type hjmg` is `-pc_type mg -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi` given the same levels (without
   `-pc_mg_levels` on a DMDA that was not refined, hjmg chooses several where `PCMG` makes one): the levels get these
   smoother types when they are made (`PCMGSetLevels()`), so every `-mg_levels_` option still overrides them, and each
   hjacobi smoother is told it is a smoother (its omega and weights take their multigrid defaults whatever its options
   prefix). With `-pc_mg_distinct_smoothup` (`PCMGSetDistinctSmoothUp()`) the up-smoothers start as copies of the
   down-smoothers' types, richardson and hjacobi, where `PCMG` alone would give them Chebyshev/SOR.
   The grid hierarchy comes from the PC's `DMDA` as for `PCMG` (`KSPSetDM()`); without a DM every level's interpolation
   must be given. Without `-pc_mg_levels` (and no `PCMGSetLevels()` call), on a `DMDA` that was not refined (where
   `PCMG` makes one level), hjmg halves the grid while every direction has more than 5 points, an odd number (even where
   periodic) and keeps at least 2 points per rank, and where the coarse solve will be `PCHJDENSE` (below) it stops at
   the first grid whose operator has at most the coarse hjdense's `-pc_hjdense_max_size` rows (1024 by default: 9^3 in
   3D, 17^2 in 2D; one or two levels fewer than the rule alone, each of which cost more than the larger product); after `-da_refine n` it takes n + 1 levels, as `PCMG`. The coarse
   solve is `PCMG`'s (`-mg_coarse_`), except with CUDA vectors, where `PCMG`'s LU becomes `PCHJDENSE` (the coarse
   operator's inverse, formed by the same LU on the host, applied as one dense product on the device; operators of more
   than 1024 rows keep the LU; on several ranks the PC inside `PCMG`'s `PCREDUNDANT`) unless any `-mg_coarse_pc_type`,
   `-mg_coarse_pc_factor_` or `-mg_coarse_redundant_` option is given: then `PCMG`'s stays as `PCMG` made it.

   The residual: after `PCMG`'s setup each level whose smoother is hjacobi gets `PCMGSetResidual()` with a `MATSHELL`
   that holds the level's operator and the smoother; the residual asks the smoother for r = b - A x on the stencil it
   extracted ("PCHJacobiResidual_C") when its Pmat is the level's operator, else calls `MatResidual()`; the iterations
   differ by rounding only. `-pc_view` shows on which levels and how many residuals each path computed.
   The transfers: after `PCMG`'s setup, each level whose interpolation P passes the check gets a `MATSHELL` of P's
   sizes as its interpolation and restriction (`PCMGSetInterpolation()`, `PCMGSetRestriction()`); its products are
   P x, y + P x, P^T r and y + P^T r on the stencil, equal to P's to rounding. P goes back before every `PCMG` setup
   (Galerkin products, `PCReset()`) and the check is made again only when P or its state changed. A level keeps P's
   products when its restriction is a matrix of its own, P differs from the Q1 weights anywhere (`-info` names the first
   entry) or the DMDAs are not refined by 2; on several ranks (on device vectors by default, on host vectors with `-pc_hjmg_stencil_transfer true`) the input's
   ghost values come from a box-stencil local vector of its DMDA (`DMGlobalToLocal()`), on host and CUDA vectors. `-pc_view` lists the levels with stencil
   transfers and why the others have none, and the levels whose interpolation got a stored transpose; event
   `PCHJMGTransfer`.

.seealso: `PCMG`, `PCHJACOBI`, `PCMGSetLevels()`, `PCMGSetResidual()`, `PCMGSetDistinctSmoothUp()`, `PCGAMG`
M*/
PetscErrorCode PCCreate_HJMG(PC pc)
{
  PC_HJMG *hm;
  PC_MG   *mg;

  PetscFunctionBegin;
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PCSetType(pc, PCMG)); /* a PCMG underneath, as PCGAMG */
  PetscCall(PetscObjectChangeTypeName((PetscObject)pc, PCHJMG));
  PetscCall(PetscNew(&hm));
  mg           = (PC_MG *)pc->data;
  mg->innerctx = hm;

  hm->setup          = pc->ops->setup;
  hm->setfromoptions = pc->ops->setfromoptions;
  hm->reset          = pc->ops->reset;
  hm->destroy        = pc->ops->destroy;
  hm->applytranspose = pc->ops->applytranspose;
  hm->apply          = pc->ops->apply;
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCMGSetLevels_C", &hm->setlevels));
  PetscCheck(hm->setup && hm->setfromoptions && hm->reset && hm->destroy && hm->setlevels && hm->applytranspose && hm->apply, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "PCHJMG: this PETSc's PCMG lacks an operation hjmg builds on (setup, setfromoptions, reset, destroy, apply, applytranspose or PCMGSetLevels_C)");
  hm->stencilresidual     = PETSC_TRUE;
  hm->stenciltransfer     = PETSC_TRUE;
  hm->explicitrestriction = PETSC_FALSE; /* H100: the stored transpose saves 0.3 ms per V-cycle at 257^3 but its first use costs about 20 ms */
  hm->gathersize          = HJMG_GATHER_SIZE;
  hm->graph               = PETSC_FALSE; /* opt-in: src/mg/graph.cxx says what it does not yet check */

  pc->ops->setup          = PCSetUp_HJMG;
  pc->ops->setfromoptions = PCSetFromOptions_HJMG;
  pc->ops->reset          = PCReset_HJMG;
  pc->ops->destroy        = PCDestroy_HJMG;
  pc->ops->applytranspose = PCApplyTranspose_HJMG;
  pc->ops->apply          = PCApply_HJMG;
  mg->view                = PCView_HJMG;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCMGSetLevels_C", PCMGSetLevels_HJMG));
  PetscFunctionReturn(PETSC_SUCCESS);
}
