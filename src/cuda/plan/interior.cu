/* Constant coefficients in the interior (the CUDA backend's plan, plan/plan.cu): whether every point of this rank at
   least kShell points from each non-periodic face of the domain has the same row, ex45's and most PETSc tutorials'
   operators (a constant stencil with Dirichlet rows, or rows that drop their boundary couplings, on the faces). A
   kernel that knows it reads no coefficient planes there: it moves x and b only, as for a constant stencil, and reads
   the planes in the boundary shell alone (Launch.cint). One pass over the planes on the device writes one result
   (the flag and the row, noff + 1 values) and one copy brings it back: the check runs at every PCSetUp, so it costs
   one device-to-host latency, not noff + 2. The planes stay the stencil, so the result is exact either way. */
#include <petscdevice_cuda.h>
#include "cuda/stencil.h"
#include "arith/extract.hpp"

namespace
{
constexpr int kMaxOff = 26; /* a 3D 27-point stencil's off-diagonal offsets: the most HJStencil holds */

/* what the check hands back, in one copy: the flag and point u0's row */
struct InteriorResult {
  int         differs;          /* some interior point's row differs from point u0's */
  PetscScalar row[kMaxOff + 1]; /* point u0's noff coefficients, then its inverse diagonal */
};

struct InteriorArgs {
  const PetscScalar *coef, *invdiag;
  long long          N, xm0, xm1, ilo[3], ihi[3], u0;
  int                noff;
  InteriorResult    *res; /* differs zeroed before the launch */
};

/* thread per owned point: an interior point whose row differs from point u0's sets res->differs; the thread of u0
   (an interior point, so always past the box test) copies its row into res->row */
__global__ void InteriorCheckKernel(InteriorArgs a)
{
  const long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (u >= a.N) return;
  const long long i = u % a.xm0, j = (u / a.xm0) % a.xm1, k = u / (a.xm0 * a.xm1);
  if (i < a.ilo[0] || i >= a.ihi[0] || j < a.ilo[1] || j >= a.ihi[1] || k < a.ilo[2] || k >= a.ihi[2]) return;
  if (u == a.u0) {
    for (int s = 0; s < a.noff; s++) a.res->row[s] = a.coef[(size_t)s * a.N + u];
    a.res->row[a.noff] = a.invdiag[u];
    return;
  }
  if (!hj::SameRow(a.coef, a.invdiag, a.N, a.noff, u, a.u0)) atomicOr(&a.res->differs, 1);
}
} // namespace

/* ilo, ihi: this rank's interior box in owned coordinates (empty: no interior here). On return *cint says whether
   every interior point has the row of the first one, ref[0..noff) its coefficients and ref[noff] its inverse diagonal. */
PetscErrorCode HJCudaStencilInterior(const HJCudaStencil *d, const long long ilo[3], const long long ihi[3], long long xm0, long long xm1, cudaStream_t stream, PetscBool *cint, PetscScalar *ref)
{
  InteriorArgs   a;
  InteriorResult res, *dres;

  PetscFunctionBegin;
  *cint = PETSC_FALSE;
  if (d->constant || d->dof != 1 || !d->coef || ilo[0] >= ihi[0] || ilo[1] >= ihi[1] || ilo[2] >= ihi[2]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(d->noff <= kMaxOff, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Stencil with %" PetscInt_FMT " offsets, the interior check holds at most %d", d->noff, kMaxOff);
  a.coef = d->coef, a.invdiag = d->invdiag, a.N = d->nlocal, a.xm0 = xm0, a.xm1 = xm1, a.noff = (int)d->noff;
  for (int k = 0; k < 3; k++) a.ilo[k] = ilo[k], a.ihi[k] = ihi[k];
  a.u0 = ilo[0] + xm0 * (ilo[1] + xm1 * ilo[2]);
  PetscCallCUDA(cudaMallocAsync((void **)&dres, sizeof(InteriorResult), stream));
  PetscCallCUDA(cudaMemsetAsync(&dres->differs, 0, sizeof(int), stream));
  a.res = dres;
  InteriorCheckKernel<<<(unsigned)((a.N + 255) / 256), 256, 0, stream>>>(a);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cudaMemcpyAsync(&res, dres, sizeof(InteriorResult), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaFreeAsync(dres, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  for (PetscInt s = 0; s <= d->noff; s++) ref[s] = res.row[s];
  *cint = (PetscBool)!res.differs;
  PetscFunctionReturn(PETSC_SUCCESS);
}
