/* Private: the PCHJACOBI context (what the user asked, the spectrum, omega and weights, the backend in use) and the
   core's functions. The backend contract is hjbackend.h. */
#pragma once

#include <petschjacobi/private/hjbackend.h>

/* Three layers choose the sweeps, each calling only the ones below it (no call back up):
   the spectrum estimate (mechanism, omega/spectrum.cxx): Ritz values of D^{-1}A, kept across value-only refreshes;
   the omega rules (omega/omega.cxx): omega and k from the Ritz values, for the role the PC has;
   the weights (policy, weights/weights.cxx): which w_1..w_k (kind, omega, interval, fallback), run once per PCSetUp. */
#define HJ_SPECTRUM_STEPS 10 /* Arnoldi steps of the estimate */
typedef struct {
  PetscBool        recompute; /* estimate again whenever the Pmat's values change, not only its nonzero pattern */
  PetscBool        have, reused;
  PetscObjectId    id; /* the Pmat of the estimate, its state and nonzero state then */
  PetscObjectState state, nzstate;
  PetscInt         nritz;
  PetscReal        re[HJ_SPECTRUM_STEPS], im[HJ_SPECTRUM_STEPS];
} HJSpectrum;

/* What the PC is used as (the weights' and omega's defaults depend on it): set by code that knows (PCHJacobiSetRole_C,
   HJSetRole), else HJ_ROLE_UNSET: a multigrid smoother when the options prefix contains mg_levels_ (PCMG's name) */
typedef enum {
  HJ_ROLE_UNSET,
  HJ_ROLE_PRECONDITIONER,
  HJ_ROLE_SMOOTHER
} HJRole;

/* The damping (omega/omega.cxx): asked for, and how the last setup chose it */
typedef enum {
  HJ_OMEGA_GIVEN,    /* the user's */
  HJ_OMEGA_UNUSED,   /* Chebyshev weights on a given interval */
  HJ_OMEGA_SPECTRUM, /* every Ritz value contracts (the high frequencies evenly) */
  HJ_OMEGA_UPPER,    /* smoother on an indefinite operator: only the upper part of the spectrum contracts, k = 1 */
  HJ_OMEGA_FALLBACK  /* no damping contracts: point (block) Jacobi */
} HJOmegaRule;
typedef struct {
  HJOmegaRule rule;
  char        why[256];
} HJOmega;

/* The weights of the k sweeps (weights/weights.cxx, doc/algorithm.md "Per-sweep weights w_1..w_k"), chosen at every setup */
typedef struct {
  PCHJacobiWeightType used;     /* after setup: PC_HJACOBI_WEIGHTS_CONSTANT, _CHEBYSHEV or _CHEBYSHEV_SQUARED */
  PetscReal           lo, hi;   /* the interval in use (Chebyshev) */
  PetscReal           bound;    /* the estimate's upper bound of the spectrum (0: none made) */
  PetscBool           lofloor;  /* lo was raised to the degree's floor */
  PetscBool           hibelow;  /* a given hi below the estimate's bound */
  PetscReal          *w;        /* [k]: the weights (HJSweeps.w points here) */
  HJRole              role;     /* as set (HJ_ROLE_UNSET: from the options prefix) */
  PetscBool           smoother; /* the role found at setup */
  char                why[256];
} HJWeights;

/* What the user asked for (setters and options write here, nothing else does): a value and, where setup chooses a
   default, whether it was given. What setup makes of it is written once per setup: k, the tile and the sweeps'
   weights in HJSweeps (PCSetUp_HJacobi resolves them in that order: the omega rules may lower k, the CUDA column
   kernel's default tile depends on k, the Chebyshev interval on the tile), omega in PC_HJacobi.omega. */
typedef struct {
  PetscInt            tile[3];
  PetscBool           tileset;
  PetscInt            k; /* default 4 */
  PetscBool           kset;
  PetscReal           omega;   /* PETSC_DECIDE: chosen at setup */
  PCHJacobiWeightType weights; /* auto: by role */
  PetscReal           lo, hi;  /* the Chebyshev interval; 0: chosen at setup */
  PetscBool           overlapcomm, overlapcommset;
} HJAsked;

typedef struct {
  HJSweeps sw; /* first: what the backends see (HJSweepsOf) */
  HJAsked  asked;
  /* parameters used as asked (doc/algorithm.md "Parameters") */
  PetscInt         cycles;
  PCHJacobiBackend backend;
  /* chosen at setup */
  PetscReal  omega; /* the damping in use (see om) */
  HJSpectrum spec;
  HJOmega    om;
  HJWeights  wt;
  /* setup data */
  DM                  da;   /* reference to the DMDA the layout came from */
  PetscObjectId       stid; /* the Pmat sw.st was extracted from, and its state then */
  PetscObjectState    ststate;
  PetscObjectState    stnzstate; /* ... and its nonzero state (MatGetNonzeroState): unchanged means values-only refresh */
  const HJBackendOps *stops;     /* the backend that extracted sw.st */
  PetscBool           hasT;      /* sw.stT is A^T's (HJStencilTranspose) */
  Vec                 rT;        /* PCApplyTranspose with c > 1: the residual b - A^T x */
  const HJBackendOps *ops;
  void               *fallback;  /* the host backend's data for host vectors under a device backend (backend/backends.cxx) */
  PetscInt            nfallback; /* calls that ran there since the last reset (view) */
  /* Richardson (solve/richardson.cxx) */
  PetscInt richcheck;  /* iterations between two true-residual checks when the solving KSP tests norms */
  KSP      solving[2]; /* the KSPs between PCPreSolve and PCPostSolve (borrowed; nested at most twice) */
  PetscInt nsolving;
  /* the residual from the stencil (solve/residual.cxx): the last answer -info gave since setup (NULL: none yet) */
  const char *residualtold;
} PC_HJacobi;

/* pc/hjacobi/setters.cxx: the setters' implementations composed on the PC (add) or removed; the role, set by code that
   knows what the PC is used as (PCHJacobiSetRole_C) */
PETSC_INTERN PetscErrorCode HJSettersCompose(PC, PetscBool);
PETSC_INTERN PetscErrorCode HJSetRole(PC, HJRole);
/* solve/richardson.cxx: PCApplyRichardson, pre/postsolve and the check period's default */
PETSC_INTERN PetscErrorCode HJRichardsonInstall(PC);
/* solve/residual.cxx: "PCHJacobiResidual_C", r = b - A x from the stencil where that is exactly the Pmat (*done), else
   nothing written (*done false: the caller uses MatResidual) */
PETSC_INTERN PetscErrorCode PCHJacobiResidual_HJacobi(PC, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode PCHJacobiResidualRefusal_HJacobi(PC, const char **);

/* grid/grid.cxx: the DMDA to use (PC's, else Pmat's; errors naming the contexts that work); a Pmat that MatGetRow reads
   whole (an AIJ copy of SBAIJ, else the Pmat itself, borrowed) */
PETSC_INTERN PetscErrorCode HJFindGrid(PC, DM *);
PETSC_INTERN PetscErrorCode HJPmatReadable(Mat, Mat *);

/* extract/transpose.cxx: hj->stT from hj->st (A^T's couplings between this rank's points; where st lives: ops->transpose) */
PETSC_INTERN PetscErrorCode HJStencilTranspose(PC);
/* omega/spectrum.cxx (mechanism): the Ritz values of D^{-1}A for the current Pmat in hj->spec (estimated again only for a
   new Pmat or nonzero pattern, or new values with spec.recompute); their largest real part (at least 0) and largest
   |imaginary part|; forget them */
PETSC_INTERN PetscErrorCode HJSpectrumUpdate(PC);
PETSC_INTERN void           HJSpectrumExtremes(const HJSpectrum *, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode HJSpectrumReset(PC);
#define HJ_SPECTRUM_SAFE 1.1 /* the largest real part's inflation for an upper bound (PETSc's Chebyshev: 1.1) */

/* omega/omega.cxx (rules): omega and k in use from hj->spec (estimated) or as given, for a smoother or not; view */
PETSC_INTERN PetscErrorCode HJOmegaChoose(PC, PetscBool);
PETSC_INTERN PetscErrorCode HJOmegaView(PC, PetscViewer);

/* weights/weights.cxx (policy): the setup of omega and k (first), and of the sweeps' weights (after the tile is
   resolved: PCSetUp_HJacobi); view; reset; a Chebyshev interval checked (0: an end chosen at setup) */
PETSC_INTERN PetscErrorCode HJWeightsChooseK(PC);
PETSC_INTERN PetscErrorCode HJWeightsSetUp(PC);
PETSC_INTERN PetscErrorCode HJWeightsView(PC, PetscViewer);
PETSC_INTERN PetscErrorCode HJWeightsReset(PC);
PETSC_INTERN PetscErrorCode HJWeightsCheckInterval(PC, PetscReal, PetscReal);

/* backend/backends.cxx: the backends of this build. The backend whose vectors these are (the host backend for any type no
   other lists); the backend for the PC (-pc_hjacobi_backend, the Pmat's vectors); every backend's options read, and
   freed */
PETSC_INTERN PetscErrorCode HJBackendOfVecType(VecType, const HJBackendOps **);
/* the backend whose vectors all of v[0..n) are (NULL entries skipped), or NULL where they are of different backends */
PETSC_INTERN PetscErrorCode HJBackendOfVecs(PetscInt n, const Vec v[], const HJBackendOps **);
PETSC_INTERN PetscErrorCode HJBackendSelect(PC, const HJBackendOps **);
PETSC_INTERN PetscErrorCode HJBackendsSetFromOptions(PC, HJ_OPTION_ITEMS);
PETSC_INTERN PetscErrorCode HJBackendsDestroyOptions(PC);
/* the cycles and the transposed correction of the backend in use (hj->ops), or the host backend's for host vectors
   (counted, event PCHJACOBI_Fallback, an error with -pc_hjacobi_backend other than auto); the host data of that fallback
   dropped (after setup; with count also the count: reset); its line of -pc_view */
PETSC_INTERN PetscErrorCode HJBackendCycles(PC, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode HJBackendCorrectT(PC, const HJStencil *, Vec, Vec, PetscBool);
/* r = b - A x from st by the backend that runs on these vectors (as HJBackendCycles chooses; the host backend's on host
   vectors under a device backend with -pc_hjacobi_backend auto); *why NULL when done, else why not (nothing written) */
PETSC_INTERN PetscErrorCode HJBackendResidual(PC, const HJStencil *, Vec, Vec, Vec, const char **);
PETSC_INTERN PetscErrorCode HJBackendFallbackReset(PC, PetscBool);
PETSC_INTERN PetscErrorCode HJBackendFallbackView(PC, PetscViewer);
