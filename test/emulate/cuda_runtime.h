/* Host emulation of the CUDA names the tile kernels use (test/emulate: the kernels' arithmetic checked without a GPU).
   Found before the real cuda_runtime.h through the emulation's include path. A kernel runs block after block, one
   std::thread per CUDA thread, __syncthreads() a std::barrier; shared memory is a static array (one block at a time). */
#pragma once
#include <barrier>
#include <cstddef>
#include <mutex>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) { }
};
typedef int   cudaError_t;
typedef void *cudaStream_t;
enum {
  cudaSuccess           = 0,
  cudaErrorInvalidValue = 1
};
struct cudaFuncAttributes {
  int    maxThreadsPerBlock;
  size_t sharedSizeBytes;
  int    maxDynamicSharedSizeBytes;
};
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(n)
#define __align__(n)

inline thread_local dim3 threadIdx, blockIdx; /* one program per emulation test: defined here */
inline dim3              blockDim, gridDim;
inline std::barrier<>   *emu_barrier;
inline std::mutex        emu_atomic;
inline void              __syncthreads()
{
  emu_barrier->arrive_and_wait();
}
template <class T>
inline T __ldg(const T *p)
{
  return *p;
}
inline int __float2int_rz(float f)
{
  return (int)f;
}
template <class T>
inline T atomicAdd(T *p, T v)
{
  std::lock_guard<std::mutex> g(emu_atomic);
  T                           o = *p;
  *p += v;
  return o;
}
