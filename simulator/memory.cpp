// SPDX-License-Identifier: MIT
// Allocation registry behind cudaMalloc & co.; at exit, it tells CUSIM_CHECK=leaks what is live.
#include "memory.hpp"

#include "address_space.hpp"
#include "diagnostics.hpp"
#include "leak_checker.hpp"
#include "settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <atomic>
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
  unsigned flags = 0;
  bool owned = true;  // freed on release; adopted memory is only forgotten
  std::uintptr_t caller = 0;  // the allocating call's return address
};
/// An allocation of the arena after it was freed (its addresses are never reused).
struct freed_allocation {
  std::size_t bytes;
  allocation_kind kind;
  detail::source_location site;
  std::uintptr_t caller, free_caller;
};
constexpr std::size_t freed_kept = 1 << 16;  // the most recent frees described in reports
std::mutex mutex;
std::map<std::uintptr_t, allocation>& registry() {
  static auto* r = new std::map<std::uintptr_t, allocation>;  // outlives static destructors
  return *r;
}
std::map<std::uintptr_t, freed_allocation>& freed() {
  static auto* f = new std::map<std::uintptr_t, freed_allocation>;
  return *f;
}
std::size_t device_in_use = 0;
std::atomic<std::uint64_t> release_count{0};
std::uint64_t allocations = 0;

/// Fresh device memory under the init checker: a pattern kernels are unlikely to store, so that
/// a store is told from a read by the change it makes (not shared memory's, so that copying
/// one uninitialised value into the other still changes it).
constexpr int init_poison = 0x5a;

bool is_host(allocation_kind kind) { return kind == allocation_kind::host || kind == allocation_kind::registered_host; }

/// The program's checkers (CUSIM_CHECK=leaks), told at exit what is still live.
struct program_end {
  ~program_end() {
    if (!checks().leaks) return;
    std::lock_guard lock(mutex);
    std::vector<leaked_allocation> live;
    for (const auto& [addr, a] : registry())
      if (a.kind != allocation_kind::symbol) live.push_back({addr, a.bytes, allocation_kind_name(a.kind), a.serial, a.site});
    leak_checker().program_ended(live);
  }
};
}  // namespace

namespace {
/// The registry's record of a new allocation at `p` (the shadow of device and managed memory).
allocation record_of(void* p, std::size_t bytes, allocation_kind kind, const detail::source_location& site,
                     unsigned flags) {
  allocation a{bytes, kind, site, 0, nullptr, flags, true};
  if (!is_host(kind)) {
    a.shadow = std::make_unique<device_shadow>();
    a.shadow->base = reinterpret_cast<std::uintptr_t>(p);
    a.shadow->bytes = bytes;
    if (kind == allocation_kind::device && checks().init) {
      a.shadow->written = std::make_unique<std::uint8_t[]>(bytes);  // zeroed: nothing written
      std::memset(p, init_poison, bytes);
    }
  }
  return a;
}

/// The live allocation holding [addr, addr + bytes), or null. Called with the mutex held.
allocation* holding(std::uintptr_t addr, std::size_t bytes);
}  // namespace

void* allocate(std::size_t bytes, allocation_kind kind, const detail::source_location& site, unsigned flags,
               std::uintptr_t caller) {
  static program_end at_exit;  // destroyed at exit, after the allocations that outlive main
  constexpr std::size_t alignment = 256;  // cudaMalloc's guarantee (the arena's are page-aligned)
  void* p = arena_allocate(bytes);
  if (p == nullptr) p = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p == nullptr) return nullptr;
  allocation a = record_of(p, bytes, kind, site, flags);
  a.caller = caller;
  std::lock_guard lock(mutex);
  a.serial = ++allocations;
  registry()[reinterpret_cast<std::uintptr_t>(p)] = std::move(a);
  if (!is_host(kind)) device_in_use += bytes;
  return p;
}

bool adopt(void* p, std::size_t bytes, allocation_kind kind, unsigned flags) {
  static program_end at_exit;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto next = registry().lower_bound(addr);
  if (next != registry().end() && next->first < addr + bytes) return false;
  if (holding(addr, 1) != nullptr) return false;
  allocation a{bytes, kind, {}, 0, nullptr, flags, false};
  if (!is_host(kind)) {
    a.shadow = std::make_unique<device_shadow>();
    a.shadow->base = addr;
    a.shadow->bytes = bytes;
  }
  a.serial = ++allocations;
  registry()[addr] = std::move(a);
  if (!is_host(kind) && kind != allocation_kind::symbol) device_in_use += bytes;
  return true;
}

bool take_ownership(void* p) {
  std::lock_guard lock(mutex);
  auto it = registry().find(reinterpret_cast<std::uintptr_t>(p));
  if (it == registry().end()) return false;
  it->second.owned = true;
  return true;
}

bool release_registered(void* p) {
  std::lock_guard lock(mutex);
  auto it = registry().find(reinterpret_cast<std::uintptr_t>(p));
  if (it == registry().end() || it->second.kind != allocation_kind::registered_host) return false;
  registry().erase(it);
  return true;
}

std::optional<allocation_info> find_allocation(const void* p) {
  std::lock_guard lock(mutex);
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  const allocation* a = holding(addr, 1);
  if (a == nullptr) return std::nullopt;
  auto it = registry().upper_bound(addr);
  --it;
  return allocation_info{reinterpret_cast<void*>(it->first), a->bytes, a->kind, a->flags};
}

bool release(void* p, bool accept_device, bool accept_host, std::uintptr_t caller) {
  bool owned = true;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(mutex);
    auto it = registry().find(reinterpret_cast<std::uintptr_t>(p));
    if (it == registry().end()) return false;
    if (it->second.kind == allocation_kind::registered_host || it->second.kind == allocation_kind::symbol) return false;
    const bool host = it->second.kind == allocation_kind::host;
    if (host ? !accept_host : !accept_device) return false;
    if (!host) {
      device_in_use -= it->second.bytes;
      release_count.fetch_add(1, std::memory_order_release);
    }
    owned = it->second.owned;
    bytes = it->second.bytes;
    if (owned && in_arena(p)) {
      const allocation& a = it->second;
      if (freed().size() == freed_kept) freed().erase(freed().begin());  // the oldest: addresses only grow
      freed()[it->first] = {a.bytes, a.kind, a.site, a.caller, caller};
    }
    registry().erase(it);
  }
  if (!owned) return true;
  if (in_arena(p)) arena_release(p, bytes);
  else std::free(p);
  return true;
}

namespace {
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
  return a != nullptr && !is_host(a->kind);
}

std::size_t device_bytes_in_use() {
  std::lock_guard lock(mutex);
  return device_in_use;
}

address_owner owner_near(std::uintptr_t addr) {
  std::lock_guard lock(mutex);
  address_owner best;
  bool have = false;
  auto consider = [&](std::uintptr_t base, std::size_t bytes, allocation_kind kind, const detail::source_location& site,
                      std::uintptr_t caller, const freed_allocation* f) {
    if (!in_arena(reinterpret_cast<void*>(base))) return;
    address_owner o;
    if (addr < base) {
      o.where = address_owner::relation::before_start;
      o.distance = base - addr;
    } else if (addr >= base + bytes) {
      o.where = address_owner::relation::past_end;
      o.distance = addr - (base + bytes);
    } else {
      o.where = f != nullptr ? address_owner::relation::inside_freed : address_owner::relation::none;
    }
    if (have && best.distance <= o.distance) return;
    have = true;
    o.base = base;
    o.bytes = bytes;
    o.kind = kind;
    o.site = site;
    o.alloc_caller = caller;
    o.freed = f != nullptr;
    o.free_caller = f != nullptr ? f->free_caller : 0;
    best = o;
  };
  // The allocations just below and just above, live and freed: the nearest wins (one holding the
  // address has distance 0).
  auto live = registry().upper_bound(addr);
  if (live != registry().end()) consider(live->first, live->second.bytes, live->second.kind, live->second.site, live->second.caller, nullptr);
  if (live != registry().begin()) {
    --live;
    consider(live->first, live->second.bytes, live->second.kind, live->second.site, live->second.caller, nullptr);
  }
  auto dead = freed().upper_bound(addr);
  if (dead != freed().end()) consider(dead->first, dead->second.bytes, dead->second.kind, dead->second.site, dead->second.caller, &dead->second);
  if (dead != freed().begin()) {
    --dead;
    consider(dead->first, dead->second.bytes, dead->second.kind, dead->second.site, dead->second.caller, &dead->second);
  }
  return best;
}

std::uint64_t releases() { return release_count.load(std::memory_order_acquire); }

device_shadow* find_shadow(const void* p) {
  std::lock_guard lock(mutex);
  allocation* a = holding(reinterpret_cast<std::uintptr_t>(p), 1);
  return a != nullptr ? a->shadow.get() : nullptr;
}

}  // namespace cusim::sim
