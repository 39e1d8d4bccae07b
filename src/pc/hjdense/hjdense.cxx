/* PCHJDENSE, the PETSc face (setup, apply, options, view, PCHJDenseGetPC, the manual page; the mechanics are
   src/dense/dense.cxx): a small operator's inverse formed once at setup (an inner PC, LU by default, applied to the identity) and
   applied as one dense matrix-vector product, on the device where the vectors are CUDA vectors. hjmg's coarse solve on
   the GPU (src/mg/coarse.cxx): PCMG's sparse triangular solves there wait for the stream and cost 0.1 ms at 125 unknowns. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "dense/dense.h"

/* what the PC applies, decided at setup */
typedef enum {
  HJD_DENSE,            /* the inverse the inner PC forms on the operator, as one dense product */
  HJD_DENSE_PINNED,     /* the inverse of the operator pinned on its null space, its output's null component removed */
  HJD_INNER_SIZE,       /* the inner PC directly: more rows than -pc_hjdense_max_size */
  HJD_INNER_INACCURATE, /* the inner PC directly: the dense product would not give what the inner PC gives */
  HJD_INNER_FAILED      /* the inner PC failed at setup: no inverse, the PC reports the inner PC's reason */
} HJDenseMode;

typedef struct {
  PC             inner;   /* the PC whose operator is formed (LU with PCMG's coarse shift by default), prefix <prefix>hjdense_ */
  Mat            inverse; /* the dense inverse (a CUDA dense matrix on CUDA vectors), or NULL: the inner PC is applied itself */
  PetscInt       maxsize; /* -pc_hjdense_max_size: larger operators are solved by the inner PC directly */
  PetscInt       n;       /* the operator's rows at the last setup */
  PetscBool      device;  /* the inverse lives on the device */
  HJDenseMode    mode;
  PetscInt       npins;       /* rows pinned (HJD_DENSE_PINNED): the null space's dimension */
  PetscBool      constants;   /* ... the constants, found (no null space attached) */
  PetscLogDouble formtime;    /* seconds the last setup spent forming (and checking) the inverse */
  PetscReal      check[2][2]; /* the setup's check, relative residuals of the dense product and of the inner PC: [0] on the
                              operator, [1] pinned (HJD_DENSE_PINNED or a rejected pinned inverse); negative: not made */
} PC_HJDense;

#define HJD_LARGE 2048 /* rows above which forming the inverse costs more setup than its products save (the man page's measurements) */

static PetscErrorCode HJDenseInner(PC pc)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;
  const char *prefix;

  PetscFunctionBegin;
  if (hd->inner) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCCreate(PetscObjectComm((PetscObject)pc), &hd->inner));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)hd->inner, (PetscObject)pc, 1));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PCSetOptionsPrefix(hd->inner, prefix));
  PetscCall(PCAppendOptionsPrefix(hd->inner, "hjdense_"));
  PetscCall(PCSetType(hd->inner, PCLU));
  PetscCall(PCFactorSetShiftType(hd->inner, MAT_SHIFT_INBLOCKS)); /* as PCMG's coarse LU: zero pivots shifted, not fatal */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the inner PC set up on op as PCREDUNDANT sets up its KSP: its options read at every setup when the outer PC read its
   own, the outer PC's error-on-failure passed on (unless tolerate: a failure that hjdense answers itself), its failed
   reason (or none) the outer PC's */
static PetscErrorCode HJDenseInnerSetUp(PC pc, Mat op, PetscBool tolerate)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCSetOperators(hd->inner, op, op));
  PetscCall(PCSetErrorIfFailure(hd->inner, tolerate ? PETSC_FALSE : pc->erroriffailure));
  if (pc->setfromoptionscalled) PetscCall(PCSetFromOptions(hd->inner));
  PetscCall(PCSetUp(hd->inner));
  pc->failedreason = hd->inner->failedreason;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the inverse on the device where the vectors the PC is applied to are a device backend's (its dense matrix type) */
static PetscErrorCode HJDenseToDevice(PC pc, const HJBackendOps *ops)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  if (hd->device || !ops->device || !ops->densetype) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatConvert(hd->inverse, ops->densetype, MAT_INPLACE_MATRIX, &hd->inverse));
  hd->device = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_HJDense(PC pc)
{
  PC_HJDense  *hd = (PC_HJDense *)pc->data;
  PetscMPIInt  size;
  PetscInt     n, N, m;
  PetscScalar *Z = NULL;
  Mat          A, B = NULL, X = NULL;
  PetscBool    accept = PETSC_FALSE, attached;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateIncrease((PetscObject)pc)); /* a new setup: what a recorded V-cycle holds (src/mg/graph.cxx) is stale */
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCHJDENSE runs on one MPI rank (this PC has %d); on several, put it inside PCREDUNDANT (-pc_type redundant -redundant_pc_type hjdense; as a PCMG coarse solve -mg_coarse_pc_type redundant -mg_coarse_redundant_pc_type hjdense)", size);
  PetscCall(MatGetSize(pc->pmat, &n, &N));
  PetscCheck(n == N, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PCHJDENSE needs a square operator, not %" PetscInt_FMT " x %" PetscInt_FMT, n, N);
  PetscCall(HJDenseInner(pc));
  PetscCall(MatDestroy(&hd->inverse));
  hd->n     = n;
  hd->npins = 0;
  for (int i = 0; i < 2; i++) hd->check[i][0] = hd->check[i][1] = -1;
  if (n > hd->maxsize) { /* the inner PC on the operator itself: PCMG's coarse LU */
    PetscCall(PetscInfo(pc, "%" PetscInt_FMT " rows > -pc_hjdense_max_size %" PetscInt_FMT ": the inner PC is applied directly\n", n, hd->maxsize));
    hd->mode = HJD_INNER_SIZE;
    PetscCall(PCSetOperators(hd->inner, pc->mat, pc->pmat));
    PetscCall(PCSetErrorIfFailure(hd->inner, pc->erroriffailure));
    if (pc->setfromoptionscalled) PetscCall(PCSetFromOptions(hd->inner));
    PetscCall(PCSetUp(hd->inner));
    pc->failedreason = hd->inner->failedreason;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (n > HJD_LARGE)
    PetscCall(PetscInfo(pc, "%" PetscInt_FMT " rows (-pc_hjdense_max_size %" PetscInt_FMT "): above %d rows forming the inverse (%" PetscInt_FMT " solves of the inner PC on the host, %.0f MB) costs more than its products save in a usual solve; a smaller -pc_hjdense_max_size applies the inner PC directly\n", n, hd->maxsize, HJD_LARGE, n, (double)n * n * sizeof(PetscScalar) / 1048576.0));
  PetscCall(PetscTime(&hd->formtime));
  PetscCall(MatConvert(pc->pmat, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  PetscCall(HJDenseNullBasis(pc->pmat, n, &m, &Z));
  attached = (PetscBool)(m > 0);
  PetscCall(HJDenseInnerSetUp(pc, A, PETSC_TRUE)); /* a failure here may be answered by the pins (else raised below) */
  if (!hd->inner->failedreason) {
    PetscCall(HJDenseForm(hd->inner, hd->n, &X));
    PetscCall(HJDenseCheck(hd->inner, A, X, hd->check[0], &accept));
    PetscCall(PetscInfo(pc, "the inverse's check: relative residual %g of the dense product, %g of the inner PC: %s\n", (double)hd->check[0][0], (double)hd->check[0][1], accept ? "taken" : "not taken"));
    if (accept) hd->mode = HJD_DENSE;
    else PetscCall(MatDestroy(&X));
  }
  if (!accept && !m) PetscCall(HJDenseConstants(A, n, &m, &Z));
  hd->constants = (PetscBool)(m && !attached);
  if (!accept && m > 0) { /* a singular operator with its null space attached (or the constants): pinned */
    PetscCall(HJDensePin(A, n, m, Z, &B));
    PetscCall(HJDenseInnerSetUp(pc, B, PETSC_TRUE));
    if (!hd->inner->failedreason) {
      PetscCall(HJDenseForm(hd->inner, hd->n, &X));
      PetscCall(HJDenseProject(X, n, m, Z));
      PetscCall(HJDenseCheck(hd->inner, A, X, hd->check[1], &accept));
      PetscCall(PetscInfo(pc, "the pinned inverse's check: relative residual %g of the dense product, %g of the inner PC: %s\n", (double)hd->check[1][0], (double)hd->check[1][1], accept ? "taken" : "not taken"));
      if (accept) {
        hd->mode  = HJD_DENSE_PINNED;
        hd->npins = m;
      } else PetscCall(MatDestroy(&X));
    }
    PetscCall(MatDestroy(&B));
  }
  if (!accept && (m > 0 || hd->inner->failedreason)) PetscCall(HJDenseInnerSetUp(pc, A, PETSC_FALSE)); /* what the inner PC gives on A itself, its failure raised where the PC asks */
  PetscCall(PetscFree(Z));
  if (!accept) {
    hd->mode = hd->inner->failedreason ? HJD_INNER_FAILED : HJD_INNER_INACCURATE;
    if (hd->inner->failedreason) PetscCall(PetscInfo(pc, "the inner PC failed at setup (%s): no inverse formed\n", PCFailedReasons[hd->inner->failedreason]));
    else PetscCall(PetscInfo(pc, "the dense product would not give what the inner PC gives (a singular operator%s): the inner PC is applied directly\n", m ? "" : " without a null space attached?"));
  }
  PetscCall(MatDestroy(&A)); /* the inner PC keeps its reference where it is applied directly */
  {
    PetscLogDouble t;

    PetscCall(PetscTime(&t));
    hd->formtime = t - hd->formtime;
  }
  if (!X) PetscFunctionReturn(PETSC_SUCCESS);
  hd->inverse = X;
  hd->device  = PETSC_FALSE;
  {
    VecType             vtype;
    const HJBackendOps *ops;

    PetscCall(MatGetVecType(pc->pmat, &vtype));
    PetscCall(HJBackendOfVecType(vtype, &ops));
    PetscCall(HJDenseToDevice(pc, ops));
  }
  PetscCall(PetscInfo(pc, "the %" PetscInt_FMT " x %" PetscInt_FMT " inverse formed%s, applied on the %s\n", n, n, hd->npins ? " (pinned on the null space)" : "", hd->device ? "device" : "host"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* on a device backend's vectors the inverse on the device, also where the Pmat's vectors (setup's guess) were host
   vectors */
static PetscErrorCode HJDenseFollow(PC pc, Vec x, Vec y)
{
  PC_HJDense         *hd = (PC_HJDense *)pc->data;
  const HJBackendOps *ops;

  PetscFunctionBegin;
  if (!hd->inverse || hd->device) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const Vec v[] = {x, y};

    PetscCall(HJBackendOfVecs(2, v, &ops));
  }
  if (!ops) PetscFunctionReturn(PETSC_SUCCESS); /* host and device vectors mixed: the product moves what it needs */
  PetscCall(HJDenseToDevice(pc, ops));
  if (hd->device) PetscCall(PetscInfo(pc, "device vectors: the inverse moved to the device\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "PCHJDenseOnDevice_C": whether PCApply is one dense product on the device (hjmg's recorded V-cycle needs that) */
static PetscErrorCode PCHJDenseOnDevice_HJDense(PC pc, PetscBool *on)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  *on = (PetscBool)(hd->inverse && hd->device);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A^{-1} x or A^{-T} x: one dense product, or the inner PC above the size limit */
static PetscErrorCode HJDenseApply(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJDenseFollow(pc, x, y));
  if (hd->inverse) PetscCall(transpose ? MatMultTranspose(hd->inverse, x, y) : MatMult(hd->inverse, x, y));
  else PetscCall(transpose ? PCApplyTranspose(hd->inner, x, y) : PCApply(hd->inner, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_HJDense(PC pc, Vec x, Vec y)
{
  return HJDenseApply(pc, x, y, PETSC_FALSE);
}

static PetscErrorCode PCApplyTranspose_HJDense(PC pc, Vec x, Vec y)
{
  return HJDenseApply(pc, x, y, PETSC_TRUE);
}

static PetscErrorCode PCSetFromOptions_HJDense(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "HJDENSE options (a small operator's inverse as one dense product)");
  PetscCall(PetscOptionsInt("-pc_hjdense_max_size", "Largest operator (rows) whose inverse is formed; larger ones are solved by the inner PC (-hjdense_pc_type, LU by default) directly", "PCHJDENSE", hd->maxsize, &hd->maxsize, NULL));
  PetscCheck(hd->maxsize >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjdense_max_size %" PetscInt_FMT " must be >= 0 (0: never form the inverse)", hd->maxsize);
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_HJDense(PC pc, PetscViewer viewer)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;
  PetscBool   isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (pc->setupcalled && hd->mode != HJD_INNER_SIZE) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: setup %.3g s (the inner PC's setup and %" PetscInt_FMT " of its solves on the host; the inverse holds %.3g MB)\n", (double)hd->formtime, hd->n, hd->inverse ? (double)hd->n * hd->n * sizeof(PetscScalar) / 1048576.0 : 0.0));
    if (hd->n > HJD_LARGE)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: WARNING %" PetscInt_FMT " rows: above %d forming the inverse costs more setup than its products save in a usual solve; a smaller -pc_hjdense_max_size applies the inner PC directly\n", hd->n, HJD_LARGE));
  }
  if (!pc->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: not set up yet (max size %" PetscInt_FMT ")\n", hd->maxsize));
  else switch (hd->mode) {
    case HJD_DENSE:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: the %" PetscInt_FMT " x %" PetscInt_FMT " inverse, applied as one dense product on the %s (max size %" PetscInt_FMT "); formed by:\n", hd->n, hd->n, hd->device ? "device" : "host", hd->maxsize));
      break;
    case HJD_DENSE_PINNED:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: the %" PetscInt_FMT " x %" PetscInt_FMT " inverse of the operator pinned on its null space (%s; %" PetscInt_FMT " %s pinned), its output orthogonal to the null space, applied as one dense product on the %s (max size %" PetscInt_FMT "); formed by:\n", hd->n, hd->n, hd->constants ? "the constants: no null space attached, the rows sum to zero" : "MatSetNullSpace()", hd->npins, hd->npins == 1 ? "row" : "rows", hd->device ? "device" : "host", hd->maxsize));
      break;
    case HJD_INNER_SIZE:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: %" PetscInt_FMT " rows > max size %" PetscInt_FMT " (-pc_hjdense_max_size): the inner PC applied directly:\n", hd->n, hd->maxsize));
      break;
    case HJD_INNER_INACCURATE:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: no inverse: the dense product would not give what the inner PC gives (relative residual %g against %g on a consistent right-hand side%s): the inner PC applied directly:\n", (double)hd->check[hd->check[1][0] >= 0][0],
                                       (double)hd->check[hd->check[1][0] >= 0][1], hd->check[1][0] >= 0 ? ", also pinned on its null space" : "; a singular operator without MatSetNullSpace()?"));
      break;
    case HJD_INNER_FAILED:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: no inverse: the inner PC failed at setup (%s):\n", PCFailedReasons[hd->inner ? hd->inner->failedreason : PC_NOERROR]));
      break;
    }
  if (hd->inner) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PCView(hd->inner, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_HJDense(PC pc)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&hd->inverse));
  if (hd->inner) PetscCall(PCReset(hd->inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_HJDense(PC pc)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_HJDense(pc));
  PetscCall(PCDestroy(&hd->inner));
  PetscCall(PetscFree(pc->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJDenseOnDevice_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJDenseGetPC - The inner PC of a `PCHJDENSE`, the one that forms its inverse (`PCLU` unless changed)

  Not Collective

  Input Parameter:
. pc - the `PCHJDENSE`

  Output Parameter:
. inner - its inner PC (options prefix: the PC's, then `hjdense_`)

  Level: advanced

.seealso: `PCHJDENSE`, `PCRedundantGetKSP()`
@*/
PetscErrorCode PCHJDenseGetPC(PC pc, PC *inner)
{
  PetscBool isdense;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCHJDENSE, &isdense));
  PetscCheck(isdense, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PCHJDenseGetPC() needs a PCHJDENSE, not a PC of type %s", ((PetscObject)pc)->type_name);
  PetscCall(HJDenseInner(pc));
  *inner = ((PC_HJDense *)pc->data)->inner;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCHJDENSE - "hjdense": the inverse of a small operator, formed once at setup and applied as one dense matrix-vector
   product, on the GPU where the vectors are CUDA vectors.

   Options Database Keys:
+  -pc_hjdense_max_size <n> - the largest operator (rows) whose inverse is formed (default 1024: 8 MB in double); larger operators are solved by the inner PC directly
-  -hjdense_pc_type <type> - the inner PC that forms the inverse (its options take the prefix `-hjdense_`, `-mg_coarse_hjdense_` as a coarse solve; default `PCLU` with `MAT_SHIFT_INBLOCKS`, the shift of `PCMG`'s coarse LU)

   Level: intermediate

   Notes:
   At setup the operator is copied to the host (`MATSEQAIJ`), the inner PC is set up on that copy and applied to each
   column of the identity; the result is the inverse as the inner PC computes it. On CUDA vectors it becomes a
   `MATSEQDENSECUDA`, and each application is one dense product on the device (cuBLAS) that does not wait for the
   stream, where the device's sparse triangular solves of `PCLU` on an aijcusparse matrix wait for it twice and cost
   about 0.1 ms at 125 unknowns (H100). The setup costs the inner PC's factorization and n of its solves on the host;
   each application 2 n^2 flops.

   Singular operators: the inverse is checked at setup. On a right-hand side in the operator's range (A v, v random)
   the dense product's residual must be within 100 times the inner PC's, or below sqrt(eps): on a singular operator
   the inverse an LU forms holds 1/pivot ~ 1/eps everywhere and its product loses every digit, where LU's own solves
   lose them only along the null space. Where the check fails and the operator has a null space attached
   (`MatSetNullSpace()`), or its rows sum to zero (then the constants are taken as its null space, as for the coarse
   operators of `PCMG`'s Galerkin products, which carry none), the inverse is formed again from the operator pinned on
   the null space (for each null vector one row, chosen by pivoting on the basis, gets |a_kk| added to its diagonal:
   nonsingular, and on a right-hand side in the range its solution solves A x = b) and its output is made orthogonal
   to the null space: the product then gives the solution of least norm on consistent right-hand sides, what the inner
   LU gives there up to a null-space component (which `KSP` removes anyway). Where that fails too, or no null space is
   known, the inner PC is applied directly: hjdense then gives exactly what its inner PC gives, never a product that
   lost its digits. `-pc_view` and `-info` say which of these runs and the check's residuals.

   Size: on an H200 the dense product took 9.7-52 us per application for 729-4913 rows against 203-1046 us for
   cuSPARSE's LU; the setup equals LU's up to about 1000 rows (161 against 186 ms at 729, 167 against 150 ms at 1089)
   and grows as n inner solves beyond (572 against 184 ms at 2197 rows, 2.9 s against 0.25 s at 4913), so that above
   2048 rows it pays back only after hundreds to thousands of applications: `-pc_view` and `-info` warn there, and
   the default `-pc_hjdense_max_size` is 1024. On host vectors the inner PC's own solve is faster (1089 rows: 16 us
   against 35 us for the product).

   It is `PCHJMG`'s coarse solve with CUDA vectors (on several ranks inside `PCREDUNDANT`) when the user gives no coarse
   option (`src/mg/coarse.cxx`), and works as
   any `PCMG`'s (`-mg_coarse_pc_type hjdense`). One MPI rank only: on several, put it inside `PCREDUNDANT`. If the inner
   PC fails at setup, the PC reports the inner PC's failed reason (`PCGetFailedReason()`); with `PCSetErrorIfFailure()`
   the inner PC's error stops the setup. The inner PC reads its options at every setup once this PC has read its own
   (as `PCREDUNDANT`'s KSP); `PCHJDenseGetPC()` returns it.

.seealso: `PCLU`, `PCSVD`, `PCREDUNDANT`, `PCHJMG`, `PCMatApply()`, `PCHJDenseGetPC()`
M*/
PetscErrorCode PCCreate_HJDense(PC pc)
{
  PC_HJDense *hd;

  PetscFunctionBegin;
  PetscCall(PetscNew(&hd));
  hd->maxsize = HJD_MAX_SIZE;
  pc->data    = hd;

  pc->ops->setup = PCSetUp_HJDense;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJDenseOnDevice_C", PCHJDenseOnDevice_HJDense));
  pc->ops->apply          = PCApply_HJDense;
  pc->ops->applytranspose = PCApplyTranspose_HJDense;
  pc->ops->setfromoptions = PCSetFromOptions_HJDense;
  pc->ops->view           = PCView_HJDense;
  pc->ops->reset          = PCReset_HJDense;
  pc->ops->destroy        = PCDestroy_HJDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}
