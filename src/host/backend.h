/* The host backend (host/backend.cxx): its operations, and its cycles on host data other than HJSweeps.data, which the core
   runs for host vectors under a device backend (HJBackendCycles, src/backend/backends.cxx). */
#pragma once

#include <petschjacobi/private/hjbackend.h>

PETSC_INTERN const HJBackendOps HJBackendHost;

/* the host backend's cycles and transposed correction with *hostdata (made at first use, sized to the PC's current
   layout and tile; freed by HJHostDataDestroy) */
PETSC_INTERN PetscErrorCode HJHostCyclesWithData(PC, void **hostdata, const HJStencil *, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode HJHostCorrectTWithData(PC, void **hostdata, const HJStencil *, Vec, Vec, PetscBool);
PETSC_INTERN PetscErrorCode HJHostDataDestroy(void **hostdata);

/* host/transfer.cxx: a multigrid level's stencil transfer on host arrays (HJBackendOps.transfer) */
PETSC_INTERN PetscErrorCode HJTransfer_Host(const hj::TransferGrid *, PetscInt dim, PetscBool transpose, Vec x, Vec y, Vec w, PetscScalar *line, PetscLogDouble flops);
