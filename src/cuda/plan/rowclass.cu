/* Row classes for the column kernel (the CUDA backend's plan, plan/plan.cu; cuda/kernels/columns.cuh): whether the rows of
   a variable 3D star operator (dof 1) take at most hj::kRowClasses distinct values, as a constant stencil with its
   boundary rows does (mg3d and ex45: the Laplacian inside, Dirichlet rows on the faces), and if so the class of every
   point (a byte) and the table of the rows. The kernel then reads a byte per point instead of its coefficient planes,
   and no level waits for a coefficient load. Row 0 is the interior row the plan found (ref, Launch.cint), the others
   are added in the order found: a pass over the points compares each row with the table (exactly: the classes hold
   the same values as the planes, so results are bit for bit those of the planes) and reports the first point whose
   row is not in it; that row joins the table and the pass is repeated, until every point has a class or the table is
   full (then no classes: the kernel reads the planes). */
#include <petscdevice_cuda.h>
#include "cuda/stencil.h"
#include "arith/tilefit.hpp"

namespace
{
constexpr int kRow = 8; /* a table row: the 6 coefficients (hj::Offset order), the inverse diagonal, a pad */

struct ClassArgs {
  const PetscScalar  *coef, *invdiag, *tab; /* tab: nrows rows of kRow */
  long long           N;
  int                 nrows;
  unsigned char      *cls;
  unsigned long long *first; /* the first point whose row is in no class (ULLONG_MAX: none) */
};

__global__ void RowClassKernel(ClassArgs a)
{
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < a.N; u += (long long)gridDim.x * blockDim.x) {
    int c = 0;
    for (; c < a.nrows; c++) {
      bool same = a.invdiag[u] == a.tab[kRow * c + 6];
      for (int s = 0; s < 6 && same; s++) same = a.coef[s * a.N + u] == a.tab[kRow * c + s];
      if (same) break;
    }
    if (c < a.nrows) a.cls[u] = (unsigned char)c;
    else atomicMin(a.first, (unsigned long long)u);
  }
}

/* row of point u into tab[0..kRow) (one thread) */
__global__ void RowCopyKernel(const PetscScalar *coef, const PetscScalar *invdiag, long long N, long long u, PetscScalar *row)
{
  for (int s = 0; s < 6; s++) row[s] = coef[s * N + u];
  row[6] = invdiag[u];
  row[7] = 0;
}
} // namespace

/* d: a variable 3D star stencil of dof 1 on the device; ref: its interior row (6 coefficients, the inverse diagonal).
   On return *cls (nlocal bytes) and *tab (hj::kRowClasses rows of 8 values, the unused ones zero) are device arrays
   the caller frees, with *nrows rows used; or both NULL when the rows take more than hj::kRowClasses values. */
PetscErrorCode HJCudaRowClasses(const HJCudaStencil *d, const PetscScalar *ref, cudaStream_t stream, unsigned char **cls, PetscScalar **tab, PetscInt *nrows)
{
  PetscScalar        htab[hj::kRowClasses * kRow] = {};
  unsigned long long first, *dfirst;
  ClassArgs          a;

  PetscFunctionBegin;
  *cls   = NULL;
  *tab   = NULL;
  *nrows = 0;
  if (d->constant || d->dof != 1 || d->noff != 6 || !d->coef || d->nlocal <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (int s = 0; s < 7; s++) htab[s] = ref[s];
  PetscCallCUDA(cudaMallocAsync((void **)cls, (size_t)d->nlocal, stream));
  PetscCallCUDA(cudaMallocAsync((void **)tab, sizeof(htab), stream));
  PetscCallCUDA(cudaMallocAsync((void **)&dfirst, sizeof(first), stream));
  PetscCallCUDA(cudaMemcpyAsync(*tab, htab, sizeof(htab), cudaMemcpyHostToDevice, stream));
  a.coef = d->coef, a.invdiag = d->invdiag, a.tab = *tab, a.N = d->nlocal, a.cls = *cls, a.first = dfirst;
  for (a.nrows = 1;; a.nrows++) {
    const long long nb = (a.N + 255) / 256;
    first              = ~0ULL;
    PetscCallCUDA(cudaMemcpyAsync(dfirst, &first, sizeof(first), cudaMemcpyHostToDevice, stream));
    RowClassKernel<<<(unsigned)(nb < 65535 ? nb : 65535), 256, 0, stream>>>(a);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpyAsync(&first, dfirst, sizeof(first), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
    if (first == ~0ULL || a.nrows == hj::kRowClasses) break;
    RowCopyKernel<<<1, 1, 0, stream>>>(d->coef, d->invdiag, a.N, (long long)first, *tab + (size_t)kRow * a.nrows); /* the next row */
    PetscCallCUDA(cudaGetLastError());
  }
  PetscCallCUDA(cudaFreeAsync(dfirst, stream));
  if (first != ~0ULL) { /* more rows than the table holds */
    PetscCallCUDA(cudaFreeAsync(*cls, stream));
    PetscCallCUDA(cudaFreeAsync(*tab, stream));
    *cls = NULL;
    *tab = NULL;
  } else *nrows = a.nrows;
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}
