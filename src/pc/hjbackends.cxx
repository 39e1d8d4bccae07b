/* The backends of this build and the choice among them: the one file besides the CUDA backend that names it
   (as PETSc's pcregis.c lists its PCs). */
#include <petschjacobi/private/pchjacobiimpl.h>
#include "host/hjhost.h"
#if defined(HJACOBI_WITH_CUDA)
  #include "cuda/hjcuda.h"
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
    const HJBackendOps *b = HJBackends[i];
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
  for (PetscInt i = 0; i < HJ_NUM_BACKEND_TYPES; i++) PetscCall(PetscFree(hj->backendopts[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
