/* Host emulation of <cuda_pipeline.h> (test/emulate). An asynchronous copy is only recorded; a commit closes the
   thread's current group; __pipeline_wait_prior(n) performs every group of the thread but the newest n. So a kernel
   that reads a stage before waiting for its group reads stale data here too, and the checks fail. */
#pragma once
#include <cstddef>
#include <cstring>
#include <deque>
#include <vector>

struct EmuCopy {
  void       *dst;
  const void *src;
  size_t      size;
};
inline thread_local std::vector<EmuCopy>            emu_open;   /* copies issued since the last commit */
inline thread_local std::deque<std::vector<EmuCopy>> emu_groups; /* committed, not yet waited for */

inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size) { emu_open.push_back({dst, src, size}); }
inline void __pipeline_commit()
{
  emu_groups.push_back(emu_open);
  emu_open.clear();
}
inline void __pipeline_wait_prior(size_t n)
{
  while (emu_groups.size() > n) {
    for (const EmuCopy &c : emu_groups.front()) std::memcpy(c.dst, c.src, c.size);
    emu_groups.pop_front();
  }
}
