/* The emulation's meaning of the kernels' device-only macros (src/cuda/kernels/device.h, with HJ_EMULATE): blocks run
   one at a time (launch.h), so what a block shares is a static, and the dynamic shared memory one static array; the
   optimizer barrier and the L1 prefetch are not needed on the host; a warp vote says no for every third thread (the
   path a warp takes when another of its lanes votes no must give the same values). */
#pragma once

#define HJ_SHARED               static
#define HJ_DYNAMIC_SHARED(name) alignas(16) inline unsigned char name[1 << 22]
#define HJ_OPAQUE_POINTER(p)    (void)(p)
#define HJ_PREFETCH_L1(p)       (void)(p)
#define HJ_WARP_ALL(pred)       ((pred) && threadIdx.x % 3 != 0) /* false for a third of the threads: as if another lane voted no */
