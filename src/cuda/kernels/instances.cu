/* The kernel instantiations of the CUDA backend for PetscScalar (the dispatch tables of cuda/kernels/dispatch.cuh). */
#include <petscsystypes.h>
#include "dispatch.cuh"

namespace hjcuda
{
template Launcher<PetscScalar> TileLauncher<PetscScalar>(const Launch<PetscScalar> &);
template Launcher<PetscScalar> ClassicLauncher<PetscScalar>(const Launch<PetscScalar> &);
template cudaError_t           PadCopy<PetscScalar>(int, int, const Box &, const PetscScalar *, PetscScalar *, cudaStream_t);
template cudaError_t           ConvertToFloat<PetscScalar>(long long, const PetscScalar *, float *, cudaStream_t);
} // namespace hjcuda
