/* Private: the PCHJACOBI context, the extracted stencil, the grid layout and the backend contract. */
#pragma once

#include <petschjacobi.h>
#include <petsc/private/pcimpl.h>
#include <petscdmda.h>
#include <petscsf.h>

#include <petschjacobi/compat.h>

/* The grid as hjacobi sees it: the DMDA's global sizes, the rank grid and this rank's owned box.
   Unused directions (y, z in 1D) have size 1 and no padding. Local arrays are "padded": the owned box
   plus one layer on each side of each used direction, holding ghost values (zero outside the domain).
   With dof > 1 fields per point, every array (global vectors, padded arrays, tile buffers) holds the dof values of
   a point together: index c + dof*point, as PETSc's DMDA vectors. */
#define HJ_MAX_DOF 8 /* dof > 1: point-block hierarchical Jacobi (host and CUDA backends), dof <= HJ_MAX_DOF */
typedef struct {
  PetscInt       dim;
  PetscInt       dof;      /* fields per grid point, 1 <= dof <= HJ_MAX_DOF */
  PetscInt       M[3];     /* global grid points per direction */
  PetscInt       procs[3]; /* ranks per direction */
  PetscInt      *start[3]; /* start[d][r]: first grid index owned by rank coordinate r in direction d (procs[d]+1 entries) */
  DMBoundaryType bnd[3];
  PetscInt       xs[3], xm[3]; /* this rank's owned box */
  PetscInt       pad[3];       /* 1 in used directions, else 0 */
  PetscInt       ext[3];       /* padded extents xm + 2 pad */
  PetscInt       nlocal;       /* owned points */
  PetscInt       npadded;      /* points of the padded array */
  PetscMPIInt    rank, size;
  PetscInt      *rstart; /* rstart[r]: first global (PETSc-ordering) index owned by rank r (size+1 entries) */
} HJLayout;

/* PetscScalar members of the structures that host (C++) and CUDA translation units share: complex PetscScalar is
   std::complex (alignment 8) in the former and thrust::complex (alignment 16) in the latter, so without an explicit
   alignment the two would lay out the same structure differently */
#define HJ_SCALAR_ALIGN alignas(sizeof(PetscScalar))

/* The operator as a stencil (doc/algorithm.md "Operator"), structure of arrays over owned points, x fastest.
   dof = 1: one coefficient per offset and point. dof > 1: a dof x dof block (row-major: [c][c'] couples field c of
   the point with field c' of the neighbour) per offset and point, and the inverse of the diagonal block per point. */
typedef struct {
  PetscInt                    kind;       /* hj::STAR or hj::BOX */
  PetscInt                    noff;       /* off-diagonal offsets stored */
  PetscInt                    dof;        /* fields per point; blocks have dof*dof entries */
  PetscBool                   constant;   /* every coefficient (where its neighbour is in the domain) equals ccoef[], every diagonal 1/cinvdiag (always false for dof > 1) */
  PetscScalar                *coef;       /* [noff][nlocal][dof*dof], zero where the matrix has no entry */
  PetscScalar                *invdiag;    /* [nlocal][dof*dof]: inverse of the diagonal block (dof = 1: 1/A[p,p]) */
  PetscBool                   zerodir[3]; /* every coupling of an offset with a component along d is zero on this rank (dof = 1): the
                              rows along d are independent here, and any tiling along d gives the same result */
  HJ_SCALAR_ALIGN PetscScalar ccoef[26];
  HJ_SCALAR_ALIGN PetscScalar cinvdiag;
  PetscBool                   ondevice;     /* extracted on the device: coef and invdiag are NULL until the backend that extracted it
                              copies them to the host for a host user; the planes live in `device` */
  void                       *device;       /* a backend's device copy of this stencil, made and read by that backend only */
  PetscErrorCode (*devicedestroy)(void **); /* set with `device` by that backend; called by HJStencilDropDevice() only */
} HJStencil;

/* A backend is a set of operations; setup picks one and apply never branches on it (PETSc's pbjacobi swaps pc->ops
   the same way). The backend in use owns PC_HJacobi.data: its setup makes it, its reset frees it, and nothing else
   touches it. Its options outlive setup: PC_HJacobi.backendopts[type], made by its setfromoptions and freed at
   PCDestroy. The core names no backend: src/backend/backends.cxx lists the compiled ones, chooses among them, and decides
   per call where the cycles run (a device backend's cycles and correctT see only vectors of its vectypes that are not
   bound to the CPU; other vectors run the host backend's cycles there: HJBackendCycles). Each backend fills the table
   by field name (HJBackendHost in src/host/backend.cxx, HJBackendCUDA in src/cuda/backend.cu), its functions named
   HJ<Operation>_<Backend> as PETSc's XxxSetUp_CUDA. Operations marked optional may be NULL; the core then does the
   host's part itself. */
namespace hj
{
struct TransferGrid; /* src/arith/transfer.hpp: the boxes of one stencil transfer */
} // namespace hj
#define HJ_NUM_BACKEND_TYPES 3 /* PCHJacobiBackend values: auto (unused here), host, device */
typedef struct {
  const char        *name;
  PCHJacobiBackend   type;                               /* what -pc_hjacobi_backend calls it */
  PetscBool          device;                             /* its cycles are device tile kernels: the default tile keeps within what they hold
                                  (hj::DefaultTile), single inner precision exists, the view marks the overlap default */
  MatType            densetype;                          /* optional: a one-rank dense matrix on its vectors (PCHJDENSE's inverse); NULL: MATSEQDENSE */
  const char *const *vectypes;                           /* the vector types it runs on (auto picks it for them; its cycles take their values to
                                  the device wherever they sit), NULL-terminated; NULL: every type (the host backend) */
  PetscErrorCode (*setfromoptions)(PC, HJ_OPTION_ITEMS); /* optional: its developer options, read by PCSetFromOptions in
                                                            every build that has the backend, whichever runs */
  /* fill st from the Pmat; valuesonly: the same Pmat, nonzero pattern and layout as st was extracted from, so only a
     value pass is needed (the backend falls back to a full extraction when the values need another stencil kind) */
  PetscErrorCode (*extract)(PC, Mat, HJStencil *, PetscBool valuesonly);
  PetscErrorCode (*setup)(PC);                                                                    /* after the stencil was (re)extracted: allocate, upload, choose kernels */
  PetscErrorCode (*cycles)(PC, const HJStencil *, Vec b, Vec x, PetscInt n, PetscBool zeroguess); /* n cycles x -> x' */
  PetscErrorCode (*reset)(PC);                                                                    /* free what setup allocated */
  PetscErrorCode (*view)(PC, PetscViewer);
  PetscErrorCode (*correctT)(PC, const HJStencil *AT, Vec r, Vec x, PetscBool add); /* x <- (add ? x : 0) + N^T r: one
                                 transposed cycle's correction with A^T's stencil (doc/algorithm.md, PCApplyTranspose) */
  PetscErrorCode (*transpose)(PC, const HJStencil *, HJStencil *);                  /* optional: stT (kind, noff, dof set) from st where st
                                 lives; NULL: HJStencilTransposeOnHost */
  PetscErrorCode (*stenciltohost)(HJStencil *);                                     /* optional: the host arrays (coef, invdiag) of a stencil it holds on the
                                 device (ondevice), for the host backend's cycles on host vectors; NULL: none on a device */
  /* The spectrum estimate's D^{-1} (omega/spectrum.cxx), asked of the backend whose vectors the Pmat has (HJBackendOfVecType),
     for the stencil in use wherever it lives; optional (NULL: host vectors wrapping the host arrays) */
  PetscErrorCode (*invdiag)(PC, const HJStencil *, Vec like, Vec *dinv);                   /* dof 1: a vector of like's family
                                                                                        wrapping the inverse diagonal */
  PetscErrorCode (*invdiagblocks)(PC, const HJStencil *, MatType *, const PetscScalar **); /* dof > 1: the type of a
                                 block-diagonal matrix for these vectors, and the inverse blocks where they live (COO) */
  PetscErrorCode (*fillstart)(const HJLayout *, PetscScalar *);                            /* optional: the estimate's start vector (arith/hash.hpp)
                                                                   into a device array of these vectors */
  /* optional: r = b - A x with A the stencil (dof 1), on vectors of its vectypes not bound to the CPU (the host backend:
     any host vector); r differs from b and x. Chosen per call like the cycles (HJBackendResidual); NULL: the caller uses
     MatResidual (solve/residual.cxx) */
  PetscErrorCode (*residual)(PC, const HJStencil *, Vec b, Vec x, Vec r);
  /* optional: a multigrid level's stencil transfer w = y + op(P) x (src/mg/transfer.cxx; op(P) = P or, transpose, P^T;
     y NULL, w, or another vector) on vectors of its vectypes, x the input's box (a local vector on several ranks);
     line: host scratch of the input's x range; flops logged as this backend logs them. NULL: P's product */
  PetscErrorCode (*transfer)(const hj::TransferGrid *, PetscInt dim, PetscBool transpose, Vec x, Vec y, Vec w, PetscScalar *line, PetscLogDouble flops);
  /* optional: the backend's own default tile for the stencil st (extracted), given the largest rank box mmax; *set
     false: the core's (hj::DefaultTile). The CUDA backend's column kernel takes long z tiles. */
  PetscErrorCode (*defaulttile)(PC, HJStencil *st, const long long mmax[3], long long t[3], PetscBool *set);
  /* optional: collective setup, called once every rank's setup succeeded (PCSetUp_HJacobi collects a rank's failure
     first, so no rank waits in a collective for one that stopped). The CUDA backend makes its staged exchange here. */
  PetscErrorCode (*setupall)(PC);
} HJBackendOps;

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
  PetscReal   user; /* omega the user gave, or PETSC_DECIDE: chosen at setup */
  HJOmegaRule rule;
  char        why[256];
} HJOmega;

/* The weights of the k sweeps (weights/weights.cxx, doc/algorithm.md "Per-sweep weights w_1..w_k"), chosen at every setup */
typedef struct {
  PCHJacobiWeightType type;     /* asked for (auto: by role) */
  PCHJacobiWeightType used;     /* after setup: PC_HJACOBI_WEIGHTS_CONSTANT, _CHEBYSHEV or _CHEBYSHEV_SQUARED */
  PetscReal           ulo, uhi; /* the interval the user gave; 0: chosen at setup */
  PetscReal           lo, hi;   /* the interval in use (Chebyshev) */
  PetscReal           bound;    /* the estimate's upper bound of the spectrum (0: none made) */
  PetscBool           lofloor;  /* lo was raised to the degree's floor */
  PetscBool           hibelow;  /* a given hi below the estimate's bound */
  PetscReal          *w;        /* [n]: the weight of sweep j = 1..n, in the order the sweeps run (n = k after setup) */
  PetscInt            n;
  HJRole              role;     /* as set (HJ_ROLE_UNSET: from the options prefix) */
  PetscBool           smoother; /* the role found at setup */
  char                why[256];
} HJWeights;

typedef struct {
  size_t abisize, abilast; /* sizeof(PC_HJacobi) and offsetof(PC_HJacobi, abiend) as the host compiler lays it out:
                              the CUDA backend checks that nvcc agrees (HJ_SCALAR_ALIGN) */
  /* parameters (doc/algorithm.md "Parameters") */
  PetscInt                tile[3], overlap[3], cycles;
  PetscInt                subits;      /* k in use (after setup: the one chosen, see om) */
  PetscInt                subitsasked; /* k asked for (the default or the user's): the omega rules may run fewer */
  PetscBool               subitsset;   /* k was set by the user: the omega rules keep it */
  PetscReal               omega;       /* in use (after setup: the one chosen, see om) */
  HJSpectrum              spec;
  HJOmega                 om;
  HJWeights               wt;
  PCHJacobiBackend        backend;
  PCHJacobiInnerPrecision inner;
  PetscBool               tileset;                           /* the user set the tile; else it is chosen per dimension at setup */
  void                   *backendopts[HJ_NUM_BACKEND_TYPES]; /* each backend's own options (HJBackendOps.setfromoptions) */
  /* setup data */
  DM                  da; /* reference to the DMDA the layout came from */
  HJLayout            layout;
  PetscBool           haslayout;
  HJStencil           st;   /* A */
  PetscObjectId       stid; /* the Pmat st was extracted from, and its state then */
  PetscObjectState    ststate;
  PetscObjectState    stnzstate; /* ... and its nonzero state (MatGetNonzeroState): unchanged means values-only refresh */
  const HJBackendOps *stops;     /* the backend that extracted st */
  PetscInt            extract;   /* -pc_hjacobi_extract (testing): HJ_EXTRACT_AUTO, _HOST or _DEVICE */
  HJStencil           stT;       /* A^T, re-indexed from st at the first PCApplyTranspose after st changed (HJStencilTranspose) */
  PetscBool           hasT;
  Vec                 rT;             /* PCApplyTranspose with c > 1: the residual b - A^T x */
  PetscSF             ghostsf;        /* fills the ghost layer of a padded array from the owners' padded arrays; NULL if none */
  PetscBool           overlapcomm;    /* -pc_hjacobi_overlap_comm: run the interior tiles during the exchange (grid/split.cxx) */
  PetscBool           overlapcommset; /* given by the user; else HJOverlapComm() decides */
  const HJBackendOps *ops;
  void               *data;      /* private data of the backend in use (ops) */
  void               *fallback;  /* the host backend's data for host vectors under a device backend (backend/backends.cxx) */
  PetscInt            nfallback; /* calls that ran there since the last reset (view) */
  /* Richardson (solve/richardson.cxx) */
  PetscInt richcheck;  /* iterations between two true-residual checks when the solving KSP tests norms */
  KSP      solving[2]; /* the KSPs between PCPreSolve and PCPostSolve (borrowed; nested at most twice) */
  PetscInt nsolving;
  /* the residual from the stencil (solve/residual.cxx): the last answer -info gave since setup (NULL: none yet) */
  const char *residualtold;
  char        abiend; /* last member (abilast) */
} PC_HJacobi;

enum {
  HJ_EXTRACT_AUTO,
  HJ_EXTRACT_HOST,
  HJ_EXTRACT_DEVICE
};
PETSC_INTERN const char *const HJExtractPlaces[];

PETSC_INTERN PetscLogEvent PCHJACOBI_Estimate, PCHJACOBI_Extract, PCHJACOBI_Cycle, PCHJACOBI_Exchange, PCHJACOBI_TileKernel, PCHJACOBI_ClassicKernel, PCHJACOBI_Fallback, PCHJACOBI_Residual, HJMG_Transfer;

/* grid/layout.cxx */
PETSC_INTERN PetscErrorCode HJLayoutCreate(DM, HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutDestroy(HJLayout *);
PETSC_INTERN PetscBool      HJLayoutSame(DM, const HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutPointOfGlobal(const HJLayout *, PetscInt, PetscInt[3], PetscInt *);
PETSC_INTERN PetscErrorCode HJLayoutCreateGhostSF(MPI_Comm, const HJLayout *, PetscSF *);
/* the box of this rank's points at least `shell` points from every non-periodic face (owned coordinates, [ilo, ihi),
   empty when ilo >= ihi somewhere): where a DMDA operator's rows are usually all alike. HJ_INTERIOR_SHELL covers the
   usual operators: rows within 2 points of a face may differ (Dirichlet rows, and rows that drop their couplings to
   them); the host backend first tries 1 (Dirichlet rows alone, as ex45's), which leaves fewer rows to read in full */
#define HJ_INTERIOR_SHELL 2
PETSC_INTERN void HJLayoutInteriorBox(const HJLayout *, PetscInt, long long[3], long long[3]);

/* grid/split.cxx: the tile ids of one cycle, those that read no ghost value the exchange writes first (the backends run
   them between PetscSFBcastBegin and End); halo[d]: the kernel reads a one-point halo along d */
PETSC_INTERN PetscErrorCode HJTileSplitCreate(const HJLayout *, PetscSF, const PetscInt[3], const PetscInt[3], const PetscBool[3], PetscInt *, PetscInt *, PetscInt **);

/* the setters and getters of the weights (weights/weights.cxx) and of Richardson's check (solve/richardson.cxx), composed with
   the others in PCCreate_HJacobi */
PETSC_INTERN PetscErrorCode PCHJacobiSetWeights_HJacobi(PC, PCHJacobiWeightType);
PETSC_INTERN PetscErrorCode PCHJacobiGetWeights_HJacobi(PC, PCHJacobiWeightType *);
PETSC_INTERN PetscErrorCode PCHJacobiSetChebyshevInterval_HJacobi(PC, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode PCHJacobiGetChebyshevInterval_HJacobi(PC, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode PCHJacobiGetSweepWeights_HJacobi(PC, PetscInt *, const PetscReal *[]);
PETSC_INTERN PetscErrorCode PCHJacobiSetRole_HJacobi(PC, PetscInt);
PETSC_INTERN PetscErrorCode PCHJacobiSetRichardsonCheck_HJacobi(PC, PetscInt);
PETSC_INTERN PetscErrorCode PCHJacobiGetRichardsonCheck_HJacobi(PC, PetscInt *);
/* solve/richardson.cxx: PCApplyRichardson, pre/postsolve and the check period's default (install), or nothing (remove) */
PETSC_INTERN PetscErrorCode HJRichardsonInstall(PC, PetscBool);
/* solve/residual.cxx: "PCHJacobiResidual_C", r = b - A x from the stencil where that is exactly the Pmat (*done), else
   nothing written (*done false: the caller uses MatResidual) */
PETSC_INTERN PetscErrorCode PCHJacobiResidual_HJacobi(PC, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode PCHJacobiResidualRefusal_HJacobi(PC, const char **);

/* backend/collective.cxx: collective on comm; if `ok` is false on some rank, every rank raises that rank's code and message */
PETSC_INTERN PetscErrorCode HJCheckCollective(MPI_Comm, PetscBool, PetscErrorCode, const char *, ...);

/* grid/grid.cxx: the DMDA to use (PC's, else Pmat's; errors naming the contexts that work); a Pmat that MatGetRow reads
   whole (an AIJ copy of SBAIJ, else the Pmat itself, borrowed) */
PETSC_INTERN PetscErrorCode HJFindGrid(PC, DM *);
PETSC_INTERN PetscErrorCode HJPmatReadable(Mat, Mat *);

/* extract/stencil.cxx */
PETSC_INTERN PetscErrorCode HJStencilExtract(Mat, const HJLayout *, HJStencil *);
/* same nonzero pattern, new values: rewrites st in place with its kind (no allocation); *fits = PETSC_FALSE (st freed)
   when a nonzero appears at an offset the kind lacks on some rank: extract afresh. Collective, same checks and errors. */
PETSC_INTERN PetscErrorCode HJStencilExtractValues(Mat, const HJLayout *, HJStencil *, PetscBool *);
PETSC_INTERN PetscErrorCode HJStencilDestroy(HJStencil *);
/* frees st's device copy (the one place that calls st->devicedestroy): at destroy, and when its values go stale */
PETSC_INTERN PetscErrorCode HJStencilDropDevice(HJStencil *);
PETSC_INTERN PetscErrorCode HJStencilCheckPmat(Mat, const HJLayout *);
/* dof 1, host planes: whether every point of [ilo, ihi) (HJLayoutInteriorBox) has one row; if so row[0..noff) is its
   coefficients and row[noff] its inverse diagonal (the compact form of those rows) */
PETSC_INTERN PetscBool      HJStencilInteriorRow(const HJLayout *, const HJStencil *, const long long[3], const long long[3], PetscScalar *);
PETSC_INTERN PetscErrorCode HJStencilReportBad(MPI_Comm, const HJLayout *, const PetscInt[2], const PetscInt[2], const PetscInt[4]);
/* extract/transpose.cxx: hj->stT from hj->st (A^T's couplings between this rank's points; where st lives: ops->transpose) */
PETSC_INTERN PetscErrorCode HJStencilTranspose(PC);
/* stT (kind, noff, dof set) from the host arrays of st: allocates stT's arrays and re-indexes */
PETSC_INTERN PetscErrorCode HJStencilTransposeOnHost(const HJLayout *, const HJStencil *, HJStencil *);

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

/* weights/weights.cxx (policy): the one setup of omega, k and the sweeps' weights (PCSetUp); view; reset; options; the
   setters (install) or their removal; the role (HJ_ROLE_UNSET: from the options prefix) */
PETSC_INTERN PetscErrorCode HJWeightsSetUp(PC);
PETSC_INTERN PetscErrorCode HJWeightsView(PC, PetscViewer);
PETSC_INTERN PetscErrorCode HJWeightsReset(PC);
PETSC_INTERN PetscErrorCode HJWeightsSetFromOptions(PC, HJ_OPTION_ITEMS);
PETSC_INTERN PetscErrorCode HJWeightsInstall(PC, PetscBool); /* the weights' defaults (install), or their reset (remove) */
PETSC_INTERN PetscErrorCode HJSetRole(PC, HJRole);

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

/* Whether the cycles hide the ghost exchange behind the interior tiles: as given (-pc_hjacobi_overlap_comm), else
   true on every backend (doc/design.md "Communication hidden"; the measurements behind the default: bench/TUNING.md) */
static inline PetscBool HJOverlapComm(const PC_HJacobi *hj)
{
  return hj->overlapcommset ? hj->overlapcomm : PETSC_TRUE;
}

/* the effective tile and overlap in direction d (unused directions: the owned size, no overlap) */
static inline void HJTileOf(const PC_HJacobi *hj, PetscInt d, PetscInt *t, PetscInt *o)
{
  if (d < hj->layout.dim) {
    *t = hj->tile[d];
    *o = hj->overlap[d];
  } else {
    *t = 1;
    *o = 0;
  }
}
