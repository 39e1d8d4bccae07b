/* PCHJDENSE: a small operator's inverse formed once at setup (an inner PC, LU by default, applied to the identity) and
   applied as one dense matrix-vector product, on the device where the vectors are CUDA vectors. hjmg's coarse solve on
   the GPU (src/mg/coarse.cxx): PCMG's sparse triangular solves there wait for the stream and cost 0.1 ms at 125 unknowns. */
#include <petschjacobi/private/pchjacobiimpl.h>

typedef struct {
  PC        inner;   /* the PC whose operator is formed (LU with PCMG's coarse shift by default), prefix <prefix>hjdense_ */
  Mat       host;    /* the operator on the host (AIJ) while the inverse is formed */
  Mat       inverse; /* the dense inverse (a CUDA dense matrix on CUDA vectors), or NULL: the inner PC is applied itself */
  PetscInt  maxsize; /* -pc_hjdense_max_size: larger operators are solved by the inner PC directly */
  PetscInt  n;       /* the operator's rows at the last setup */
  PetscBool device;  /* the inverse lives on the device */
} PC_HJDense;

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

/* the inner PC's setup as PCREDUNDANT does its KSP's: its options read at every setup when the outer PC read its own,
   the outer PC's error-on-failure passed on, its failed reason (or none) the outer PC's */
static PetscErrorCode HJDenseInnerSetUp(PC pc)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCSetErrorIfFailure(hd->inner, pc->erroriffailure));
  if (pc->setfromoptionscalled) PetscCall(PCSetFromOptions(hd->inner));
  PetscCall(PCSetUp(hd->inner));
  pc->failedreason = hd->inner->failedreason;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the vectors the PC is applied to are CUDA vectors (then the inverse goes to the device) */
static PetscErrorCode HJDenseOnDevice(Mat A, PetscBool *device)
{
  VecType vtype;

  PetscFunctionBegin;
  PetscCall(MatGetVecType(A, &vtype));
  PetscCall(PetscStrInList(vtype, VECCUDA "," VECSEQCUDA "," VECMPICUDA, ',', device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_HJDense(PC pc)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;
  PetscMPIInt size;
  PetscInt    n, N;
  Mat         identity;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCHJDENSE runs on one MPI rank (this PC has %d); on several, put it inside PCREDUNDANT (-pc_type redundant -redundant_pc_type hjdense; as a PCMG coarse solve -mg_coarse_pc_type redundant -mg_coarse_redundant_pc_type hjdense)", size);
  PetscCall(MatGetSize(pc->pmat, &n, &N));
  PetscCheck(n == N, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PCHJDENSE needs a square operator, not %" PetscInt_FMT " x %" PetscInt_FMT, n, N);
  PetscCall(HJDenseInner(pc));
  PetscCall(MatDestroy(&hd->inverse));
  hd->n = n;
  if (n > hd->maxsize) { /* the inner PC on the operator itself: PCMG's coarse LU */
    PetscCall(PetscInfo(pc, "%" PetscInt_FMT " rows > -pc_hjdense_max_size %" PetscInt_FMT ": the inner PC is applied directly\n", n, hd->maxsize));
    PetscCall(PCSetOperators(hd->inner, pc->mat, pc->pmat));
    PetscCall(HJDenseInnerSetUp(pc));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the inverse from the inner PC on a host copy (on a GPU matrix the factorization would be the device's sparse LU,
     whose setup alone costs tens of milliseconds), its columns the inner PC applied to the identity's */
  PetscCall(MatDestroy(&hd->host));
  PetscCall(MatConvert(pc->pmat, MATSEQAIJ, MAT_INITIAL_MATRIX, &hd->host));
  PetscCall(PCSetOperators(hd->inner, hd->host, hd->host));
  PetscCall(HJDenseInnerSetUp(pc));
  if (hd->inner->failedreason) {
    PetscCall(PetscInfo(pc, "the inner PC failed at setup (%s): no inverse formed\n", PCFailedReasons[hd->inner->failedreason]));
    PetscCall(MatDestroy(&hd->host));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &identity));
  PetscCall(MatZeroEntries(identity));
  PetscCall(MatShift(identity, 1.0));
  PetscCall(MatDuplicate(identity, MAT_DO_NOT_COPY_VALUES, &hd->inverse));
  PetscCall(PCMatApply(hd->inner, identity, hd->inverse));
  PetscCall(MatDestroy(&identity));
  PetscCall(MatDestroy(&hd->host));
  PetscCall(HJDenseOnDevice(pc->pmat, &hd->device));
  if (hd->device) PetscCall(MatConvert(hd->inverse, MATSEQDENSECUDA, MAT_INPLACE_MATRIX, &hd->inverse));
  PetscCall(PetscInfo(pc, "the %" PetscInt_FMT " x %" PetscInt_FMT " inverse formed, applied on the %s\n", n, n, hd->device ? "device" : "host"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* on CUDA vectors the inverse on the device, also where the Pmat's vectors (setup's guess) were host vectors */
static PetscErrorCode HJDenseFollow(PC pc, Vec x)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;
  PetscBool   cuda;

  PetscFunctionBegin;
  if (!hd->inverse || hd->device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  if (!cuda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatConvert(hd->inverse, MATSEQDENSECUDA, MAT_INPLACE_MATRIX, &hd->inverse));
  hd->device = PETSC_TRUE;
  PetscCall(PetscInfo(pc, "CUDA vectors: the inverse moved to the device\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A^{-1} x or A^{-T} x: one dense product, or the inner PC above the size limit */
static PetscErrorCode HJDenseApply(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_HJDense *hd = (PC_HJDense *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJDenseFollow(pc, x));
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
  if (!pc->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: not set up yet (max size %" PetscInt_FMT ")\n", hd->maxsize));
  else if (hd->inverse)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: the %" PetscInt_FMT " x %" PetscInt_FMT " inverse, applied as one dense product on the %s (max size %" PetscInt_FMT "); formed by:\n", hd->n, hd->n, hd->device ? "device" : "host", hd->maxsize));
  else if (hd->n <= hd->maxsize) PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: no inverse: the inner PC failed at setup (%s):\n", PCFailedReasons[hd->inner ? hd->inner->failedreason : PC_NOERROR]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  hjdense: %" PetscInt_FMT " rows > max size %" PetscInt_FMT " (-pc_hjdense_max_size): the inner PC applied directly:\n", hd->n, hd->maxsize));
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
  PetscCall(MatDestroy(&hd->host));
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
   At setup the operator is copied to the host (`MATSEQAIJ`), the inner PC is set up on that copy and applied to the
   identity (`PCMatApply()`); the result is the inverse as the inner PC computes it (with LU: the exact inverse, or the
   shifted one where a pivot was zero). On CUDA vectors it becomes a `MATSEQDENSECUDA`, and each application is one
   dense product on the device (cuBLAS) that does not wait for the stream, where the device's sparse triangular solves
   of `PCLU` on an aijcusparse matrix wait for it twice and cost about 0.1 ms at 125 unknowns (H100). The setup costs
   the inner PC's factorization and n of its solves on the host; each application 2 n^2 flops.

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
  hd->maxsize = 1024;
  pc->data    = hd;

  pc->ops->setup          = PCSetUp_HJDense;
  pc->ops->apply          = PCApply_HJDense;
  pc->ops->applytranspose = PCApplyTranspose_HJDense;
  pc->ops->setfromoptions = PCSetFromOptions_HJDense;
  pc->ops->view           = PCView_HJDense;
  pc->ops->reset          = PCReset_HJDense;
  pc->ops->destroy        = PCDestroy_HJDense;
  PetscFunctionReturn(PETSC_SUCCESS);
}
