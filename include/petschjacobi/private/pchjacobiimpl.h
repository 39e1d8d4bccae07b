/* Private: the PCHJACOBI context, the extracted stencil, the grid layout and the backend contract. */
#pragma once

#include <petschjacobi.h>
#include <petsc/private/pcimpl.h>
#include <petscdmda.h>
#include <petscsf.h>

#if PETSC_VERSION_LT(3, 18, 0)
  #error "petsc-hjacobi needs PETSc 3.18 or later"
#endif
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif
#if defined(PETSC_USE_COMPLEX)
  #error "petsc-hjacobi supports real PetscScalar only"
#endif

/* The grid as hjacobi sees it: the DMDA's global sizes, the rank grid and this rank's owned box.
   Unused directions (y, z in 1D) have size 1 and no padding. Local arrays are "padded": the owned box
   plus one layer on each side of each used direction, holding ghost values (zero outside the domain).
   With dof > 1 fields per point, every array (global vectors, padded arrays, tile buffers) holds the dof values of
   a point together: index c + dof*point, as PETSc's DMDA vectors. */
#define HJ_MAX_DOF 8 /* dof > 1: point-block hierarchical Jacobi (host and CUDA backends), dof <= HJ_MAX_DOF */
typedef struct {
  PetscInt        dim;
  PetscInt        dof;      /* fields per grid point, 1 <= dof <= HJ_MAX_DOF */
  PetscInt        M[3];     /* global grid points per direction */
  PetscInt        procs[3]; /* ranks per direction */
  PetscInt       *start[3]; /* start[d][r]: first grid index owned by rank coordinate r in direction d (procs[d]+1 entries) */
  DMBoundaryType  bnd[3];
  PetscInt        xs[3], xm[3]; /* this rank's owned box */
  PetscInt        pad[3];       /* 1 in used directions, else 0 */
  PetscInt        ext[3];       /* padded extents xm + 2 pad */
  PetscInt        nlocal;       /* owned points */
  PetscInt        npadded;      /* points of the padded array */
  PetscMPIInt     rank, size;
  PetscInt       *rstart; /* rstart[r]: first global (PETSc-ordering) index owned by rank r (size+1 entries) */
} HJLayout;

/* The operator as a stencil (ALGORITHM.md "Operator"), structure of arrays over owned points, x fastest.
   dof = 1: one coefficient per offset and point. dof > 1: a dof x dof block (row-major: [c][c'] couples field c of
   the point with field c' of the neighbour) per offset and point, and the inverse of the diagonal block per point. */
typedef struct {
  PetscInt     kind;     /* hj::STAR or hj::BOX */
  PetscInt     noff;     /* off-diagonal offsets stored */
  PetscInt     dof;      /* fields per point; blocks have dof*dof entries */
  PetscBool    constant; /* every coefficient (where its neighbour is in the domain) equals ccoef[], every diagonal 1/cinvdiag (always false for dof > 1) */
  PetscScalar *coef;     /* [noff][nlocal][dof*dof], zero where the matrix has no entry */
  PetscScalar *invdiag;  /* [nlocal][dof*dof]: inverse of the diagonal block (dof = 1: 1/A[p,p]) */
  PetscBool    zerodir[3]; /* every coupling of an offset with a component along d is zero on this rank (dof = 1): the
                              rows along d are independent here, and any tiling along d gives the same result */
  PetscScalar  ccoef[26];
  PetscScalar  cinvdiag;
  void        *device;                       /* a backend's device copy of this stencil, made lazily by that backend */
  PetscErrorCode (*devicedestroy)(void **); /* frees `device`; called by HJStencilDestroy() */
} HJStencil;

/* A backend is a set of operations; setup picks one and apply never branches on it. */
typedef struct {
  const char *name;
  PetscErrorCode (*setup)(PC);   /* after the stencil was (re)extracted: allocate, upload */
  PetscErrorCode (*cycles)(PC, const HJStencil *, Vec b, Vec x, PetscInt n, PetscBool zeroguess); /* n cycles x -> x' */
  PetscErrorCode (*reset)(PC);   /* free what setup allocated */
  PetscErrorCode (*view)(PC, PetscViewer);
} HJBackendOps;

typedef struct {
  /* parameters (ALGORITHM.md) */
  PetscInt                tile[3], overlap[3], subits, cycles;
  PetscReal               omega;
  PCHJacobiBackend        backend;
  PCHJacobiInnerPrecision inner;
  PetscBool               tileset; /* the user set the tile; else it is chosen per dimension at setup */
  /* setup data */
  DM                  da;      /* reference to the DMDA the layout came from */
  HJLayout            layout;
  PetscBool           haslayout;
  HJStencil           st;      /* A */
  PetscObjectId       stid;    /* the Pmat st was extracted from, and its state then */
  PetscObjectState    ststate;
  PetscObjectState    stnzstate; /* its nonzero state then: unchanged, new values are refreshed in place */
  HJStencil           stT;     /* A^T, built at the first PCApplyTranspose */
  PetscBool           hasT;
  PetscSF             ghostsf; /* fills the ghost layer of a padded array from the owners' padded arrays; NULL if none */
  const HJBackendOps *ops;
  void               *host;    /* host backend data */
  void               *cuda;    /* CUDA backend data */
} PC_HJacobi;

PETSC_INTERN PetscLogEvent PCHJACOBI_Extract, PCHJACOBI_Cycle, PCHJACOBI_Exchange, PCHJACOBI_TileKernel, PCHJACOBI_ClassicKernel;

/* hjlayout.cxx */
PETSC_INTERN PetscErrorCode HJLayoutCreate(DM, HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutDestroy(HJLayout *);
PETSC_INTERN PetscBool      HJLayoutSame(DM, const HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutPointOfGlobal(const HJLayout *, PetscInt, PetscInt[3], PetscInt *);
PETSC_INTERN PetscErrorCode HJLayoutCreateGhostSF(MPI_Comm, const HJLayout *, PetscSF *);

/* hjstencil.cxx */
PETSC_INTERN PetscErrorCode HJStencilExtract(Mat, const HJLayout *, HJStencil *);
/* same nonzero pattern, new values: rewrites st in place with its kind (no allocation); *fits = PETSC_FALSE (st freed)
   when a nonzero appears at an offset the kind lacks on some rank: extract afresh. Collective, same checks and errors. */
PETSC_INTERN PetscErrorCode HJStencilExtractValues(Mat, const HJLayout *, HJStencil *, PetscBool *);
PETSC_INTERN PetscErrorCode HJStencilDestroy(HJStencil *);

/* backends */
PETSC_INTERN const HJBackendOps HJBackendHost;
PETSC_INTERN PetscErrorCode     HJHostCycles(PC, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN const HJBackendOps HJBackendCUDA;
#endif

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
