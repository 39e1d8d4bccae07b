/* What one ghost exchange costs between two ranks on CUDA vectors, by part (suite b6an2; CUDA builds only).

   For a message of n scalars each way (a ghost plane of a 3D level: 257^2, 129^2, 65^2, 33^2): the device-to-host
   and host-to-device copies from pageable and from pinned host memory, a host-to-host MPI_Sendrecv, and PetscSF's
   broadcast of device memory (what hjacobi's exchange and PETSc's VecScatter call). Every time is a median of reps,
   each rep ended by a stream synchronization or MPI completion. Run with 2 ranks. */
#include <petscsf.h>
#include <cuda_runtime_api.h>
#include "hjbench.h"

#define CU(call) \
  do { \
    cudaError_t e_ = (call); \
    PetscCheck(e_ == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: %s", #call, cudaGetErrorString(e_)); \
  } while (0)

int main(int argc, char **argv)
{
  PetscMPIInt  rank, size;
  PetscInt     reps = 50, sizes[8] = {66049, 16641, 4225, 1089}, nsizes = 8;
  PetscBool    set;
  double       t[200];
  cudaStream_t s;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, "ghost exchange cost by part"));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "run with 2 ranks");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-sizes", sizes, &nsizes, &set));
  if (!set) nsizes = 4; /* not given: PETSc sets the count to 0 */
  reps = PetscMin(reps, 200);
  CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (PetscInt q = 0; q < nsizes; q++) {
    const PetscInt n     = sizes[q];
    const size_t   bytes = (size_t)n * sizeof(PetscScalar);
    PetscScalar   *d, *pg, *pg2, *pin, *pin2;
    double         dpg, hpg, dpin, hpin, mpi, sf, sfh, staged;
    PetscSF        g;
    PetscSFNode   *remote;
    PetscInt      *ilocal;

    CU(cudaMalloc((void **)&d, 2 * bytes));
    CU(cudaMemset(d, 0, 2 * bytes));
    PetscCall(PetscMalloc2(n, &pg, n, &pg2));
    for (PetscInt i = 0; i < n; i++) pg[i] = pg2[i] = 1.0;
    CU(cudaMallocHost((void **)&pin, 2 * bytes));
    pin2 = pin + n;
    for (PetscInt i = 0; i < 2 * n; i++) pin[i] = 1.0;
#define TIMEIT(expr, out) \
  do { \
    for (PetscInt r = 0; r < reps + 2; r++) { \
      double t0 = MPI_Wtime(); \
      expr; \
      if (r >= 2) t[r - 2] = MPI_Wtime() - t0; \
    } \
    out = HJBenchMedian(reps, t); \
  } while (0)
    TIMEIT(CU(cudaMemcpyAsync(pg, d, bytes, cudaMemcpyDeviceToHost, s)); CU(cudaStreamSynchronize(s)), dpg);
    TIMEIT(CU(cudaMemcpyAsync(d, pg, bytes, cudaMemcpyHostToDevice, s)); CU(cudaStreamSynchronize(s)), hpg);
    TIMEIT(CU(cudaMemcpyAsync(pin, d, bytes, cudaMemcpyDeviceToHost, s)); CU(cudaStreamSynchronize(s)), dpin);
    TIMEIT(CU(cudaMemcpyAsync(d, pin, bytes, cudaMemcpyHostToDevice, s)); CU(cudaStreamSynchronize(s)), hpin);
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    TIMEIT(PetscCallMPI(MPI_Sendrecv(pg, (int)n, MPIU_SCALAR, 1 - rank, 0, pg2, (int)n, MPIU_SCALAR, 1 - rank, 0, PETSC_COMM_WORLD, MPI_STATUS_IGNORE)), mpi);
    /* the SF: my n leaves (d2) are the other rank's n roots (d), in order */
    PetscCall(PetscMalloc1(n, &remote));
    PetscCall(PetscMalloc1(n, &ilocal));
    for (PetscInt i = 0; i < n; i++) {
      remote[i].rank  = 1 - rank;
      remote[i].index = i;
      ilocal[i]       = n + i;
    }
    PetscCall(PetscSFCreate(PETSC_COMM_WORLD, &g));
    PetscCall(PetscSFSetGraph(g, 2 * n, n, ilocal, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
    PetscCall(PetscSFSetUp(g));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    TIMEIT(PetscCall(PetscSFBcastWithMemTypeBegin(g, MPIU_SCALAR, PETSC_MEMTYPE_CUDA, d, PETSC_MEMTYPE_CUDA, d, MPI_REPLACE)); PetscCall(PetscSFBcastEnd(g, MPIU_SCALAR, d, d, MPI_REPLACE)); CU(cudaDeviceSynchronize()), sf);
    /* the same SF on pinned host memory (MPI only), and the staged path: copy to pinned memory, that, copy back */
    TIMEIT(PetscCall(PetscSFBcastWithMemTypeBegin(g, MPIU_SCALAR, PETSC_MEMTYPE_HOST, pin, PETSC_MEMTYPE_HOST, pin, MPI_REPLACE)); PetscCall(PetscSFBcastEnd(g, MPIU_SCALAR, pin, pin, MPI_REPLACE)), sfh);
    TIMEIT(CU(cudaMemcpyAsync(pin, d, bytes, cudaMemcpyDeviceToHost, s)); CU(cudaStreamSynchronize(s)); PetscCall(PetscSFBcastWithMemTypeBegin(g, MPIU_SCALAR, PETSC_MEMTYPE_HOST, pin, PETSC_MEMTYPE_HOST, pin, MPI_REPLACE)); PetscCall(PetscSFBcastEnd(g, MPIU_SCALAR, pin, pin, MPI_REPLACE)); CU(cudaMemcpyAsync(d + n, pin2, bytes, cudaMemcpyHostToDevice, s)); CU(cudaStreamSynchronize(s)), staged);
    PetscCall(PetscSFDestroy(&g));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "exchange n=%" PetscInt_FMT " bytes=%zu (rank 0, us): D2H pageable %.1f pinned %.1f | H2D pageable %.1f pinned %.1f | MPI_Sendrecv host %.1f | PetscSF device bcast %.1f | PetscSF pinned host bcast %.1f | staged through pinned memory %.1f\n", n, bytes, 1e6 * dpg, 1e6 * dpin, 1e6 * hpg, 1e6 * hpin, 1e6 * mpi, 1e6 * sf, 1e6 * sfh, 1e6 * staged));
    PetscCall(PetscFree2(pg, pg2));
    CU(cudaFreeHost(pin));
    CU(cudaFree(d));
  }
  CU(cudaStreamDestroy(s));
  PetscCall(PetscFinalize());
  return 0;
}
