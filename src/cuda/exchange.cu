/* The ghost exchange of the CUDA backend staged through pinned host memory (doc/design.md, "The ghost exchange on
   CUDA vectors"). Without GPU-aware MPI, PetscSF's broadcast of device arrays copies its buffers through pageable host
   memory: on 2 x H100 one 257^2 plane each way took 294 us, against 209 us for the same values copied through pinned
   memory and sent by PetscSF from there (bench/exchange). So on several ranks with MPI that is not GPU-aware the cycle and
   the residual exchange through a compact PetscSF on host memory: roots are the owned values other ranks read, in one
   pinned array, leaves the ghost values, in another; a gather kernel and one copy fill the first, one copy and a
   scatter kernel empty the second. The compact SF is made from the layout's ghost SF (grid/compact.hpp, tested alone
   on random graphs by test/test_compact.cxx) at setup, once every rank's setup succeeded (HJSetUpAll_CUDA). */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"
#include "grid/compact.hpp"

namespace
{
__global__ void Gather(const PetscScalar *__restrict__ x, const PetscInt *__restrict__ idx, PetscInt n, PetscScalar *__restrict__ buf)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) buf[i] = x[idx[i]];
}

__global__ void Scatter(const PetscScalar *__restrict__ buf, const PetscInt *__restrict__ idx, PetscInt n, PetscScalar *__restrict__ x)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) x[idx[i]] = buf[i];
}

constexpr int kExchangeBlock = 256;

unsigned Blocks(PetscInt n)
{
  return (unsigned)PetscMin((n + kExchangeBlock - 1) / kExchangeBlock, (PetscInt)4096);
}
} // namespace

PetscErrorCode HJCudaExchangeDestroy(HJCudaExchange *ex)
{
  PetscFunctionBegin;
  PetscCall(PetscSFDestroy(&ex->sf));
  PetscCallCUDA(cudaFree(ex->idx));
  PetscCallCUDA(cudaFree(ex->dbuf));
  PetscCallCUDA(cudaFreeHost(ex->hbuf));
  if (ex->done) PetscCallCUDA(cudaEventDestroy(ex->done));
  PetscCall(PetscMemzero(ex, sizeof(*ex)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether staging can help: on one rank a periodic direction's ghosts are the rank's own values, which PetscSF's
   broadcast copies on the device with no host copy and no wait; staged, they would go through the host */
PetscErrorCode HJCudaStagedOnRanks(PC pc, PetscBool *staged)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  if (size == 1) *staged = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a setup (HJSetUpAll_CUDA; the cycles and the residual call it again before an exchange, which then returns at
   once): every rank agrees on the path (or their messages would not meet) and makes the staged one. Collective. */
PetscErrorCode HJCudaExchangeReady(PC pc)
{
  HJSweeps      *hj = HJSweepsOf(pc);
  HJCuda        *cu = (HJCuda *)hj->data;
  HJCudaOptions *o;
  PetscBool      staged;

  PetscFunctionBegin;
  if (cu->exready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJCudaOptionsGet(pc, &o));
  cu->exasked = staged = HJCudaStagedExchange(o);
  PetscCall(HJCudaStagedOnRanks(pc, &staged));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &staged, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)pc)));
  PetscCall(HJCudaExchangeDestroy(&cu->ex));
  if (staged) { /* a rank whose allocations fail stops every rank here, not in the next exchange */
    const PetscErrorCode ierr = HJCudaExchangeCreate(hj->ghostsf, &cu->ex);
    PetscCall(HJCheckCollective(PetscObjectComm((PetscObject)pc), (PetscBool)(ierr == PETSC_SUCCESS), ierr, "PCHJACOBI: the CUDA backend could not make its staged ghost exchange (the rank concerned printed why above)"));
  }
  PetscCall(PetscObjectGetId((PetscObject)hj->ghostsf, &cu->exof));
  cu->exready = PETSC_TRUE;
  if (staged) PetscCall(PetscInfo(pc, "Ghost exchange staged through pinned host memory: %" PetscInt_FMT " values sent, %" PetscInt_FMT " received\n", cu->ex.nsend, cu->ex.nrecv));
  else PetscCall(PetscInfo(pc, "Ghost exchange by PetscSF on the device arrays\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The compact SF of the ghost SF g (grid/compact.hpp; collective on g's communicator), its indices and buffers on the
   device, its pinned host buffers */
PetscErrorCode HJCudaExchangeCreate(PetscSF g, HJCudaExchange *ex)
{
  PetscInt *idx;

  PetscFunctionBegin;
  PetscCall(HJCudaExchangeDestroy(ex));
  PetscCall(hj::SFCompact(g, &ex->sf, &ex->nsend, &ex->nrecv, &idx));
  if (ex->nsend + ex->nrecv) {
    const size_t n = (size_t)(ex->nsend + ex->nrecv);

    PetscCallCUDA(cudaMalloc((void **)&ex->idx, n * sizeof(PetscInt)));
    PetscCallCUDA(cudaMemcpy(ex->idx, idx, n * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMalloc((void **)&ex->dbuf, n * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMallocHost((void **)&ex->hbuf, n * sizeof(PetscScalar)));
  }
  PetscCallCUDA(cudaEventCreateWithFlags(&ex->done, cudaEventDisableTiming));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Start filling xpad's ghost layer from the owners' xpad: staged (ex->sf) or PetscSF on device memory (g). Staged, the
   copy to the host and a synchronization of s come first (MPI reads the pinned buffer), and of ex->done, recorded
   after the previous exchange's copy out of the receive buffer (on its stream), before MPI writes it again. */
PetscErrorCode HJCudaExchangeBegin(const HJCudaExchange *ex, PetscSF g, PetscScalar *xpad, cudaStream_t s)
{
  PetscFunctionBegin;
  if (!ex->sf) {
    PetscCall(PetscSFBcastWithMemTypeBegin(g, MPIU_SCALAR, PETSC_MEMTYPE_CUDA, xpad, PETSC_MEMTYPE_CUDA, xpad, MPI_REPLACE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ex->nsend) {
    Gather<<<Blocks(ex->nsend), kExchangeBlock, 0, s>>>(xpad, ex->idx, ex->nsend, ex->dbuf);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpyAsync(ex->hbuf, ex->dbuf, (size_t)ex->nsend * sizeof(PetscScalar), cudaMemcpyDeviceToHost, s));
  }
  PetscCallCUDA(cudaStreamSynchronize(s));
  PetscCallCUDA(cudaEventSynchronize(ex->done)); /* the previous copy out of the receive buffer, on whichever stream */
  PetscCall(PetscLogGpuToCpu((PetscLogDouble)ex->nsend * sizeof(PetscScalar)));
  PetscCall(PetscSFBcastWithMemTypeBegin(ex->sf, MPIU_SCALAR, PETSC_MEMTYPE_HOST, ex->hbuf, PETSC_MEMTYPE_HOST, ex->hbuf + ex->nsend, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Finish it: the received values onto the device and into xpad's ghost layer, in order on s */
PetscErrorCode HJCudaExchangeEnd(const HJCudaExchange *ex, PetscSF g, PetscScalar *xpad, cudaStream_t s)
{
  PetscFunctionBegin;
  if (!ex->sf) {
    PetscCall(PetscSFBcastEnd(g, MPIU_SCALAR, xpad, xpad, MPI_REPLACE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSFBcastEnd(ex->sf, MPIU_SCALAR, ex->hbuf, ex->hbuf + ex->nsend, MPI_REPLACE));
  if (ex->nrecv) {
    PetscCallCUDA(cudaMemcpyAsync(ex->dbuf + ex->nsend, ex->hbuf + ex->nsend, (size_t)ex->nrecv * sizeof(PetscScalar), cudaMemcpyHostToDevice, s));
    PetscCallCUDA(cudaEventRecord(ex->done, s));
    Scatter<<<Blocks(ex->nrecv), kExchangeBlock, 0, s>>>(ex->dbuf + ex->nsend, ex->idx + ex->nsend, ex->nrecv, xpad);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)ex->nrecv * sizeof(PetscScalar)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
