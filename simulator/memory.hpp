// SPDX-License-Identifier: MIT
// Registry of the simulator's device, managed and pinned host allocations, so that frees and
// copies can be checked against what was really allocated, and the checkers' shadow of each.
#pragma once

#include <cusim/detail/source_location.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace cusim::sim {

struct race_granule;

enum class allocation_kind { device, managed, host };

/// What the race and init checkers know about one device or managed allocation.
struct device_shadow {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  /// Per byte, whether it was written since the allocation; null when not tracked (allocated
  /// without CUSIM_CHECK=init, or managed memory the host writes directly): all count as written.
  std::unique_ptr<std::uint8_t[]> written;
  /// One granule per 4 bytes, zero pages until touched; created by the race checker.
  std::unique_ptr<race_granule[], void (*)(race_granule*)> race{nullptr, nullptr};
};

void* allocate(std::size_t bytes, allocation_kind kind, const detail::source_location& site = {});
/// Frees `p` if it is the start of a live allocation of one of the accepted kinds.
bool release(void* p, bool accept_device, bool accept_host);
/// Whether [p, p + bytes) lies inside one live device or managed allocation.
bool is_device_range(const void* p, std::size_t bytes);
/// Bytes currently allocated as device or managed memory.
std::size_t device_bytes_in_use();
/// The shadow of the device or managed allocation that holds `p`, or null. Valid until freed.
device_shadow* find_shadow(const void* p);

}  // namespace cusim::sim
