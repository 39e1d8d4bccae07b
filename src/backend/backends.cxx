/* The backends of this build and the choice among them: the one file besides the CUDA backend that names it
   (as PETSc's pcregis.c lists its PCs). */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "host/backend.h"
#if defined(HJACOBI_WITH_CUDA)
  #include "cuda/backend.h"
#endif

static const HJBackendOps *const HJBackends[] = {
#if defined(HJACOBI_WITH_CUDA)
  &HJBackendCUDA,
#endif
  &HJBackendHost};
static const PetscInt HJNumBackends = (PetscInt)(sizeof(HJBackends) / sizeof(HJBackends[0]));

PetscErrorCode HJBackendOfVecType(VecType vt, const HJBackendOps **ops)
{
  PetscFunctionBegin;
  *ops = &HJBackendHost;
  for (PetscInt i = 0; i < HJNumBackends && vt; i++) {
    const HJBackendOps *b     = HJBackends[i];
    PetscBool           match = PETSC_FALSE;

    for (PetscInt j = 0; b->vectypes && b->vectypes[j] && !match; j++) PetscCall(PetscStrcmp(vt, b->vectypes[j], &match));
    if (match) {
      *ops = b;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* chosen once per setup, before the extraction: the backend extracts (a device backend where the Pmat lives) */
PetscErrorCode HJBackendOfVecs(PetscInt n, const Vec v[], const HJBackendOps **ops)
{
  PetscFunctionBegin;
  *ops = NULL;
  for (PetscInt i = 0; i < n; i++) {
    const HJBackendOps *b;
    VecType             vt;

    if (!v[i]) continue;
    PetscCall(VecGetType(v[i], &vt));
    PetscCall(HJBackendOfVecType(vt, &b));
    if (*ops && b != *ops) {
      *ops = NULL;
      break;
    }
    *ops = b;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendSelect(PC pc, const HJBackendOps **ops)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  const HJBackendOps *native;
  VecType             vt;

  PetscFunctionBegin;
  PetscCall(MatGetVecType(pc->pmat, &vt));
  PetscCall(HJBackendOfVecType(vt, &native));
  *ops = hj->backend == PC_HJACOBI_BACKEND_AUTO ? native : &HJBackendHost;
  if (hj->backend == PC_HJACOBI_BACKEND_CUDA) {
#if defined(HJACOBI_WITH_CUDA)
    PetscCheck(native == &HJBackendCUDA, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_backend cuda needs CUDA vectors, but the Pmat's vectors are of type %s; use -dm_vec_type cuda -dm_mat_type aijcusparse (or -pc_hjacobi_backend auto/host)", vt ? vt : "(none)");
    *ops = &HJBackendCUDA;
#else
    SETERRQ(PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_backend cuda: this build has no CUDA (PETSc or petsc-hjacobi was built without CUDA); use -pc_hjacobi_backend host or auto");
#endif
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendsSetFromOptions(PC pc, HJ_OPTION_ITEMS)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < HJNumBackends; i++)
    if (HJBackends[i]->setfromoptions) PetscCall((*HJBackends[i]->setfromoptions)(pc, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendsDestroyOptions(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < HJ_NUM_BACKEND_TYPES; i++) PetscCall(PetscFree(hj->sw.backendopts[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where a PC's cycles run for these vectors. A device backend runs on the vector types it lists, wherever their values
   sit at the moment (it moves them to the device: VecGetArrayAndMemType); the host backend runs instead only for
   vectors that are truly host vectors: another type (VECSEQ, VECMPI), or bound to the CPU (VecBindToCPU), whose arrays
   the device backend must not take. Returns the first such vector (b first), or NULL. */
static PetscErrorCode HJHostVector(const HJBackendOps *ops, Vec b, Vec x, Vec *hostvec)
{
  PetscFunctionBegin;
  *hostvec = NULL;
  if (!ops->vectypes) PetscFunctionReturn(PETSC_SUCCESS); /* the host backend: every vector */
  for (Vec v : {b, x}) {
    VecType   vt;
    PetscBool listed = PETSC_FALSE, bound = PETSC_FALSE;

    PetscCall(VecGetType(v, &vt));
    for (PetscInt j = 0; vt && ops->vectypes[j] && !listed; j++) PetscCall(PetscStrcmp(vt, ops->vectypes[j], &listed));
    if (listed) PetscCall(VecBoundToCPU(v, &bound));
    if (!listed || bound) {
      *hostvec = v;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A device backend met the host vector hostvec: allowed with -pc_hjacobi_backend auto only. The host backend then runs
   on data of its own (hj->fallback), on st's host arrays (made once from a device stencil by the backend that holds
   it); counted for -pc_view and timed by the event PCHJacobiFallback. what: the operation, for -info. */
static PetscErrorCode HJFallbackBegin(PC pc, const HJStencil *st, Vec hostvec, const char *what)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  VecType     vt;
  PetscBool   bound;
  char        kind[32];

  PetscFunctionBegin;
  PetscCall(VecGetType(hostvec, &vt));
  PetscCall(VecBoundToCPU(hostvec, &bound));
  PetscCall(PetscStrncpy(kind, hj->ops->name, sizeof(kind)));
  PetscCall(PetscStrtoupper(kind));
  PetscCheck(hj->backend == PC_HJACOBI_BACKEND_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_backend %s needs %s vectors (-dm_vec_type %s or -vec_type %s); got vector type %s%s", hj->ops->name, kind, hj->ops->name, hj->ops->name, vt, bound ? " bound to the CPU" : "");
  PetscCall(PetscInfo(pc, "Vector of type %s lives on the host: running the host backend's %s\n", vt, what));
  if (st->ondevice && !st->invdiag) {
    PetscCheck(hj->ops->stenciltohost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The %s backend holds the stencil on the device but cannot copy it to the host", hj->ops->name);
    PetscCall((*hj->ops->stenciltohost)(const_cast<HJStencil *>(st))); /* once: the host arrays stay with the stencil */
  }
  hj->nfallback++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendCycles(PC pc, const HJStencil *st, Vec b, Vec x, PetscInt n, PetscBool zeroguess)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  Vec         hostvec;

  PetscFunctionBegin;
  PetscCall(HJHostVector(hj->ops, b, x, &hostvec));
  if (!hostvec) {
    PetscCall((*hj->ops->cycles)(pc, st, b, x, n, zeroguess));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HJFallbackBegin(pc, st, hostvec, "cycles (in PetscScalar precision)"));
  PetscCall(PetscLogEventBegin(PCHJACOBI_Fallback, pc, b, x, 0));
  PetscCall(HJHostCyclesWithData(pc, &hj->fallback, st, b, x, n, zeroguess));
  PetscCall(PetscLogEventEnd(PCHJACOBI_Fallback, pc, b, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendCorrectT(PC pc, const HJStencil *stT, Vec r, Vec x, PetscBool add)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  Vec         hostvec;

  PetscFunctionBegin;
  PetscCall(HJHostVector(hj->ops, r, x, &hostvec));
  if (!hostvec) {
    PetscCall((*hj->ops->correctT)(pc, stT, r, x, add));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HJFallbackBegin(pc, stT, hostvec, "transposed cycle"));
  PetscCall(PetscLogEventBegin(PCHJACOBI_Fallback, pc, r, x, 0));
  PetscCall(HJHostCorrectTWithData(pc, &hj->fallback, stT, r, x, add));
  PetscCall(PetscLogEventEnd(PCHJACOBI_Fallback, pc, r, x, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = b - A x from st by the backend in use, on its own vectors; host vectors under a device backend are not taken
   (the caller uses MatResidual: a GPU check of this path lacks a reference: MatResidual of an aijcusparse matrix with
   vectors bound to the CPU being no reliable reference there). *why: NULL when r was written, else why not (nothing
   written). */
PetscErrorCode HJBackendResidual(PC pc, const HJStencil *st, Vec b, Vec x, Vec r, const char **why)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  Vec         hostvec;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(HJHostVector(hj->ops, b, x, &hostvec));
  if (!hostvec) PetscCall(HJHostVector(hj->ops, r, r, &hostvec));
  if (!hostvec) {
    if (!hj->ops->residual) *why = "the backend in use has no residual operation";
    else PetscCall((*hj->ops->residual)(pc, st, b, x, r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *why = "host vectors (another type, or bound to the CPU) under a device backend"; /* the cycles would fall back to the host backend here */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after every setup (new sizes: remade at the next use) and at reset; reset also forgets the count */
PetscErrorCode HJBackendFallbackReset(PC pc, PetscBool count)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJHostDataDestroy(&hj->fallback));
  if (count) hj->nfallback = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBackendFallbackView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (hj->nfallback)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  host vectors: %" PetscInt_FMT " calls on rank 0 ran the host backend's cycles instead of the %s backend's (event PCHJacobiFallback)\n", hj->nfallback, hj->ops ? hj->ops->name : "device"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
