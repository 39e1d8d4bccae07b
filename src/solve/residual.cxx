/* r = b - A x from the extracted stencil, composed as "PCHJacobiResidual_C" on every PCHJACOBI: the residual a
   multigrid cycle computes on each level (PCMG's MatResidual, a sparse product) from the stencil the smoother holds
   already, on the device for CUDA vectors. Done only where the stencil is exactly the operator; otherwise nothing is
   written and the caller uses MatResidual. */
#include <petschjacobi/private/pchjacobiimpl.h>

/* Why the stencil is not the operator now (NULL: it is). The stencil is the Pmat's as extracted at the last setup: the
   same object, and neither its values (object state) nor its pattern (nonzero state) changed since. */
static PetscErrorCode HJResidualRefusal(PC pc, const char **why)
{
  PC_HJacobi      *hj = (PC_HJacobi *)pc->data;
  PetscObjectId    id;
  PetscObjectState state, nzstate;

  PetscFunctionBegin;
  *why = NULL;
  if (!pc->setupcalled || !hj->ops || !hj->sw.haslayout || !hj->sw.st.noff || !pc->pmat) *why = "the PC is not set up";
  else if (pc->mat != pc->pmat) *why = "the operator (Amat) is not the Pmat the stencil comes from";
  else if (hj->sw.layout.dof != 1) *why = "dof > 1 (point-block stencils have no residual operation)";
  else {
    PetscCall(PetscObjectGetId((PetscObject)pc->pmat, &id));
    PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
    PetscCall(MatGetNonzeroState(pc->pmat, &nzstate));
    if (id != hj->stid) *why = "the Pmat is not the matrix the stencil was extracted from";
    else if (state != hj->ststate || nzstate != hj->stnzstate) *why = "the Pmat changed since the stencil was extracted (set the PC up again)";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "PCHJacobiResidualRefusal_C": why the next "PCHJacobiResidual_C" would not compute r from the stencil (NULL: it
   would; its vectors' sizes aside), for a multigrid's view */
PetscErrorCode PCHJacobiResidualRefusal_HJacobi(PC pc, const char **why)
{
  PetscFunctionBegin;
  PetscCall(HJResidualRefusal(pc, why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "PCHJacobiResidual_C": PetscErrorCode (*)(PC pc, Vec b, Vec x, Vec r, PetscBool *done). Collective. r = b - A x with A
   the PC's operator, computed from the stencil (dof 1) by the backend that runs on these vectors (HJBackendResidual),
   when the PC is set up, Amat is Pmat, and the Pmat is unchanged since its stencil was extracted; then *done = true.
   Otherwise *done = false and r is not written: use MatResidual. As in MatResidual (whose product and VecAYPX refuse
   aliased arguments), r must differ from b and from x; x may be b. -info says why, once per setup and answer. Event PCHJacobiResidual. */
PetscErrorCode PCHJacobiResidual_HJacobi(PC pc, Vec b, Vec x, Vec r, PetscBool *done)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  const char *why;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidHeaderSpecific(b, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(x, VEC_CLASSID, 3);
  PetscValidHeaderSpecific(r, VEC_CLASSID, 4);
  PetscCheck(r != x && r != b, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_IDN, "r must differ from b and x (as in MatResidual)");
  *done = PETSC_FALSE;
  PetscCall(HJResidualRefusal(pc, &why));
  if (!why) {
    PetscInt nb, nx, nr;

    PetscCall(VecGetLocalSize(b, &nb));
    PetscCall(VecGetLocalSize(x, &nx));
    PetscCall(VecGetLocalSize(r, &nr));
    /* as MatMult: vectors of another layout are an error on the rank that has them */
    PetscCheck(nb == hj->sw.layout.nlocal && nx == hj->sw.layout.nlocal && nr == hj->sw.layout.nlocal, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PCHJACOBI residual: local sizes b %" PetscInt_FMT ", x %" PetscInt_FMT ", r %" PetscInt_FMT " differ from the operator's %" PetscInt_FMT, nb, nx, nr,
               hj->sw.layout.nlocal);
    PetscCall(PetscLogEventBegin(PCHJACOBI_Residual, pc, b, x, r));
    PetscCall(HJBackendResidual(pc, &hj->sw.st, b, x, r, &why));
    PetscCall(PetscLogEventEnd(PCHJACOBI_Residual, pc, b, x, r));
    if (!why) {
      *done = PETSC_TRUE;
      why   = "computed from the stencil";
    }
  }
  if (why != hj->residualtold) {
    if (*done) PetscCall(PetscInfo(pc, "Residual %s (PC backend %s)\n", why, hj->ops->name));
    else PetscCall(PetscInfo(pc, "Residual not computed from the stencil (the caller uses MatResidual): %s\n", why));
    hj->residualtold = why;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
