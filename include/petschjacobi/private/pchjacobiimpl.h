/* Private: the PCHJACOBI context, the extracted stencil, the grid layout and the backend contract. */
#pragma once

#include <petschjacobi.h>
#include <petsc/private/pcimpl.h>
#include <petscdmda.h>
#include <petscsf.h>

#include <petschjacobi/compat.h>

#if defined(HJACOBI_WITH_CUDA) && !defined(PETSC_HAVE_CUDA)
  #error "petsc-hjacobi: the CUDA backend was asked for, but this PETSc has no CUDA (PETSC_HAVE_CUDA is not in its petscconf.h)"
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

/* PetscScalar members of the structures that host (C++) and CUDA translation units share: complex PetscScalar is
   std::complex (alignment 8) in the former and thrust::complex (alignment 16) in the latter, so without an explicit
   alignment the two would lay out the same structure differently */
#define HJ_SCALAR_ALIGN alignas(sizeof(PetscScalar))

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
  HJ_SCALAR_ALIGN PetscScalar ccoef[26];
  HJ_SCALAR_ALIGN PetscScalar cinvdiag;
  PetscBool    ondevice;   /* extracted on the device: coef and invdiag are NULL until a host user asks for them
                              (HJCudaStencilToHost); the planes live in `device` */
  void        *device;                       /* a backend's device copy of this stencil, made lazily by that backend */
  PetscErrorCode (*devicedestroy)(void **); /* frees `device`; called by HJStencilDestroy() */
} HJStencil;

/* A backend is a set of operations; setup picks one and apply never branches on it. The backend in use owns
   PC_HJacobi.data: its setup makes it, its reset frees it, and nothing else touches it. */
typedef struct {
  const char *name;
  /* fill st from the Pmat; valuesonly: the same Pmat, nonzero pattern and layout as st was extracted from, so only a
     value pass is needed (the backend falls back to a full extraction when the values need another stencil kind) */
  PetscErrorCode (*extract)(PC, Mat, HJStencil *, PetscBool valuesonly);
  PetscErrorCode (*setup)(PC);   /* after the stencil was (re)extracted: allocate, upload, choose kernels */
  PetscErrorCode (*cycles)(PC, const HJStencil *, Vec b, Vec x, PetscInt n, PetscBool zeroguess); /* n cycles x -> x' */
  PetscErrorCode (*reset)(PC);   /* free what setup allocated */
  PetscErrorCode (*view)(PC, PetscViewer);
  PetscErrorCode (*correctT)(PC, const HJStencil *AT, Vec r, Vec x, PetscBool add); /* x <- (add ? x : 0) + N^T r: one
                                 transposed cycle's correction with A^T's stencil (ALGORITHM.md "PCApplyTranspose") */
} HJBackendOps;

/* -pc_hjacobi_cuda_kernel: which tile kernel the CUDA backend may use (developer option; auto decides per stencil at
   setup) */
typedef enum {
  HJ_CUDA_KERNEL_AUTO,
  HJ_CUDA_KERNEL_SHARED,
  HJ_CUDA_KERNEL_REGISTERS
} HJCudaKernel;
PETSC_INTERN const char *const HJCudaKernels[];

/* The damping chosen from the operator (hjomega.cxx): the Ritz values of D^{-1}A, kept across value-only refreshes */
#define HJ_OMEGA_STEPS 10 /* Arnoldi steps of the estimate */
typedef struct {
  PetscReal        user;      /* omega the user gave, or PETSC_DECIDE: chosen at setup */
  PetscInt         subits;    /* k the user asked for (the fallback runs k = 1 without changing it) */
  PetscBool        subitsset; /* k was set by the user: a fallback keeps it */
  PetscBool        recompute; /* estimate again whenever the Pmat's values change, not only its nonzero pattern */
  PetscBool        have, reused, fallback;
  PetscObjectId    id; /* the Pmat of the estimate, its state and nonzero state then */
  PetscObjectState state, nzstate;
  PetscInt         nritz;
  PetscReal        re[HJ_OMEGA_STEPS], im[HJ_OMEGA_STEPS];
  char             why[256];
} HJOmega;

typedef struct {
  size_t abisize, abilast; /* sizeof(PC_HJacobi) and offsetof(PC_HJacobi, abiend) as the host compiler lays it out:
                              the CUDA backend checks that nvcc agrees (HJ_SCALAR_ALIGN) */
  /* parameters (ALGORITHM.md) */
  PetscInt                tile[3], overlap[3], subits, cycles;
  PetscReal               omega; /* in use (after setup: the one chosen, see om) */
  HJOmega                 om;
  PCHJacobiBackend        backend;
  PCHJacobiInnerPrecision inner;
  PetscBool               tileset; /* the user set the tile; else it is chosen per dimension at setup */
  /* CUDA backend developer options, read in PCSetFromOptions (-pc_hjacobi_cuda_*; no setters); its setup chooses
     the kernel from them */
  HJCudaKernel            cudakernel;
  PetscInt                cudastrip;     /* points per thread of the register-strip kernel: 0 (chosen per tile), 4, 8 */
  PetscInt                cudathreads;   /* threads per block the tile kernels aim at: 0 (the default), else 32..512 */
  PetscBool               cudaforcetile; /* the tile kernel also for k = 1 (testing) */
  PetscBool               cudaside, cudasideset; /* -pc_hjacobi_cuda_side_stream, and whether given (HJCudaSideStream) */
  /* setup data */
  DM                  da;      /* reference to the DMDA the layout came from */
  HJLayout            layout;
  PetscBool           haslayout;
  HJStencil           st;      /* A */
  PetscObjectId       stid;    /* the Pmat st was extracted from, and its state then */
  PetscObjectState    ststate;
  PetscObjectState    stnzstate; /* ... and its nonzero state (MatGetNonzeroState): unchanged means values-only refresh */
  const HJBackendOps *stops;     /* the backend that extracted st */
  PetscInt            extract;   /* -pc_hjacobi_extract (testing): HJ_EXTRACT_AUTO, _HOST or _DEVICE */
  PetscInt            debugfailalloc; /* test hook -pc_hjacobi_debug_fail_alloc: this rank's device extraction fails to
                                          allocate its planes (-1: none) */
  HJStencil           stT;     /* A^T, re-indexed from st at the first PCApplyTranspose after st changed (HJStencilTranspose) */
  PetscBool           hasT;
  Vec                 rT;      /* PCApplyTranspose with c > 1: the residual b - A^T x */
  PetscSF             ghostsf; /* fills the ghost layer of a padded array from the owners' padded arrays; NULL if none */
  PetscBool           overlapcomm; /* -pc_hjacobi_overlap_comm: run the interior tiles during the exchange (hjsplit.cxx) */
  PetscBool           overlapcommset; /* given by the user; else HJOverlapComm() decides */
  const HJBackendOps *ops;
  void               *data;    /* private data of the backend in use (ops) */
  /* Richardson (hjrichardson.cxx) */
  PetscInt richcheck;  /* iterations between two true-residual checks when the solving KSP tests norms */
  KSP      solving[2]; /* the KSPs between PCPreSolve and PCPostSolve (borrowed; nested at most twice) */
  PetscInt nsolving;
  char     abiend; /* last member (abilast) */
} PC_HJacobi;

enum { HJ_EXTRACT_AUTO, HJ_EXTRACT_HOST, HJ_EXTRACT_DEVICE };
PETSC_INTERN const char *const HJExtractPlaces[];

PETSC_INTERN PetscLogEvent PCHJACOBI_Estimate, PCHJACOBI_Extract, PCHJACOBI_Cycle, PCHJACOBI_Exchange, PCHJACOBI_TileKernel, PCHJACOBI_ClassicKernel;

/* hjlayout.cxx */
PETSC_INTERN PetscErrorCode HJLayoutCreate(DM, HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutDestroy(HJLayout *);
PETSC_INTERN PetscBool      HJLayoutSame(DM, const HJLayout *);
PETSC_INTERN PetscErrorCode HJLayoutPointOfGlobal(const HJLayout *, PetscInt, PetscInt[3], PetscInt *);
PETSC_INTERN PetscErrorCode HJLayoutCreateGhostSF(MPI_Comm, const HJLayout *, PetscSF *);

/* hjsplit.cxx: the tile ids of one cycle, those that read no ghost value the exchange writes first (the backends run
   them between PetscSFBcastBegin and End); halo[d]: the kernel reads a one-point halo along d */
PETSC_INTERN PetscErrorCode HJTileSplitCreate(const HJLayout *, PetscSF, const PetscInt[3], const PetscInt[3], const PetscBool[3], PetscInt *, PetscInt *, PetscInt **);

/* hjrichardson.cxx: PCApplyRichardson, pre/postsolve and the check-period setter (install or remove) */
PETSC_INTERN PetscErrorCode HJRichardsonInstall(PC, PetscBool);

/* hjcollective.cxx: collective on comm; if `ok` is false on some rank, every rank raises that rank's code and message */
PETSC_INTERN PetscErrorCode HJCheckCollective(MPI_Comm, PetscBool, PetscErrorCode, const char *, ...);

/* hjgrid.cxx: the DMDA to use (PC's, else Pmat's; errors naming the contexts that work); a Pmat that MatGetRow reads
   whole (an AIJ copy of SBAIJ, else the Pmat itself, borrowed) */
PETSC_INTERN PetscErrorCode HJFindGrid(PC, DM *);
PETSC_INTERN PetscErrorCode HJPmatReadable(Mat, Mat *);

/* hjstencil.cxx */
PETSC_INTERN PetscErrorCode HJStencilExtract(Mat, const HJLayout *, HJStencil *);
/* same nonzero pattern, new values: rewrites st in place with its kind (no allocation); *fits = PETSC_FALSE (st freed)
   when a nonzero appears at an offset the kind lacks on some rank: extract afresh. Collective, same checks and errors. */
PETSC_INTERN PetscErrorCode HJStencilExtractValues(Mat, const HJLayout *, HJStencil *, PetscBool *);
PETSC_INTERN PetscErrorCode HJStencilDestroy(HJStencil *);
PETSC_INTERN PetscErrorCode HJStencilCheckPmat(Mat, const HJLayout *);
PETSC_INTERN PetscErrorCode HJStencilReportBad(MPI_Comm, const HJLayout *, const PetscInt[2], const PetscInt[2], const PetscInt[4]);
/* hjtranspose.cxx: hj->stT from hj->st (A^T's couplings between this rank's points; on the device for device stencils) */
PETSC_INTERN PetscErrorCode HJStencilTranspose(PC);
PETSC_INTERN void           HJStencilTransposeHost(const HJLayout *, const HJStencil *, HJStencil *);

/* hjacobi.cxx: a vector type of the CUDA family (VECCUDA, VECSEQCUDA, VECMPICUDA) */
PETSC_INTERN PetscErrorCode HJIsCUDAVecType(VecType, PetscBool *);

/* hjomega.cxx: omega (and the fallback's k) for the current Pmat; view; forget the estimate */
PETSC_INTERN PetscErrorCode HJOmegaChoose(PC);
PETSC_INTERN PetscErrorCode HJOmegaView(PC, PetscViewer);
PETSC_INTERN PetscErrorCode HJOmegaReset(PC);

/* backends */
PETSC_INTERN const HJBackendOps HJBackendHost;
PETSC_INTERN PetscErrorCode     HJHostCycles(PC, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode     HJHostCorrectT(PC, const HJStencil *, Vec, Vec, PetscBool);
/* the host backend's cycles on host data other than PC_HJacobi.data (*hostdata made at first use, sized to the PC's
   current layout and tile; freed by HJHostDataDestroy): a CUDA backend's fallback for vectors that live on the host */
PETSC_INTERN PetscErrorCode     HJHostCyclesWithData(PC, void **hostdata, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode     HJHostDataDestroy(void **hostdata);
PETSC_INTERN PetscErrorCode     HJHostCorrectTWithData(PC, void **hostdata, const HJStencil *, Vec, Vec, PetscBool);
#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN const HJBackendOps HJBackendCUDA;
PETSC_INTERN PetscErrorCode     HJCudaFillStart(const HJLayout *, PetscScalar *); /* hjhashfill.cu: the omega estimate's start vector */
PETSC_INTERN PetscErrorCode     HJCudaStencilTranspose(const HJLayout *, HJStencil *, HJStencil *);
PETSC_INTERN PetscErrorCode     HJCudaStencilToHost(HJStencil *);
PETSC_INTERN PetscErrorCode     HJCudaExtractCompare(PC, PetscInt, PetscInt *);
#endif

/* Whether the cycles hide the ghost exchange behind the interior tiles: as given (-pc_hjacobi_overlap_comm), else true.
   On the CUDA backend with MPI that is not GPU-aware the interior tiles then run on a second stream
   (HJCudaSideStream), where PetscSF's copies through the host and its unpack no longer wait for them (doc/design.md
   "Communication hidden"; on one stream the split measured slower than none on 2 H200s, B6 r13: 12.4 against 11.6 ms
   per V-cycle). To hide the exchange on CUDA only with GPU-aware MPI again, set cudadefault to use_gpu_aware_mpi. */
static inline PetscBool HJOverlapComm(const PC_HJacobi *hj, PetscBool cuda)
{
  const PetscBool cudadefault = PETSC_TRUE; /* the one line of the CUDA default (B6) */
  return hj->overlapcommset ? hj->overlapcomm : (cuda ? cudadefault : PETSC_TRUE);
}

/* Whether a split CUDA cycle launches its interior tiles on a second stream: as given (-pc_hjacobi_cuda_side_stream),
   else when MPI is not GPU-aware (PetscSF then stages the ghosts through the host on PETSc's stream); with GPU-aware
   MPI nothing of the exchange waits for the interior tiles but its unpack, and one stream is kept. */
static inline PetscBool HJCudaSideStream(const PC_HJacobi *hj)
{
  return hj->cudasideset ? hj->cudaside : (PetscBool)!use_gpu_aware_mpi;
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
