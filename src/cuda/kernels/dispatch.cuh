/* The launchers of the CUDA backend: each kernel instantiation launched from the descriptor (Launch::Params), and
   the tables that turn the descriptor's run-time parameters (dimension and stencil kind, constant/variable
   coefficients, inner precision, points per thread, dof) into one instantiation (hj::DispatchTable, shared with the
   host backend), so every combination exists exactly once and no index is computed by hand. */
#pragma once

#include <type_traits>
#include "arith/dispatch.hpp"
#include "kernels.cuh"
#include "block.cuh"
#include "columns.cuh"

namespace hjcuda
{
/* (dim, kind) -> 0..4: 1D (star and box are the same two offsets), 2D star, 2D box, 3D star, 3D box */
constexpr int DimKindIndex(int dim, int kind)
{
  return dim == 1 ? 0 : 2 * dim - 3 + (kind == hj::BOX);
}
constexpr int DimOf(int dk)
{
  return dk == 0 ? 1 : (dk <= 2 ? 2 : 3);
}
constexpr int KindOf(int dk)
{
  return (dk == 2 || dk == 4) ? hj::BOX : hj::STAR;
}
constexpr int Log2PPT(int ppt)
{
  return ppt == 1 ? 0 : (ppt == 2 ? 1 : (ppt == 4 ? 2 : 3));
}

/* Classic-kernel block: up to kClassicRows rows of threads (the rows above and below a point are then mostly L1
   hits), the rest along x in multiples of 32. */
inline void ClassicGrid(const Box &box, dim3 *grid, dim3 *block)
{
  const long long by = box.xm1 < kClassicRows ? box.xm1 : kClassicRows;
  long long       bx = (box.xm0 + 31) / 32 * 32;
  if (bx > kClassicBlockSize / by / 32 * 32) bx = kClassicBlockSize / by / 32 * 32;
  const long long gy = (box.xm1 + by - 1) / by, gz = box.xm2;
  *block = dim3((unsigned)bx, (unsigned)by, 1);
  *grid  = dim3((unsigned)((box.xm0 + bx - 1) / bx), (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(gz < 65535 ? gz : 65535));
}

/* Setup of one instantiation (Launcher with attr): its attributes, and where its dynamic shared-memory limit is below
   smem, the limit raised to the most the device allows it. Raising to the most, not to smem, means a later setup never
   lowers the limit another PC's plan (another multigrid level, say) relies on; the limit only bounds what a launch may
   ask for, each launch still gets the shared memory it asks for. */
template <class K>
cudaError_t PrepareKernel(K kernel, size_t smem, cudaFuncAttributes *attr)
{
  int         dev, optin;
  cudaError_t err = cudaFuncGetAttributes(attr, kernel);

  if (err != cudaSuccess || smem <= (size_t)attr->maxDynamicSharedSizeBytes) return err;
  if ((err = cudaGetDevice(&dev)) != cudaSuccess) return err;
  if ((err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess) return err;
  err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)attr->sharedSizeBytes);
  return err != cudaSuccess ? err : cudaFuncGetAttributes(attr, kernel);
}

/* Launch one tile-kernel instantiation (TileKernel, TileKernelStrip or TileKernelBlock: all take TileParams) with
   L's grid, block and shared memory; with attr only prepare it (PrepareKernel). */
template <class T, class S>
cudaError_t TileLaunchKernel(void (*kernel)(TileParams<T, S>), const Launch<T> &L, cudaFuncAttributes *attr)
{
  if (attr) return PrepareKernel(kernel, L.smem, attr);
  kernel<<<(unsigned)L.ntot, L.nthreads, L.smem, L.stream>>>(L.template Params<S>());
  return cudaGetLastError();
}

template <int DIM, int KIND, bool VAR, class T, class S, int PPT>
cudaError_t TileLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, S>(TileKernel<DIM, KIND, VAR, T, S, PPT>, L, attr);
}

template <bool VAR, class T, class S, int R>
cudaError_t StripLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, S>(TileKernelStrip<VAR, T, S, R>, L, attr);
}

template <int MODE, class T, int K, int FIX>
cudaError_t ColumnLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, T>(ColumnKernel<MODE, T, K, FIX>, L, attr);
}

template <int DIM, int KIND, int DOF, class T, class S>
cudaError_t BlockLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  return TileLaunchKernel<T, S>(TileKernelBlock<DIM, KIND, DOF, T, S>, L, attr);
}

template <int DIM, int KIND, bool VAR, class T>
cudaError_t ClassicLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  auto kernel = ClassicKernel<DIM, KIND, VAR, T>;
  if (attr) return PrepareKernel(kernel, 0, attr); /* no dynamic shared memory */

  dim3 grid, block;
  ClassicGrid(L.box, &grid, &block);
  kernel<<<grid, block, 0, L.stream>>>(L.template Params<T>(), L.omega);
  return cudaGetLastError();
}

/* The tables' entries (hj::DispatchTable): dk = DimKindIndex(dim, kind), single = the inner precision (with T = float,
   or complex T, the single entries name the same instantiations as the native ones) */
template <class T>
struct TileEntries { /* [dk][var][single][log2 ppt]: 80 */
  template <int DK, int VAR, int SINGLE, int LPPT>
  static constexpr Launcher<T> Get()
  {
    return &TileLaunchOne<DimOf(DK), KindOf(DK), (bool)VAR, T, InnerScalar<T, (bool)SINGLE>, 1 << LPPT>;
  }
};
template <class T>
struct StripEntries { /* [var][single][R = 4, 8] (2D star): 8 */
  template <int VAR, int SINGLE, int LR>
  static constexpr Launcher<T> Get()
  {
    return &StripLaunchOne<(bool)VAR, T, InnerScalar<T, (bool)SINGLE>, 4 << LR>;
  }
};
template <class T>
struct ColumnEntries { /* [mode][fixed plane][k - 1] (3D star, dof 1, native; mode: constant, planes, row classes): 3 x 2 x kColumnMaxK */
  template <int MODE, int FIX, int KM1>
  static constexpr Launcher<T> Get()
  {
    return &ColumnLaunchOne<MODE, T, KM1 + 1, FIX>;
  }
};
template <class T>
struct ClassicEntries { /* [dk][var]: 10 */
  template <int DK, int VAR>
  static constexpr Launcher<T> Get()
  {
    return &ClassicLaunchOne<DimOf(DK), KindOf(DK), (bool)VAR, T>;
  }
};
template <class T>
struct BlockEntries { /* [dof - 2][dk][single], dof 2..kBlockMaxDof: 70 */
  template <int DOF2, int DK, int SINGLE>
  static constexpr Launcher<T> Get()
  {
    return &BlockLaunchOne<DimOf(DK), KindOf(DK), DOF2 + 2, T, InnerScalar<T, (bool)SINGLE>>;
  }
};

template <class T>
Launcher<T> TileLauncher(const Launch<T> &L)
{
  if (L.transpose && (L.regs || !L.xzero)) return nullptr; /* the register-strip kernel has no transposed mode */
  if (L.regs) {
    const bool single = L.single && !std::is_same<T, float>::value;
    if (L.dim != 2 || L.kind != hj::STAR || (L.ppt != 4 && L.ppt != 8) || L.nthreads > RegMaxThreads(L.ppt, L.var, single ? (int)sizeof(float) : (int)sizeof(T))) return nullptr;
    return hj::DispatchTable<StripEntries<T>, 2, 2, 2>::At(L.var, L.single, L.ppt == 8);
  }
  if (L.dim < 1 || L.dim > 3 || L.ppt < 1 || L.ppt > kMaxPointsPerThread || (L.ppt & (L.ppt - 1)) || L.nthreads > kTileMaxThreads) return nullptr;
  return hj::DispatchTable<TileEntries<T>, 5, 2, 2, 4>::At(DimKindIndex(L.dim, L.kind), L.var, L.single, Log2PPT(L.ppt));
}

template <class T>
Launcher<T> ColumnLauncher(const Launch<T> &L)
{
  if (L.dim != 3 || L.kind != hj::STAR || L.dof != 1 || L.single || L.nthreads > hj::kColumnMaxThreads || (L.transpose && !L.xzero)) return nullptr;
  if (L.colfix && L.nthreads != hj::kColumnFixThreads) return nullptr;
  return hj::DispatchTable<ColumnEntries<T>, 3, 2, hj::kColumnMaxK>::At(!L.var ? kColumnConstant : (L.rowclass ? kColumnClasses : kColumnPlanes), (int)L.colfix, L.k - 1);
}

template <class T>
Launcher<T> ClassicLauncher(const Launch<T> &L)
{
  if (L.dim < 1 || L.dim > 3 || L.transpose) return nullptr;
  return hj::DispatchTable<ClassicEntries<T>, 5, 2>::At(DimKindIndex(L.dim, L.kind), L.var);
}

template <class T>
Launcher<T> BlockLauncher(const Launch<T> &L)
{
  if (L.dim < 1 || L.dim > 3 || L.dof < 2 || L.dof > kBlockMaxDof || L.nthreads > kBlockMaxThreads || !L.var || (L.transpose && !L.xzero)) return nullptr; /* blocks are never constant */
  return hj::DispatchTable<BlockEntries<T>, kBlockMaxDof - 1, 5, 2>::At(L.dof - 2, DimKindIndex(L.dim, L.kind), L.single);
}

template <class T>
cudaError_t PadCopy(int dim, int dof, const Box &box, const T *x, T *xpad, cudaStream_t stream)
{
  using Kernel                    = void (*)(const T *, T *, Box, int);
  static constexpr Kernel table[] = {PadCopyKernel<1, T>, PadCopyKernel<2, T>, PadCopyKernel<3, T>};
  const Box               sbox    = {box.xm0 * dof, box.xm1, box.xm2, box.ext0 * dof, box.ext1}; /* rows of scalars */
  dim3                    grid, block;
  if (dim < 1 || dim > 3 || dof < 1) return cudaErrorInvalidValue;
  const long long gx = (sbox.xm0 * sbox.xm1 + kClassicBlockSize - 1) / kClassicBlockSize; /* the plane flattened (PadCopyKernel) */
  block              = dim3(kClassicBlockSize, 1, 1);
  grid               = dim3((unsigned)(gx < INT_MAX ? gx : INT_MAX), 1, (unsigned)(sbox.xm2 < 65535 ? sbox.xm2 : 65535));
  table[dim - 1]<<<grid, block, 0, stream>>>(x, xpad, sbox, dof);
  return cudaGetLastError();
}

template <class T>
cudaError_t InvertBlocks(long long n, int dof, const T *in, T *out, cudaStream_t stream)
{
  if (dof < 2 || dof > kBlockMaxDof) return cudaErrorInvalidValue;
  if (n <= 0) return cudaSuccess;
  const long long nb = (n + 127) / 128;
  InvertBlocksKernel<T><<<(unsigned)(nb < 65536 ? nb : 65536), 128, 0, stream>>>(n, dof, in, out);
  return cudaGetLastError();
}

template <class T>
cudaError_t ConvertToFloat(long long n, const T *from, float *to, cudaStream_t stream)
{
  if constexpr (hj::IsComplex<T>::value) return cudaErrorNotSupported; /* no single mode for complex scalars */
  else {
    if (n <= 0) return cudaSuccess;
    const long long nb = (n + 255) / 256;
    ConvertKernel<float, T><<<(unsigned)(nb < 65536 ? nb : 65536), 256, 0, stream>>>(n, from, to);
    return cudaGetLastError();
  }
}
} // namespace hjcuda
