/* PCHJMG's work on PCMG's levels: the smoothers' defaults and roles, the residual through the hjacobi smoother
   (a MATSHELL given to PCMGSetResidual), the stored transpose of GPU interpolations, and the view's lines. */
#include "mg/hjmg.h"
#include "mg/transfer.h"
#include <petsc/private/kspimpl.h>
#include <initializer_list>

/* The level operator as PCMG's residual sees it: mglevels[l]->A is only the first argument of the level's residual
   functions (mg.c), so a MATSHELL there changes nothing else. It delegates every product to the level's Amat and
   lets HJMGResidual ask the level's hjacobi smoother for r = b - A x on its stencil. */
typedef struct {
  Mat      A;                      /* the level's Amat (a reference) */
  PC       smoother;               /* the level's hjacobi smoother (a reference) */
  PetscInt nstencil, nmatresidual; /* residuals answered by the smoother's stencil, by MatResidual() */
} HJMGShell;

/* S's context when S is one of hjmg's residual shells (composed "HJMGShell_C" marks them), else NULL: PCMG calls a level's
   residual functions with whatever PCMGSetResidual() last gave, which may be the user's matrix */
static PetscErrorCode HJMGShellOf(Mat S, HJMGShell **sh)
{
  PetscErrorCode (*mark)(void) = NULL;

  PetscFunctionBegin;
  *sh = NULL;
  PetscCall(PetscObjectQueryFunction((PetscObject)S, "HJMGShell_C", &mark));
  if (mark) PetscCall(MatShellGetContext(S, sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGShellMult(Mat S, Vec x, Vec y)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &sh));
  PetscCall(MatMult(sh->A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGShellMultTranspose(Mat S, Vec x, Vec y)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &sh));
  PetscCall(MatMultTranspose(sh->A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGShellMultAdd(Mat S, Vec x, Vec y, Vec z)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &sh));
  PetscCall(MatMultAdd(sh->A, x, y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGShellDestroy(Mat S)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &sh));
  PetscCall(MatDestroy(&sh->A));
  PetscCall(PCDestroy(&sh->smoother));
  PetscCall(PetscFree(sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = b - A x: from the smoother's stencil when it offers that ("PCHJacobiResidual_C" sets done) for this very
   operator (its Pmat is the level's Amat), else MatResidual() */
static PetscErrorCode HJMGResidual(Mat S, Vec b, Vec x, Vec r)
{
  HJMGShell *sh;
  PetscBool  done                                           = PETSC_FALSE;
  PetscErrorCode (*stencil)(PC, Vec, Vec, Vec, PetscBool *) = NULL;

  PetscFunctionBegin;
  PetscCall(HJMGShellOf(S, &sh));
  if (!sh) { /* not hjmg's matrix: PCMG's default */
    PetscCall(MatResidual(S, b, x, r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sh->smoother->pmat == sh->A) PetscCall(PetscObjectQueryFunction((PetscObject)sh->smoother, "PCHJacobiResidual_C", &stencil));
  if (stencil) PetscCall((*stencil)(sh->smoother, b, x, r, &done));
  if (done) sh->nstencil++;
  else {
    PetscCall(MatResidual(sh->A, b, x, r));
    sh->nmatresidual++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* why the level's next residual is MatResidual(), NULL: from the smoother's stencil (HJMGResidual's choice) */
static PetscErrorCode HJMGResidualPath(HJMGShell *sh, const char **why)
{
  PetscErrorCode (*refusal)(PC, const char **) = NULL;

  PetscFunctionBegin;
  *why = NULL;
  if (sh->smoother->pmat != sh->A) *why = "the level's operator is not its smoother's Pmat (a matrix-free operator, or Amat differs from Pmat)";
  else {
    PetscCall(PetscObjectQueryFunction((PetscObject)sh->smoother, "PCHJacobiResidualRefusal_C", &refusal));
    if (refusal) PetscCall((*refusal)(sh->smoother, why));
    else *why = "the smoother is not hjacobi";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the transposed system's residual b - A^T x (PCApplyTranspose of PCMG), as PCMGResidualTransposeDefault() */
static PetscErrorCode HJMGResidualTranspose(Mat S, Vec b, Vec x, Vec r)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(HJMGShellOf(S, &sh));
  PetscCall(MatMultTranspose(sh ? sh->A : S, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* several right-hand sides (PCMatApply): PCMG's defaults on the level's Amat */
static PetscErrorCode HJMGMatResidual(Mat S, Mat B, Mat X, Mat R)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(HJMGShellOf(S, &sh));
  PetscCall(PCMGMatResidualDefault(sh ? sh->A : S, B, X, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGMatResidualTranspose(Mat S, Mat B, Mat X, Mat R)
{
  HJMGShell *sh;

  PetscFunctionBegin;
  PetscCall(HJMGShellOf(S, &sh));
  PetscCall(PCMGMatResidualTransposeDefault(sh ? sh->A : S, B, X, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HJMGShellCreate(Mat A, PC smoother, PetscInt l, Mat *S)
{
  HJMGShell *sh;
  PetscInt   m, n, M, N;
  VecType    vtype;
  char       name[64];

  PetscFunctionBegin;
  PetscCall(PetscNew(&sh));
  PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(PetscObjectReference((PetscObject)smoother));
  sh->A        = A;
  sh->smoother = smoother;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)A), m, n, M, N, sh, S));
  PetscCall(MatGetVecType(A, &vtype));
  PetscCall(MatShellSetVecType(*S, vtype));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT, HJ_MATOP_FN(HJMGShellMult)));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT_TRANSPOSE, HJ_MATOP_FN(HJMGShellMultTranspose)));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT_ADD, HJ_MATOP_FN(HJMGShellMultAdd)));
  PetscCall(MatShellSetOperation(*S, MATOP_DESTROY, HJ_MATOP_FN(HJMGShellDestroy)));
  PetscCall(PetscObjectComposeFunction((PetscObject)*S, "HJMGShell_C", HJMGShellDestroy)); /* the mark HJMGShellOf() tests */
  PetscCall(PetscSNPrintf(name, sizeof(name), "hjmg residual of level %" PetscInt_FMT, l));
  PetscCall(PetscObjectSetName((PetscObject)*S, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* levels whose smoothers PCMG names mg_levels_ (every level but the coarse one; the only one when there is one) */
static inline PetscBool IsSmootherLevel(PetscInt l, PetscInt n)
{
  return (PetscBool)(l > 0 || n == 1);
}

/* the level's hjacobi smoother: the down-smoother's PC if it is hjacobi, else the up-smoother's, else NULL */
static PetscErrorCode LevelHJacobi(PC_MG_Levels *level, PC *hpc)
{
  PetscFunctionBegin;
  *hpc = NULL;
  for (KSP k : {level->smoothd, level->smoothu}) {
    PC        spc;
    PetscBool is;

    if (!k || *hpc) continue;
    PetscCall(KSPGetPC(k, &spc));
    PetscCall(PetscObjectTypeCompare((PetscObject)spc, PCHJACOBI, &is));
    if (is) *hpc = spc;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsDefaults(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->nlevels;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < n; l++) {
    KSP smoother = mg->levels[l]->smoothd;
    PC  spc;

    if (!smoother || !IsSmootherLevel(l, n)) continue; /* no smoother on this rank (MPI_COMM_NULL), or the coarse solve */
    PetscCall(KSPSetType(smoother, KSPRICHARDSON));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PCSetType(spc, PCHJACOBI));
    PetscCall(HJSetRole(spc, HJ_ROLE_SMOOTHER));
  }
  PetscCall(PetscInfo(pc, "%" PetscInt_FMT " levels: richardson + hjacobi smoothers by default\n", n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsRoles(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < n; l++) {
    if (!IsSmootherLevel(l, n)) continue;
    for (KSP k : {mg->levels[l]->smoothd, mg->levels[l]->smoothu}) {
      PC spc;

      if (!k) continue;
      PetscCall(KSPGetPC(k, &spc));
      PetscCall(HJSetRole(spc, HJ_ROLE_SMOOTHER)); /* nothing unless spc is hjacobi; nothing when already set */
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the matrix types whose MatMultTranspose() is a slow transposed SpMV unless a transpose is stored */
static PetscErrorCode IsDeviceAIJ(Mat R, PetscBool *device)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)R, device, "seqaijcusparse", "mpiaijcusparse", "seqaijhipsparse", "mpiaijhipsparse", "seqaijkokkos", "mpiaijkokkos", ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* level l's residual: the shell on the hjacobi smoother (kept while the operator and smoother are the same objects),
   or PCMG's own again when switched off or without an hjacobi smoother */
static PetscErrorCode LevelResidual(PC pc, PetscInt l)
{
  PC_MG        *mg    = (PC_MG *)pc->data;
  PC_HJMG      *hm    = (PC_HJMG *)mg->innerctx;
  PC_MG_Levels *level = mg->levels[l];
  HJMGLevel    *lev   = &hm->lev[l];
  Mat           A;
  PC            hpc;

  PetscFunctionBegin;
  if (!level->smoothd) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetOperators(level->smoothd, &A, NULL));
  PetscCall(LevelHJacobi(level, &hpc));
  {
    const PetscBool ours = (PetscBool)(lev->residual && level->A == lev->residual && level->residual == HJMGResidual);
    const PetscBool pcmg = (PetscBool)((!level->residual || level->residual == PCMGResidualDefault) && (!level->A || level->A == A));
    if (!ours && !pcmg) { /* the user's (PCMGSetResidual() with a function or a matrix of theirs): kept, and none of hjmg's functions left with it */
      if (level->residualtranspose == HJMGResidualTranspose) level->residualtranspose = PCMGResidualTransposeDefault;
      if (level->matresidual == HJMGMatResidual) level->matresidual = PCMGMatResidualDefault;
      if (level->matresidualtranspose == HJMGMatResidualTranspose) level->matresidualtranspose = PCMGMatResidualTransposeDefault;
      PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": the residual given with PCMGSetResidual() is kept\n", l));
      PetscCall(MatDestroy(&lev->residual));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (hm->stencilresidual && hpc) {
    if (lev->residual && level->A == lev->residual) {
      HJMGShell *sh;
      PetscCall(MatShellGetContext(lev->residual, &sh));
      if (sh->A == A && sh->smoother == hpc) PetscFunctionReturn(PETSC_SUCCESS); /* the same operator and smoother */
    }
    Mat S;
    PetscCall(HJMGShellCreate(A, hpc, l, &S));
    PetscCall(PCMGSetResidual(pc, l, HJMGResidual, S));
    PetscCall(PCMGSetResidualTranspose(pc, l, HJMGResidualTranspose, S));
    level->matresidual          = HJMGMatResidual; /* PCMGSetResidual() just set PCMG's default, which would take S's products */
    level->matresidualtranspose = HJMGMatResidualTranspose;
    PetscCall(MatDestroy(&lev->residual));
    lev->residual = S;
    PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": residual through the hjacobi smoother (its stencil when it offers one, else MatResidual)\n", l));
  } else {
    if (lev->residual) { /* installed before: PCMG's residual on the level's operator again */
      PetscCall(PCMGSetResidual(pc, l, PCMGResidualDefault, A));
      PetscCall(PCMGSetResidualTranspose(pc, l, PCMGResidualTransposeDefault, A));
      PetscCall(MatDestroy(&lev->residual));
    }
    PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": PCMG's residual (%s)\n", l, hm->stencilresidual ? "the smoother is not hjacobi" : "-pc_hjmg_stencil_residual false"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* level l's interpolation and restriction: the stencil transfers (src/mg/transfer.cxx) where the restriction is the
   interpolation P itself (applied transposed) and P is checked to be the Q1 interpolation of the level's DMDA and the
   next coarser one; they are checked once per P and state, and P goes back before every PCMG setup
   (HJMGLevelsRestoreTransfers: Galerkin products and PCMG's own uses see P) */
static PetscErrorCode LevelTransfer(PC pc, PetscInt l)
{
  PC_MG        *mg    = (PC_MG *)pc->data;
  PC_HJMG      *hm    = (PC_HJMG *)mg->innerctx;
  PC_MG_Levels *level = mg->levels[l];
  HJMGLevel    *lev   = &hm->lev[l];
  Mat           P = level->interpolate, T = NULL, Pt = NULL;
  const char   *why = NULL;

  PetscFunctionBegin;
  PetscMPIInt         size = 1;
  const HJBackendOps *ops  = NULL;
  if (P) {
    VecType vtype;

    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)P), &size));
    PetscCall(MatGetVecType(P, &vtype));
    PetscCall(HJBackendOfVecType(vtype, &ops));
  }
  if (!hm->stenciltransfer) why = "-pc_hjmg_stencil_transfer false";
  else if (size > 1 && !hm->stenciltransferset && !ops->device) why = "several ranks on host vectors: PETSc's products by default, faster there on the CPU with setup included; -pc_hjmg_stencil_transfer true uses the stencil";
  else if (!P || level->restrct != P) why = "the restriction is a matrix of its own, not the interpolation's transpose";
  else if (!level->smoothd || !mg->levels[l - 1]->smoothd) why = "the level has no smoother on this rank";
  if (!why) {
    PetscObjectState state;

    PetscCall(PetscObjectStateGet((PetscObject)P, &state));
    if (lev->transfer) PetscCall(HJMGTransferGet(lev->transfer, &Pt, NULL, NULL));
    PetscMPIInt reuse = (PetscMPIInt)(lev->transfer && Pt == P && lev->pstate == state);                       /* checked before: the same P, unchanged (an int: MPIU_BOOL is deprecated from PETSc 3.24) */
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &reuse, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)P))); /* on every rank, or the check's collectives would part */
    if (reuse) T = lev->transfer;
    else {
      PetscCall(MatDestroy(&lev->transfer));
      PetscCall(HJMGTransferCreate(P, mg->levels[l - 1]->smoothd->dm, level->smoothd->dm, l, &T, &why));
      lev->transfer = T;
      lev->pstate   = state;
    }
  } else PetscCall(MatDestroy(&lev->transfer));
  lev->notransfer = why;
  if (T) {
    PetscCall(PCMGSetInterpolation(pc, l, T));
    PetscCall(PCMGSetRestriction(pc, l, T));
    PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": interpolation and restriction on the stencil (the interpolation is the DMDAs' Q1, checked)\n", l));
  } else PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": the interpolation's products (%s)\n", l, why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsRestoreTransfers(PC pc)
{
  PC_MG   *mg = (PC_MG *)pc->data;
  PC_HJMG *hm = (PC_HJMG *)mg->innerctx;

  PetscFunctionBegin;
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    Mat T = hm->lev[l].transfer, P;

    if (!T || !mg->levels || l >= mg->nlevels) continue;
    PetscCall(HJMGTransferGet(T, &P, NULL, NULL));
    if (mg->levels[l]->interpolate == T) PetscCall(PCMGSetInterpolation(pc, l, P));
    if (mg->levels[l]->restrct == T) PetscCall(PCMGSetRestriction(pc, l, P));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* level l's restriction: MatRestrict() applies the restriction matrix transposed when its rows are the fine level's
   (the interpolation P itself when no separate restriction was given); a GPU AIJ then multiplies by a stored P^T */
static PetscErrorCode LevelRestriction(PC pc, PetscInt l)
{
  PC_MG        *mg    = (PC_MG *)pc->data;
  PC_HJMG      *hm    = (PC_HJMG *)mg->innerctx;
  PC_MG_Levels *level = mg->levels[l];
  HJMGLevel    *lev   = &hm->lev[l];
  Mat           R     = level->restrct;
  PetscInt      rows, ncoarse;
  PetscBool     device;

  PetscFunctionBegin;
  lev->transposed = PETSC_FALSE;
  if (lev->transfer && R == lev->transfer) R = NULL; /* the stencil transfers: no product to store */
  if (!R || !mg->levels[l - 1]->b) {
    if (lev->explicitT && lev->transfer) { /* set on P at an earlier setup */
      Mat P;
      PetscCall(HJMGTransferGet(lev->transfer, &P, NULL, NULL));
      PetscCall(MatSetOption(P, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_FALSE));
    }
    lev->explicitT = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetSize(R, &rows, NULL));
  PetscCall(VecGetSize(mg->levels[l - 1]->b, &ncoarse)); /* MatRestrict(R, r, b): MatMult when R has b's rows */
  lev->transposed = (PetscBool)(rows != ncoarse);
  PetscCall(IsDeviceAIJ(R, &device));
  if (lev->transposed && device && hm->explicitrestriction) {
    PetscCall(MatSetOption(R, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_TRUE));
    lev->explicitT = PETSC_TRUE;
    PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": restriction by the transpose of a %s: MAT_FORM_EXPLICIT_TRANSPOSE (a stored transpose instead of the transposed SpMV)\n", l, ((PetscObject)R)->type_name));
  } else {
    if (lev->explicitT) PetscCall(MatSetOption(R, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_FALSE)); /* switched off since */
    lev->explicitT = PETSC_FALSE;
    PetscCall(PetscInfo(pc, "level %" PetscInt_FMT ": restriction unchanged (%s)\n", l, !lev->transposed ? "a separate restriction matrix" : !device ? "not a GPU AIJ interpolation" : "-pc_hjmg_explicit_restriction false"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsSetUp(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  PC_HJMG       *hm = (PC_HJMG *)mg->innerctx;
  const PetscInt n  = mg->levels[0]->levels;

  PetscFunctionBegin;
  if (hm->nlevels != n) {
    PetscCall(HJMGLevelsReset(pc));
    PetscCall(PetscCalloc1(n, &hm->lev));
    hm->nlevels = n;
  }
  for (PetscInt l = 1; l < n; l++) {
    PetscCall(LevelResidual(pc, l));
    PetscCall(LevelTransfer(pc, l));
    PetscCall(LevelRestriction(pc, l));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether every level runs only hjmg's own operations, which queue their device work on PETSc's current stream and read
   nothing back to the host (the condition of the recorded V-cycle, src/mg/graph.cxx): richardson + hjacobi smoothers
   with no norm and no monitor, the residual from the smoother's stencil, the stencil transfers, hjdense as the
   coarse solve (KSPPREONLY), and no operator with a null space. *why: the first level that does not, else NULL (the text lives in buf). */
PetscErrorCode HJMGRichardsonScale(KSP k, PetscReal *scale, PetscBool *selfscale)
{
  /* KSP_Richardson of PETSc's private richardsonimpl.h (not installed; the same in 3.18-3.25), which has
     no getter: KSPRichardsonSetScale() and -ksp_richardson_scale / -ksp_richardson_self_scale write it */
  typedef struct {
    PetscReal scale;
    PetscBool selfscale;
  } Richardson;
  PetscBool is;

  PetscFunctionBegin;
  *scale     = 1;
  *selfscale = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)k, KSPRICHARDSON, &is));
  if (is && k->data) {
    *scale     = ((const Richardson *)k->data)->scale;
    *selfscale = ((const Richardson *)k->data)->selfscale;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsOwn(PC pc, char buf[], size_t len, const char **why)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  PC_HJMG       *hm = (PC_HJMG *)mg->innerctx;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;

  PetscFunctionBegin;
  *why = NULL;
  for (PetscInt l = 0; l < n && !*why; l++) {
    PC_MG_Levels *level = mg->levels[l];
    const char   *what  = NULL;
    PetscBool     is;

    if (l == 0) {
      PC cpc;

      PetscCall(PetscObjectTypeCompare((PetscObject)level->smoothd, KSPPREONLY, &is));
      PetscCall(KSPGetPC(level->smoothd, &cpc));
      if (is) PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCHJDENSE, &is));
      if (!is) what = "the coarse solve is not preonly + hjdense";
      else if (level->smoothd->numbermonitors) what = "the coarse solve has a monitor";
      else {
        PetscBool dev                               = PETSC_FALSE;
        PetscErrorCode (*ondevice)(PC, PetscBool *) = NULL;

        PetscCall(PetscObjectQueryFunction((PetscObject)cpc, "PCHJDenseOnDevice_C", &ondevice));
        if (ondevice) PetscCall((*ondevice)(cpc, &dev));
        if (!dev) what = "hjdense applies no inverse on the device (its inner PC solves)";
      }
    }
    for (KSP k : {level->smoothd, level->smoothu}) {
      PC spc;

      if (l == 0 || what || !k) continue;
      PetscCall(PetscObjectTypeCompare((PetscObject)k, KSPRICHARDSON, &is));
      PetscCall(KSPGetPC(k, &spc));
      if (is) PetscCall(PetscObjectTypeCompare((PetscObject)spc, PCHJACOBI, &is));
      if (!is) what = "its smoother is not richardson + hjacobi";
      else if (k->normtype != KSP_NORM_NONE || k->numbermonitors) what = "its smoother computes norms (a norm type or a monitor)";
      else if (HJSweepsOf(spc)->ghostsf) what = "its smoother exchanges ghost values through PetscSF (a periodic direction), outside the recording's stream";
      else if (k->guess) what = "its smoother has an initial guess method (KSPGuess)";
      else {
        PetscReal scale;
        PetscBool selfscale;

        PetscCall(HJMGRichardsonScale(k, &scale, &selfscale));
        if (scale != 1 || selfscale) what = "its smoother's Richardson scale is not 1 (KSPRICHARDSON then runs PETSc's products, not hjacobi's iteration)";
      }
    }
    if (!what && level->cr) what = "compatible relaxation runs on it (-pc_mg_adapt_cr)";
    for (KSP k : {level->smoothd, level->smoothu}) { /* KSPSolve projects a null space out with reductions read on the host */
      Mat A = NULL, P = NULL;

      if (what || !k) continue;
      PetscCall(KSPGetOperators(k, &A, &P));
      for (Mat M : {A, P}) {
        MatNullSpace ns = NULL, nst = NULL;

        if (!M || what) continue;
        PetscCall(MatGetNullSpace(M, &ns));
        PetscCall(MatGetTransposeNullSpace(M, &nst));
        if (ns || nst) what = "its operator carries a null space (KSPSolve removes it with reductions read on the host)";
      }
    }
    if (l > 0 && !what) {
      HJMGShell  *sh  = NULL;
      const char *res = NULL;

      if (l < hm->nlevels && hm->lev[l].residual && level->A == hm->lev[l].residual) PetscCall(MatShellGetContext(hm->lev[l].residual, &sh));
      if (sh) PetscCall(HJMGResidualPath(sh, &res));
      if (!sh || res) what = "its residual is not from the smoother's stencil";
      else if (!hm->lev[l].transfer) what = "its interpolation and restriction are not the stencil transfers";
    }
    if (what) {
      PetscCall(PetscSNPrintf(buf, len, "level %" PetscInt_FMT ": %s", l, what));
      *why = buf;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the levels' residuals by MatResidual and transfers by P's product so far (a recorded V-cycle must run none) */
PetscErrorCode HJMGLevelsFallbacks(PC pc, PetscInt *count)
{
  PC_MG   *mg = (PC_MG *)pc->data;
  PC_HJMG *hm = (PC_HJMG *)mg->innerctx;

  PetscFunctionBegin;
  *count = 0;
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    PetscInt np = 0;

    if (hm->lev[l].residual) {
      HJMGShell *sh;

      PetscCall(MatShellGetContext(hm->lev[l].residual, &sh));
      *count += sh->nmatresidual;
    }
    if (hm->lev[l].transfer) PetscCall(HJMGTransferGet(hm->lev[l].transfer, NULL, NULL, &np));
    *count += np;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsReset(PC pc)
{
  PC_MG   *mg = (PC_MG *)pc->data;
  PC_HJMG *hm = (PC_HJMG *)mg->innerctx;

  PetscFunctionBegin;
  PetscCall(HJMGLevelsRestoreTransfers(pc)); /* the levels' own interpolations (PCMG frees them, or the user keeps them) */
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    const PetscBool there = (PetscBool)(mg->levels && l < mg->nlevels);

    PetscCall(MatDestroy(&hm->lev[l].transfer));
    if (hm->lev[l].explicitT && there && mg->levels[l]->restrct) PetscCall(MatSetOption(mg->levels[l]->restrct, MAT_FORM_EXPLICIT_TRANSPOSE, PETSC_FALSE)); /* the matrix may be the user's */
    if (!hm->lev[l].residual) continue;
    if (there && mg->levels[l]->A == hm->lev[l].residual) { /* PCMG installs its own again at its next setup */
      mg->levels[l]->residual          = NULL;
      mg->levels[l]->residualtranspose = NULL;
    }
    PetscCall(MatDestroy(&hm->lev[l].residual));
  }
  PetscCall(PetscFree(hm->lev));
  hm->nlevels = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "levels 1 2 3" (or "no level"): those with a residual shell (what 0), a stored transpose (1), stencil transfers (2) */
static PetscErrorCode LevelList(const PC_HJMG *hm, int what, char *text, size_t len)
{
  size_t used = 0;

  PetscFunctionBegin;
  text[0] = 0;
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    const HJMGLevel *lev = &hm->lev[l];

    PetscBool   has = what == 1 ? lev->explicitT : (PetscBool)((what == 0 ? lev->residual : lev->transfer) != NULL);
    const char *why = NULL;

    if (has && what == 0) { /* the residual's path as the next residual takes it */
      HJMGShell *sh;

      PetscCall(MatShellGetContext(lev->residual, &sh));
      PetscCall(HJMGResidualPath(sh, &why));
      has = (PetscBool)!why;
    }
    if (!has) continue;
    PetscCall(PetscSNPrintf(text + used, len - used, "%s%" PetscInt_FMT, used ? " " : "levels ", l));
    PetscCall(PetscStrlen(text, &used));
  }
  if (!used) PetscCall(PetscStrncpy(text, "no level", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGLevelsView(PC pc, PetscViewer viewer)
{
  PC_MG   *mg = (PC_MG *)pc->data;
  PC_HJMG *hm = (PC_HJMG *)mg->innerctx;
  char     text[256];

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: richardson + hjacobi smoothers by default (-mg_levels_ksp_type, -mg_levels_pc_type and the other level options override them)\n"));
  if (hm->autolevels && hm->autorows)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: %" PetscInt_FMT " levels chosen from the DMDA (halved while it can, down to the first grid whose operator the coarse dense inverse takes: at most %" PetscInt_FMT " rows; -pc_mg_levels sets them)\n", hm->autolevels, hm->autorows));
  else if (hm->autolevels) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: %" PetscInt_FMT " levels chosen from the DMDA (halved while it can; -pc_mg_levels sets them)\n", hm->autolevels));
  if (hm->gathered)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: the %" PetscInt_FMT " coarsest levels on one rank (from grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", fewer than %" PetscInt_FMT " points per rank: -pc_hjmg_gather_size): the coarse solve is PCTELESCOPE with an inner hjmg\n", hm->gathered, hm->gathergrid[0], hm->gathergrid[1], hm->gathergrid[2], hm->gathersize));
  if (!hm->nlevels) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: residual through the hjacobi smoothers %s, stencil transfers %s, explicit restriction %s (applied at setup)\n", hm->stencilresidual ? "on" : "off", hm->stenciltransfer ? "on" : "off", hm->explicitrestriction ? "on" : "off"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(LevelList(hm, 0, text, sizeof(text)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: residual through the hjacobi smoother (-pc_hjmg_stencil_residual %s) on %s\n", hm->stencilresidual ? "true" : "false", text));
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    HJMGShell *sh;

    if (!hm->lev[l].residual) continue;
    const char *why;

    PetscCall(MatShellGetContext(hm->lev[l].residual, &sh));
    PetscCall(HJMGResidualPath(sh, &why));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    level %" PetscInt_FMT ": %" PetscInt_FMT " residuals from the smoother's stencil, %" PetscInt_FMT " by MatResidual; the next %s%s%s\n", l, sh->nstencil, sh->nmatresidual, why ? "by MatResidual (" : "from the stencil", why ? why : "", why ? ")" : ""));
  }
  PetscCall(LevelList(hm, 2, text, sizeof(text)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: interpolation and restriction on the stencil (-pc_hjmg_stencil_transfer %s) on %s\n", hm->stenciltransfer ? "true" : "false", text));
  for (PetscInt l = 1; l < hm->nlevels; l++) {
    const HJMGLevel *lev = &hm->lev[l];
    PetscInt         nstencil, nproduct;

    if (lev->transfer) {
      PetscCall(HJMGTransferGet(lev->transfer, NULL, &nstencil, &nproduct));
      PetscCall(PetscViewerASCIIPrintf(viewer, "    level %" PetscInt_FMT ": %" PetscInt_FMT " transfers on the stencil, %" PetscInt_FMT " by the interpolation's product\n", l, nstencil, nproduct));
    } else if (lev->notransfer && hm->stenciltransfer) PetscCall(PetscViewerASCIIPrintf(viewer, "    level %" PetscInt_FMT ": the interpolation's products (%s)\n", l, lev->notransfer));
  }
  PetscCall(LevelList(hm, 1, text, sizeof(text)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  hjmg: restriction by a stored transpose of the interpolation (-pc_hjmg_explicit_restriction %s, GPU AIJ only) on %s\n", hm->explicitrestriction ? "true" : "false", text));
  PetscFunctionReturn(PETSC_SUCCESS);
}
