/* Shared helpers of the benchmark drivers (paper.c: B1/B2, roofline.c: B5; protocol in bench/README.md):
   the constant-coefficient Poisson operator on a DMDA, device synchronisation, the GPU's name and properties,
   medians, and the CSV preamble. Only the public API of petsc-hjacobi is used. */
#pragma once

#include <petscdmda.h>
#include <petscksp.h>
#include <petschjacobi.h>
#include <petschjacobi/compat.h>

#define HJB_TOL_KEEP HJ_TOL_KEEP

/* GPU properties that B5 needs (zero when unknown: no CUDA runtime or host vectors). */
typedef struct {
  char      name[256];
  int       sm_count;     /* multiprocessors */
  double    clock_hz;     /* peak SM clock */
  double    mem_clock_hz; /* peak memory clock */
  int       bus_width_bits;
  long long smem_per_sm; /* shared memory per SM, bytes */
  long long l2_bytes;
} HJBenchDevice;

/* The operator of B1/B2 on an nx x ny DMDA (star, width 1, zero Dirichlet boundary eliminated: edge rows just have
   fewer neighbours). oned = PETSC_FALSE: 5-point 2D Poisson, diagonal 4, off-diagonals -1.
   oned = PETSC_TRUE: ny independent 1D problems along x, diagonal 2, x off-diagonals -1, no y couplings.
   DMSetFromOptions() is called on the DMDA, so -dm_vec_type cuda -dm_mat_type aijcusparse put it on the GPU. */
PetscErrorCode HJBenchPoisson(MPI_Comm, PetscInt nx, PetscInt ny, PetscBool oned, DM *, Mat *);
/* PETSC_TRUE when v lives on a CUDA device */
PetscErrorCode HJBenchIsCUDA(Vec, PetscBool *);
/* Wait until the device work queued so far is done: cudaDeviceSynchronize() when the CUDA runtime is linked and v is a
   CUDA vector, VecNorm(v) (a blocking reduction) when it is CUDA but the runtime is not linked; then MPI_Barrier. */
PetscErrorCode HJBenchSync(Vec);
/* GPU name: the device's (cudaGetDeviceProperties) when v is a CUDA vector, else $HJ_GPU, else "host". */
PetscErrorCode HJBenchDeviceQuery(Vec, HJBenchDevice *);
/* $HJ_COMMIT or "unknown" */
const char *HJBenchCommit(void);
/* median of n values (the array is sorted in place) */
double HJBenchMedian(PetscInt, double *);
/* Open a CSV file for appending (rank 0; NULL elsewhere or when path is empty); a new or empty file gets `header`;
   every run appends comment lines ("# ...") with the command, GPU, commit, PETSc version and date. */
PetscErrorCode HJBenchCSVOpen(MPI_Comm, const char *path, const char *header, int argc, char **argv, const HJBenchDevice *, FILE **);
