/* The emulation's meaning of the kernels' device-only macros (src/cuda/kernels/device.h, with HJ_EMULATE): blocks run
   one at a time (launch.h), so what a block shares is a static, and the dynamic shared memory one static array; the
   optimizer barrier is not needed on the host. */
#pragma once

#define HJ_SHARED               static
#define HJ_DYNAMIC_SHARED(name) alignas(16) inline unsigned char name[1 << 22]
#define HJ_OPAQUE_POINTER(p)    (void)(p)
