/* The kernels' device-only constructs, named by macros so that test/emulate compiles the same headers as host C++
   (it defines HJ_EMULATE and gives these names its own meaning in test/emulate/hjemulate.h): a variable shared by the
   threads of a block, the dynamic shared memory, and an empty asm statement that makes a pointer opaque to the
   optimizer, a prefetch of a global address into L1 (the column kernel's coefficients a step ahead), and a vote of the warp's
   active threads (a branch taken by the whole warp; the emulation, one thread at a time, takes each thread's own). */
#pragma once

#if defined(HJ_EMULATE)
  #include <hjemulate.h>
#else
  #define HJ_SHARED               __shared__
  #define HJ_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
  #define HJ_OPAQUE_POINTER(p)    asm volatile("" : "+l"(p))
  #define HJ_PREFETCH_L1(p)       asm volatile("prefetch.global.L1 [%0];" ::"l"(p))
  #define HJ_WARP_ALL(pred)       __all_sync(__activemask(), (pred))
#endif
