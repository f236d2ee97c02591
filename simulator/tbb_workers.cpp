// SPDX-License-Identifier: MIT
// TBB's parallel_for inside an isolated arena (alpaka's TBB backend). A ThreadSanitizer build
// compiles this file without TSan: Debian's libtbb is not built with it, and TBB's half in its
// headers (the task objects one worker fills and another runs) would be reported as racing
// through the library's unseen handoffs. TBB stays uninstrumented as a whole; the simulator's
// code that the body calls is instrumented, and the grid runner annotates the handoff.
#include "tbb_workers.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>
#include <mutex>

namespace cusim::sim {

namespace {

tbb::task_arena& arena_for(unsigned workers) {
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;
  std::lock_guard lock(mutex);
  auto& arena = arenas[workers];
  if (!arena) arena = std::make_unique<tbb::task_arena>(static_cast<int>(workers));
  return *arena;
}

}  // namespace

void parallel_ranges(unsigned workers, std::uint64_t n, void (*body)(void*, std::uint64_t, std::uint64_t),
                     void* context) {
  arena_for(workers).execute([&] {
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n),
                        [&](const tbb::blocked_range<std::uint64_t>& r) { body(context, r.begin(), r.end()); });
    });
  });
}

}  // namespace cusim::sim
