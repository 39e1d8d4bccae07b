/* What the kernel-alone drivers (bench/columnalone.cu, bench/partsalone.cu: CUDA kernels without PETSc) share: CK, a
   CUDA call checked, the program stopped with the error and the line. */
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) \
  do { \
    cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) { \
      printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); \
      exit(1); \
    } \
  } while (0)
