/* The host backend's stencil transfers for PCHJMG (HJBackendOps.transfer; src/mg/transfer.cxx decides when they are
   a level's interpolation): plain loops over the output's owned box with the point formulas and weights of
   src/arith/transfer.hpp, which the CUDA kernels share. */
#include "host/backend.h"
#include "arith/transfer.hpp"

namespace
{
/* Row by row of the output's box: the columns of a row (src/arith/transfer.hpp) once into a line over the input's x
   range, then the row's points from the line */
template <int DIM>
void TransferLoops(const hj::TransferGrid &g, bool transpose, const PetscScalar *x, const PetscScalar *y, PetscScalar *w, PetscScalar *line)
{
  const int  dof = g.dof;
  const auto in  = hj::InputOf(g, x);

  for (long long lk = 0; lk < g.om[2]; lk++)
    for (long long lj = 0; lj < g.om[1]; lj++) {
      const long long j = g.os[1] + lj, k = g.os[2] + lk, row = g.om[0] * (lj + g.om[1] * lk) * dof;
      hj::Parents     py = {}, pz = {};
      if (!transpose) hj::RowParents<DIM>(g, j, k, &py, &pz);
      for (int c = 0; c < dof; c++) {
        const auto col = [&](long long q) { return line[q - g.is[0]]; };
        if (transpose)
          for (long long q = 0; q < g.im[0]; q++) line[q] = hj::RestrictColumn<DIM, PetscScalar>(in, g, g.is[0] + q, j, k, c);
        else
          for (long long q = 0; q < g.im[0]; q++) line[q] = hj::InterpolateColumn<DIM, PetscScalar>(in, py, pz, g.is[0] + q, c);
        for (long long li = 0; li < g.om[0]; li++) {
          const long long   i = g.os[0] + li, u = row + li * dof + c;
          const PetscScalar v = transpose ? hj::RestrictFromColumns<PetscScalar>(col, g, i) : hj::InterpolateFromColumns<PetscScalar>(col, hj::FineParents(i, g.mc[0], g.periodic[0], g.wrap), py.w * pz.w);
          w[u]                = y ? y[u] + v : v;
        }
      }
    }
}

} // namespace

PetscErrorCode HJTransfer_Host(const hj::TransferGrid *g, PetscInt dim, PetscBool transpose, Vec x, Vec y, Vec w, PetscScalar *line, PetscLogDouble flops)
{
  const PetscScalar *xa, *ya = NULL;
  PetscScalar       *wa;

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No transfer for dimension %" PetscInt_FMT, dim);
  PetscCall(VecGetArrayRead(x, &xa));
  if (y == w) PetscCall(VecGetArray(w, &wa));
  else {
    if (y) PetscCall(VecGetArrayRead(y, &ya));
    PetscCall(VecGetArrayWrite(w, &wa));
  }
  if (y == w) ya = wa;
  if (dim == 1) TransferLoops<1>(*g, transpose, xa, ya, wa, line);
  else if (dim == 2) TransferLoops<2>(*g, transpose, xa, ya, wa, line);
  else TransferLoops<3>(*g, transpose, xa, ya, wa, line);
  PetscCall(PetscLogFlops(flops));
  if (y == w) PetscCall(VecRestoreArray(w, &wa));
  else {
    if (y) PetscCall(VecRestoreArrayRead(y, &ya));
    PetscCall(VecRestoreArrayWrite(w, &wa));
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}
