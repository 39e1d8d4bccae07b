/* The ghost exchange of the CUDA backend staged through pinned host memory (doc/design.md, "The ghost exchange on
   CUDA vectors"). Without GPU-aware MPI, PetscSF's broadcast of device arrays copies its buffers through pageable host
   memory: on 2 x H100 one 257^2 plane each way took 294 us, against 209 us for the same values copied through pinned
   memory and sent by PetscSF from there (bench/exchange, run b6an3). So with MPI that is not GPU-aware the cycle and
   the residual exchange through a compact PetscSF on host memory: roots are the owned values other ranks read, in one
   pinned array, leaves the ghost values, in another; a gather kernel and one copy fill the first, one copy and a
   scatter kernel empty the second. The compact SF is made from the layout's ghost SF at setup, with PetscSF's own
   reduction and broadcast, so the two carry the same values by construction. */
#include <petscdevice_cuda.h>
#include "cuda/backendimpl.h"

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
  PetscCall(PetscMemzero(ex, sizeof(*ex)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before an exchange: at the first after a setup, every rank agrees on the path (or their messages would not meet)
   and makes the staged one. Collective, as every exchange is. */
PetscErrorCode HJCudaExchangeReady(PC pc)
{
  PC_HJacobi    *hj = (PC_HJacobi *)pc->data;
  HJCuda        *cu = (HJCuda *)hj->data;
  HJCudaOptions *o;
  PetscBool      staged;

  PetscFunctionBegin;
  if (cu->exready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJCudaOptionsGet(pc, &o));
  cu->exasked = staged = HJCudaStagedExchange(o);
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &staged, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)pc)));
  PetscCall(HJCudaExchangeDestroy(&cu->ex));
  if (staged) PetscCall(HJCudaExchangeCreate(hj->ghostsf, &cu->ex));
  PetscCall(PetscObjectGetId((PetscObject)hj->ghostsf, &cu->exof));
  cu->exready = PETSC_TRUE;
  if (staged) PetscCall(PetscInfo(pc, "Ghost exchange staged through pinned host memory: %" PetscInt_FMT " values sent, %" PetscInt_FMT " received\n", cu->ex.nsend, cu->ex.nrecv));
  else PetscCall(PetscInfo(pc, "Ghost exchange by PetscSF on the device arrays\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The compact SF of the ghost SF g (collective on g's communicator). Every root some leaf reads gets a slot (a
   reduction of ones from the leaves); the leaves learn their root's slot (a broadcast); the compact SF's leaf i is g's
   leaf i. Host arrays of g's roots live only here. */
PetscErrorCode HJCudaExchangeCreate(PetscSF g, HJCudaExchange *ex)
{
  MPI_Comm           comm;
  PetscInt           nroots, nleaves, nsend = 0, *slot, *ones, *leafslot, *idx;
  const PetscInt    *ilocal;
  const PetscSFNode *iremote;
  PetscSFNode       *remote;
  PetscSF            gc;

  PetscFunctionBegin;
  PetscCall(HJCudaExchangeDestroy(ex));
  PetscCall(PetscObjectGetComm((PetscObject)g, &comm));
  PetscCall(PetscSFGetGraph(g, &nroots, &nleaves, &ilocal, &iremote));
  /* g with its leaves numbered 0..nleaves-1, so that leaf arrays hold nleaves entries, not a padded array's */
  PetscCall(PetscSFCreate(comm, &gc));
  PetscCall(PetscSFSetGraph(gc, nroots, nleaves, NULL, PETSC_COPY_VALUES, const_cast<PetscSFNode *>(iremote), PETSC_COPY_VALUES)); /* copied */
  PetscCall(PetscSFSetUp(gc));
  PetscCall(PetscCalloc1(nroots, &slot));
  PetscCall(PetscMalloc2(nleaves, &ones, nleaves, &leafslot));
  for (PetscInt i = 0; i < nleaves; i++) ones[i] = 1;
  PetscCall(PetscSFReduceBegin(gc, MPIU_INT, ones, slot, MPI_SUM));
  PetscCall(PetscSFReduceEnd(gc, MPIU_INT, ones, slot, MPI_SUM));
  for (PetscInt r = 0; r < nroots; r++) slot[r] = slot[r] ? nsend++ : -1;
  PetscCall(PetscSFBcastBegin(gc, MPIU_INT, slot, leafslot, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(gc, MPIU_INT, slot, leafslot, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&gc));

  /* idx: the padded index of every slot (gather), then of every leaf (scatter) */
  PetscCall(PetscMalloc1(nsend + nleaves, &idx));
  for (PetscInt r = 0; r < nroots; r++)
    if (slot[r] >= 0) idx[slot[r]] = r;
  PetscCall(PetscMalloc1(nleaves, &remote));
  for (PetscInt i = 0; i < nleaves; i++) {
    PetscCheck(leafslot[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Ghost %" PetscInt_FMT " reads a root that has no slot", i);
    remote[i].rank  = iremote[i].rank;
    remote[i].index = leafslot[i];
    idx[nsend + i]  = ilocal ? ilocal[i] : i;
  }
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree2(ones, leafslot));
  PetscCall(PetscSFCreate(comm, &ex->sf));
  PetscCall(PetscSFSetGraph(ex->sf, nsend, nleaves, NULL, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(ex->sf));
  ex->nsend = nsend;
  ex->nrecv = nleaves;
  if (nsend + nleaves) {
    PetscCallCUDA(cudaMalloc((void **)&ex->idx, (size_t)(nsend + nleaves) * sizeof(PetscInt)));
    PetscCallCUDA(cudaMemcpy(ex->idx, idx, (size_t)(nsend + nleaves) * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMalloc((void **)&ex->dbuf, (size_t)(nsend + nleaves) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMallocHost((void **)&ex->hbuf, (size_t)(nsend + nleaves) * sizeof(PetscScalar)));
  }
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Start filling xpad's ghost layer from the owners' xpad: staged (ex->sf) or PetscSF on device memory (g). Staged, the
   copy to the host and a synchronization of s come first: MPI reads the pinned buffer, and the previous exchange's copy
   out of the receive buffer has finished before MPI writes it again. */
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
    Scatter<<<Blocks(ex->nrecv), kExchangeBlock, 0, s>>>(ex->dbuf + ex->nsend, ex->idx + ex->nsend, ex->nrecv, xpad);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
