// SPDX-License-Identifier: MIT
// Allocation registry behind cudaMalloc & co.
#include "memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

namespace cusim::sim {

namespace {
struct allocation {
  std::size_t bytes;
  allocation_kind kind;
};
std::mutex mutex;
std::map<std::uintptr_t, allocation>& registry() {
  static auto* r = new std::map<std::uintptr_t, allocation>;  // outlives static destructors
  return *r;
}
std::size_t device_in_use = 0;
}  // namespace

void* allocate(std::size_t bytes, allocation_kind kind) {
  constexpr std::size_t alignment = 256;  // cudaMalloc's guarantee
  void* p = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p == nullptr) return nullptr;
  std::lock_guard lock(mutex);
  registry()[reinterpret_cast<std::uintptr_t>(p)] = {bytes, kind};
  if (kind != allocation_kind::host) device_in_use += bytes;
  return p;
}

bool release(void* p, bool accept_device, bool accept_host) {
  {
    std::lock_guard lock(mutex);
    auto it = registry().find(reinterpret_cast<std::uintptr_t>(p));
    if (it == registry().end()) return false;
    const bool host = it->second.kind == allocation_kind::host;
    if (host ? !accept_host : !accept_device) return false;
    if (!host) device_in_use -= it->second.bytes;
    registry().erase(it);
  }
  std::free(p);
  return true;
}

bool is_device_range(const void* p, std::size_t bytes) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto it = registry().upper_bound(addr);
  if (it == registry().begin()) return false;
  --it;
  return it->second.kind != allocation_kind::host && addr + bytes <= it->first + it->second.bytes;
}

std::size_t device_bytes_in_use() {
  std::lock_guard lock(mutex);
  return device_in_use;
}

}  // namespace cusim::sim
