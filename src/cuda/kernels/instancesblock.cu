/* The point-block (dof > 1) kernel instantiations for PetscScalar (BlockLauncher of cuda/kernels/dispatch.cuh), in their own
   translation unit so that they compile in parallel with the scalar ones. */
#include <petscsystypes.h>
#include "dispatch.cuh"

namespace hjcuda
{
template Launcher<PetscScalar> BlockLauncher<PetscScalar>(const Launch<PetscScalar> &);
template cudaError_t           InvertBlocks<PetscScalar>(long long, int, const PetscScalar *, PetscScalar *, cudaStream_t);
} // namespace hjcuda
