/* Testing the device extraction against the host's (test/test_extract.c, through PCHJacobiExtractCompare_C). */
#include <cstring> /* memcmp */
#include <petscdevice_cuda.h>
#include "cuda/stencil.h"

/* Testing (PCHJacobiExtractCompare_C, test/test_extract.c): extract the PC's Pmat on the host and on the device and
   count what differs (planes, inverse diagonal, kind, constant/ccoef/cinvdiag, zerodir), bit for bit. perturb = 1
   changes one device value first, so a test can see the comparison fail. */
PetscErrorCode HJCudaExtractCompare(PC pc, PetscInt perturb, PetscInt *ndiff)
{
  HJSweeps       *hj = HJSweepsOf(pc);
  const HJLayout *L  = &hj->layout;
  HJStencil       H, D;
  PetscInt        n = 0;

  PetscFunctionBegin;
  PetscCheck(hj->haslayout, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "Call PCSetUp() first");
  PetscCall(PetscMemzero(&H, sizeof(H)));
  PetscCall(PetscMemzero(&D, sizeof(D)));
  PetscCall(HJStencilExtract(pc->pmat, L, &H));
  PetscCall(HJCudaExtractFull(pc->pmat, L, &D, -1));
  PetscCall(HJStencilToHost_CUDA(&D));
  if (perturb && L->nlocal) D.invdiag[(size_t)(L->nlocal / 2) * L->dof * L->dof] *= 1.0 + 1e-15; /* a block's (0,0) entry: nonzero (an off-diagonal one may be 0) */
  n += H.kind != D.kind || H.noff != D.noff || H.dof != D.dof;
  n += H.constant != D.constant;
  n += H.cinvdiag != D.cinvdiag;
  for (PetscInt s = 0; H.constant && D.constant && s < H.noff; s++) n += H.ccoef[s] != D.ccoef[s];
  for (PetscInt k = 0; k < 3; k++) n += H.zerodir[k] != D.zerodir[k];
  if (!n) {
    const size_t nd = (size_t)L->nlocal * L->dof * L->dof;
    for (size_t i = 0; i < nd * H.noff; i++) n += memcmp(&H.coef[i], &D.coef[i], sizeof(PetscScalar)) != 0;
    for (size_t i = 0; i < nd; i++) n += memcmp(&H.invdiag[i], &D.invdiag[i], sizeof(PetscScalar)) != 0;
  }
  PetscCall(PetscInfo(pc, "host/device extraction: %" PetscInt_FMT " differences (kind %" PetscInt_FMT "/%" PetscInt_FMT ", constant %d/%d)\n", n, H.kind, D.kind, (int)H.constant, (int)D.constant));
  PetscCall(HJStencilDestroy(&H));
  PetscCall(HJStencilDestroy(&D));
  *ndiff = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
