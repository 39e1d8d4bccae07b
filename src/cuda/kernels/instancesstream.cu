/* The streaming 3D kernel's instantiations for PetscScalar (cuda/kernels/stream.cuh), apart from the other tables so
   that they compile in parallel: [var][k = 2, 4]. */
#include <petscsystypes.h>
#include "dispatch.cuh"
#include "stream.cuh"

namespace hjcuda
{
template <bool VAR, class T, int K>
cudaError_t StreamLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, T>(StreamKernel<VAR, T, K>, L, attr);
}

template <class T>
struct StreamEntries { /* [var][k = 2, 4]: 4 */
  template <int VAR, int LK>
  static constexpr Launcher<T> Get()
  {
    return &StreamLaunchOne<(bool)VAR, T, 2 << LK>;
  }
};

template <class T>
Launcher<T> StreamLauncher(const Launch<T> &L)
{
  if (L.dim != 3 || L.kind != hj::STAR || L.dof != 1 || L.transpose || (L.single && !std::is_same<InnerScalar<T, true>, T>::value) || (L.k != 2 && L.k != 4) || L.nthreads > hj::kStreamMaxThreads) return nullptr;
  return hj::DispatchTable<StreamEntries<T>, 2, 2>::At(L.var, L.k == 4);
}

template Launcher<PetscScalar> StreamLauncher<PetscScalar>(const Launch<PetscScalar> &);
} // namespace hjcuda
