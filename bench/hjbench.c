#include "hjbench.h"
#include <string.h>
#include <time.h>
#if defined(PETSC_HAVE_CUDA) && defined(HJBENCH_HAVE_CUDART)
  #include <cuda_runtime_api.h>
  #define HJB_CUDART 1
#endif

PetscErrorCode HJBenchPoisson(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscBool oned, DM *da, Mat *A)
{
  PetscInt               xs, ys, xm, ym, gxs, gys, gxm, gym, M, N;
  ISLocalToGlobalMapping ltog;
  const PetscInt        *g;
  const PetscScalar      diag = oned ? 2.0 : 4.0;

  PetscFunctionBeginUser;
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, nx, ny, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, da));
  PetscCall(DMSetFromOptions(*da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMDAGetInfo(*da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMSetMatrixPreallocateOnly(*da, PETSC_TRUE)); /* no zero fill: the loop below inserts every entry */
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMDAGetCorners(*da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAGetGhostCorners(*da, &gxs, &gys, NULL, &gxm, &gym, NULL));
  PetscCall(DMGetLocalToGlobalMapping(*da, &ltog));
  PetscCall(ISLocalToGlobalMappingGetIndices(ltog, &g));
  /* global indices straight from the local-to-global map: one MatSetValues per row (fast for 67M rows) */
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscInt l   = (i - gxs) + gxm * (j - gys);
      const PetscInt row = g[l];
      PetscInt       cols[5], n = 0;
      PetscScalar    v[5];
      if (!oned && j > 0) {
        cols[n] = g[l - gxm];
        v[n++]  = -1.0;
      }
      if (i > 0) {
        cols[n] = g[l - 1];
        v[n++]  = -1.0;
      }
      cols[n] = g[l];
      v[n++]  = diag;
      if (i < M - 1) {
        cols[n] = g[l + 1];
        v[n++]  = -1.0;
      }
      if (!oned && j < N - 1) {
        cols[n] = g[l + gxm];
        v[n++]  = -1.0;
      }
      PetscCall(MatSetValues(*A, 1, &row, n, cols, v, INSERT_VALUES));
    }
  PetscCall(ISLocalToGlobalMappingRestoreIndices(ltog, &g));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBenchIsCUDA(Vec v, PetscBool *iscuda)
{
  VecType t;

  PetscFunctionBeginUser;
  PetscCall(VecGetType(v, &t));
  *iscuda = (t && strstr(t, "cuda")) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBenchSync(Vec v)
{
  PetscBool iscuda = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(HJBenchIsCUDA(v, &iscuda));
  if (iscuda) {
#if defined(HJB_CUDART)
    PetscCheck(cudaDeviceSynchronize() == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_LIB, "hjbench: cudaDeviceSynchronize failed");
#else
    PetscReal nrm;
    PetscCall(VecNorm(v, NORM_1, &nrm));
#endif
  }
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)v)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJBenchDeviceQuery(Vec v, HJBenchDevice *d)
{
  PetscBool   iscuda = PETSC_FALSE;
  const char *env    = getenv("HJ_GPU");

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(PetscStrncpy(d->name, env && env[0] ? env : "host", sizeof(d->name)));
  PetscCall(HJBenchIsCUDA(v, &iscuda));
#if defined(HJB_CUDART)
  if (iscuda) {
    struct cudaDeviceProp p;
    int                   dev, val;
    PetscCheck(cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_LIB, "hjbench: cannot query the CUDA device");
    PetscCall(PetscStrncpy(d->name, p.name, sizeof(d->name)));
    d->sm_count    = p.multiProcessorCount;
    d->smem_per_sm = (long long)p.sharedMemPerMultiprocessor;
    d->l2_bytes    = p.l2CacheSize;
    /* clock rates through attributes: CUDA 13 removed the clock fields of cudaDeviceProp */
    if (cudaDeviceGetAttribute(&val, cudaDevAttrClockRate, dev) == cudaSuccess) d->clock_hz = 1e3 * val;
    if (cudaDeviceGetAttribute(&val, cudaDevAttrMemoryClockRate, dev) == cudaSuccess) d->mem_clock_hz = 1e3 * val;
    if (cudaDeviceGetAttribute(&val, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess) d->bus_width_bits = val;
  }
#else
  (void)iscuda;
#endif
  for (char *c = d->name; *c; c++)
    if (*c == ',') *c = ' '; /* CSV-safe */
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *HJBenchCommit(void)
{
  const char *c = getenv("HJ_COMMIT");
  return c && c[0] ? c : "unknown";
}

static int CmpDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double HJBenchMedian(PetscInt n, double *v)
{
  if (n <= 0) return NAN;
  qsort(v, (size_t)n, sizeof(double), CmpDouble);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

PetscErrorCode HJBenchCSVOpen(MPI_Comm comm, const char *path, const char *header, int argc, char **argv, const HJBenchDevice *dev, FILE **fp)
{
  PetscMPIInt rank;
  long        size = 0;
  int         same = 1;
  char        when[64];
  time_t      now = time(NULL);

  PetscFunctionBeginUser;
  *fp = NULL;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank || !path || !path[0]) PetscFunctionReturn(PETSC_SUCCESS);
  { /* the header again when the file's differs (an older driver's): summary.py reads the rows after a header by it */
    FILE *old = fopen(path, "r");
    if (old) {
      char first[1024] = "";
      if (fgets(first, sizeof(first), old)) {
        first[strcspn(first, "\r\n")] = 0;
        same                          = strcmp(first, header) == 0;
      }
      fclose(old);
    }
  }
  *fp = fopen(path, "a");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "hjbench: cannot open %s for appending", path);
  fseek(*fp, 0, SEEK_END);
  size = ftell(*fp);
  if (size <= 0 || !same) fprintf(*fp, "%s\n", header);
  strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&now));
  fprintf(*fp, "# command:");
  for (int i = 0; i < argc; i++) fprintf(*fp, " %s", argv[i]);
  fprintf(*fp, "\n# gpu: %s; commit: %s; PETSc %d.%d.%d; %s\n", dev->name, HJBenchCommit(), PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, when);
  fflush(*fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}
