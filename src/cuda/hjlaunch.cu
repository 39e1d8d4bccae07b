/* The kernel instantiations of the CUDA backend for PetscScalar (the dispatch tables of hjdispatch.cuh). */
#include <petscsystypes.h>
#include "hjdispatch.cuh"

namespace hjcuda
{
template cudaError_t TileLaunch<PetscScalar>(const Launch<PetscScalar> &, cudaFuncAttributes *);
template cudaError_t ClassicLaunch<PetscScalar>(const Launch<PetscScalar> &, cudaFuncAttributes *);
template cudaError_t PadCopy<PetscScalar>(int, int, const Box &, const PetscScalar *, PetscScalar *, cudaStream_t);
template cudaError_t ConvertToFloat<PetscScalar>(long long, const PetscScalar *, float *, cudaStream_t);
} // namespace hjcuda
