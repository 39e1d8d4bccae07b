/* The CUDA backend's private header: its operations (the only name the rest of the library sees, in
   src/backend/backends.cxx), its developer options, and the entry points its files share. */
#pragma once

#include <petschjacobi/private/hjbackend.h>

#if !defined(PETSC_HAVE_CUDA)
  #error "petsc-hjacobi: the CUDA backend was asked for, but this PETSc has no CUDA (PETSC_HAVE_CUDA is not in its petscconf.h)"
#endif

PETSC_INTERN const HJBackendOps HJBackendCUDA;

/* -pc_hjacobi_cuda_kernel: which tile kernel the backend may use (auto decides per stencil at setup) */
typedef enum {
  HJ_CUDA_KERNEL_AUTO,
  HJ_CUDA_KERNEL_SHARED,
  HJ_CUDA_KERNEL_REGISTERS,
  HJ_CUDA_KERNEL_COLUMNS
} HJCudaKernel;
PETSC_INTERN const char *const HJCudaKernels[];

/* The developer options (-pc_hjacobi_cuda_*, no setters), read by PCSetFromOptions whichever backend runs, kept in
   HJSweeps.backendopts[PC_HJACOBI_BACKEND_CUDA] until PCDestroy; setup chooses the kernel from them. */
typedef struct {
  HJCudaKernel kernel;
  PetscInt     strip;             /* points per thread of the register-strip kernel: 0 (chosen per tile), 4, 8 */
  PetscInt     threads;           /* threads per block the tile kernels aim at: 0 (the default), else 32..512 */
  PetscBool    forcetile;         /* the tile kernel also for k = 1 (testing) */
  PetscInt     cminpts;           /* -pc_hjacobi_cuda_constant_tiles: the fewest points of the tiles inside the box of one
                                     row that get the constant-stencil instantiation (-1: never) */
  PetscBool    side, sideset;     /* -pc_hjacobi_cuda_side_stream, and whether given (HJCudaSideStream) */
  PetscBool    staged, stagedset; /* -pc_hjacobi_cuda_staged_exchange, and whether given (HJCudaStagedExchange) */
  PetscInt     failalloc;         /* test hook -pc_hjacobi_debug_fail_alloc: this rank's device extraction fails to allocate
                              its planes (-1: none) */
} HJCudaOptions;
/* the PC's options (the defaults, made at first use, where PCSetFromOptions was not called) */
PETSC_INTERN PetscErrorCode HJCudaOptionsGet(PC, HJCudaOptions **);

/* Whether a split cycle launches its interior tiles on a second stream: as given (-pc_hjacobi_cuda_side_stream),
   else when MPI is not GPU-aware (PetscSF then stages the ghosts through the host on PETSc's stream); with GPU-aware
   MPI nothing of the exchange waits for the interior tiles but its unpack, and one stream is kept. */
static inline PetscBool HJCudaSideStream(const HJCudaOptions *o)
{
  return o->sideset ? o->side : (PetscBool)!use_gpu_aware_mpi;
}

/* Whether the ghost exchange is staged through pinned host memory (cuda/exchange.cu): as given
   (-pc_hjacobi_cuda_staged_exchange), else when MPI is not GPU-aware; with GPU-aware MPI PetscSF hands MPI the device
   arrays. Only on several ranks (HJCudaStagedOnRanks); every rank agrees after the setup (HJCudaExchangeReady). */
static inline PetscBool HJCudaStagedExchange(const HJCudaOptions *o)
{
  return o->stagedset ? o->staged : (PetscBool)!use_gpu_aware_mpi;
}

/* extract/extract.cu: the backend's extraction, a device stencil's transpose and host arrays */
PETSC_INTERN PetscErrorCode HJCudaExtract(PC, Mat, HJStencil *, PetscBool);
PETSC_INTERN PetscErrorCode HJCudaStencilTranspose(const HJLayout *, const HJStencil *, HJStencil *);
PETSC_INTERN PetscErrorCode HJStencilToHost_CUDA(HJStencil *);
/* extract/check.cu: testing, composed as PCHJacobiExtractCompare_C while the backend is set up */
PETSC_INTERN PetscErrorCode HJCudaExtractCompare(PC, PetscInt, PetscInt *);
/* cuda/backend.cu: the omega estimate's start vector */
PETSC_INTERN PetscErrorCode HJFillStart_CUDA(const HJLayout *, PetscScalar *);
