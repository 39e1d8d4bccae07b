/* The weights w_1..w_k of a tile's k sweeps (ALGORITHM.md, parameter w_1..w_k), chosen at every setup.

   constant:  w_j = omega (the paper; omega given or chosen from the spectrum estimate, hjomega.cxx).
   chebyshev: w_j = 1/l_j with l_j = (hi + lo)/2 + (hi - lo)/2 cos((2j - 1) pi / (2k)), the Chebyshev nodes of
              [lo, hi]. The k sweeps from zero multiply the tile's error by p(D^-1 A_TT) = prod_j (I - D^-1 A_TT / l_j),
              the scaled Chebyshev polynomial T_k((hi + lo - 2x)/(hi - lo)) / T_k((hi + lo)/(hi - lo)): of all
              polynomials of degree k with p(0) = 1 the smallest on [lo, hi], and |p| <= 1 on all of [0, hi].
   The interval. hi must bound the spectrum of D^-1 A_TT from above (a larger eigenvalue would grow by up to
   T_k(...) per cycle): the largest real part of the Ritz values of D^-1 A times the estimate's safety factor 1.1
   (hjomega.cxx; for symmetric A the eigenvalues of D^-1 A_TT interlace with those of D^-1 A, so the whole operator's
   bound holds for every tile). lo: the smallest eigenvalue of the tile operator, for which the Laplacian with the
   tile's frozen (Dirichlet) halo is the model: 1 - (1/n) sum_d cos(pi / (t_d + 1)) for hi = 2 (t_d the tile,
   at most the grid; the sum over the n directions with couplings: rows without y couplings (B2) are 1D problems),
   scaled by hi / 2. Over-estimating lo is safe (|p| <= 1 on [0, lo] too; the smallest modes are
   then reduced less), so is under-estimating it (the polynomial is flatter). Both can be given
   (-pc_hjacobi_chebyshev_interval lo,hi). Every rank computes the same weights: hi is rounded up to 0.01 (the
   estimate's sums round differently on different rank counts) and lo depends on the parameters only.
   chebyshev_squared: the k/2 nodes of [lo, hi] each twice (Leja order of the pairs), and 1/hi last for odd k: p = q^2
              (times 1 - x/hi), q the Chebyshev polynomial of degree k/2. Since T_k = 2 T_{k/2}^2 - 1, 1 - p is a positive
              multiple of chebyshev's 1 - p (odd k aside): the same preconditioner up to a scalar, so Krylov methods
              iterate alike, while p >= 0 keeps N^{-1} >= the block diagonal of A, and with overlap 0 a Richardson
              iteration with it converges where the block Jacobi iteration does (chebyshev's p dips to -1/T_k and its
              Richardson iteration diverged on the 2D Poisson demo, 64^2, tile 16, k 4 and 8, overlap 0).
   Order: Leja order (the largest node first, then each next the node that maximises the product of its distances to
   those already taken), which keeps the partial products of the factors (I - D^-1 A / l_j), and so the values of the
   intermediate sweeps, bounded; the product after all k is the same in any order.
   Where the estimate found no omega (a spectrum not near the positive real axis: omega falls back to Jacobi) or its
   Ritz values have imaginary parts beyond HJ_CHEB_IMAG of the largest real part, the weights are constant. */
#include <petschjacobi/private/pchjacobiimpl.h>

#define HJ_CHEB_IMAG  0.05 /* |Im theta| / max Re theta beyond which the spectrum is not taken as real */
#define HJ_CHEB_WIDTH 1e-8 /* the narrowest interval, relative to hi: distinct nodes */

/* Chebyshev weights of [lo, hi] in Leja order into w[0..k) */
static void ChebyshevLeja(PetscInt k, PetscReal lo, PetscReal hi, PetscReal *nodes, PetscBool *taken, PetscReal *w)
{
  for (PetscInt j = 0; j < k; j++) {
    nodes[j] = (hi + lo) / 2 + (hi - lo) / 2 * PetscCosReal((2 * j + 1) * PETSC_PI / (2 * k));
    taken[j] = PETSC_FALSE;
  }
  for (PetscInt m = 0; m < k; m++) {
    PetscInt  best = -1;
    PetscReal bestv = -PETSC_MAX_REAL;
    for (PetscInt j = 0; j < k; j++) {
      PetscReal v = 0;
      if (taken[j]) continue;
      if (m == 0) v = nodes[j]; /* the largest first */
      else
        for (PetscInt i = 0; i < m; i++) v += PetscLogReal(PetscAbsReal(nodes[j] - 1 / w[i])); /* log of the product */
      if (best < 0 || v > bestv) bestv = v, best = j; /* (equal nodes give log 0 = -inf: still one is taken) */
    }
    taken[best] = PETSC_TRUE;
    w[m]        = 1 / nodes[best];
  }
}

static PetscBool IsChebyshev(PCHJacobiWeights t)
{
  return (PetscBool)(t == PC_HJACOBI_WEIGHTS_CHEBYSHEV || t == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED);
}

static PetscBool IsSmoother(PC pc)
{
  const char *prefix = ((PetscObject)pc)->prefix;
  return (PetscBool)(prefix && strstr(prefix, "mg_levels_"));
}

/* the Chebyshev kind wanted before the estimate (or constant): asked for, or auto outside a multigrid smoother, for
   k > 1, overlap 0 and without a given omega. (With overlap > 0 the owned-core write-back leaves the proof of
   chebyshev_squared's convergence, and its Richardson iteration diverged on the 2D Poisson demo, 128^2: tile 16 and
   32, overlap 2, k 4; tile 32, overlap 4, k 6; constant weights converge there: opt in with -pc_hjacobi_weights.) */
static PCHJacobiWeights Wanted(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  if (hj->wt.type != PC_HJACOBI_WEIGHTS_AUTO) return hj->wt.type;
  PetscBool overlap = PETSC_FALSE;
  for (PetscInt d = 0; d < hj->layout.dim; d++) overlap = (PetscBool)(overlap || hj->overlap[d] > 0); /* the grid's directions only */
  return (!IsSmoother(pc) && !(hj->om.user > 0) && hj->om.subits > 1 && !overlap) ? PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED : PC_HJACOBI_WEIGHTS_CONSTANT;
}
static PetscBool WantChebyshev(PC pc)
{
  return IsChebyshev(Wanted(pc));
}

PetscBool HJWeightsNeedEstimate(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  return (PetscBool)(WantChebyshev(pc) ? !(hj->wt.uhi > 0) : !(hj->om.user > 0));
}

PetscErrorCode HJWeightsSetUp(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJWeights  *wt = &hj->wt;
  const PetscInt k = hj->subits;
  PetscBool   cheb = WantChebyshev(pc);
  PetscReal   hi = 0, lo = 0;

  PetscFunctionBegin;
  wt->smoother = IsSmoother(pc);
  wt->why[0]   = 0;
  if (cheb && hj->om.fallback) {
    cheb = PETSC_FALSE;
    PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the spectrum estimate found no damping that contracts (see omega), so no Chebyshev interval"));
  }
  if (cheb) {
    if (wt->uhi > 0) hi = wt->uhi;
    else {
      PetscBool ok;
      PetscCall(HJOmegaUpperBound(pc, HJ_CHEB_IMAG, &hi, &ok));
      if (!ok) {
        cheb = PETSC_FALSE;
        PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "constant: the Ritz values of D^{-1}A are not near the positive real axis (imaginary parts beyond %g of the largest real part)", (double)HJ_CHEB_IMAG));
      } else hi = PetscCeilReal(100 * hi) / 100;
    }
  }
  if (cheb) {
    if (wt->ulo > 0) lo = wt->ulo;
    else { /* the directions with couplings on some rank (HJStencil.zerodir: none on this rank) make the model's dimension */
      PetscMPIInt zl[3], zg[3];
      PetscReal   c = 0;
      PetscInt    nd = 0;
      for (PetscInt d = 0; d < 3; d++) zl[d] = (PetscMPIInt)(d < hj->layout.dim && hj->st.zerodir[d]);
      PetscCallMPI(MPI_Allreduce(zl, zg, 3, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)pc)));
      for (PetscInt d = 0; d < hj->layout.dim; d++)
        if (!zg[d]) c += PetscCosReal(PETSC_PI / (PetscMin(hj->tile[d], hj->layout.M[d]) + 1)), nd++;
      lo = nd ? hi / 2 * (1 - c / nd) : hi / 2;
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
    wt->used = Wanted(pc);
    if (wt->used == PC_HJACOBI_WEIGHTS_CHEBYSHEV) ChebyshevLeja(k, lo, hi, nodes, taken, wt->w);
    else { /* p = q^2 (times 1 - x/hi for odd k): q the Chebyshev polynomial of degree k/2 */
      const PetscInt h = k / 2;
      if (h) ChebyshevLeja(h, lo, hi, nodes, taken, wt->w + (k - h));
      for (PetscInt j = 0; j < h; j++) wt->w[2 * j] = wt->w[2 * j + 1] = wt->w[k - h + j];
      if (k % 2) wt->w[k - 1] = 1 / hi;
    }
    PetscCall(PetscFree2(nodes, taken));
    wt->lo   = lo;
    wt->hi   = hi;
    if (!wt->why[0])
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s, lo %s, hi %s", wt->type != PC_HJACOBI_WEIGHTS_AUTO ? "as asked" : "auto: the default outside a multigrid smoother for k > 1", wt->ulo > 0 ? "given" : "from the tile size", wt->uhi > 0 ? "given" : "from the spectrum estimate"));
  } else {
    for (PetscInt j = 0; j < k; j++) wt->w[j] = hj->omega;
    wt->used = PC_HJACOBI_WEIGHTS_CONSTANT;
    wt->lo = wt->hi = 0;
    if (!wt->why[0])
      PetscCall(PetscSNPrintf(wt->why, sizeof(wt->why), "%s", wt->type == PC_HJACOBI_WEIGHTS_CONSTANT ? "as asked" : (wt->smoother ? "auto: the default of a multigrid smoother (options prefix with mg_levels_)" : (hj->subits == 1 ? "auto: the default for k = 1" : (hj->om.user > 0 ? "auto: omega was given" : "auto: the default with overlap > 0")))));
  }
  PetscCall(PetscInfo(pc, "sweep weights %s (%s) on [%g, %g], k %" PetscInt_FMT ": w_1 %g ... w_k %g\n", PCHJacobiWeightsTypes[wt->used], wt->why, (double)wt->lo, (double)wt->hi, k, (double)wt->w[0], (double)wt->w[k - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsView(PC pc, PetscViewer viewer)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  HJWeights  *wt = &hj->wt;

  PetscFunctionBegin;
  if (!wt->n) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s%s\n", PCHJacobiWeightsTypes[wt->type], wt->type == PC_HJACOBI_WEIGHTS_AUTO ? " (constant for a multigrid smoother, k = 1 or overlap > 0, chebyshev_squared elsewhere)" : ""));
  } else if (IsChebyshev(wt->used)) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights %s on [%g, %g] (%s): %s, %g ... %g\n", PCHJacobiWeightsTypes[wt->used], (double)wt->lo, (double)wt->hi, wt->why, wt->used == PC_HJACOBI_WEIGHTS_CHEBYSHEV ? "1/(Chebyshev nodes of degree k) in Leja order" : "1/(Chebyshev nodes of degree k/2), each twice, in Leja order", (double)wt->w[0], (double)wt->w[wt->n - 1]));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  sweep weights constant, omega in every sweep (%s)\n", wt->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsDestroy(PC pc)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscFree(hj->wt.w));
  hj->wt.n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------ options, setters and getters ------------------------------ */
PetscErrorCode HJWeightsSetFromOptions(PC pc, HJ_OPTION_ITEMS)
{
  PC_HJacobi      *hj = (PC_HJacobi *)pc->data;
  PCHJacobiWeights type = hj->wt.type;
  PetscReal        iv[3] = {hj->wt.ulo, hj->wt.uhi, 0};
  PetscInt         n = 3; /* room for a third value, refused below */
  PetscBool        flg, given;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-pc_hjacobi_weights", "Weights of the k sweeps: constant (omega in every sweep), chebyshev (1/Chebyshev nodes of [lo, hi], degree k), chebyshev_squared (degree k/2, squared), auto (constant for a multigrid smoother, k = 1 or overlap > 0, else chebyshev_squared)", "PCHJacobiSetWeights", PCHJacobiWeightsTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
  if (flg) PetscCall(PCHJacobiSetWeights(pc, type));
  PetscCall(PetscOptionsRealArray("-pc_hjacobi_chebyshev_interval", "Interval lo,hi of the Chebyshev weights (0 < lo < hi; 0: chosen at setup, lo from the tile size, hi from the spectrum estimate)", "PCHJacobiSetChebyshevInterval", iv, &n, &flg));
  PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_hjacobi_chebyshev_interval", &given));
  if (flg || given) { /* PETSc reports an option given without values as not set, with n = 0 */
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_hjacobi_chebyshev_interval needs two numbers lo,hi (0 for one chosen at setup); got %" PetscInt_FMT, n);
    PetscCall(PCHJacobiSetChebyshevInterval(pc, iv[0], iv[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetWeights_HJacobi(PC pc, PCHJacobiWeights type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(type >= PC_HJACOBI_WEIGHTS_AUTO && type <= PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCHJacobiWeights %d (-pc_hjacobi_weights auto, constant, chebyshev or chebyshev_squared)", (int)type);
  if (type != hj->wt.type) pc->setupcalled = 0; /* the backends' plans hold the weights */
  hj->wt.type = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetWeights_HJacobi(PC pc, PCHJacobiWeights *type)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  *type = hj->wt.n ? hj->wt.used : hj->wt.type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiSetChebyshevInterval_HJacobi(PC pc, PetscReal lo, PetscReal hi)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (lo == (PetscReal)PETSC_DECIDE || lo == (PetscReal)PETSC_DEFAULT) lo = 0;
  if (hi == (PetscReal)PETSC_DECIDE || hi == (PetscReal)PETSC_DEFAULT) hi = 0;
  PetscCheck(lo >= 0 && hi >= 0 && (lo == 0 || hi == 0 || (lo < hi && hi - lo > HJ_CHEB_WIDTH * hi)), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI Chebyshev interval [%g, %g]: needs 0 < lo < hi (hi - lo > %g hi), or 0 (PETSC_DECIDE) for a bound chosen at setup (-pc_hjacobi_chebyshev_interval lo,hi)", (double)lo, (double)hi, (double)HJ_CHEB_WIDTH);
  if (lo != hj->wt.ulo || hi != hj->wt.uhi) pc->setupcalled = 0;
  hj->wt.ulo = lo;
  hj->wt.uhi = hi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetChebyshevInterval_HJacobi(PC pc, PetscReal *lo, PetscReal *hi)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;
  const PetscBool inuse = (PetscBool)(hj->wt.n && IsChebyshev(hj->wt.used));

  PetscFunctionBegin;
  if (lo) *lo = inuse ? hj->wt.lo : (hj->wt.ulo > 0 ? hj->wt.ulo : (PetscReal)PETSC_DECIDE);
  if (hi) *hi = inuse ? hj->wt.hi : (hj->wt.uhi > 0 ? hj->wt.uhi : (PetscReal)PETSC_DECIDE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCHJacobiGetSweepWeights_HJacobi(PC pc, PetscInt *k, const PetscReal *w[])
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(hj->wt.n, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "PCHJacobiGetSweepWeights() needs PCSetUp() first: the weights are chosen there");
  if (k) *k = hj->wt.n;
  if (w) *w = hj->wt.w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJWeightsInstall(PC pc, PetscBool install)
{
  PC_HJacobi *hj = (PC_HJacobi *)pc->data;

  PetscFunctionBegin;
  if (install) {
    hj->wt.type = PC_HJACOBI_WEIGHTS_AUTO;
    hj->wt.ulo = hj->wt.uhi = 0;
  } else PetscCall(HJWeightsDestroy(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetWeights_C", install ? PCHJacobiSetWeights_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetWeights_C", install ? PCHJacobiGetWeights_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiSetChebyshevInterval_C", install ? PCHJacobiSetChebyshevInterval_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetChebyshevInterval_C", install ? PCHJacobiGetChebyshevInterval_HJacobi : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiGetSweepWeights_C", install ? PCHJacobiGetSweepWeights_HJacobi : NULL));
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
PetscErrorCode PCHJacobiSetWeights(PC pc, PCHJacobiWeights type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscTryMethod(pc, "PCHJacobiSetWeights_C", (PC, PCHJacobiWeights), (pc, type));
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
PetscErrorCode PCHJacobiGetWeights(PC pc, PCHJacobiWeights *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCHJacobiGetWeights_C", (PC, PCHJacobiWeights *), (pc, type));
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
  both ends, setup makes no spectrum estimate. The estimated hi is reused, as omega is, while the Pmat keeps its
  nonzero pattern: when new values can raise the largest eigenvalue, use `PCHJacobiSetOmegaRecompute()` (a polynomial
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
