/* Private to the CUDA backend's .cu files: its context, the kernel plan of a stencil, and the entry points of its
   stages (the device stencil: cuda/stencil.cu; the plan: plan/plan.cu; the cycle: cuda/cycle.cu). */
#pragma once

#include "cuda/stencil.h"
#include "cuda/kernels/launch.h"

/* The kernel variant of one stencil, chosen at setup (plan/plan.cu says how). */
typedef enum {
  HJ_CUDA_CLASSIC,   /* k = 1: the fused classic sweep */
  HJ_CUDA_SHARED,    /* TileKernel: every neighbour from shared memory */
  HJ_CUDA_REGISTERS, /* TileKernelStrip: vertical strips in registers (2D star) */
  HJ_CUDA_ROWS,      /* TileKernel in 1D over every row (2D star without y couplings on this rank) */
  HJ_CUDA_BLOCK,     /* TileKernelBlock: dof > 1 */
  HJ_CUDA_COLUMNS    /* ColumnKernel: 3D star, x-y columns streamed through z */
} HJCudaVariant;

/* What the cycles of one stencil run: its variant, the kernel instantiation (resolved once) and the launch
   descriptor, all made by HJCudaPlanCreate(), A's at setup and A^T's at its first use after a setup. A cycle copies
   the descriptor, sets the arrays and the stream, and calls the launcher. */
typedef struct {
  PetscBool                     valid;
  HJCudaVariant                 variant;
  hjcuda::Launcher<PetscScalar> launch;
  hjcuda::Launch<PetscScalar>   L;
  long long                     W[3];    /* largest working region per direction (view) */
  PetscLogEvent                 event;   /* PCHJACOBI_TileKernel or PCHJACOBI_ClassicKernel */
  PetscLogDouble                flops;   /* of one cycle (all its launches), as the host backend counts them */
  unsigned                     *tileids; /* device: the tile ids in launch order (HJCudaPlanSplit), NULL: block b is tile
                                              b. With split, the ninterior tiles that read no ghost value
                                              (HJTileSplitCreate), then the rest; without, one group of every tile
                                              (nconst[0] = 0). The first nconst[g] of each group g have all of W(T) in
                                              the box of one row (launchc). With split and launchc a second order
                                              follows (all those tiles, then the rest) for unsplit cycles; with split
                                              alone an unsplit cycle is one launch without ids */
  PetscBool                     split;   /* tileids holds the exchange's split (else ninterior is 0) */
  long long                     ninterior;
  long long                     nconst[2];
  hjcuda::Launcher<PetscScalar> launchc;  /* the constant-stencil instantiation of the same kernel, for those tiles
                                              (hj::kConstSplitMinPoints), or NULL */
  void                         *weights;  /* device: the sweeps' weights, k PetscScalar then k float (L.wT, L.wf) */
  unsigned char                *rowclass; /* the column kernel's row classes (plan/rowclass.cu; L.rowclass, L.rowtab), or NULL */
  PetscScalar                  *rowtab;
  PetscInt                      nrows;
} HJCudaPlan;

/* The ghost exchange staged through pinned host memory (cuda/exchange.cu), made once every rank's setup succeeded
   when MPI is not GPU-aware and the PC has several ranks (HJCudaExchangeReady):
   a compact PetscSF on host memory whose roots are the nsend owned values other ranks read and whose leaves are the
   nrecv ghost values; idx (device): their padded indices, the nsend then the nrecv; dbuf (device) and hbuf (pinned
   host): the same two parts. sf NULL: the exchange is PetscSF's broadcast of the device arrays. */
typedef struct {
  PetscSF      sf;
  PetscInt     nsend, nrecv;
  PetscInt    *idx;
  PetscScalar *dbuf, *hbuf;
  cudaEvent_t  done; /* recorded after the copy out of hbuf's receive part */
} HJCudaExchange;

typedef struct {
  PetscInt     npadded;     /* scalars of a padded array (points x dof) */
  PetscScalar *xpad, *ypad; /* padded work arrays; their layer outside the domain is zero forever */
  char         name[256];   /* device */
  int          smemoptin;   /* largest dynamic shared memory per block the device allows */
  HJCudaPlan   plan, planT; /* A's and A^T's */
  /* The second stream of the split cycle (HJCycles_CUDA; doc/design.md "Communication hidden"): made at the first
     setup whose plan is split, destroyed in reset. side: non-blocking (no implicit order with PETSc's stream, which
     is by default the legacy NULL stream), at the device's least priority; forked/joined: events without timing
     that order it with PETSc's stream. sideprio, petscprio: the priorities (view). */
  cudaStream_t   side;
  cudaEvent_t    forked, joined;
  int            sideprio, petscprio;
  HJCudaExchange ex;      /* staged exchange, or ex.sf NULL */
  PetscBool      exready; /* ex made (HJCudaExchangeReady) for this ghost SF (its id exof) and this option (exasked) */
  PetscObjectId  exof;
  PetscBool      exasked;
} HJCuda;

static_assert(hjcuda::kBlockMaxDof == HJ_MAX_DOF, "the point-block kernel covers every dof the library accepts");

PETSC_INTERN const char *const HJCudaVariantNames[]; /* by HJCudaVariant, for -info */

/* cuda/stencil.cu: upload st (once; A^T lazily at its first use) and, when asked for, make its float planes */
PETSC_INTERN PetscErrorCode HJCudaStencilEnsure(HJStencil *, PetscInt, PetscBool, cudaStream_t);
/* plan/plan.cu: the plan of a stencil for the PC's parameters, options and layout (transpose: PCApplyTranspose's
   correction), its destruction, and the plan a cycle of st runs (A's, or A^T's made at its first use) */
PETSC_INTERN PetscErrorCode HJCudaPlanCreate(PC, HJStencil *, PetscBool, cudaStream_t, HJCudaPlan *);
PETSC_INTERN PetscErrorCode HJCudaPlanDestroy(HJCudaPlan *);
PETSC_INTERN PetscErrorCode HJCudaPlanOf(PC, const HJStencil *, cudaStream_t, const HJCudaPlan **);
/* plan/plan.cu: whether the column kernel takes st (auto: a 3D star of dof 1, native sub-iterations, k <= its most,
   constant or with row classes), for the default tile (HJBackendOps.defaulttile) */
PETSC_INTERN PetscErrorCode HJCudaColumnsTake(PC, HJStencil *, PetscInt, const long long[3], cudaStream_t, PetscBool *);
/* cuda/exchange.cu: the exchange chosen and made once every rank's setup succeeded (HJSetUpAll_CUDA; collective; the
   cycles and the residual call it again before an exchange, which then returns at once), whether staging applies on
   this many ranks, the staged exchange made from the layout's ghost SF (collective), destroyed; an exchange of
   xpad's ghost layer begun and ended on a stream, staged when ex->sf is set, else PetscSF's broadcast on the device */
PETSC_INTERN PetscErrorCode HJCudaExchangeReady(PC);
PETSC_INTERN PetscErrorCode HJCudaStagedOnRanks(PC, PetscBool *);
PETSC_INTERN PetscErrorCode HJCudaExchangeCreate(PetscSF, HJCudaExchange *);
PETSC_INTERN PetscErrorCode HJCudaExchangeDestroy(HJCudaExchange *);
PETSC_INTERN PetscErrorCode HJCudaExchangeBegin(const HJCudaExchange *, PetscSF, PetscScalar *, cudaStream_t);
PETSC_INTERN PetscErrorCode HJCudaExchangeEnd(const HJCudaExchange *, PetscSF, PetscScalar *, cudaStream_t);
/* cuda/cycle.cu: the backend's cycles and transposed correction (HJBackendOps.cycles, correctT) */
PETSC_INTERN PetscErrorCode HJCycles_CUDA(PC, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode HJCorrectT_CUDA(PC, const HJStencil *, Vec, Vec, PetscBool);
/* cuda/residual.cu: r = b - A x from the stencil (HJBackendOps.residual) */
PETSC_INTERN PetscErrorCode HJResidual_CUDA(PC, const HJStencil *, Vec, Vec, Vec);
/* cuda/transfer.cu: a multigrid level's stencil transfer on device arrays, on PETSc's stream (HJBackendOps.transfer) */
PETSC_INTERN PetscErrorCode HJTransfer_CUDA(const hj::TransferGrid *, PetscInt dim, PetscBool transpose, Vec x, Vec y, Vec w, PetscScalar *line, PetscLogDouble flops);
/* cuda/graph.cu: device work recorded as a CUDA graph and replayed (HJBackendOps.recordbegin, recordend, replay, forget) */
PETSC_INTERN PetscErrorCode HJRecordBegin_CUDA(void **, PetscBool);
PETSC_INTERN PetscErrorCode HJRecordEnd_CUDA(void *, PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode HJReplay_CUDA(void *);
PETSC_INTERN PetscErrorCode HJForget_CUDA(void **);
