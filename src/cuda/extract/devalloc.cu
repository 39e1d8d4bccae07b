/* Device allocations whose outcome is collective (the device extraction, cuda/extract/extract.cu). cudaMalloc can fail on one
   rank only (its GPU is fuller, or shared by more ranks); a rank that errored there alone would leave the others
   waiting in the next reduction of the extraction. A group of allocations is made without raising, then checked on
   every rank at once (HJCheckCollective, backend/collective.cxx): all ranks stop with the failing rank's size and fix. */
#include <petscdevice_cuda.h>
#include "cuda/stencil.h"

/* one allocation of the group; after a failure in the group the rest are skipped (left NULL) */
void HJDeviceAllocGroupAdd(HJDeviceAllocGroup *g, void **p, size_t bytes)
{
  *p = NULL;
  g->bytes += bytes;
  if (g->err != cudaSuccess) return;
  if (g->inject) { /* test hook (-pc_hjacobi_debug_fail_alloc): this rank fails as if the GPU were full */
    g->err = cudaErrorMemoryAllocation;
    return;
  }
  g->err = cudaMalloc(p, bytes);
  if (g->err != cudaSuccess) {
    *p = NULL;
    (void)cudaGetLastError(); /* an out-of-memory error is not sticky: clear it, so later CUDA calls do not report it */
  }
}

/* Collective on comm: every rank calls it after the same group (what: the arrays it holds, for the message). */
PetscErrorCode HJDeviceAllocGroupCheck(MPI_Comm comm, const HJDeviceAllocGroup *g, const char *what)
{
  size_t freeb = 0, total = 0;

  PetscFunctionBegin;
  if (g->err != cudaSuccess) {
    if (cudaMemGetInfo(&freeb, &total) != cudaSuccess) (void)cudaGetLastError(); /* only for the message */
  }
  PetscCall(HJCheckCollective(comm, (PetscBool)(g->err == cudaSuccess), PETSC_ERR_MEM, "PCHJACOBI: the device extraction could not allocate %s, %.1f MiB on this rank's GPU (%s; %.1f of %.1f MiB free%s): use fewer grid points per GPU (more GPUs, or fewer ranks sharing one), or -pc_hjacobi_extract host (no pattern tables on the GPU)", what, g->bytes / 1048576.0, cudaGetErrorString(g->err), freeb / 1048576.0, total / 1048576.0, g->inject ? ", failure injected by -pc_hjacobi_debug_fail_alloc" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
