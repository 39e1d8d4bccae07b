/* hjmg's coarse levels on one rank: below a per-rank size, where each level's ghost exchanges, residual and transfers
   cost more in messages and synchronizations than in work, the rest of the hierarchy is gathered onto one rank.
   PCMG keeps the levels above as they are; its coarse solve becomes PETSc's PCTELESCOPE, which repartitions the DMDA
   of the last kept level onto one rank (its DMDA path) and runs an inner hjmg there on the remaining levels (their
   operators from the code's callback where the outer levels are rediscretized, else Galerkin products; the outer DM's
   vector and matrix types, so CUDA objects on CUDA vectors). Each V-cycle then sends
   one gather and one scatter of that level instead of the messages of every level below it. PCTELESCOPE has no
   transpose; HJMGGatherTranspose gives it one (below). */
#include "mg/hjmg.h"
#include "dense/dense.h"
#include <petsc/private/dmdaimpl.h>

/* the grid of each level PCMG makes from dm (coarsening by 2 in every direction, as HJMGLevelsAllowed), finest first;
   *ok false where the DMDA coarsens otherwise */
static PetscErrorCode LevelGrids(DM dm, PetscInt n, PetscInt M[][3], PetscInt *dim, PetscBool *ok)
{
  PetscBool             isda;
  DMBoundaryType        bx[3];
  DMDAInterpolationType itype;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (!isda) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const DM_DA *dd = (const DM_DA *)dm->data;

    if (dd->coarsen_x != 2 || dd->coarsen_y != 2 || dd->coarsen_z != 2 || dd->refine_x_hier_n || dd->refine_y_hier_n || dd->refine_z_hier_n) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDAGetInfo(dm, dim, &M[0][0], &M[0][1], &M[0][2], NULL, NULL, NULL, NULL, NULL, &bx[0], &bx[1], &bx[2], NULL));
  PetscCall(DMDAGetInterpolationType(dm, &itype));
  for (PetscInt l = 1; l < n; l++)
    for (PetscInt d = 0; d < 3; d++) M[l][d] = d >= *dim ? 1 : ((bx[d] == DM_BOUNDARY_PERIODIC || itype == DMDA_Q0) ? M[l - 1][d] / 2 : (M[l - 1][d] - 1) / 2 + 1);
  *ok = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an option of the coarse solve or of the inner solve given by the user (then hjmg does not set it) */
static PetscErrorCode Given(PC cpc, const char *name, PetscBool *given)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(cpc, &prefix));
  PetscCall(PetscOptionsHasName(((PetscObject)cpc)->options, prefix, name, given));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the option -<coarse prefix><sub><name> value, unless the user gave it: sub "telescope_" for the inner solve's, "" for
   the coarse PC's own */
static PetscErrorCode SetOption(PC cpc, const char *sub, const char *name, const char *value)
{
  const char *prefix;
  char        key[512];
  PetscBool   given;

  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(cpc, &prefix));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s%s%s", prefix ? prefix : "", sub, name));
  PetscCall(PetscOptionsHasName(((PetscObject)cpc)->options, NULL, key, &given));
  if (!given) PetscCall(PetscOptionsSetValue(((PetscObject)cpc)->options, key, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetInner(PC cpc, const char *name, const char *value)
{
  PetscFunctionBegin;
  PetscCall(SetOption(cpc, "telescope_", name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGGatherDefault(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  PC_HJMG       *hm = (PC_HJMG *)mg->innerctx;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;
  PetscMPIInt    size;
  PetscInt       M[64][3], dim, cut = -1;
  PetscBool      ok, chosen = PETSC_FALSE, device = PETSC_FALSE;
  VecType        vtype;
  MatType        mtype;
  PC             cpc;
  char           levels[32];
  void          *ctx;
  PetscErrorCode (*compute)(KSP, Mat, Mat, void *) = NULL;
  const PetscBool galerkin                         = (PetscBool)(mg->galerkin != PC_MG_GALERKIN_NONE); /* (EXTERNAL returned below) */

  PetscFunctionBegin;
  if (pc->setupcalled || n < 3 || n > 64 || !pc->dm || hm->gathersize <= 0 || mg->galerkin == PC_MG_GALERKIN_EXTERNAL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetVecType(pc->dm, &vtype));
  PetscCall(DMGetMatType(pc->dm, &mtype));
  if (vtype) {
    const HJBackendOps *ops;

    PetscCall(HJBackendOfVecType(vtype, &ops));
    device = ops->device;
  }
  if (!device && !hm->gathersizeset) PetscFunctionReturn(PETSC_SUCCESS); /* by default on device vectors only */
  for (PetscInt l = 1; l < n; l++)
    if (mg->levels[l]->interpolate || mg->levels[l]->restrct) PetscFunctionReturn(PETSC_SUCCESS); /* a hierarchy of the code's */
  PetscCall(KSPGetPC(mg->levels[0]->smoothd, &cpc));
  PetscCall(Given(cpc, "-ksp_type", &chosen)); /* (the coarse KSP's, whose prefix is the coarse PC's) */
  if (!chosen) PetscCall(HJMGCoarseChosen(cpc, &chosen));
  if (chosen) PetscFunctionReturn(PETSC_SUCCESS); /* the user chose the coarse solve */
  PetscCall(LevelGrids(pc->dm, n, M, &dim, &ok));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMKSPGetComputeOperators(pc->dm, &compute, &ctx));
  if (device && (!compute || galerkin)) { /* PCTELESCOPE repartitions an operator that is not the callback's by MatPtAP
                                             with an AIJ permutation, which PETSc (3.22) does not form for a GPU matrix */
    PetscCall(PetscInfo(pc, "levels not gathered: on device vectors PCTELESCOPE cannot repartition %s (a GPU matrix's MatPtAP with its AIJ permutation)\n", compute ? "a Galerkin coarse operator (-pc_mg_galerkin)" : "an operator given without KSPSetComputeOperators()"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt l = 1; l < n - 1 && cut < 0; l++) /* PETSc's level index is n - 1 - l */
    if ((double)M[l][0] * M[l][1] * M[l][2] / size < (double)hm->gathersize) cut = l;
  if (cut < 0) PetscFunctionReturn(PETSC_SUCCESS); /* only the coarsest is that small: PCMG's coarse solve gathers it already */
  PetscCall(PetscInfo(pc, "levels %" PetscInt_FMT " to %" PetscInt_FMT " (grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", fewer than %" PetscInt_FMT " points per rank on %d ranks) gathered onto one rank: PCTELESCOPE with an inner hjmg\n", n - 1 - cut, (PetscInt)0, M[cut][0], M[cut][1], M[cut][2], hm->gathersize, size));
  PetscCall(PCMGSetLevels(pc, cut + 1, NULL)); /* the finest cut + 1 levels stay; the coarsest of them is the inner's finest */
  PetscCall(KSPGetPC(mg->levels[0]->smoothd, &cpc));
  PetscCall(PCSetType(cpc, PCTELESCOPE));
  PetscCall(PCTelescopeSetReductionFactor(cpc, size));
  PetscCall(PetscSNPrintf(levels, sizeof(levels), "%" PetscInt_FMT, n - cut));
  PetscCall(SetInner(cpc, "pc_type", PCHJMG));
  PetscCall(SetInner(cpc, "pc_mg_levels", levels));
  /* the inner levels' operators come from where the outer ones do: the code's callback, which PCTELESCOPE gives the
     repartitioned DMDA, where PCMG rediscretizes (a Galerkin product of a star stencil is a box one, about three times
     the smoothing work); else Galerkin products of the gathered level's operator, which PCTELESCOPE permutes (told to
     ignore the callback: its DMDA path would otherwise rediscretize that level too, not the Galerkin operator) */
  if (compute && galerkin) PetscCall(SetOption(cpc, "", "pc_telescope_ignore_kspcomputeoperators", "true"));
  PetscCall(SetInner(cpc, "pc_mg_galerkin", compute && !galerkin ? "none" : "both"));
  { /* the coarse hjdense's size (the coarse prefix's option, which chose the outer levels) goes to the inner coarse
       solve, hjdense on device vectors */
    PetscInt rows;
    char     val[32];

    PetscCall(HJMGCoarseDenseRows(pc, &rows)); /* (0 on host vectors) */
    PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, rows));
    if (rows > 0 && rows != HJD_MAX_SIZE) PetscCall(SetInner(cpc, "mg_coarse_pc_hjdense_max_size", val));
  }
  if (vtype) PetscCall(SetInner(cpc, "repart_dm_vec_type", vtype));
  if (mtype) PetscCall(SetInner(cpc, "repart_dm_mat_type", mtype));
  hm->gathered = n - cut;
  for (PetscInt d = 0; d < 3; d++) hm->gathergrid[d] = M[cut][d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCTELESCOPE's apply scatters x onto the inner rank, runs the inner KSP there and scatters back: y = P^T K P x with P
   a permutation onto the repartitioned DMDA. With a KSPPREONLY inner KSP, K is the inner PC, so the transpose
   P^T K^T P x is that same apply with the inner PC applied transposed: its PCApply() runs its PCApplyTranspose()
   for the duration of the call. Collective on the telescope PC: every rank learns whether the inner solve allows it. */
static PetscErrorCode PCApplyTranspose_Gathered(PC tpc, Vec x, Vec y)
{
  KSP            inner;
  PC             ipc                    = NULL;
  PetscMPIInt    mine[2]                = {1, 1}, all[2]; /* the inner solve set up; it allows the transpose (int reductions: MPIU_BOOL
                                               is deprecated from PETSc 3.24) */
  PetscErrorCode ierr                   = PETSC_SUCCESS;
  PetscErrorCode (*apply)(PC, Vec, Vec) = NULL, (*swapped)(PC, Vec, Vec) = NULL;

  PetscFunctionBegin;
  PetscCall(PCTelescopeGetKSP(tpc, &inner)); /* NULL on the ranks outside the inner communicator */
  if (inner) {
    PetscBool preonly;

    ierr    = KSPSetUp(inner); /* its operators (a KSPSetComputeOperators() callback fills them here), then its PC */
    mine[0] = ierr ? 0 : 1;
    PetscCall(PetscObjectTypeCompare((PetscObject)inner, KSPPREONLY, &preonly));
    PetscCall(KSPGetPC(inner, &ipc));
    mine[1] = (preonly && ipc->ops->applytranspose) ? 1 : 0;
  }
  PetscCallMPI(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)tpc)));
  PetscCall(ierr); /* every rank stops together: the failing one with its error, the others below */
  PetscCheck(all[0], PetscObjectComm((PetscObject)tpc), PETSC_ERR_LIB, "PCHJMG: the inner solve of the gathered levels failed to set up on another rank");
  PetscCheck(all[1], PetscObjectComm((PetscObject)tpc), PETSC_ERR_SUP, "PCHJMG: the coarsest levels are gathered onto one rank through PCTELESCOPE, whose transpose hjmg gives only with a KSPPREONLY inner KSP and an inner PC with a transpose (-mg_coarse_telescope_ksp_type preonly, -mg_coarse_telescope_pc_type hjmg); or give -pc_hjmg_gather_size 0");
  if (ipc) {
    apply           = ipc->ops->apply;
    swapped         = ipc->ops->applytranspose;
    ipc->ops->apply = swapped;
  }
  ierr = PCApply(tpc, x, y);
  if (ipc && ipc->ops->apply == swapped)
    ipc->ops->apply = apply; /* restored before an error is passed on (unless a setup
                                                                      during the call installed an apply of its own) */
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGGatherTranspose(PC pc)
{
  PC_MG   *mg = (PC_MG *)pc->data;
  PC_HJMG *hm = (PC_HJMG *)mg->innerctx;
  PC       cpc;

  PetscFunctionBegin;
  if (!hm->gathered) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetPC(mg->levels[0]->smoothd, &cpc));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCTELESCOPE, &hm->gatheredT));
  if (hm->gatheredT) cpc->ops->applytranspose = PCApplyTranspose_Gathered;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCReset of PCTELESCOPE (PETSc 3.18-3.22) keeps its inner KSP and its next setup makes another: after PCMG's reset hjmg
   makes the coarse PCTELESCOPE again (its destroy frees the inner KSP), with the reduction factor it had */
PetscErrorCode HJMGGatherReset(PC pc)
{
  PC_MG      *mg = (PC_MG *)pc->data;
  PC_HJMG    *hm = (PC_HJMG *)mg->innerctx;
  PC          cpc;
  PetscBool   is;
  PetscMPIInt size;

  PetscFunctionBegin;
  hm->gatheredT = PETSC_FALSE;
  if (!hm->gathered || !mg->levels || !mg->levels[0]->smoothd) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetPC(mg->levels[0]->smoothd, &cpc));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCTELESCOPE, &is));
  if (!is) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PCSetType(cpc, PCNONE));
  PetscCall(PCSetType(cpc, PCTELESCOPE));
  PetscCall(PCTelescopeSetReductionFactor(cpc, size));
  PetscFunctionReturn(PETSC_SUCCESS);
}
