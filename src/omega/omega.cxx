/* The damping omega (and k) chosen from the operator when the user gives none (doc/algorithm.md "Per-sweep weights
   w_1..w_k": the PC may choose it): rules over the Ritz values of D^{-1}A that the spectrum estimate found
   (omega/spectrum.cxx, the layer below; this file calls nothing above it: the weights, weights/weights.cxx, call it).

   The sweeps x <- x + omega D^{-1}(b - A x) multiply the error by 1 - omega theta. Rules, in order:
   spectrum (every role): the smoother's classic choice makes the high-frequency part [lambda_hi/(2 dim), lambda_hi] of
     a Laplacian-like spectrum contract evenly (omega = 2/(lo + hi): 2/3 in 1D, 4/5 in 2D, 6/7 in 3D for
     lambda_hi = 2), with the largest real part inflated by 10% as PETSc's Chebyshev does. Every Ritz value must then
     contract: |1 - omega theta| <= 0.9 for the large ones, < 1 for the small (smooth) ones.
   upper (a multigrid smoother only, where the spectrum rule finds none or the operator looks shifted): an indefinite or
     shifted operator (Helmholtz, its complex-shifted Laplacian) has smooth modes with real part <= 0 that no damping
     contracts. On fine levels the 10 Arnoldi steps do not reach them; what they see is the complex shift: Ritz values
     that are not conjugate pairs (those of a real operator are, those of a Hermitian one are real). For a smoother
     either makes the rule judge only what a smoother must do: it need not contract the smooth modes (the coarse grid
     corrects them), only the upper part Re theta >= lambda_hi/(2 dim), the modes it must damp: the same
     omega = 2/(lo + hi) on that part, with |1 - omega theta| <= 0.9 there, and one sweep (k = 1, unless the user set
     k): each sweep multiplies the smooth modes that grow by up to |1 - omega theta| > 1, so more sweeps per cycle
     only grow them more (Helmholtz 401^2, wavenumber 40: k 4 on the finest level took 1.9x the time of k 1).
   fallback: where neither applies (a real part <= 0 outside a smoother, a spectrum far off the real axis) the k
     damped sweeps approximate nothing whatever omega is, and the PC is PCJACOBI/PCPBJACOBI: k = 1, omega = 1.
   omega is rounded to 0.01 so that 1, 2 or 4 ranks (whose estimates differ by rounding) choose the same value. */
#include <petschjacobi/private/pchjacobiimpl.h>

#define HJ_OMEGA_RHO  0.9   /* the contraction asked of the high-frequency Ritz values */
#define HJ_OMEGA_ZERO 1e-6  /* |theta| below this times the largest |theta|: the null space of a singular operator */
#define HJ_OMEGA_REAL 1e-10 /* |Im theta| below this times the largest |theta|: real */
#define HJ_OMEGA_PAIR 1e-6  /* two Ritz values this close (relative) are a conjugate pair */

/* omega so that |1 - omega theta| <= rho on the Ritz values with |theta| >= cut (< 1 on the others with real part > 0
   when !upper; ignored when upper), near 2/(llo + lhi); *ok false: none (why says so) */
static PetscErrorCode OmegaFit(const HJSpectrum *sp, PetscReal absmax, PetscReal lhi, PetscReal llo, PetscReal cut, PetscBool upper, PetscReal *omega, PetscBool *ok, char why[], size_t len)
{
  PetscReal lo = 0, hi = PETSC_MAX_REAL, w0, w;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  for (PetscInt i = 0; i < sp->nritz; i++) { /* |1 - w theta| <= rho  <=>  w^2 |theta|^2 - 2 w a + 1 - rho^2 <= 0 */
    const PetscReal a = sp->re[i], b = sp->im[i], r2 = a * a + b * b, r = PetscSqrtReal(r2);
    const PetscReal rho  = r >= cut ? HJ_OMEGA_RHO : 1.0; /* smooth modes need only contract */
    const PetscReal disc = a * a - (1 - rho * rho) * r2;
    if (r <= HJ_OMEGA_ZERO * absmax) continue;
    if (upper && a < cut) continue; /* left to the coarse grid */
    if (disc < 0 || a <= 0) {
      PetscCall(PetscSNPrintf(why, len, "Ritz value %.3g%+.3gi: |1 - omega theta| > %g for every omega (a spectrum far off the real axis)", (double)a, (double)b, (double)rho));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    lo = PetscMax(lo, (a - PetscSqrtReal(disc)) / r2);
    hi = PetscMin(hi, (a + PetscSqrtReal(disc)) / r2);
  }
  w0 = 2 / (llo + lhi);
  w  = PetscFloorReal(100 * PetscMin(PetscMax(w0, lo), hi)) / 100; /* 0.01 steps: ranks agree although their sums round differently */
  if (w < lo) w = PetscCeilReal(100 * lo) / 100;
  if (w > hi || w <= 0 || w >= 2) {
    PetscCall(PetscSNPrintf(why, len, "no omega gives |1 - omega theta| <= %g on every %sRitz value (it would need %.3g <= omega <= %.3g)", (double)HJ_OMEGA_RHO, upper ? "upper " : "", (double)lo, (double)hi));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *ok    = PETSC_TRUE;
  *omega = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rules (top of this file) on the estimate: omega, and whether k is cut to 1 */
static PetscErrorCode OmegaFromRitz(PC pc, PetscBool smoother, PetscReal *omega, HJOmegaRule *rule)
{
  PC_HJacobi       *hj   = (PC_HJacobi *)pc->data;
  const HJSpectrum *sp   = &hj->spec;
  HJOmega          *om   = &hj->om;
  const PetscInt    dim  = hj->sw.layout.dim;
  PetscReal         amax = 0, amin = PETSC_MAX_REAL, absmax = 0, lhi, llo, w;
  PetscInt          ineg = -1, ioff = -1; /* a Ritz value with real part <= 0; one without its conjugate */
  PetscBool         ok;
  char              why[200];

  PetscFunctionBegin;
  *rule = HJ_OMEGA_FALLBACK;
  for (PetscInt i = 0; i < sp->nritz; i++) absmax = PetscMax(absmax, PetscSqrtReal(sp->re[i] * sp->re[i] + sp->im[i] * sp->im[i]));
  for (PetscInt i = 0; i < sp->nritz; i++) {
    const PetscReal a = sp->re[i], b = sp->im[i];
    if (PetscSqrtReal(a * a + b * b) <= HJ_OMEGA_ZERO * absmax) continue; /* null space */
    if (a <= 0 && ineg < 0) ineg = i;
    amax = PetscMax(amax, a);
    amin = PetscMin(amin, a);
  }
  if (amax <= 0) { /* A = 0 on the Krylov space, or nothing with a positive real part */
    PetscCall(PetscSNPrintf(om->why, sizeof(om->why), amax == 0 && ineg < 0 ? "no nonzero Ritz value" : "no Ritz value has a positive real part"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  lhi = HJ_SPECTRUM_SAFE * amax;
  for (PetscInt i = 0; i < sp->nritz && ioff < 0; i++) { /* a real operator's Ritz values come in conjugate pairs */
    PetscBool pair = (PetscBool)(PetscAbsReal(sp->im[i]) <= HJ_OMEGA_REAL * absmax);
    for (PetscInt j = 0; j < sp->nritz && !pair; j++) pair = (PetscBool)(PetscAbsReal(sp->re[j] - sp->re[i]) + PetscAbsReal(sp->im[j] + sp->im[i]) <= HJ_OMEGA_PAIR * absmax);
    if (!pair) ioff = i;
  }
  if (ineg < 0 && (!smoother || ioff < 0)) {
    llo = PetscMax(amin, lhi / (2 * dim));
    PetscCall(OmegaFit(sp, absmax, lhi, llo, lhi / (2 * dim), PETSC_FALSE, &w, &ok, om->why, sizeof(om->why)));
    if (ok) {
      *rule  = HJ_OMEGA_SPECTRUM;
      *omega = w;
      PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "rule spectrum: real parts of the Ritz values in [%.3g, %.3g]: omega = 2/(%.3g + %.3g), the high frequencies of a %" PetscInt_FMT "D grid%s", (double)amin, (double)amax, (double)llo, (double)lhi, dim, PetscAbsReal(w - 2 / (llo + lhi)) > 0.011 ? ", limited so that every Ritz value contracts" : ""));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  } else if (ineg >= 0) PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "Ritz value %.3g%+.3gi has real part <= 0: no damping makes the sweeps contract", (double)sp->re[ineg], (double)sp->im[ineg]));
  else PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "Ritz value %.3g%+.3gi has no conjugate: a complex-shifted operator (indefinite near the origin, where the estimate does not reach)", (double)sp->re[ioff], (double)sp->im[ioff]));
  if (!smoother) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrncpy(why, om->why, sizeof(why)));
  llo = lhi / (2 * dim);
  PetscCall(OmegaFit(sp, absmax, lhi, llo, llo, PETSC_TRUE, &w, &ok, om->why, sizeof(om->why)));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  *rule  = HJ_OMEGA_UPPER;
  *omega = w;
  PetscCall(PetscSNPrintf(om->why, sizeof(om->why), "rule upper (a smoother): %s; the upper part, real parts >= %.3g, contracts with omega = 2/(%.3g + %.3g), the smooth modes are the coarse grid's", why, (double)llo, (double)llo, (double)lhi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJOmegaChoose(PC pc, PetscBool smoother)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJOmega    *om = &hj->om;
  PetscReal   w  = 1;
  HJOmegaRule rule;

  PetscFunctionBegin;
  hj->sw.k = hj->asked.k; /* what was asked for (a rule's k of an earlier setup is undone) */
  if (hj->asked.omega > 0) {
    hj->omega = hj->asked.omega;
    om->rule  = HJ_OMEGA_GIVEN;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(hj->spec.have, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "The automatic omega needs the spectrum estimate first");
  PetscCall(OmegaFromRitz(pc, smoother, &w, &rule));
  om->rule  = rule;
  hj->omega = rule == HJ_OMEGA_FALLBACK ? 1.0 : w;
  if (rule != HJ_OMEGA_SPECTRUM && !hj->asked.kset) hj->sw.k = 1;
  PetscCall(PetscInfo(pc, "omega %g, k %" PetscInt_FMT " %s (%s estimate, %" PetscInt_FMT " Ritz values): %s%s\n", (double)hj->omega, hj->sw.k, rule == HJ_OMEGA_FALLBACK ? "(rule fallback)" : "chosen from the operator", hj->spec.reused ? "reused" : "new",
                      hj->spec.nritz, om->why, rule == HJ_OMEGA_SPECTRUM ? "" : (hj->asked.kset ? "; keeping the subiterations the user set" : (rule == HJ_OMEGA_UPPER ? "; k = 1" : "; k = 1, omega 1: PCJACOBI/PCPBJACOBI"))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJOmegaView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJOmega    *om = &hj->om;

  PetscFunctionBegin;
  if (hj->asked.omega > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega %g (given)\n", (double)hj->asked.omega));
  else if (om->rule == HJ_OMEGA_UNUSED) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega unused: Chebyshev weights on a given interval\n"));
  else if (!hj->spec.have) PetscCall(PetscViewerASCIIPrintf(viewer, "  omega auto: chosen from a spectrum estimate of D^{-1}A at setup\n"));
  else {
    PetscReal amax, imax;
    HJSpectrumExtremes(&hj->spec, &amax, &imax);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  omega %g (auto%s): %" PetscInt_FMT " Arnoldi steps on D^{-1}A, largest real part %.4g, largest imaginary part %.3g%s\n", (double)hj->omega, om->rule == HJ_OMEGA_FALLBACK ? ", fallback" : "", hj->spec.nritz, (double)amax, (double)imax,
                                     hj->spec.recompute ? ", recomputed when the values change" : ""));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    %s%s\n", om->why, om->rule == HJ_OMEGA_SPECTRUM ? "" : (hj->asked.kset ? "; subiterations as set by the user" : (om->rule == HJ_OMEGA_UPPER ? "; k = 1" : "; fallback: k = 1, omega 1 (PCJACOBI/PCPBJACOBI)"))));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
