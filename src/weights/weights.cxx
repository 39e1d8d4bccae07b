/* The weights w_1..w_k of a tile's k sweeps (doc/algorithm.md "Per-sweep weights w_1..w_k"), with omega and k: the
   policy layer, and the one setup PCSetUp calls (HJWeightsSetUp). It calls the spectrum estimate (omega/spectrum.cxx)
   and the omega rules (omega/omega.cxx); neither calls back.

   constant:  w_j = omega (the paper; omega given or chosen by the omega rules).
   chebyshev: w_j = 1/l_j with l_j = (hi + lo)/2 + (hi - lo)/2 cos((2j - 1) pi / (2k)), the Chebyshev nodes of
              [lo, hi]. The k sweeps from zero multiply the tile's error by p(D^-1 A_TT) = prod_j (I - D^-1 A_TT / l_j),
              the scaled Chebyshev polynomial T_k((hi + lo - 2x)/(hi - lo)) / T_k((hi + lo)/(hi - lo)): of all
              polynomials of degree k with p(0) = 1 the smallest on [lo, hi], and |p| <= 1 on all of [0, hi].
   chebyshev_squared: the k/2 nodes of [lo, hi] each twice (Leja order of the pairs), and 1/hi last for odd k: p = q^2
              (times 1 - x/hi), q the Chebyshev polynomial of degree k/2. Since T_k = 2 T_{k/2}^2 - 1, 1 - p is a positive
              multiple of chebyshev's 1 - p (odd k aside): the same preconditioner up to a scalar, so Krylov methods
              iterate alike, while p >= 0 keeps N^{-1} >= the block diagonal of A, and with overlap 0 a Richardson
              iteration with it converges where the block Jacobi iteration does (chebyshev's p dips to -1/T_k and its
              Richardson iteration diverged on the 2D Poisson demo, 64^2, tile 16, k 4 and 8, overlap 0).
   The interval. hi must bound the spectrum of D^-1 A_TT from above (a larger eigenvalue would grow by up to
   T_k(...) per cycle): the largest real part of the Ritz values of D^-1 A times the estimate's safety factor 1.1
   (for symmetric A the eigenvalues of D^-1 A_TT interlace with those of D^-1 A, so the whole operator's bound holds
   for every tile), rounded up to 0.01 (ranks agree). lo, the larger of two:
   - the tile: the smallest eigenvalue of the tile operator, for which the Laplacian with the tile's frozen (Dirichlet)
     halo is the model: 1 - (1/n) sum_d cos(pi / (t_d + 1)) for hi = 2 (t_d the tile, at most the grid; the sum over
     the n directions with couplings: rows without y couplings (B2) are 1D problems), scaled by hi / 2;
   - the degree: on [lo, hi] the tile's M^-1 A is 1 - p, which touches 1 - 1/T_m(s)^2 (squared; chebyshev: 1 - 1/T_m(s))
     at the interior extremes of p, s = (hi + lo)/(hi - lo), m the degree. A degree m too low for the interval
     (lo < about hi/m^2) makes that nearly 0: M^-1 nearly singular in the middle of the spectrum, and a
     preconditioned residual that says little about the true one (ksp ex67, 1D tile 64, k 4, lo = hi/1700: left-
     preconditioned GMRES stopped at a true relative residual 500x its tolerance). So lo is at least the end at which
     T_m(s) = HJ_CHEB_TAU (1 - p >= 1/2 on [lo, hi] for squared), s = cosh(acosh(tau)/m): hi (s - 1)/(s + 1), about
     0.78 hi / m^2. Modes below lo are then reduced less (|p| <= 1 on [0, lo] still), which the tile's degree could
     not do anyway; measured with CG at equal true residual (varcoef2d, mg3d -symmetric) no worse in iterations.
   Both ends can be given (-pc_hjacobi_chebyshev_interval lo,hi; a given lo is taken as is). A given interval is
   checked against what the weights can represent: D^{-1}A has mean eigenvalue 1 (its diagonal is 1), so weights
   1/l_j beyond 1/sqrt(eps) (lo < sqrt(eps): rounding amplified past half the digits, inf for lo ~ 1e-300) or below
   sqrt(eps) (hi > 1/sqrt(eps): a correction lost in the rounding of b - A x, M^-1 numerically 0) are refused. A
   given hi below the estimate's bound (estimated to check it) is taken, and said: the modes above it grow.
   Order: Leja order (the largest node first, then each next the node that maximises the product of its distances to
   those already taken), which keeps the partial products of the factors (I - D^-1 A / l_j), and so the values of the
   intermediate sweeps, bounded; the product after all k is the same in any order.
   Where the omega rules found no omega (a spectrum not near the positive real axis: point Jacobi) or the Ritz values
   have imaginary parts beyond HJ_CHEB_IMAG of the largest real part, the weights are constant. */
#include <petschjacobi/private/pchjacobiimpl.h>

#define HJ_CHEB_IMAG  0.05                             /* |Im theta| / max Re theta beyond which the spectrum is not taken as real */
#define HJ_CHEB_WIDTH 1e-8                             /* the narrowest interval, relative to hi: distinct nodes */
#define HJ_CHEB_TAU   1.4142135623730951               /* T_m at the interval's lower end, at least (sqrt 2: 1 - p >= 1/2 for squared) */
#define HJ_CHEB_LOMIN PETSC_SQRT_MACHINE_EPSILON       /* a given lo: its weight at most 1/sqrt(eps) */
#define HJ_CHEB_HIMAX (1 / PETSC_SQRT_MACHINE_EPSILON) /* a given hi: its weight at least sqrt(eps) */

/* Chebyshev weights of [lo, hi] in Leja order into w[0..k) */
static void ChebyshevLeja(PetscInt k, PetscReal lo, PetscReal hi, PetscReal *nodes, PetscBool *taken, PetscReal *w)
{
  for (PetscInt j = 0; j < k; j++) {
    nodes[j] = (hi + lo) / 2 + (hi - lo) / 2 * PetscCosReal((2 * j + 1) * PETSC_PI / (2 * k));
    taken[j] = PETSC_FALSE;
  }
  for (PetscInt m = 0; m < k; m++) {
    PetscInt  best  = -1;
    PetscReal bestv = -PETSC_MAX_REAL;
    for (PetscInt j = 0; j < k; j++) {
      PetscReal v = 0;
      if (taken[j]) continue;
      if (m == 0) v = nodes[j]; /* the largest first */
      else
        for (PetscInt i = 0; i < m; i++) v += PetscLogReal(PetscAbsReal(nodes[j] - 1 / w[i])); /* log of the product */
      if (best < 0 || v > bestv) bestv = v, best = j;                                          /* (equal nodes give log 0 = -inf: still one is taken) */
    }
    taken[best] = PETSC_TRUE;
    w[m]        = 1 / nodes[best];
  }
}

static PetscBool IsChebyshev(PCHJacobiWeightType t)
{
  return (PetscBool)(t == PC_HJACOBI_WEIGHTS_CHEBYSHEV || t == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED);
}

/* the role: as set by code that knows it (PCHJacobiSetRole_C), else from the options prefix (PCMG names its level
   smoothers mg_levels_) */
static PetscBool IsSmoother(PC pc)
{
  const HJRole role   = ((PC_HJacobi *)pc->data)->wt.role;
  const char  *prefix = ((PetscObject)pc)->prefix;
  if (role != HJ_ROLE_UNSET) return (PetscBool)(role == HJ_ROLE_SMOOTHER);
  return (PetscBool)(prefix && strstr(prefix, "mg_levels_"));
}

/* the Chebyshev kind wanted before the estimate (or constant): asked for, or auto outside a multigrid smoother, for
   k > 1, overlap 0 and without a given omega. (With overlap > 0 the owned-core write-back leaves the proof of
   chebyshev_squared's convergence, and its Richardson iteration diverged on the 2D Poisson demo, 128^2: tile 16 and
   32, overlap 2, k 4; tile 32, overlap 4, k 6; constant weights converge there: opt in with -pc_hjacobi_weights.) */
static PCHJacobiWeightType Wanted(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  if (hj->asked.weights != PC_HJACOBI_WEIGHTS_AUTO) return hj->asked.weights;
  PetscBool overlap = PETSC_FALSE;
  for (PetscInt d = 0; d < hj->sw.layout.dim; d++) overlap = (PetscBool)(overlap || hj->sw.overlap[d] > 0); /* the grid's directions only */
  return (!IsSmoother(pc) && !(hj->asked.omega > 0) && hj->asked.k > 1 && !overlap) ? PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED : PC_HJACOBI_WEIGHTS_CONSTANT;
}

/* the degree's floor of lo (top of this file): T_m((hi + lo)/(hi - lo)) = HJ_CHEB_TAU */
static PetscReal DegreeFloor(PetscInt m, PetscReal hi)
{
  const PetscReal s = PetscCoshReal(PetscLogReal(HJ_CHEB_TAU + PetscSqrtReal(HJ_CHEB_TAU * HJ_CHEB_TAU - 1)) / m);
  return hi * (s - 1) / (s + 1);
}

/* a given end checked against what the weights represent (top of this file) */
static PetscErrorCode CheckRepresentable(PC pc, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  PetscCheck((lo == 0 || lo >= HJ_CHEB_LOMIN) && (hi == 0 || hi <= HJ_CHEB_HIMAX), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Chebyshev interval [%g, %g]: its weights 1/l (l in [lo, hi]) must lie in [%g, %g] (D^{-1}A has mean eigenvalue 1: larger weights overflow or amplify rounding, smaller ones make the preconditioner numerically zero); give %g <= lo < hi <= %g, or 0 for an end chosen at setup (-pc_hjacobi_chebyshev_interval lo,hi)", (double)lo, (double)hi, (double)(1 / HJ_CHEB_HIMAX), (double)(1 / HJ_CHEB_LOMIN), (double)HJ_CHEB_LOMIN, (double)HJ_CHEB_HIMAX);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what was asked needs: the weights' kind (want), Chebyshev weights (cheb), on an interval given whole (given), and the
   spectrum estimate (for the automatic omega, and for Chebyshev weights: their hi, or to check a given hi) */
static void Needs(PC pc, PCHJacobiWeightType *want, PetscBool *cheb, PetscBool *given, PetscBool *estimate)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  *want     = Wanted(pc);
  *cheb     = IsChebyshev(*want);
  *given    = (PetscBool)(*cheb && hj->asked.lo > 0 && hj->asked.hi > 0);
  *estimate = (PetscBool)(*cheb || !(hj->asked.omega > 0));
}

/* the first step of the sweeps' setup: the spectrum estimate where needed, then omega and k (the omega rules, or as given) */
PetscErrorCode HJWeightsChooseK(PC pc)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  HJWeights          *wt = &hj->wt;
  PCHJacobiWeightType want;
  PetscBool           cheb, given, estimate;
  PetscReal           amax = 0, imax = 0;

  PetscFunctionBegin;
  Needs(pc, &want, &cheb, &given, &estimate);
  wt->smoother = IsSmoother(pc);
  wt->bound    = 0;
  if (estimate) {
    PetscCall(HJSpectrumUpdate(pc));
    HJSpectrumExtremes(&hj->spec, &amax, &imax);
    wt->bound = PetscCeilReal(100 * HJ_SPECTRUM_SAFE * amax) / 100;
  }
  if (given) { /* the interval as given: omega unused (unless given), k as asked */
    hj->sw.k    = hj->asked.k;
    hj->omega   = hj->asked.omega > 0 ? hj->asked.omega : 1;
    hj->om.rule = hj->asked.omega > 0 ? HJ_OMEGA_GIVEN : HJ_OMEGA_UNUSED;
  } else PetscCall(HJOmegaChoose(pc, wt->smoother));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the last step: the k weights for the k and omega of HJWeightsChooseK() and the tile in use */
PetscErrorCode HJWeightsSetUp(PC pc)
{
  PC_HJacobi         *hj = (PC_HJacobi *)pc->data;
  HJWeights          *wt = &hj->wt;
  PCHJacobiWeightType want;
  PetscBool           cheb, given, estimate;
  PetscReal           hi = 0, lo = 0, amax = 0, imax = 0;
  const PetscInt      k = hj->sw.k;

  PetscFunctionBegin;
  Needs(pc, &want, &cheb, &given, &estimate);
  wt->why[0]  = 0;
  wt->lofloor = wt->hibelow = PETSC_FALSE;
  if (estimate) HJSpectrumExtremes(&hj->spec, &amax, &imax);
  if (cheb && !given && hj->om.rule == HJ_OMEGA_FALLBACK) {
    cheb = PETSC_FALSE;
    PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the spectrum estimate found no damping that contracts (see omega), so no Chebyshev interval"));
  }
  if (cheb && !(hj->asked.hi > 0)) {
    if (!(amax > 0 && imax <= HJ_CHEB_IMAG * amax)) {
      cheb = PETSC_FALSE;
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the Ritz values of D^{-1}A are not near the positive real axis (imaginary parts beyond %g of the largest real part)", (double)HJ_CHEB_IMAG));
    } else hi = wt->bound;
  } else if (cheb) {
    hi = hj->asked.hi;
    if (wt->bound > 0 && hi < wt->bound && !(imax > HJ_CHEB_IMAG * amax)) {
      wt->hibelow = PETSC_TRUE;
      PetscCall(PetscInfo(pc, "the given Chebyshev hi %g is below the spectrum estimate's bound %g (1.1 x the largest real part of the Ritz values of D^{-1}A): modes above hi grow\n", (double)hi, (double)wt->bound));
    }
  }
  if (cheb) {
    const PetscInt m = want == PC_HJACOBI_WEIGHTS_CHEBYSHEV ? k : k / 2;
    if (hj->asked.lo > 0) lo = hj->asked.lo;
    else { /* the directions with couplings on some rank (HJStencil.zerodir: none on this rank) make the model's dimension */ PetscMPIInt zl[3], zg[3];
      PetscReal                                                                                                                           c  = 0, floor;
      PetscInt                                                                                                                            nd = 0;
      for (PetscInt d = 0; d < 3; d++) zl[d] = (PetscMPIInt)(d < hj->sw.layout.dim && hj->sw.st.zerodir[d]);
      PetscCallMPI(MPI_Allreduce(zl, zg, 3, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)pc)));
      for (PetscInt d = 0; d < hj->sw.layout.dim; d++)
        if (!zg[d]) c += PetscCosReal(PETSC_PI / (PetscMin(hj->sw.tile[d], hj->sw.layout.M[d]) + 1)), nd++;
      lo    = nd ? hi / 2 * (1 - c / nd) : hi / 2;
      floor = m >= 1 ? DegreeFloor(m, hi) : 0;
      if (floor > lo) {
        PetscCall(PetscInfo(pc, "Chebyshev lo %g from the tile size raised to %g, the degree %" PetscInt_FMT "'s floor (T_m(s) = %g at lo)\n", (double)lo, (double)floor, m, (double)HJ_CHEB_TAU));
        lo          = floor;
        wt->lofloor = PETSC_TRUE;
      }
    }
    PetscCheck(lo > 0 && lo < hi && hi - lo > HJ_CHEB_WIDTH * hi, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Chebyshev interval [%g, %g] needs 0 < lo < hi and hi - lo > %g hi (-pc_hjacobi_chebyshev_interval lo,hi)", (double)lo, (double)hi, (double)HJ_CHEB_WIDTH);
  }
  PetscCall(PetscFree(wt->w));
  PetscCall(PetscMalloc1(k, &wt->w));
  hj->sw.w = wt->w;
  if (cheb) {
    PetscReal *nodes;
    PetscBool *taken;
    PetscCall(PetscMalloc2(k, &nodes, k, &taken));
    wt->used = want;
    if (wt->used == PC_HJACOBI_WEIGHTS_CHEBYSHEV) ChebyshevLeja(k, lo, hi, nodes, taken, wt->w);
    else { /* p = q^2 (times 1 - x/hi for odd k): q the Chebyshev polynomial of degree k/2 */ const PetscInt h = k / 2;
      if (h) ChebyshevLeja(h, lo, hi, nodes, taken, wt->w + (k - h));
      for (PetscInt j = 0; j < h; j++) wt->w[2 * j] = wt->w[2 * j + 1] = wt->w[k - h + j];
      if (k % 2) wt->w[k - 1] = 1 / hi;
    }
    PetscCall(PetscFree2(nodes, taken));
    wt->lo = lo;
    wt->hi = hi;
    if (!wt->why[0])
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s, lo %s, hi %s", hj->asked.weights != PC_HJACOBI_WEIGHTS_AUTO ? "as asked" : "auto: the default outside a multigrid smoother for k > 1", hj->asked.lo > 0 ? "given" : (wt->lofloor ? "the degree's floor (above the tile size's, which the degree cannot resolve)" : "from the tile size"),
                              hj->asked.hi > 0 ? (wt->hibelow ? "given, below the estimate's bound: modes above it grow" : "given") : "from the spectrum estimate"));
  } else {
    for (PetscInt j = 0; j < k; j++) wt->w[j] = hj->omega;
    wt->used = PC_HJACOBI_WEIGHTS_CONSTANT;
    wt->lo = wt->hi = 0;
    if (!wt->why[0])
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s",
                              hj->asked.weights == PC_HJACOBI_WEIGHTS_CONSTANT ? "as asked"
                                                                               : (wt->smoother ? (wt->role == HJ_ROLE_SMOOTHER ? "auto: the default of a multigrid smoother (role set)" : "auto: the default of a multigrid smoother (options prefix with mg_levels_)")
                                                                                               : (hj->asked.k == 1 ? "auto: the default for k = 1" : (hj->asked.omega > 0 ? "auto: omega was given" : "auto: the default with overlap > 0")))));
  }
  PetscCall(PetscInfo(pc, "sweep weights %s (%s) on [%g, %g], k %" PetscInt_FMT ": w_1 %g ... w_k %g\n", PCHJacobiWeightTypes[wt->used], wt->why, (double)wt->lo, (double)wt->hi, k, (double)wt->w[0], (double)wt->w[k - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJWeights  *wt = &hj->wt;

  PetscFunctionBegin;
  if (!hj->sw.w) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s%s\n", PCHJacobiWeightTypes[hj->asked.weights], hj->asked.weights == PC_HJACOBI_WEIGHTS_AUTO ? " (constant for a multigrid smoother, k = 1 or overlap > 0, chebyshev_squared elsewhere)" : ""));
  } else if (IsChebyshev(wt->used)) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s on [%g, %g] (%s): %s, %g ... %g\n", PCHJacobiWeightTypes[wt->used], (double)wt->lo, (double)wt->hi, wt->why, wt->used == PC_HJACOBI_WEIGHTS_CHEBYSHEV ? "1/(Chebyshev nodes of degree k) in Leja order" : "1/(Chebyshev nodes of degree k/2), each twice, in Leja order",
                                     (double)wt->w[0], (double)wt->w[hj->sw.k - 1]));
    if (wt->hibelow) PetscCall(PetscViewerASCIIPrintf(viewer, "    warning: the given hi %g is below the spectrum estimate's bound %g: the modes above hi grow in every cycle\n", (double)wt->hi, (double)wt->bound));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights constant, omega in every sweep (%s)\n", wt->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsReset(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(HJSpectrumReset(pc));
  PetscCall(PetscFree(hj->wt.w));
  hj->sw.w = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsCheckInterval(PC pc, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  PetscCheck(lo >= 0 && hi >= 0 && (lo == 0 || hi == 0 || (lo < hi && hi - lo > HJ_CHEB_WIDTH * hi)), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Chebyshev interval [%g, %g]: needs 0 < lo < hi (hi - lo > %g hi), or 0 (PETSC_DECIDE) for a bound chosen at setup (-pc_hjacobi_chebyshev_interval lo,hi)", (double)lo, (double)hi, (double)HJ_CHEB_WIDTH);
  PetscCall(CheckRepresentable(pc, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
