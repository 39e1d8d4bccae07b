/* Device work recorded as a CUDA graph and replayed (HJBackendOps.recordbegin ... forget): hjmg's V-cycle
   (src/mg/graph.cxx, doc/design.md "The V-cycle as one graph").
   PETSc's stream is by default the legacy NULL stream, which cannot be captured; so the recording has a PETSc device
   context of its own, on a non-blocking stream, made the current context while the work is queued: every PETSc vector
   and dense operation and every kernel of this library then goes to its stream (PetscGetCurrentCUDAStream), and
   cuBLAS through the context's handle. A run (record false) warms what is made at first use on that context (its
   cuBLAS handle); a recording (record true) captures the stream in thread-local mode, so that a call that cannot be
   captured (a synchronization, an allocation) fails the capture instead of running. Work that goes to another stream
   (a cuSPARSE handle made on PETSc's stream) is neither recorded nor refused: the caller compares a replay with a
   run. PETSc's GPU timer (-log_view_gpu_time) synchronizes, so it is off while recording. */
#include <petscdevice_cuda.h>
#include <petsc/private/logimpl.h>
#include "cuda/backendimpl.h"

typedef struct {
  PetscDeviceContext dctx; /* the recording's context and its stream */
  cudaStream_t       s;
  PetscDeviceContext saved; /* the current context between recordbegin and recordend */
  PetscBool          timer; /* PetscLogGpuTimeFlag, while recording */
  PetscLogDouble     flops; /* logged by the recorded work (at its recording); logged again at each replay */
  cudaGraph_t        g;
  cudaGraphExec_t    e;
} HJCudaRecording;

static PetscErrorCode HJRecordingFree(HJCudaRecording *r)
{
  PetscFunctionBegin;
  if (r->e) PetscCallCUDA(cudaGraphExecDestroy(r->e));
  if (r->g) PetscCallCUDA(cudaGraphDestroy(r->g));
  r->e = NULL;
  r->g = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJRecordBegin_CUDA(void **rec, PetscBool record)
{
  HJCudaRecording *r = (HJCudaRecording *)*rec;

  PetscFunctionBegin;
  if (!r) {
    void              *handle;
    PetscDeviceContext cur;
    PetscDevice        dev;

    PetscCall(PetscNew(&r));
    PetscCall(PetscDeviceContextGetCurrentContext(&cur));
    PetscCall(PetscDeviceContextGetDevice(cur, &dev));
    PetscCall(PetscDeviceContextCreate(&r->dctx));
    PetscCall(PetscDeviceContextSetDevice(r->dctx, dev));
    PetscCall(PetscDeviceContextSetStreamType(r->dctx, PETSC_STREAM_NONBLOCKING));
    PetscCall(PetscDeviceContextSetUp(r->dctx));
    PetscCall(PetscDeviceContextGetStreamHandle(r->dctx, &handle));
    r->s = *(cudaStream_t *)handle;
    *rec = r;
  }
  PetscCheck(!r->saved, PETSC_COMM_SELF, PETSC_ERR_ORDER, "A recording was begun twice");
  PetscCall(PetscDeviceContextGetCurrentContext(&r->saved));
  PetscCall(PetscDeviceContextWaitForContext(r->dctx, r->saved)); /* after everything queued on PETSc's stream */
  PetscCall(PetscDeviceContextSetCurrentContext(r->dctx));
  if (record) {
    PetscCall(HJRecordingFree(r));
    r->timer            = PetscLogGpuTimeFlag;
    PetscLogGpuTimeFlag = PETSC_FALSE;
    r->flops            = petsc_gflops;
    PetscCallCUDA(cudaStreamBeginCapture(r->s, cudaStreamCaptureModeThreadLocal));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJRecordEnd_CUDA(void *rec, PetscBool record, PetscBool *ok)
{
  HJCudaRecording *r = (HJCudaRecording *)rec;

  PetscFunctionBegin;
  PetscCheck(r && r->saved, PETSC_COMM_SELF, PETSC_ERR_ORDER, "A recording was ended before it was begun");
  *ok = PETSC_TRUE;
  if (record) {
    cudaGraph_t       g   = NULL;
    const cudaError_t err = cudaStreamEndCapture(r->s, &g); /* whatever happened since the begin: the stream leaves capture */

    PetscLogGpuTimeFlag = r->timer;
    r->flops            = (petsc_gflops - r->flops) / PETSC_FLOPS_PER_OP; /* PetscLogGpuFlops() multiplies again */
    petsc_gflops -= r->flops * PETSC_FLOPS_PER_OP;                        /* the capture ran nothing */
    if (err != cudaSuccess || !g) {
      (void)cudaGetLastError(); /* the capture's failure is answered by ok, not left for the next call */
      if (g) PetscCallCUDA(cudaGraphDestroy(g));
      *ok = PETSC_FALSE;
    } else {
      r->g = g;
      if (cudaGraphInstantiate(&r->e, r->g, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        PetscCall(HJRecordingFree(r));
        *ok = PETSC_FALSE;
      }
    }
  }
  PetscCall(PetscDeviceContextSetCurrentContext(r->saved));
  if (!record) PetscCall(PetscDeviceContextWaitForContext(r->saved, r->dctx)); /* PETSc's stream after the run */
  r->saved = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJReplay_CUDA(void *rec)
{
  HJCudaRecording *r = (HJCudaRecording *)rec;
  cudaStream_t     stream;

  PetscFunctionBegin;
  PetscCheck(r && r->e, PETSC_COMM_SELF, PETSC_ERR_ORDER, "No recording to replay");
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaGraphLaunch(r->e, stream));
  PetscCall(PetscLogGpuFlops(r->flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJForget_CUDA(void **rec)
{
  HJCudaRecording *r = (HJCudaRecording *)*rec;

  PetscFunctionBegin;
  if (!r) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HJRecordingFree(r));
  PetscCall(PetscDeviceContextDestroy(&r->dctx));
  PetscCall(PetscFree(r));
  *rec = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
