// SPDX-License-Identifier: MIT
// Allocation registry behind cudaMalloc & co., and CUSIM_CHECK=leaks at exit.
#include "memory.hpp"

#include "diagnostics.hpp"
#include "settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace cusim::sim {

namespace {
struct allocation {
  std::size_t bytes;
  allocation_kind kind;
  detail::source_location site;
  std::uint64_t serial;  // 1 for the process's first allocation
  std::unique_ptr<device_shadow> shadow;
};
std::mutex mutex;
std::map<std::uintptr_t, allocation>& registry() {
  static auto* r = new std::map<std::uintptr_t, allocation>;  // outlives static destructors
  return *r;
}
std::size_t device_in_use = 0;
std::uint64_t allocations = 0;

/// Fresh device memory under the init checker: a pattern kernels are unlikely to store, so that
/// a store is told from a read by the change it makes (not shared memory's, so that copying
/// one uninitialised value into the other still changes it).
constexpr int init_poison = 0x5a;

const char* kind_name(allocation_kind kind) {
  switch (kind) {
    case allocation_kind::device: return "device memory (cudaMalloc)";
    case allocation_kind::managed: return "managed memory (cudaMallocManaged)";
    case allocation_kind::host: return "pinned host memory (cudaMallocHost)";
  }
  return "memory";
}

/// CUSIM_CHECK=leaks: at exit, every allocation still live, in allocation order.
struct leak_report {
  ~leak_report() {
    if (!checks().leaks) return;
    std::lock_guard lock(mutex);
    std::vector<leaked_allocation> live;
    for (const auto& [addr, a] : registry()) live.push_back({addr, a.bytes, kind_name(a.kind), a.serial, a.site});
    if (live.empty()) return;
    std::sort(live.begin(), live.end(), [](const auto& x, const auto& y) { return x.serial < y.serial; });
    std::fputs(leak_check_report(live).c_str(), stderr);
  }
};
}  // namespace

void* allocate(std::size_t bytes, allocation_kind kind, const detail::source_location& site) {
  static leak_report report;  // destroyed at exit, after the allocations that outlive main
  constexpr std::size_t alignment = 256;  // cudaMalloc's guarantee
  void* p = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p == nullptr) return nullptr;
  allocation a{bytes, kind, site, 0, nullptr};
  if (kind != allocation_kind::host) {
    a.shadow = std::make_unique<device_shadow>();
    a.shadow->base = reinterpret_cast<std::uintptr_t>(p);
    a.shadow->bytes = bytes;
    if (kind == allocation_kind::device && checks().init) {
      a.shadow->written = std::make_unique<std::uint8_t[]>(bytes);  // zeroed: nothing written
      std::memset(p, init_poison, bytes);
    }
  }
  std::lock_guard lock(mutex);
  a.serial = ++allocations;
  registry()[reinterpret_cast<std::uintptr_t>(p)] = std::move(a);
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

namespace {
/// The live allocation holding [addr, addr + bytes), or null. Called with the mutex held.
allocation* holding(std::uintptr_t addr, std::size_t bytes) {
  auto it = registry().upper_bound(addr);
  if (it == registry().begin()) return nullptr;
  --it;
  return addr + bytes <= it->first + it->second.bytes ? &it->second : nullptr;
}
}  // namespace

bool is_device_range(const void* p, std::size_t bytes) {
  std::lock_guard lock(mutex);
  const allocation* a = holding(reinterpret_cast<std::uintptr_t>(p), bytes);
  return a != nullptr && a->kind != allocation_kind::host;
}

std::size_t device_bytes_in_use() {
  std::lock_guard lock(mutex);
  return device_in_use;
}

device_shadow* find_shadow(const void* p) {
  std::lock_guard lock(mutex);
  allocation* a = holding(reinterpret_cast<std::uintptr_t>(p), 1);
  return a != nullptr ? a->shadow.get() : nullptr;
}

}  // namespace cusim::sim
