// SPDX-License-Identifier: MIT
// Registry of the simulator's device, managed and pinned host allocations, so that frees and
// copies can be checked against what was really allocated, and the checkers' shadow of each.
#pragma once

#include "allocations.hpp"

#include <cusim/detail/source_location.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace cusim::sim {

struct race_granule;


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

/// `flags`: what cudaHostAlloc was asked for (cudaHostGetFlags reports them). `caller`: the
/// return address into the program of the API call, where `site` is not known.
void* allocate(std::size_t bytes, allocation_kind kind, const detail::source_location& site = {},
               unsigned flags = 0, std::uintptr_t caller = 0);
/// Registers memory the simulator did not allocate (cudaHostRegister, a graph's allocations):
/// released, it is forgotten but not freed. False if it overlaps a live allocation.
bool adopt(void* p, std::size_t bytes, allocation_kind kind, unsigned flags = 0);
/// The live adopted allocation at `p` becomes the registry's own: released, it is freed. False if
/// there is none (the caller still owns the memory).
bool take_ownership(void* p);
/// Frees `p` if it is the start of a live allocation of one of the accepted kinds (host: pinned
/// host memory; registered host memory is released only by release_registered). `caller`: the
/// return address into the program of the call that frees it.
bool release(void* p, bool accept_device, bool accept_host, std::uintptr_t caller = 0);
/// Forgets the host memory registered at `p` (cudaHostUnregister); false if none is.
bool release_registered(void* p);

/// A live allocation, as cudaPointerGetAttributes and cudaHostGetDevicePointer see it.
struct allocation_info {
  void* base;
  std::size_t bytes;
  allocation_kind kind;
  unsigned flags;
};
/// The live allocation that holds `p`, if any.
std::optional<allocation_info> find_allocation(const void* p);
/// Whether [p, p + bytes) lies inside one live device or managed allocation.
bool is_device_range(const void* p, std::size_t bytes);
/// Bytes currently allocated as device or managed memory.
std::size_t device_bytes_in_use();
/// The allocation nearest to `addr`, live or freed: the one holding it, or the closest.
address_owner owner_near(std::uintptr_t addr);

/// The shadow of the device or managed allocation that holds `p`, or null. Valid until freed.
device_shadow* find_shadow(const void* p);
/// Counts the releases of device and managed allocations: a shadow found before the count changed
/// may be gone (a kernel's own free() of device-heap memory, say).
std::uint64_t releases();

}  // namespace cusim::sim
