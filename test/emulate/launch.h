/* The emulation's launch (test/emulate, host only): a kernel runs block after block, one std::thread per CUDA thread
   (the CUDA names it sets are cuda_runtime.h's). */
#pragma once
#include <functional>
#include <thread>
#include <vector>
#include "cuda_runtime.h"

inline bool emu_reverse = false; /* run the blocks last to first (a write past a tile's owned core is then not overwritten
                                    by the next tile, as in first-to-last order it is: a test runs both orders) */

inline void EmuLaunch(const std::function<void()> &k, long long nblocks, int nthreads)
{
  blockDim = dim3(nthreads);
  gridDim  = dim3((unsigned)nblocks);
  for (long long bb = 0; bb < nblocks; bb++) {
    const long long          b = emu_reverse ? nblocks - 1 - bb : bb;
    std::barrier<>           bar(nthreads);
    std::vector<std::thread> th;
    emu_barrier = &bar;
    for (int t = 0; t < nthreads; t++)
      th.emplace_back([&, t, b]() {
        threadIdx = dim3(t);
        blockIdx  = dim3((unsigned)b);
        k();
      });
    for (auto &x : th) x.join();
  }
}

/* The weight of sweep j: w scaled by 1, 1.25, 0.75, 1.125, 0.875, ... (each sweep its own weight, as with Chebyshev
   weights: the kernels must take sweep j's weight in sweep j) */
inline double SweepWeight(double w, int j)
{
  static const double f[5] = {1.0, 1.25, 0.75, 1.125, 0.875};
  return w * f[j % 5];
}
