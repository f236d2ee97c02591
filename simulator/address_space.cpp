// SPDX-License-Identifier: MIT
// The checked arena behind device, managed and pinned host allocations (address_space.hpp).
#include "address_space.hpp"

#include "sanitizers.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace cusim::sim {

[[gnu::visibility("hidden")]] checked_arena arena;

namespace {

constexpr std::size_t page = 4096;
constexpr std::size_t min_redzone = page;
constexpr std::size_t max_redzone = std::size_t{64} << 20;

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

std::mutex mutex;
std::uintptr_t cursor = 0;  // the next free address
std::uint8_t* shadow_base = nullptr;

/// Reserves the arena and its shadow once: the largest of 8, 4, 2 or 1 TiB the system grants.
void reserve() {
  if (arena.bytes.load(std::memory_order_relaxed) != 0) return;
  if (CUSIM_SIM_ASAN || CUSIM_SIM_TSAN) return;  // the sanitizers keep their own shadows of the heap
  for (std::size_t bytes = std::size_t{1} << 43; bytes >= (std::size_t{1} << 40); bytes /= 2) {
    constexpr int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (data == MAP_FAILED) continue;
    void* shadow = mmap(nullptr, bytes / 8, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (shadow == MAP_FAILED) {
      munmap(data, bytes);
      continue;
    }
    shadow_base = static_cast<std::uint8_t*>(shadow);
    arena.base.store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_relaxed);
    cursor = reinterpret_cast<std::uintptr_t>(data) + max_redzone;  // a redzone before the first one too
    arena.shadow.store(shadow_base, std::memory_order_relaxed);
    arena.bytes.store(bytes, std::memory_order_release);
    return;
  }
}

/// Gives back the whole pages inside [p, p + bytes); they read as zeros afterwards.
void discard(void* p, std::size_t bytes) {
  const auto lo = align_up(reinterpret_cast<std::uintptr_t>(p), page);
  const auto hi = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

}  // namespace

void* arena_allocate(std::size_t bytes) noexcept {
  std::lock_guard lock(mutex);
  reserve();
  const std::uintptr_t size = arena.bytes.load(std::memory_order_relaxed);
  if (size == 0) return nullptr;
  const std::size_t span = align_up(std::max<std::size_t>(bytes, 1), page);
  // Up to 15 pages more (the allocation's colour), so that large arrays allocated one after
  // another do not start at the same offset modulo a large power of two: a[i], b[i] and c[i] of a
  // vector add at one offset cost it a fifth (docs/performance.md, item 28). Redzones only grow.
  static unsigned allocated = 0;
  const std::size_t colour = (allocated++ % 16) * page;
  const std::size_t redzone = std::clamp(span, min_redzone, max_redzone) + colour;
  const std::uintptr_t base = arena.base.load(std::memory_order_relaxed);
  if (cursor + span + redzone > base + size) return nullptr;  // full: unchecked memory from here on
  void* p = reinterpret_cast<void*>(cursor);
  cursor += span + redzone;
  arena_mark(p, bytes, true);
  return p;
}

bool in_arena(const void* p) noexcept {
  return reinterpret_cast<std::uintptr_t>(p) - arena.base.load(std::memory_order_relaxed) <
         arena.bytes.load(std::memory_order_relaxed);
}

void arena_release(void* p, std::size_t bytes) noexcept {
  arena_mark(p, bytes, false);
  discard(p, align_up(bytes, page));
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - arena.base.load(std::memory_order_relaxed);
  discard(shadow_base + off / 8, align_up(bytes, 8) / 8);
}

void arena_mark(void* p, std::size_t bytes, bool on) noexcept {
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - arena.base.load(std::memory_order_relaxed);
  std::uint8_t* s = shadow_base + off / 8;
  if (!on) {
    std::memset(s, 0, align_up(bytes, 8) / 8);
    return;
  }
  std::memset(s, 8, bytes / 8);
  if (bytes % 8 != 0) s[bytes / 8] = static_cast<std::uint8_t>(bytes % 8);
}

bool arena_addressable(std::uintptr_t addr, std::size_t bytes) noexcept {
  if (bytes == 0) return true;
  const std::uintptr_t off = addr - arena.base.load(std::memory_order_relaxed);
  const std::uint8_t* s = arena.shadow.load(std::memory_order_relaxed);
  const std::uintptr_t first = off / 8, last = (off + bytes - 1) / 8;
  if (first == last) return (off % 8) + bytes <= s[first];
  for (std::uintptr_t g = first; g < last; ++g)
    if (s[g] != 8) return false;
  return (off + bytes - 1) % 8 < s[last];
}

}  // namespace cusim::sim
