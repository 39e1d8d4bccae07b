/* Private: the backend contract of PCHJACOBI: the grid layout, the extracted stencil, the operations a backend fills
   (HJBackendOps) and the description of the sweeps it runs (HJSweeps), with the core services a backend calls. The
   backends (src/host/, src/cuda/) include this header and not pchjacobiimpl.h: they never see the PC's context. */
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
   the same way). The backend in use owns HJSweeps.data: its setup makes it, its reset frees it, and nothing else
   touches it. Its options outlive setup: HJSweeps.backendopts[type], made by its setfromoptions and freed at
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
  /* optional: the backend's own default tile for the stencil st (extracted), given the largest rank box mmax and the
     most sub-iterations the sweeps may run (k as asked: setup may lower it, to 1, after the tile); *set false: the
     core's (hj::DefaultTile). The CUDA backend's column kernel takes long z tiles. */
  PetscErrorCode (*defaulttile)(PC, HJStencil *st, PetscInt kmax, const long long mmax[3], long long t[3], PetscBool *set);
  /* optional: collective setup, called once every rank's setup succeeded (PCSetUp_HJacobi collects a rank's failure
     first, so no rank waits in a collective for one that stopped). The CUDA backend makes its staged exchange here. */
  PetscErrorCode (*setupall)(PC);
  /* optional: a recording of device work, replayed as one (the CUDA backend: a CUDA graph; hjmg's V-cycle,
     src/mg/graph.cxx). recordbegin(rec, record): from here to recordend the library's and PETSc's device work goes to
     a stream of the recording's (made at the first call, ordered after the work queued before), recorded and not run
     when record is true, run otherwise; recordend(rec, record, &ok): back to PETSc's stream (after the run's work),
     ok false when the recording failed (any call that cannot be recorded: a synchronization, an allocation); the
     recording replaces the previous one. replay: the last recording, run on PETSc's current stream (logging the
     recorded work's flops); forget: free it all. NULL: this backend records nothing. */
  PetscErrorCode (*recordbegin)(void **rec, PetscBool record);
  PetscErrorCode (*recordend)(void *rec, PetscBool record, PetscBool *ok);
  PetscErrorCode (*replay)(void *rec);
  PetscErrorCode (*forget)(void **rec);
} HJBackendOps;

/* What a backend runs: the one description the core resolves at every setup (PCSetUp_HJacobi: k, then the tile, then
   the weights) and hands to the backends, the first member of the PC's context (HJSweepsOf). A backend reads this and
   nothing else of the PC (it owns `data` and its `backendopts` entry); each value here is written by the core once per
   setup, or by the setter that gives it (overlap, inner, extract). Only HJStencil holds PetscScalar members, aligned
   alike by the host and CUDA compilers (HJ_SCALAR_ALIGN). */
enum {
  HJ_EXTRACT_AUTO,
  HJ_EXTRACT_HOST,
  HJ_EXTRACT_DEVICE
};
PETSC_INTERN const char *const HJExtractPlaces[];

typedef struct {
  HJLayout                layout; /* of the DMDA in use (haslayout) */
  PetscBool               haslayout;
  HJStencil               st;                                /* A, as extracted by the backend in use */
  HJStencil               stT;                               /* A^T, re-indexed from st at the first PCApplyTranspose after st changed */
  PetscSF                 ghostsf;                           /* fills the ghost layer of a padded array from the owners' padded arrays; NULL if none */
  PetscBool               ghostmade;                         /* ghostsf made for the layout (after the extraction: it depends on st's kind) */
  PetscBool               ghostfaces;                        /* ... of the layer's face points only (a star stencil reads no edge or corner) */
  PetscInt                tile[3];                           /* in use: the user's, else the default resolved at setup */
  PetscInt                overlap[3];                        /* as set (default 0) */
  PetscInt                k;                                 /* sub-iterations in use: the user's, or what the omega rules leave */
  const PetscReal        *w;                                 /* [k]: the weight of sweep j = 1..k, in the order the sweeps run */
  PCHJacobiInnerPrecision inner;                             /* as set */
  PetscBool               overlapcomm;                       /* run the tiles that read no ghost value during the exchange (grid/split.cxx) */
  PetscBool               overlapcommgiven;                  /* ... as the user set it (else the default) */
  PetscInt                extract;                           /* -pc_hjacobi_extract (testing): HJ_EXTRACT_AUTO, _HOST or _DEVICE */
  void                   *data;                              /* private data of the backend in use */
  void                   *backendopts[HJ_NUM_BACKEND_TYPES]; /* each backend's own options (HJBackendOps.setfromoptions) */
} HJSweeps;

/* the description of a PCHJACOBI (PC_HJacobi begins with it: src/pc/hjacobi/hjacobi.cxx checks) */
static inline HJSweeps *HJSweepsOf(PC pc)
{
  return (HJSweeps *)pc->data;
}

/* the tile and overlap in direction d (unused directions: the owned size, no overlap) */
static inline void HJTileOf(const HJSweeps *sw, PetscInt d, PetscInt *t, PetscInt *o)
{
  if (d < sw->layout.dim) {
    *t = sw->tile[d];
    *o = sw->overlap[d];
  } else {
    *t = 1;
    *o = 0;
  }
}

PETSC_INTERN PetscLogEvent PCHJACOBI_Estimate, PCHJACOBI_Extract, PCHJACOBI_Cycle, PCHJACOBI_Exchange, PCHJACOBI_TileKernel, PCHJACOBI_ClassicKernel, PCHJACOBI_Fallback, PCHJACOBI_Residual, HJMG_Transfer, HJMG_Graph, HJMG_Record;

/* grid/layout.cxx */
PETSC_INTERN PetscErrorCode HJLayoutCreate(DM, HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutDestroy(HJLayout *);
PETSC_INTERN PetscBool      HJLayoutSame(DM, const HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutPointOfGlobal(const HJLayout *, PetscInt, PetscInt[3], PetscInt *);
PETSC_INTERN PetscErrorCode HJLayoutCreateGhostSF(MPI_Comm, const HJLayout *, PetscBool, PetscSF *);
/* the box of this rank's points at least `shell` points from every non-periodic face (owned coordinates, [ilo, ihi),
   empty when ilo >= ihi somewhere): where a DMDA operator's rows are usually all alike. HJ_INTERIOR_SHELL covers the
   usual operators: rows within 2 points of a face may differ (Dirichlet rows, and rows that drop their couplings to
   them); the host backend first tries 1 (Dirichlet rows alone, as ex45's), which leaves fewer rows to read in full */
#define HJ_INTERIOR_SHELL 2
PETSC_INTERN void HJLayoutInteriorBox(const HJLayout *, PetscInt, long long[3], long long[3]);

/* grid/split.cxx: the tile ids of one cycle, those that read no ghost value the exchange writes first (the backends run
   them between PetscSFBcastBegin and End); halo[d]: the kernel reads a one-point halo along d */
PETSC_INTERN PetscErrorCode HJTileSplitCreate(const HJLayout *, PetscSF, const PetscInt[3], const PetscInt[3], const PetscBool[3], PetscInt *, PetscInt *, PetscInt **);

/* backend/collective.cxx: collective on comm; if `ok` is false on some rank, every rank raises that rank's code and message */
PETSC_INTERN PetscErrorCode HJCheckCollective(MPI_Comm, PetscBool, PetscErrorCode, const char *, ...);

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
/* stT (kind, noff, dof set) from the host arrays of st: allocates stT's arrays and re-indexes */
PETSC_INTERN PetscErrorCode HJStencilTransposeOnHost(const HJLayout *, const HJStencil *, HJStencil *);
