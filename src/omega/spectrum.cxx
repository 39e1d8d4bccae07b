/* The spectrum estimate (the mechanism under the omega rules and the weights; doc/algorithm.md "Per-sweep weights
   w_1..w_k": "the PC may choose" omega and the Chebyshev interval): the Ritz values of D^{-1}A for the Pmat, kept
   while the Pmat keeps its nonzero pattern (or its values, with recompute). Calls nothing above it.

   A few Arnoldi steps on D^{-1} A (D the diagonal, or the dof x dof diagonal blocks: exactly what the sweeps divide
   by). dof 1: D^{-1} is the inverse diagonal the extraction computed, wrapped in a vector where it lives (a PCSHELL
   multiplies by it; PCJACOBI's own setup moved the diagonal between host and device). dof > 1: the inverse blocks the
   extraction computed, put into a block-diagonal matrix of the Pmat's family by COO (from the device array for a
   stencil that lives on the device: AIJCUSPARSE takes device values), applied by PCMAT (PETSc 3.22's GPU PCPBJACOBI
   gave rank-dependent results on 2 ranks, see test_identities.c). Both products run where the Pmat and its vectors
   are; no backend. The start vector is a hash of each value's natural (application) index: 1, 2 or 4 ranks estimate
   from the same vector and differ only by rounding (the rules round what they choose so that ranks agree). */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petscksp.h>
#include "arith/hash.hpp"

/* the backend of the Pmat's vectors: it knows their family (backend/backends.cxx) */
static PetscErrorCode VectorBackend(PC pc, const HJBackendOps **ops)
{
  VecType vt;

  PetscFunctionBegin;
  PetscCall(MatGetVecType(pc->pmat, &vt));
  PetscCall(HJBackendOfVecType(vt, ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dof > 1: D^{-1} as a block-diagonal matrix of the Pmat's family, from the extracted inverse blocks where they live
   (a device matrix type takes device values by COO) */
static PetscErrorCode CreateInverseDiagonal(PC pc, Mat *Dinv)
{
  PC_HJacobi         *hj    = (PC_HJacobi *)pc->data;
  const HJLayout     *L     = &hj->sw.layout;
  const PetscInt      dof   = L->dof;
  const PetscScalar  *vals  = hj->sw.st.invdiag;
  MatType             mtype = MATAIJ;
  PetscInt            rstart, nloc;
  const HJBackendOps *vops;
  PetscInt           *ci, *cj;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(pc->pmat, &rstart, NULL));
  PetscCall(MatGetLocalSize(pc->pmat, &nloc, NULL));
  PetscCall(VectorBackend(pc, &vops));
  if (vops->invdiagblocks) PetscCall((*vops->invdiagblocks)(pc, &hj->sw.st, &mtype, &vals));
  PetscCheck(vals, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "No inverse diagonal blocks to estimate with");
  PetscCall(MatCreate(PetscObjectComm((PetscObject)pc), Dinv));
  PetscCall(MatSetSizes(*Dinv, nloc, nloc, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*Dinv, mtype));
  /* COO in the order of st.invdiag (row-major blocks, point after point): its values need no copy */
  PetscCall(PetscMalloc2(nloc * dof, &ci, nloc * dof, &cj));
  for (PetscInt u = 0, n = 0; u < L->nlocal; u++)
    for (PetscInt c = 0; c < dof; c++)
      for (PetscInt c2 = 0; c2 < dof; c2++, n++) {
        ci[n] = rstart + dof * u + c;
        cj[n] = rstart + dof * u + c2;
      }
  PetscCall(MatSetPreallocationCOO(*Dinv, (PetscCount)nloc * dof, ci, cj));
  PetscCall(PetscFree2(ci, cj));
  PetscCall(MatSetValuesCOO(*Dinv, vals, INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dof = 1: D^{-1} as a vector of the Pmat's family wrapping the extracted inverse diagonal where it lives (the device
   array of a device stencil, the host array otherwise; both extractions keep the array also for constant stencils):
   no copy, no host pass. Vectors of a device backend's family are its to make. Every rank makes the same collective
   calls (constant coefficients are a per-rank property). */
static PetscErrorCode CreateInverseDiagonalVec(PC pc, Vec like, Vec *dinv)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  const HJStencil    *st = &hj->sw.st;
  const PetscInt      n  = hj->sw.layout.nlocal;
  MPI_Comm            comm;
  PetscMPIInt         size;
  VecType             vt;
  const HJBackendOps *vops;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)pc, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetType(like, &vt));
  PetscCall(HJBackendOfVecType(vt, &vops));
  if (vops->invdiag) PetscCall((*vops->invdiag)(pc, st, like, dinv));
  else {
    PetscCheck(st->invdiag, comm, PETSC_ERR_PLIB, "No inverse diagonal to estimate with");
    if (size == 1) PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, st->invdiag, dinv));
    else PetscCall(VecCreateMPIWithArray(comm, 1, n, PETSC_DECIDE, st->invdiag, dinv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ApplyInverseDiagonal(PC dpc, Vec x, Vec y)
{
  Vec dinv;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(dpc, &dinv));
  PetscCall(VecPointwiseMult(y, dinv, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the start vector: a hash of each value's natural index c + dof (i + M0 (j + M1 k)) (arith/hash.hpp), written where the
   vector lives (device vectors: by their backend, a kernel; no host loop over the grid, no upload) */
static PetscErrorCode FillStart(PC pc, Vec v)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  const HJLayout     *L  = &hj->sw.layout;
  PetscScalar        *a;
  PetscMemType        mt;
  PetscInt            u = 0;
  const HJBackendOps *vops;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWriteAndMemType(v, &a, &mt));
  if (PetscMemTypeDevice(mt)) {
    VecType vt;
    PetscCall(VecGetType(v, &vt));
    PetscCall(HJBackendOfVecType(vt, &vops));
    PetscCheck(vops->fillstart, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "A device vector of type %s that no backend of this build runs on", vt);
    PetscCall((*vops->fillstart)(L, a));
  } else
    for (PetscInt k = 0; k < L->xm[2]; k++)
      for (PetscInt j = 0; j < L->xm[1]; j++)
        for (PetscInt i = 0; i < L->xm[0]; i++, u++)
          for (PetscInt c = 0; c < L->dof; c++) a[L->dof * u + c] = hj::StartValue(L->xs[0], L->xs[1], L->xs[2], i, j, k, L->M[0], L->M[1], (int)L->dof, (int)c);
  PetscCall(VecRestoreArrayWriteAndMemType(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A x for the estimate: the backend's product from the stencil (host backend, "PCHJacobiStencilMult_C"), which reads
   the planes (or one row where they are constant) instead of the assembled matrix's values and column indices */
static PetscErrorCode StencilMult(Mat S, Vec x, Vec y)
{
  PC pc;
  PetscErrorCode (*mult)(PC, Vec, Vec) = NULL;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &pc));
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiStencilMult_C", &mult));
  PetscCall((*mult)(pc, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m Arnoldi steps on D^{-1} A: PETSc's GMRES, left-preconditioned by D^{-1} (PCJACOBI, or PCPBJACOBI for dof > 1),
   from x = 0 and the hashed right-hand side, with no convergence test; its Hessenberg matrix gives
   the Ritz values (KSPComputeEigenvalues, as PETSc's Chebyshev estimates). Fewer steps when GMRES breaks down
   (the Krylov space is invariant: the Ritz values are eigenvalues). */
static PetscErrorCode Estimate(PC pc, HJSpectrum *sp)
{
  Mat      R, Dinv = NULL, S = NULL;
  Vec      b, x, dinv        = NULL;
  KSP      ksp;
  PC       dpc;
  PetscInt neig = 0, its;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(pc->pmat, &x, &b));
  PetscCall(FillStart(pc, b));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)pc), &ksp));
  { /* its own prefix: the user's -ksp_converged_reason, -ksp_view ... are not for this solve */
    const char *prefix;
    PetscCall(PCGetOptionsPrefix(pc, &prefix));
    PetscCall(KSPSetOptionsPrefix(ksp, prefix));
    PetscCall(KSPAppendOptionsPrefix(ksp, "pc_hjacobi_omega_est_"));
  }
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, HJ_SPECTRUM_STEPS));
  PetscCall(HJPmatReadable(pc->pmat, &R)); /* SBAIJ: an AIJ copy, as the extraction read */
  if (((PC_HJacobi *)pc->data)->sw.layout.dof > 1) {
    PetscCall(CreateInverseDiagonal(pc, &Dinv));
    PetscCall(KSPSetOperators(ksp, R, Dinv));
    PetscCall(KSPGetPC(ksp, &dpc));
    PetscCall(PCSetType(dpc, PCMAT));
  } else {
    PetscErrorCode (*mult)(PC, Vec, Vec) = NULL;
    const HJBackendOps *vops;

    PetscCall(CreateInverseDiagonalVec(pc, x, &dinv));
    PetscCall(VectorBackend(pc, &vops));
    PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiStencilMult_C", &mult));
    if (mult && !vops->device) { /* the stencil's product: the same operator, a fraction of the assembled product's cost */
      PetscInt m, n, M, N;

      PetscCall(MatGetLocalSize(R, &m, &n));
      PetscCall(MatGetSize(R, &M, &N));
      PetscCall(MatCreateShell(PetscObjectComm((PetscObject)pc), m, n, M, N, pc, &S));
      PetscCall(MatShellSetOperation(S, MATOP_MULT, HJ_MATOP_FN(StencilMult)));
      PetscCall(KSPSetOperators(ksp, S, R));
      PetscCall(PetscInfo(pc, "spectrum estimate: A x from the extracted stencil\n"));
    } else PetscCall(KSPSetOperators(ksp, R, R));
    PetscCall(KSPGetPC(ksp, &dpc));
    PetscCall(PCSetType(dpc, PCSHELL));
    PetscCall(PCShellSetContext(dpc, dinv));
    PetscCall(PCShellSetApply(dpc, ApplyInverseDiagonal));
  }
  PetscCall(KSPSetPCSide(ksp, PC_LEFT));
  PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, HJ_SPECTRUM_STEPS));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetComputeEigenvalues(ksp, PETSC_TRUE));
  PetscCall(KSPSetErrorIfNotConverged(ksp, PETSC_FALSE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  if (its > 0) PetscCall(KSPComputeEigenvalues(ksp, HJ_SPECTRUM_STEPS, sp->re, sp->im, &neig));
  sp->nritz = neig;
  for (PetscInt i = 0; i < neig; i++) PetscCall(PetscInfo(pc, "Ritz value %" PetscInt_FMT " of D^{-1}A: %g%+gi\n", i, (double)sp->re[i], (double)sp->im[i]));
  PetscCall(KSPDestroy(&ksp));
  if (R != pc->pmat) PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&Dinv));
  PetscCall(MatDestroy(&S));
  PetscCall(VecDestroy(&dinv));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJSpectrumUpdate(PC pc)
{
  PC_HJacobi      *hj = (PC_HJacobi *)pc->data;
  HJSpectrum      *sp = &hj->spec;
  PetscObjectId    id;
  PetscObjectState state, nzstate;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)pc->pmat, &id));
  PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
  PetscCall(MatGetNonzeroState(pc->pmat, &nzstate));
  if (!sp->have || id != sp->id || nzstate != sp->nzstate || (sp->recompute && state != sp->state)) {
    PetscCall(PetscLogEventBegin(PCHJACOBI_Estimate, pc, 0, 0, 0));
    PetscCall(Estimate(pc, sp));
    PetscCall(PetscLogEventEnd(PCHJACOBI_Estimate, pc, 0, 0, 0));
    sp->have    = PETSC_TRUE;
    sp->id      = id;
    sp->state   = state;
    sp->nzstate = nzstate;
    sp->reused  = PETSC_FALSE;
  } else sp->reused = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void HJSpectrumExtremes(const HJSpectrum *sp, PetscReal *amax, PetscReal *imax)
{
  *amax = *imax = 0;
  for (PetscInt i = 0; i < sp->nritz; i++) {
    *amax = PetscMax(*amax, sp->re[i]);
    *imax = PetscMax(*imax, PetscAbsReal(sp->im[i]));
  }
}

PetscErrorCode HJSpectrumReset(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  hj->spec.have  = PETSC_FALSE;
  hj->spec.nritz = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
