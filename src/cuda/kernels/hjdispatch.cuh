/* The one run-time-to-template dispatch of the CUDA backend: tables of launchers indexed by
   (dimension and stencil kind, constant/variable coefficients, inner precision, points per thread), built at
   compile time from index sequences, so every combination exists exactly once and no case is written by hand. */
#pragma once

#include <array>
#include <type_traits>
#include <utility>
#include "hjkernels.cuh"

namespace hjcuda
{
/* (dim, kind) -> 0..4: 1D (star and box are the same two offsets), 2D star, 2D box, 3D star, 3D box */
constexpr int DimKindIndex(int dim, int kind) { return dim == 1 ? 0 : 2 * dim - 3 + (kind == hj::BOX); }
constexpr int DimOf(int dk) { return dk == 0 ? 1 : (dk <= 2 ? 2 : 3); }
constexpr int KindOf(int dk) { return (dk == 2 || dk == 4) ? hj::BOX : hj::STAR; }
constexpr int Log2PPT(int ppt) { return ppt == 1 ? 0 : (ppt == 2 ? 1 : (ppt == 4 ? 2 : 3)); }

/* Classic-kernel block: up to kClassicRows rows of threads (the rows above and below a point are then mostly L1
   hits), the rest along x in multiples of 32. */
inline void ClassicGrid(const Box &box, dim3 *grid, dim3 *block)
{
  const long long by = box.xm1 < kClassicRows ? box.xm1 : kClassicRows;
  long long       bx = (box.xm0 + 31) / 32 * 32;
  if (bx > kClassicBlockSize / by / 32 * 32) bx = kClassicBlockSize / by / 32 * 32;
  const long long gy = (box.xm1 + by - 1) / by, gz = box.xm2;
  *block             = dim3((unsigned)bx, (unsigned)by, 1);
  *grid              = dim3((unsigned)((box.xm0 + bx - 1) / bx), (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(gz < 65535 ? gz : 65535));
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

  TileParams<T, S> P;
  P.xpad    = L.xpad + L.xshift;
  P.b       = L.b;
  P.y       = L.y;
  P.coef    = nullptr;
  P.invdiag = nullptr;
  if constexpr (std::is_same<S, T>::value) {
    P.coef    = L.coef;
    P.invdiag = L.invdiag;
  } else {
    P.coef    = L.coeff;
    P.invdiag = L.invdiagf;
  }
  for (int s = 0; s < 26; s++) P.cst.c[s] = (S)L.cst.c[s];
  P.cst.invdiag = (S)L.cst.invdiag;
  P.coefT       = L.coef; /* the correction form's residual (kCorrection) */
  P.invdiagT    = L.invdiag;
  P.diagT       = L.diag;
  P.cstT        = L.cst;
  if constexpr (std::is_same<S, T>::value) P.w = L.w;
  else P.w = L.wf;
  P.nlocal      = L.nlocal;
  P.box         = L.box;
  for (int d = 0; d < 3; d++) {
    P.t[d]      = L.t[d];
    P.o[d]      = L.o[d];
    P.ntiles[d] = L.ntiles[d];
  }
  P.tileids   = L.tileids;
  P.k         = L.k;
  P.cint      = L.cint;
  for (int d = 0; d < 3; d++) P.ilo[d] = L.ilo[d], P.ihi[d] = L.ihi[d];
  P.xzero     = L.xzero;
  P.transpose = L.transpose;
  kernel<<<(unsigned)L.ntot, L.nthreads, L.smem, L.stream>>>(P);
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

template <int DIM, int KIND, bool VAR, class T>
cudaError_t ClassicLaunchOne(const Launch<T> &L, cudaFuncAttributes *attr)
{
  auto kernel = ClassicKernel<DIM, KIND, VAR, T>;
  if (attr) return PrepareKernel(kernel, 0, attr); /* no dynamic shared memory */

  ClassicParams<T> P;
  P.xpad    = L.xpad;
  P.b       = L.b;
  P.y       = L.y;
  P.coef    = L.coef;
  P.invdiag = L.invdiag;
  P.cst     = L.cst;
  P.omega   = L.omega;
  P.nlocal  = L.nlocal;
  P.box     = L.box;
  P.xzero   = L.xzero;
  dim3 grid, block;
  ClassicGrid(L.box, &grid, &block);
  kernel<<<grid, block, 0, L.stream>>>(P);
  return cudaGetLastError();
}

/* Tile table index: ((dk*2 + var)*2 + single)*4 + log2(ppt); 5*2*2*4 = 80 entries. With T = float the single
   entries name the same instantiations as the native ones. */
template <class T, std::size_t I>
constexpr Launcher<T> TileEntry()
{
  constexpr int  lppt   = I % 4;
  constexpr bool single = (I / 4) % 2;
  constexpr bool var    = (I / 8) % 2;
  constexpr int  dk     = (int)(I / 16);
  using S               = InnerScalar<T, single>;
  return &TileLaunchOne<DimOf(dk), KindOf(dk), var, T, S, 1 << lppt>;
}
template <class T, std::size_t... I>
constexpr std::array<Launcher<T>, sizeof...(I)> TileTable(std::index_sequence<I...>)
{
  return {{TileEntry<T, I>()...}};
}

/* Register-strip table (2D star stencils) index: (var*2 + single)*2 + log2(R/4), R = 4, 8; 8 entries. */
template <class T, std::size_t I>
constexpr Launcher<T> StripEntry()
{
  constexpr int  R      = 4 << (I % 2);
  constexpr bool single = (I / 2) % 2;
  constexpr bool var    = (I / 4) % 2;
  using S               = InnerScalar<T, single>;
  return &StripLaunchOne<var, T, S, R>;
}
template <class T, std::size_t... I>
constexpr std::array<Launcher<T>, sizeof...(I)> StripTable(std::index_sequence<I...>)
{
  return {{StripEntry<T, I>()...}};
}

/* Classic table index: dk*2 + var; 10 entries. */
template <class T, std::size_t I>
constexpr Launcher<T> ClassicEntry()
{
  return &ClassicLaunchOne<DimOf((int)(I / 2)), KindOf((int)(I / 2)), (bool)(I % 2), T>;
}
template <class T, std::size_t... I>
constexpr std::array<Launcher<T>, sizeof...(I)> ClassicTable(std::index_sequence<I...>)
{
  return {{ClassicEntry<T, I>()...}};
}

template <class T>
Launcher<T> TileLauncher(const Launch<T> &L)
{
  static constexpr auto table = TileTable<T>(std::make_index_sequence<80>{});
  static constexpr auto strips = StripTable<T>(std::make_index_sequence<8>{});
  if (L.transpose && (L.regs || !L.xzero)) return nullptr; /* the register-strip kernel has no transposed mode */
  if (L.regs) {
    const bool single = L.single && !std::is_same<T, float>::value;
    if (L.dim != 2 || L.kind != hj::STAR || (L.ppt != 4 && L.ppt != 8) || L.nthreads > RegMaxThreads(L.ppt, L.var, single ? (int)sizeof(float) : (int)sizeof(T))) return nullptr;
    return strips[((int)L.var * 2 + (int)L.single) * 2 + (L.ppt == 8)];
  }
  if (L.dim < 1 || L.dim > 3 || L.ppt < 1 || L.ppt > kMaxPointsPerThread || (L.ppt & (L.ppt - 1)) || L.nthreads > kTileMaxThreads) return nullptr;
  return table[((DimKindIndex(L.dim, L.kind) * 2 + (int)L.var) * 2 + (int)L.single) * 4 + Log2PPT(L.ppt)];
}

template <class T>
Launcher<T> ClassicLauncher(const Launch<T> &L)
{
  static constexpr auto table = ClassicTable<T>(std::make_index_sequence<10>{});
  if (L.dim < 1 || L.dim > 3 || L.transpose) return nullptr;
  return table[DimKindIndex(L.dim, L.kind) * 2 + (int)L.var];
}

template <class T>
cudaError_t PadCopy(int dim, int dof, const Box &box, const T *x, T *xpad, cudaStream_t stream)
{
  using Kernel                  = void (*)(const T *, T *, Box, int);
  static constexpr Kernel table[] = {PadCopyKernel<1, T>, PadCopyKernel<2, T>, PadCopyKernel<3, T>};
  const Box               sbox    = {box.xm0 * dof, box.xm1, box.xm2, box.ext0 * dof, box.ext1}; /* rows of scalars */
  dim3                    grid, block;
  if (dim < 1 || dim > 3 || dof < 1) return cudaErrorInvalidValue;
  ClassicGrid(sbox, &grid, &block);
  table[dim - 1]<<<grid, block, 0, stream>>>(x, xpad, sbox, dof);
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
