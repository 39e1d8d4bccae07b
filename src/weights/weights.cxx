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
  if (hj->wt.type != PC_HJACOBI_WEIGHTS_AUTO) return hj->wt.type;
  PetscBool overlap = PETSC_FALSE;
  for (PetscInt d = 0; d < hj->layout.dim; d++) overlap = (PetscBool)(overlap || hj->overlap[d] > 0); /* the grid's directions only */
  return (!IsSmoother(pc) && !(hj->om.user > 0) && hj->subitsasked > 1 && !overlap) ? PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED : PC_HJACOBI_WEIGHTS_CONSTANT;
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

PetscErrorCode HJWeightsSetUp(PC pc)
{
  PC_HJacobi         *hj   = (PC_HJacobi *)pc->data;
  HJWeights          *wt   = &hj->wt;
  PCHJacobiWeightType want = Wanted(pc);
  PetscBool           cheb = IsChebyshev(want), given = (PetscBool)(cheb && wt->ulo > 0 && wt->uhi > 0);
  PetscReal           hi = 0, lo = 0, amax = 0, imax = 0;
  PetscInt            k;

  PetscFunctionBegin;
  wt->smoother = IsSmoother(pc);
  wt->why[0]   = 0;
  wt->bound    = 0;
  wt->lofloor = wt->hibelow = PETSC_FALSE;
  /* the estimate: for the automatic omega, and for Chebyshev weights (their hi, or to check a given hi) */
  if (cheb || !(hj->om.user > 0)) {
    PetscCall(HJSpectrumUpdate(pc));
    HJSpectrumExtremes(&hj->spec, &amax, &imax);
    wt->bound = PetscCeilReal(100 * HJ_SPECTRUM_SAFE * amax) / 100;
  }
  if (given) { /* the interval as given: omega unused (unless given), k as asked */
    hj->subits  = hj->subitsasked;
    hj->omega   = hj->om.user > 0 ? hj->om.user : 1;
    hj->om.rule = hj->om.user > 0 ? HJ_OMEGA_GIVEN : HJ_OMEGA_UNUSED;
  } else PetscCall(HJOmegaChoose(pc, wt->smoother));
  k = hj->subits;
  if (cheb && !given && hj->om.rule == HJ_OMEGA_FALLBACK) {
    cheb = PETSC_FALSE;
    PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the spectrum estimate found no damping that contracts (see omega), so no Chebyshev interval"));
  }
  if (cheb && !(wt->uhi > 0)) {
    if (!(amax > 0 && imax <= HJ_CHEB_IMAG * amax)) {
      cheb = PETSC_FALSE;
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the Ritz values of D^{-1}A are not near the positive real axis (imaginary parts beyond %g of the largest real part)", (double)HJ_CHEB_IMAG));
    } else hi = wt->bound;
  } else if (cheb) {
    hi = wt->uhi;
    if (wt->bound > 0 && hi < wt->bound && !(imax > HJ_CHEB_IMAG * amax)) {
      wt->hibelow = PETSC_TRUE;
      PetscCall(PetscInfo(pc, "the given Chebyshev hi %g is below the spectrum estimate's bound %g (1.1 x the largest real part of the Ritz values of D^{-1}A): modes above hi grow\n", (double)hi, (double)wt->bound));
    }
  }
  if (cheb) {
    const PetscInt m = want == PC_HJACOBI_WEIGHTS_CHEBYSHEV ? k : k / 2;
    if (wt->ulo > 0) lo = wt->ulo;
    else { /* the directions with couplings on some rank (HJStencil.zerodir: none on this rank) make the model's dimension */ PetscMPIInt zl[3], zg[3];
      PetscReal                                                                                                                           c  = 0, floor;
      PetscInt                                                                                                                            nd = 0;
      for (PetscInt d = 0; d < 3; d++) zl[d] = (PetscMPIInt)(d < hj->layout.dim && hj->st.zerodir[d]);
      PetscCallMPI(MPI_Allreduce(zl, zg, 3, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)pc)));
      for (PetscInt d = 0; d < hj->layout.dim; d++)
        if (!zg[d]) c += PetscCosReal(PETSC_PI / (PetscMin(hj->tile[d], hj->layout.M[d]) + 1)), nd++;
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
  wt->n = k;
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
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s, lo %s, hi %s", wt->type != PC_HJACOBI_WEIGHTS_AUTO ? "as asked" : "auto: the default outside a multigrid smoother for k > 1", wt->ulo > 0 ? "given" : (wt->lofloor ? "the degree's floor (above the tile size's, which the degree cannot resolve)" : "from the tile size"), wt->uhi > 0 ? (wt->hibelow ? "given, below the estimate's bound: modes above it grow" : "given") : "from the spectrum estimate"));
  } else {
    for (PetscInt j = 0; j < k; j++) wt->w[j] = hj->omega;
    wt->used = PC_HJACOBI_WEIGHTS_CONSTANT;
    wt->lo = wt->hi = 0;
    if (!wt->why[0])
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s", wt->type == PC_HJACOBI_WEIGHTS_CONSTANT ? "as asked" : (wt->smoother ? (wt->role == HJ_ROLE_SMOOTHER ? "auto: the default of a multigrid smoother (role set)" : "auto: the default of a multigrid smoother (options prefix with mg_levels_)") : (hj->subitsasked == 1 ? "auto: the default for k = 1" : (hj->om.user > 0 ? "auto: omega was given" : "auto: the default with overlap > 0")))));
  }
  PetscCall(PetscInfo(pc, "sweep weights %s (%s) on [%g, %g], k %" PetscInt_FMT ": w_1 %g ... w_k %g\n", PCHJacobiWeightTypes[wt->used], wt->why, (double)wt->lo, (double)wt->hi, k, (double)wt->w[0], (double)wt->w[k - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJWeights  *wt = &hj->wt;

  PetscFunctionBegin;
  if (!wt->n) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s%s\n", PCHJacobiWeightTypes[wt->type], wt->type == PC_HJACOBI_WEIGHTS_AUTO ? " (constant for a multigrid smoother, k = 1 or overlap > 0, chebyshev_squared elsewhere)" : ""));
  } else if (IsChebyshev(wt->used)) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s on [%g, %g] (%s): %s, %g ... %g\n", PCHJacobiWeightTypes[wt->used], (double)wt->lo, (double)wt->hi, wt->why, wt->used == PC_HJACOBI_WEIGHTS_CHEBYSHEV ? "1/(Chebyshev nodes of degree k) in Leja order" : "1/(Chebyshev nodes of degree k/2), each twice, in Leja order",
                                     (double)wt->w[0], (double)wt->w[wt->n - 1]));
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
  hj->wt.n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------ options, setters and getters ------------------------------ */
PetscErrorCode HJWeightsSetFromOptions(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJacobi         *hj    = (PC_HJacobi *)pc->data;
  PCHJacobiWeightType type  = hj->wt.type;
  PetscReal           iv[3] = {hj->wt.ulo, hj->wt.uhi, 0};
  PetscInt            n     = 3; /* room for a third value, refused below */
  PetscBool           flg, given;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-pc_hjacobi_weights", "Weights of the k sweeps: constant (omega in every sweep), chebyshev (1/Chebyshev nodes of [lo, hi], degree k), chebyshev_squared (degree k/2, squared), auto (constant for a multigrid smoother, k = 1 or overlap > 0, else chebyshev_squared)", "PCHJacobiSetWeights", PCHJacobiWeightTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
  if (flg) PetscCall(PCHJacobiSetWeights(pc, type));
  PetscCall(PetscOptionsRealArray("-pc_hjacobi_chebyshev_interval", "Interval lo,hi of the Chebyshev weights (0 < lo < hi; 0: chosen at setup, lo from the tile size, hi from the spectrum estimate)", "PCHJacobiSetChebyshevInterval", iv, &n, &flg));
  PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_chebyshev_interval", &given));
  if (flg || given) { /* PETSc reports an option given without values as not set, with n = 0 */
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_chebyshev_interval needs two numbers lo,hi (0 for one chosen at setup); got %" PetscInt_FMT, n);
    PetscCall(PCHJacobiSetChebyshevInterval(pc, iv[0], iv[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCHJacobiSetWeights_HJacobi(PC pc, PCHJacobiWeightType type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(type >= PC_HJACOBI_WEIGHTS_AUTO && type <= PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJacobiWeightType %d (-pc_hjacobi_weights auto, constant, chebyshev or chebyshev_squared)", (int)type);
  if (type != hj->wt.type) pc->setupcalled = 0; /* the backends' plans hold the weights */
  hj->wt.type = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCHJacobiGetWeights_HJacobi(PC pc, PCHJacobiWeightType *type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  *type = hj->wt.n ? hj->wt.used : hj->wt.type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCHJacobiSetChebyshevInterval_HJacobi(PC pc, PetscReal lo, PetscReal hi)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (lo == (PetscReal)PETSC_DECIDE || lo == (PetscReal)PETSC_DEFAULT) lo = 0;
  if (hi == (PetscReal)PETSC_DECIDE || hi == (PetscReal)PETSC_DEFAULT) hi = 0;
  PetscCheck(lo >= 0 && hi >= 0 && (lo == 0 || hi == 0 || (lo < hi && hi - lo > HJ_CHEB_WIDTH * hi)), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Chebyshev interval [%g, %g]: needs 0 < lo < hi (hi - lo > %g hi), or 0 (PETSC_DECIDE) for a bound chosen at setup (-pc_hjacobi_chebyshev_interval lo,hi)", (double)lo, (double)hi, (double)HJ_CHEB_WIDTH);
  PetscCall(CheckRepresentable(pc, lo, hi));
  if (lo != hj->wt.ulo || hi != hj->wt.uhi) pc->setupcalled = 0;
  hj->wt.ulo = lo;
  hj->wt.uhi = hi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCHJacobiGetChebyshevInterval_HJacobi(PC pc, PetscReal *lo, PetscReal *hi)
{
  PC_HJacobi     *hj    = (PC_HJacobi *)pc->data;
  const PetscBool inuse = (PetscBool)(hj->wt.n && IsChebyshev(hj->wt.used));

  PetscFunctionBegin;
  if (lo) *lo = inuse ? hj->wt.lo : (hj->wt.ulo > 0 ? hj->wt.ulo : (PetscReal)PETSC_DECIDE);
  if (hi) *hi = inuse ? hj->wt.hi : (hj->wt.uhi > 0 ? hj->wt.uhi : (PetscReal)PETSC_DECIDE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCHJacobiGetSweepWeights_HJacobi(PC pc, PetscInt *k, const PetscReal *w[])
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(hj->wt.n, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCHJacobiGetSweepWeights() needs PCSetUp() first: the weights are chosen there");
  if (k) *k = hj->wt.n;
  if (w) *w = hj->wt.w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the role, set by code that knows what the PC is used as (HJ_ROLE_UNSET: from the options prefix) */
PetscErrorCode PCHJacobiSetRole_HJacobi(PC pc, PetscInt role)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(role >= HJ_ROLE_UNSET && role <= HJ_ROLE_SMOOTHER, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJACOBI role %" PetscInt_FMT, role);
  if ((HJRole)role != hj->wt.role) pc->setupcalled = 0;
  hj->wt.role = (HJRole)role;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJSetRole(PC pc, HJRole role)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCHJacobiSetRole_C", (PC, PetscInt), (pc, (PetscInt)role));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsInstall(PC pc, PetscBool install)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (install) {
    hj->wt.type = PC_HJACOBI_WEIGHTS_AUTO;
    hj->wt.ulo = hj->wt.uhi = 0;
    hj->wt.role             = HJ_ROLE_UNSET;
  } else PetscCall(HJWeightsReset(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetWeights - Sets how the weights w_1..w_k of a tile's k sweeps are chosen

  Logically Collective

  Input Parameters:
+ pc   - the `PCHJACOBI` preconditioner
- type - `PC_HJACOBI_WEIGHTS_AUTO` (the default), `PC_HJACOBI_WEIGHTS_CONSTANT`, `PC_HJACOBI_WEIGHTS_CHEBYSHEV` or
         `PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED`

  Options Database Key:
. -pc_hjacobi_weights <auto,constant,chebyshev,chebyshev_squared> - the weights

  Level: intermediate

  Notes:
  Sweep j of a tile is y <- y + w_j D^{-1}(b - A y). constant: w_j = omega (`PCHJacobiSetOmega()`; the paper's
  method). chebyshev: w_j = 1/l_j, l_j the k Chebyshev nodes of an interval [lo, hi] (`PCHJacobiSetChebyshevInterval()`;
  by default hi from the spectrum estimate of D^{-1}A that the automatic omega makes, and lo from the tile size), taken
  in Leja order; the k sweeps are then the Chebyshev polynomial of degree k of the tile's operator, which solves each
  tile far better than k equal sweeps at the same cost. chebyshev_squared: each of the k/2 Chebyshev nodes twice
  (1/hi last for odd k): the square of the Chebyshev polynomial of degree k/2, never negative; the same preconditioner
  as chebyshev up to a positive scalar (CG and GMRES iterate alike), and with overlap 0 a Richardson iteration that
  converges where block Jacobi does, where chebyshev's may diverge. The weights are chosen once per `PCSetUp()`.
  auto: constant for a multigrid smoother (a `PCMG` level: the PC's options prefix contains mg_levels_), where the
  high frequencies must be damped evenly and k is small, for k = 1, and for overlap > 0 (whose Richardson iteration
  with Chebyshev weights diverged in some measured cases); chebyshev_squared elsewhere (`PCApply()` in a
  Krylov method, `-ksp_type richardson -pc_type hjacobi`); constant also when the omega was given, or when the
  spectrum estimate finds no damping that contracts or Ritz values off the real axis (`-pc_view` and `-info` say which
  and why).
  The properties of the method hold with either: k = 1 is one Jacobi sweep damped by w_1, overlap 0 gives a symmetric
  positive definite preconditioner for SPD A (hi bounds the spectrum from above, so every factor stays below 1), and
  `PCApplyTranspose()` is exact. A given omega does not change Chebyshev weights (it is still the damping of constant
  weights, e.g. of k = 1, and what `PCHJacobiGetOmega()` returns).

.seealso: `PCHJACOBI`, `PCHJacobiGetWeights()`, `PCHJacobiSetChebyshevInterval()`, `PCHJacobiGetSweepWeights()`, `PCHJacobiSetOmega()`
@*/
PetscErrorCode PCHJacobiSetWeights(PC pc, PCHJacobiWeightType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscTryMethod(pc, "PCHJacobiSetWeights_C", (PC, PCHJacobiWeightType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetWeights - Gets the weights of the sweeps: after `PCSetUp()` the ones in use (constant or Chebyshev),
  before it the ones asked for

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameter:
. type - the weights

  Level: intermediate

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`
@*/
PetscErrorCode PCHJacobiGetWeights(PC pc, PCHJacobiWeightType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetWeights_C", (PC, PCHJacobiWeightType *), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiSetChebyshevInterval - Sets the interval [lo, hi] whose Chebyshev nodes give the sweeps' weights

  Logically Collective

  Input Parameters:
+ pc - the `PCHJACOBI` preconditioner
. lo - lower end, > 0, or `PETSC_DECIDE` (the default): the smallest eigenvalue of a tile's D^{-1}A_TT for a Laplacian
       with the tile's frozen halo, 1 - (1/dim) sum_d cos(pi/(t_d + 1)), scaled by hi/2
- hi - upper end, > lo, or `PETSC_DECIDE` (the default): 1.1 times the largest real part of the Ritz values of D^{-1}A
       (the spectrum estimate of the automatic omega), rounded up to 0.01

  Options Database Key:
. -pc_hjacobi_chebyshev_interval <lo,hi> - the interval (0 for an end chosen at setup)

  Level: advanced

  Notes:
  hi must be at least the largest eigenvalue of D^{-1}A_TT: a larger one would grow in every cycle. lo may be larger or
  smaller than the smallest: the polynomial stays within [-1, 1] on all of [0, hi]; lo near the tile's smallest
  eigenvalue solves tiles best. Used by `PC_HJACOBI_WEIGHTS_CHEBYSHEV` (and auto where it chooses Chebyshev); given
  both ends, setup still estimates the spectrum to check hi: a hi below the estimate's bound is taken and said
  (`-pc_view`, `-info`). The ends must satisfy 1.5e-8 <= lo < hi <= 6.7e7 (weights within 1/sqrt(eps) of 1). The
  estimated hi is reused, as omega is, while the Pmat keeps its nonzero pattern: when new values can raise the largest eigenvalue, use `PCHJacobiSetOmegaRecompute()` (a polynomial
  of degree k grows faster above hi than k equal sweeps do).

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`, `PCHJacobiGetChebyshevInterval()`
@*/
PetscErrorCode PCHJacobiSetChebyshevInterval(PC pc, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, lo, 2);
  PetscValidLogicalCollectiveReal(pc, hi, 3);
  PetscTryMethod(pc, "PCHJacobiSetChebyshevInterval_C", (PC, PetscReal, PetscReal), (pc, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCHJacobiGetChebyshevInterval - Gets the Chebyshev interval: after `PCSetUp()` with Chebyshev weights the one in use,
  else the one given (`PETSC_DECIDE` for an end chosen at setup)

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner

  Output Parameters:
+ lo - lower end (or `NULL`)
- hi - upper end (or `NULL`)

  Level: advanced

.seealso: `PCHJACOBI`, `PCHJacobiSetChebyshevInterval()`
@*/
PetscErrorCode PCHJacobiGetChebyshevInterval(PC pc, PetscReal *lo, PetscReal *hi)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetChebyshevInterval_C", (PC, PetscReal *, PetscReal *), (pc, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PCHJacobiGetSweepWeights - Gets the weights w_1..w_k of the k sweeps in use, in the order the sweeps run

  Not Collective

  Input Parameter:
. pc - the `PCHJACOBI` preconditioner, set up

  Output Parameters:
+ k - the number of sweeps (or `NULL`)
- w - the weights, owned by the PC and valid until its next setup (or `NULL`)

  Level: developer

.seealso: `PCHJACOBI`, `PCHJacobiSetWeights()`
@*/
PetscErrorCode PCHJacobiGetSweepWeights(PC pc, PetscInt *k, const PetscReal *w[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetSweepWeights_C", (PC, PetscInt *, const PetscReal **), (pc, k, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
