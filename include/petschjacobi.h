/* Public interface of petsc-hjacobi: the hierarchical shared-memory Jacobi preconditioner PCHJACOBI. */
#pragma once

#include <petscpc.h>

/*J
   PCHJACOBI - "hjacobi": hierarchical (tiled, k sub-iterations, overlapping tiles) Jacobi on DMDA grids.

   Level: intermediate

.seealso: `PCHJacobiSetTileSize()`, `PCHJacobiSetOverlap()`, `PCHJacobiSetSubiterations()`, `PCJACOBI`
J*/
#define PCHJACOBI "hjacobi"

/*J
   PCHJMG - "hjmg": `PCMG` with richardson + `PCHJACOBI` level smoothers and the residual through the smoothers
   (optionally, a stored transpose of GPU interpolations for the restriction).

   Level: intermediate

.seealso: `PCMG`, `PCHJACOBI`
J*/
#define PCHJMG "hjmg"

/*J
   PCHJDENSE - "hjdense": a small operator's inverse formed at setup and applied as one dense product (on the GPU with
   CUDA vectors); `PCHJMG`'s coarse solve with CUDA vectors.

   Level: intermediate

.seealso: `PCHJMG`, `PCLU`, `PCREDUNDANT`
J*/
#define PCHJDENSE "hjdense"

/*E
   PCHJacobiBackend - where `PCHJACOBI` runs its cycles

$  `PC_HJACOBI_BACKEND_AUTO` - CUDA when the vectors live on a CUDA device, else host
$  `PC_HJACOBI_BACKEND_HOST` - the host (CPU) reference backend
$  `PC_HJACOBI_BACKEND_CUDA` - the CUDA backend; needs PETSc with CUDA and CUDA vectors

   Level: intermediate

.seealso: `PCHJacobiSetBackend()`
E*/
typedef enum {
  PC_HJACOBI_BACKEND_AUTO,
  PC_HJACOBI_BACKEND_HOST,
  PC_HJACOBI_BACKEND_CUDA
} PCHJacobiBackend;
PETSC_EXTERN const char *const PCHJacobiBackends[];

/*E
   PCHJacobiInnerPrecision - the precision of the sub-iterations inside a tile

$  `PC_HJACOBI_INNER_PRECISION_NATIVE` - `PetscScalar`
$  `PC_HJACOBI_INNER_PRECISION_SINGLE` - single precision sub-iterations (CUDA backend), cycles still in `PetscScalar`

   Level: advanced

.seealso: `PCHJacobiSetInnerPrecision()`
E*/
typedef enum {
  PC_HJACOBI_INNER_PRECISION_NATIVE,
  PC_HJACOBI_INNER_PRECISION_SINGLE
} PCHJacobiInnerPrecision;
PETSC_EXTERN const char *const PCHJacobiInnerPrecisions[];

/*E
   PCHJacobiWeightType - the weights w_1..w_k of the k sweeps of a tile (doc/algorithm.md, "Per-sweep weights w_1..w_k")

$  `PC_HJACOBI_WEIGHTS_AUTO`      - by role: constant for a multigrid smoother (a `PCMG` level), for k = 1 and for
$                                   overlap > 0; chebyshev_squared elsewhere (Krylov preconditioner, Richardson solver),
$                                   its interval no wider than its degree resolves
$  `PC_HJACOBI_WEIGHTS_CONSTANT`  - w_j = omega for every sweep (the paper)
$  `PC_HJACOBI_WEIGHTS_CHEBYSHEV` - w_j = 1/l_j, l_j the k Chebyshev nodes of [lo, hi] in Leja order: the k sweeps are the
$                                   Chebyshev polynomial of degree k of the tile's operator (doc/algorithm.md)
$  `PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED` - each of the k/2 Chebyshev nodes twice (and 1/hi for odd k): the square of the
$                                   Chebyshev polynomial of degree k/2, which is never negative; the same preconditioner
$                                   as chebyshev up to a scalar factor (Krylov methods do not see the difference), and a
$                                   convergent Richardson iteration with overlap 0 where chebyshev's can diverge

   Level: intermediate

.seealso: `PCHJacobiSetWeights()`, `PCHJacobiSetChebyshevInterval()`
E*/
typedef enum {
  PC_HJACOBI_WEIGHTS_AUTO,
  PC_HJACOBI_WEIGHTS_CONSTANT,
  PC_HJACOBI_WEIGHTS_CHEBYSHEV,
  PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED
} PCHJacobiWeightType;
PETSC_EXTERN const char *const PCHJacobiWeightTypes[];

PETSC_EXTERN PetscErrorCode PCHJacobiInitializePackage(void);
PETSC_EXTERN PetscErrorCode PCHJacobiFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PCCreate_HJacobi(PC);
PETSC_EXTERN PetscErrorCode PCCreate_HJMG(PC);
PETSC_EXTERN PetscErrorCode PCCreate_HJDense(PC);
PETSC_EXTERN PetscErrorCode PCHJDenseGetPC(PC, PC *);

PETSC_EXTERN PetscErrorCode PCHJacobiSetTileSize(PC, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCHJacobiGetTileSize(PC, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetOverlap(PC, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCHJacobiGetOverlap(PC, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetSubiterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCHJacobiGetSubiterations(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetCycles(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCHJacobiGetCycles(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetOmega(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCHJacobiGetOmega(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetOmegaRecompute(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCHJacobiGetOmegaRecompute(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetWeights(PC, PCHJacobiWeightType);
PETSC_EXTERN PetscErrorCode PCHJacobiGetWeights(PC, PCHJacobiWeightType *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetChebyshevInterval(PC, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PCHJacobiGetChebyshevInterval(PC, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode PCHJacobiGetSweepWeights(PC, PetscInt *, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode PCHJacobiSetBackend(PC, PCHJacobiBackend);
PETSC_EXTERN PetscErrorCode PCHJacobiGetBackend(PC, PCHJacobiBackend *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetInnerPrecision(PC, PCHJacobiInnerPrecision);
PETSC_EXTERN PetscErrorCode PCHJacobiGetInnerPrecision(PC, PCHJacobiInnerPrecision *);
PETSC_EXTERN PetscErrorCode PCHJacobiSetRichardsonCheck(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCHJacobiGetRichardsonCheck(PC, PetscInt *);
