// SPDX-License-Identifier: MIT
// What the simulator knows of each __global__ function across launches.
#pragma once

#include <atomic>
#include <cstddef>

namespace cusim::sim {

/// One __global__ function. A GPU knows a kernel's static shared memory from its binary; the
/// simulator learns it from the blocks that ran (the most any block bound), so that a later launch
/// whose static plus dynamic shared memory exceeds the limit is refused before any thread runs.
struct kernel_info {
  const void* address = nullptr;  ///< the kernel's (its name and place for CUSIM_REPORT)
  std::atomic<std::size_t> static_shared_bytes{0};
  /// cudaFuncAttributeMaxDynamicSharedMemorySize as set, -1 while it was not (the default: what
  /// is left of 48 KiB after static shared memory).
  std::atomic<long long> max_dynamic_shared{-1};

  void note_static_shared(std::size_t bytes) noexcept {
    std::size_t seen = static_shared_bytes.load(std::memory_order_relaxed);
    while (bytes > seen && !static_shared_bytes.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
    }
  }
};

/// The record of `kernel` (its address), created on first use; it lives as long as the process.
kernel_info& kernel_info_of(const void* kernel);

}  // namespace cusim::sim
