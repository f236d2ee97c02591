// SPDX-License-Identifier: MIT
// What the simulator knows of an allocation when it reports a raw pointer that missed: its kind,
// and where it was allocated and freed (memory.cpp finds it, diagnostics words it).
#pragma once

#include <cusim/detail/source_location.hpp>

#include <cstddef>
#include <cstdint>

namespace cusim::sim {

/// host: cudaMallocHost / cudaHostAlloc; registered_host: the program's memory under cudaHostRegister;
/// symbol: a __device__ variable whose address the program took (cudaGetSymbolAddress), device
/// memory that is never freed.
enum class allocation_kind { device, managed, host, registered_host, symbol };

/// "device memory (cudaMalloc)" and the like.
inline const char* allocation_kind_name(allocation_kind kind) {
  switch (kind) {
    case allocation_kind::device: return "device memory (cudaMalloc)";
    case allocation_kind::managed: return "managed memory (cudaMallocManaged)";
    case allocation_kind::host: return "pinned host memory (cudaMallocHost)";
    case allocation_kind::registered_host: return "registered host memory (cudaHostRegister)";
    case allocation_kind::symbol: return "a __device__ variable";
  }
  return "memory";
}

/// What a raw pointer that missed every allocation points near (the arena's allocations only).
struct address_owner {
  enum class relation : std::uint8_t { none, past_end, before_start, inside_freed };
  relation where = relation::none;
  std::size_t distance = 0;  ///< past_end, before_start: bytes from the allocation's end or start
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  allocation_kind kind = allocation_kind::device;
  bool freed = false;
  detail::source_location site;   ///< where it was allocated, when the API call took its site
  std::uintptr_t alloc_caller = 0;  ///< else the allocating call's return address (0: unknown)
  std::uintptr_t free_caller = 0;   ///< freed: the freeing call's return address (0: unknown)
};

}  // namespace cusim::sim
