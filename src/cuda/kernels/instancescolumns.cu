/* The column kernel's instantiations for PetscScalar (ColumnLauncher of cuda/kernels/dispatch.cuh), in their own
   translation unit so that they compile in parallel with the others. */
#include <petscsystypes.h>
#include "dispatch.cuh"

namespace hjcuda
{
template Launcher<PetscScalar> ColumnLauncher<PetscScalar>(const Launch<PetscScalar> &);
} // namespace hjcuda
