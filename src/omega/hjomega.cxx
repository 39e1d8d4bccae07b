/* The damping omega chosen from the operator when the user gives none (ALGORITHM.md w: "the PC may choose it").

   Estimate: a few Arnoldi steps on D^{-1} A (D the diagonal, or the dof x dof diagonal blocks: exactly what the
   sweeps divide by). dof 1: D^{-1} is the inverse diagonal the extraction computed, wrapped in a vector where it lives
   (a PCSHELL multiplies by it; PCJACOBI's own setup moved the diagonal between host and device). dof > 1: the inverse blocks the extraction
   computed, put into a block-diagonal matrix of the Pmat's family by COO (from the device array for a stencil that lives
   on the device: AIJCUSPARSE takes device values), applied by PCMAT (PETSc 3.22's GPU PCPBJACOBI gave rank-dependent
   results on 2 ranks, see test_identities.c). Both products run where the Pmat and its vectors are; no backend.
   The start vector is a hash of each value's natural (application) index: 1, 2 or 4 ranks estimate from the same
   vector and differ only by rounding, and omega is rounded down to 0.01 so that they choose the same value.

   Choice, from the Ritz values theta (see OmegaFromRitz): the sweeps x <- x + omega D^{-1}(b - A x) multiply the
   error by 1 - omega theta. The smoother's classic choice makes the high-frequency part [lambda_hi/(2 dim), lambda_hi]
   of a Laplacian-like spectrum contract evenly (omega = 2/(lo + hi): 2/3 in 1D, 4/5 in 2D, 6/7 in 3D for
   lambda_hi = 2), with the largest real part inflated by 10% as PETSc's Chebyshev does. Every Ritz value must then
   contract: |1 - omega theta| <= 0.9 for the large ones, < 1 for the small (smooth) ones. Where no omega does that (a
   real part <= 0: an indefinite operator, or a spectrum far off the real axis) the k damped sweeps are no
   approximation of A^{-1} whatever omega is, and the PC falls back to PCJACOBI/PCPBJACOBI: k = 1, omega = 1. */
#include <petschjacobi/private/pchjacobiimpl.h>
#include <petscksp.h>
#include <petschjacobi/private/hjhash.hpp>

#define HJ_OMEGA_RHO   0.9  /* the contraction asked of the high-frequency Ritz values */
#define HJ_OMEGA_SAFE  1.1  /* lambda_max inflation (PETSc's Chebyshev: 1.1) */
#define HJ_OMEGA_ZERO  1e-6 /* |theta| below this times the largest |theta|: the null space of a singular operator */

/* the backend of the Pmat's vectors: it knows their family (hjbackends.cxx) */
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
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  const HJLayout     *L  = &hj->layout;
  const PetscInt      dof = L->dof;
  const PetscScalar  *vals = hj->st.invdiag;
  MatType             mtype = MATAIJ;
  PetscInt            rstart, nloc;
  const HJBackendOps *vops;
  PetscInt           *ci, *cj;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(pc->pmat, &rstart, NULL));
  PetscCall(MatGetLocalSize(pc->pmat, &nloc, NULL));
  PetscCall(VectorBackend(pc, &vops));
  if (vops->invdiagblocks) PetscCall((*vops->invdiagblocks)(pc, &hj->st, &mtype, &vals));
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
  const HJStencil    *st = &hj->st;
  const PetscInt      n  = hj->layout.nlocal;
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

/* the start vector: a hash of each value's natural index c + dof (i + M0 (j + M1 k)) (hjhash.hpp), written where the
   vector lives (device vectors: by their backend, a kernel; no host loop over the grid, no upload) */
static PetscErrorCode FillStart(PC pc, Vec v)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  const HJLayout     *L  = &hj->layout;
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

/* m Arnoldi steps on D^{-1} A: PETSc's GMRES, left-preconditioned by D^{-1} (PCJACOBI, or PCPBJACOBI for dof > 1),
   from x = 0 and the hashed right-hand side, with no convergence test; its Hessenberg matrix gives
   the Ritz values (KSPComputeEigenvalues, as PETSc's Chebyshev estimates). Fewer steps when GMRES breaks down
   (the Krylov space is invariant: the Ritz values are eigenvalues). */
static PetscErrorCode Estimate(PC pc, HJOmega *om)
{
  Mat      R, Dinv = NULL;
  Vec      b, x, dinv = NULL;
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
  PetscCall(KSPGMRESSetRestart(ksp, HJ_OMEGA_STEPS));
  PetscCall(HJPmatReadable(pc->pmat, &R)); /* SBAIJ: an AIJ copy, as the extraction read */
  if (((PC_HJacobi *)pc->data)->layout.dof > 1) {
    PetscCall(CreateInverseDiagonal(pc, &Dinv));
    PetscCall(KSPSetOperators(ksp, R, Dinv));
    PetscCall(KSPGetPC(ksp, &dpc));
    PetscCall(PCSetType(dpc, PCMAT));
  } else {
    PetscCall(CreateInverseDiagonalVec(pc, x, &dinv));
    PetscCall(KSPSetOperators(ksp, R, R));
    PetscCall(KSPGetPC(ksp, &dpc));
    PetscCall(PCSetType(dpc, PCSHELL));
    PetscCall(PCShellSetContext(dpc, dinv));
    PetscCall(PCShellSetApply(dpc, ApplyInverseDiagonal));
  }
  PetscCall(KSPSetPCSide(ksp, PC_LEFT));
  PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, HJ_OMEGA_STEPS));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetComputeEigenvalues(ksp, PETSC_TRUE));
  PetscCall(KSPSetErrorIfNotConverged(ksp, PETSC_FALSE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  if (its > 0) PetscCall(KSPComputeEigenvalues(ksp, HJ_OMEGA_STEPS, om->re, om->im, &neig));
  om->nritz = neig;
  for (PetscInt i = 0; i < neig; i++) PetscCall(PetscInfo(pc, "Ritz value %" PetscInt_FMT " of D^{-1}A: %g%+gi\n", i, (double)om->re[i], (double)om->im[i]));
  PetscCall(KSPDestroy(&ksp));
  if (R != pc->pmat) PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&Dinv));
  PetscCall(VecDestroy(&dinv));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* omega from the Ritz values (see the top of this file); *ok false: no omega makes the sweeps contract */
static PetscErrorCode OmegaFromRitz(HJOmega *om, PetscInt dim, PetscReal *omega, PetscBool *ok)
{
  PetscReal amax = 0, amin = PETSC_MAX_REAL, absmax = 0, lo = 0, hi = PETSC_MAX_REAL, lhi, llo, w0, w;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  for (PetscInt i = 0; i < om->nritz; i++) absmax = PetscMax(absmax, PetscSqrtReal(om->re[i] * om->re[i] + om->im[i] * om->im[i]));
  for (PetscInt i = 0; i < om->nritz; i++) {
    const PetscReal a = om->re[i], b = om->im[i];
    if (PetscSqrtReal(a * a + b * b) <= HJ_OMEGA_ZERO * absmax) continue; /* null space */
    if (a <= 0) {
      PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "Ritz value %.3g%+.3gi has real part <= 0: no damping makes the sweeps contract", (double)a, (double)b));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    amax = PetscMax(amax, a);
    amin = PetscMin(amin, a);
  }
  if (amax == 0) { /* A = 0 on the Krylov space */
    PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "no nonzero Ritz value"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  lhi = HJ_OMEGA_SAFE * amax;
  llo = PetscMax(amin, lhi / (2 * dim));
  for (PetscInt i = 0; i < om->nritz; i++) { /* |1 - w theta| <= rho  <=>  w^2 |theta|^2 - 2 w a + 1 - rho^2 <= 0 */
    const PetscReal a = om->re[i], b = om->im[i], r2 = a * a + b * b, r = PetscSqrtReal(r2);
    const PetscReal rho  = r >= lhi / (2 * dim) ? HJ_OMEGA_RHO : 1.0; /* smooth modes need only contract */
    const PetscReal disc = a * a - (1 - rho * rho) * r2;
    if (r <= HJ_OMEGA_ZERO * absmax) continue;
    if (disc < 0) {
      PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "Ritz value %.3g%+.3gi: |1 - omega theta| > %g for every omega (a spectrum far off the real axis)", (double)a, (double)b, (double)rho));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    lo = PetscMax(lo, (a - PetscSqrtReal(disc)) / r2);
    hi = PetscMin(hi, (a + PetscSqrtReal(disc)) / r2);
  }
  w0 = 2 / (llo + lhi);
  w  = PetscFloorReal(100 * PetscMin(PetscMax(w0, lo), hi)) / 100; /* 0.01 steps: ranks agree although their sums round differently */
  if (w < lo) w = PetscCeilReal(100 * lo) / 100;
  if (w > hi || w <= 0 || w >= 2) {
    PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "no omega gives |1 - omega theta| <= %g on every Ritz value (it would need %.3g <= omega <= %.3g)", (double)HJ_OMEGA_RHO, (double)lo, (double)hi));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *ok    = PETSC_TRUE;
  *omega = w;
  PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "real parts of the Ritz values in [%.3g, %.3g]: omega = 2/(%.3g + %.3g), the high frequencies of a %" PetscInt_FMT "D grid%s", (double)amin, (double)amax, (double)llo, (double)lhi, dim,
                         w0 < lo || w0 > hi ? ", limited so that every Ritz value contracts" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJOmegaChoose(PC pc)
{
  PC_HJacobi      *hj = (PC_HJacobi *)pc->data;
  HJOmega         *om = &hj->om;
  PetscObjectId    id;
  PetscObjectState state, nzstate;
  PetscReal        w = 1;
  PetscBool        ok;

  PetscFunctionBegin;
  hj->subits = om->subits; /* what the user asked for (a fallback of an earlier setup is undone) */
  if (!HJWeightsNeedEstimate(pc)) { /* omega given (and no Chebyshev interval to find), or Chebyshev weights on a given interval (omega unused) */
    hj->omega    = om->user > 0 ? om->user : 1;
    om->fallback = PETSC_FALSE;
    om->unused   = (PetscBool)!(om->user > 0);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  om->unused = PETSC_FALSE;
  PetscCall(PetscObjectGetId((PetscObject)pc->pmat, &id));
  PetscCall(PetscObjectStateGet((PetscObject)pc->pmat, &state));
  PetscCall(MatGetNonzeroState(pc->pmat, &nzstate));
  if (!om->have || id != om->id || nzstate != om->nzstate || (om->recompute && state != om->state)) {
    PetscCall(PetscLogEventBegin(PCHJACOBI_Estimate, pc, 0, 0, 0));
    PetscCall(Estimate(pc, om));
    PetscCall(PetscLogEventEnd(PCHJACOBI_Estimate, pc, 0, 0, 0));
    om->have    = PETSC_TRUE;
    om->id      = id;
    om->state   = state;
    om->nzstate = nzstate;
    om->reused  = PETSC_FALSE;
  } else om->reused = PETSC_TRUE;
  PetscCall(OmegaFromRitz(om, hj->layout.dim, &w, &ok));
  om->fallback = (PetscBool)!ok;
  if (om->user > 0) { /* estimated for the Chebyshev interval only: the given omega stays, and so does k */
    hj->omega = om->user;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ok) hj->omega = w;
  else {
    hj->omega = 1.0;
    if (!om->subitsset) hj->subits = 1;
  }
  PetscCall(PetscInfo(pc, "omega %g %s (%s estimate, %" PetscInt_FMT " Ritz values): %s%s\n", (double)hj->omega, ok ? "chosen from the operator" : "(fallback)", om->reused ? "reused" : "new", om->nritz, om->why,
                      ok ? "" : (om->subitsset ? "; keeping the subiterations the user set, omega 1" : "; k = 1, omega 1: PCJACOBI/PCPBJACOBI")));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the largest real part (at least 0) and the largest |imaginary part| of the Ritz values */
static void RitzExtremes(const HJOmega *om, PetscReal *amax, PetscReal *imax)
{
  *amax = *imax = 0;
  for (PetscInt i = 0; i < om->nritz; i++) {
    *amax = PetscMax(*amax, om->re[i]);
    *imax = PetscMax(*imax, PetscAbsReal(om->im[i]));
  }
}

PetscErrorCode HJOmegaUpperBound(PC pc, PetscReal imagtol, PetscReal *hi, PetscBool *ok)
{
  HJOmega  *om   = &((PC_HJacobi *)pc->data)->om;
  PetscReal amax, imax;

  PetscFunctionBegin;
  RitzExtremes(om, &amax, &imax);
  *hi = HJ_OMEGA_SAFE * amax;
  *ok = (PetscBool)(om->have && !om->fallback && amax > 0 && imax <= imagtol * amax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJOmegaView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJOmega    *om = &hj->om;

  PetscFunctionBegin;
  if (om->user > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega %g (given)\n", (double)om->user));
  else if (om->unused) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega unused: Chebyshev weights on a given interval (no spectrum estimate)\n"));
  else if (!om->have) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega auto: chosen from a spectrum estimate of D^{-1}A at setup\n"));
  else {
    PetscReal amax, imax;
    RitzExtremes(om, &amax, &imax);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  omega %g (auto%s): %" PetscInt_FMT " Arnoldi steps on D^{-1}A, largest real part %.4g, largest imaginary part %.3g%s\n", (double)hj->omega, om->fallback ? ", fallback" : "", om->nritz, (double)amax, (double)imax, om->recompute ? ", recomputed when the values change" : ""));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    %s%s\n", om->why, om->fallback ? (om->subitsset ? "; subiterations as set by the user, omega 1" : "; fallback: k = 1, omega 1 (PCJACOBI/PCPBJACOBI)") : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJOmegaReset(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  hj->om.have     = PETSC_FALSE;
  hj->om.fallback = PETSC_FALSE;
  hj->om.nritz    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
