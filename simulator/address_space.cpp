// SPDX-License-Identifier: MIT
// The checked arena behind device, managed and pinned host allocations, and its shadow
// (address_space.hpp).
#include "address_space.hpp"

#include "sanitizers.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

// Defined (weakly, by every translation unit) in a program the nvcc driver compiled with inline
// shadow checks (include/cusim/backend/sim/unmodified.hpp): the whole address space needs a shadow.
extern "C" {
[[gnu::weak]] extern const int cusim_inline_shadow_checks;
}

namespace cusim::sim {

[[gnu::visibility("hidden")]] checked_arena arena;

namespace {

constexpr std::size_t page = 4096;
constexpr std::size_t min_redzone = page;
constexpr std::size_t max_redzone = std::size_t{64} << 20;
// User space on x86-64 Linux (47 bits): its shadow is 16 TiB from shadow_offset on.
constexpr std::uintptr_t user_space_end = std::uintptr_t{1} << 47;
constexpr int reserve_flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
std::uintptr_t align_down(std::uintptr_t v, std::size_t a) { return v / a * a; }

std::mutex mutex;
std::uintptr_t cursor = 0;                  // the next free address
bool whole_shadow = false;                  // the shadow of every address is mapped
/// The arena's allocations, for arena_observe_all; never destroyed: workers free their blocks'
/// shared memory after static destructors ran.
std::map<std::uintptr_t, std::size_t>& live() {
  static auto* allocations = new std::map<std::uintptr_t, std::size_t>;
  return *allocations;
}

/// Maps fresh (zero: addressable) shadow for [lo, hi) at its fixed place; false if that address
/// space is taken.
bool map_shadow(std::uintptr_t lo, std::uintptr_t hi) {
  const auto s = align_down(reinterpret_cast<std::uintptr_t>(shadow_of(lo)), page);
  const auto e = align_up(reinterpret_cast<std::uintptr_t>(shadow_of(hi - 1)) + 1, page);
  void* p = mmap(reinterpret_cast<void*>(s), e - s, PROT_READ | PROT_WRITE, reserve_flags | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED) return false;
  if (p != reinterpret_cast<void*>(s)) {  // a kernel without MAP_FIXED_NOREPLACE took it as a hint
    munmap(p, e - s);
    return false;
  }
  madvise(p, e - s, MADV_DONTDUMP);  // a core file would be terabytes (sparse, but slow to write)
  // Read before written, the shadow maps the kernel's zero page: its huge one (a TLB entry per
  // 16 MiB of checked memory rather than per 32 KiB) where transparent huge pages are allowed.
  madvise(p, e - s, MADV_HUGEPAGE);
  return true;
}

/// A program with inline checks reads the shadow of every address it touches, before main and
/// before any allocation: reserved before the program's own constructors run.
[[gnu::constructor(101)]] void reserve_whole_shadow() {
  if (CUSIM_SIM_ASAN || CUSIM_SIM_TSAN || &cusim_inline_shadow_checks == nullptr) return;
  if (map_shadow(0, user_space_end)) {
    whole_shadow = true;
    return;
  }
  std::fprintf(stderr,
               "cusim: cannot reserve the shadow memory of the raw-pointer checks (16 TiB of address space at "
               "%#lx: %s); build the program with CUSIM_NVCC_UNCHECKED=1 in the environment to run it without "
               "them\n",
               static_cast<unsigned long>(shadow_offset), std::strerror(errno));
  std::_Exit(1);
}

/// A read-only file of poison bytes that large spans of shadow map rather than write: a freed
/// allocation of 1 GiB poisons 128 MiB of shadow, which would otherwise stay resident.
constexpr std::size_t poison_file_bytes = std::size_t{2} << 20;
int poison_file() {
  static const int fd = [] {
    const int f = memfd_create("cusim-shadow-poison", MFD_CLOEXEC);
    if (f < 0) return -1;
    if (ftruncate(f, poison_file_bytes) != 0) {
      close(f);
      return -1;
    }
    void* p = mmap(nullptr, poison_file_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    if (p == MAP_FAILED) {
      close(f);
      return -1;
    }
    std::memset(p, shadow_poison, poison_file_bytes);
    munmap(p, poison_file_bytes);
    return f;
  }();
  return fd;
}

/// Poisons the shadow of [lo, hi) (granule-aligned): small spans written, whole pages of large
/// ones mapped (privately: a later write copies the page) from the poison file.
void poison(std::uintptr_t lo, std::uintptr_t hi) {
  auto* s = shadow_of(lo);
  auto* e = shadow_of(hi);
  constexpr std::size_t mapped_from = 16 * page;
  if (static_cast<std::size_t>(e - s) >= mapped_from && poison_file() >= 0) {
    auto* ps = reinterpret_cast<std::uint8_t*>(align_up(reinterpret_cast<std::uintptr_t>(s), page));
    auto* pe = reinterpret_cast<std::uint8_t*>(align_down(reinterpret_cast<std::uintptr_t>(e), page));
    std::memset(s, shadow_poison, ps - s);
    std::memset(pe, shadow_poison, e - pe);
    for (std::uint8_t* p = ps; p < pe;) {
      const std::size_t n = std::min<std::size_t>(pe - p, poison_file_bytes);
      if (mmap(p, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, poison_file(), 0) == MAP_FAILED)
        std::memset(p, shadow_poison, n);  // out of mappings: written after all
      p += n;
    }
    return;
  }
  std::memset(s, shadow_poison, e - s);
}

/// Marks [p, p + bytes) addressable. `fresh`: its shadow was never written (reads as zero).
void mark_addressable(std::uintptr_t p, std::size_t bytes, bool fresh) {
  std::uint8_t* s = shadow_of(p);
  const std::size_t full = bytes / 8;
  const std::uint8_t observed = arena.observed.load(std::memory_order_relaxed) ? shadow_observed : 0;
  if (observed != 0) std::memset(s, observed | 8, full);
  else if (!fresh) std::memset(s, 0, full);
  if (bytes % 8 != 0) s[full] = static_cast<std::uint8_t>(observed | (bytes % 8));
}

/// Reserves the arena once: the largest of 8, 4, 2 or 1 TiB the system grants, inaccessible until
/// allocated (a wild pointer past the last allocation faults), with its shadow (already there
/// when the whole address space has one).
void reserve() {
  if (arena.bytes.load(std::memory_order_relaxed) != 0) return;
  if (CUSIM_SIM_ASAN || CUSIM_SIM_TSAN) return;  // the sanitizers keep their own shadows of the heap
  for (std::size_t bytes = std::size_t{1} << 43; bytes >= (std::size_t{1} << 40); bytes /= 2) {
    void* data = mmap(nullptr, bytes, PROT_NONE, reserve_flags, -1, 0);
    if (data == MAP_FAILED) continue;
    madvise(data, bytes, MADV_DONTDUMP);  // allocations made dumpable as they are made
    madvise(data, bytes, MADV_HUGEPAGE);  // large arrays on huge pages, as the shadow (map_shadow)
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    if (base + bytes > user_space_end || (!whole_shadow && !map_shadow(base, base + bytes))) {
      munmap(data, bytes);
      continue;
    }
    cursor = base + max_redzone;  // a redzone before the first allocation too
    arena.base.store(base, std::memory_order_relaxed);
    arena.bytes.store(bytes, std::memory_order_release);
    poison(base, cursor);
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
  const std::uintptr_t p = cursor;
  // Accessible with its redzone (the shadow guards both), so that the arena's used part stays one
  // mapping; only what lies past the cursor faults. Out of memory: unchecked memory for this one.
  if (mprotect(reinterpret_cast<void*>(p), span + redzone, PROT_READ | PROT_WRITE) != 0) return nullptr;
  madvise(reinterpret_cast<void*>(p), span, MADV_DODUMP);
  cursor += span + redzone;
  mark_addressable(p, bytes, true);
  poison(p + align_up(bytes, 8), cursor);  // the rest of its last page, and its redzone
  live()[p] = bytes;
  return reinterpret_cast<void*>(p);
}

bool in_arena(const void* p) noexcept {
  return reinterpret_cast<std::uintptr_t>(p) - arena.base.load(std::memory_order_relaxed) <
         arena.bytes.load(std::memory_order_relaxed);
}

void arena_release(void* p, std::size_t bytes) noexcept {
  std::lock_guard lock(mutex);
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  live().erase(addr);
  poison(addr, addr + align_up(bytes, 8));
  // Its pages go back: they read as zeros from now on (the shadow says they are not the program's).
  discard(p, align_up(bytes, page));
}

void arena_mark(void* p, std::size_t bytes, bool on) noexcept {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (on) mark_addressable(addr, bytes, false);
  else poison(addr, addr + align_up(bytes, 8));
}

bool arena_addressable(std::uintptr_t addr, std::size_t bytes) noexcept {
  if (bytes == 0) return true;
  const std::uintptr_t first = addr / 8, last = (addr + bytes - 1) / 8;
  const std::uint8_t* s = shadow_of(addr);
  if (first == last) return (addr % 8) + bytes <= granule_bytes(s[0]);
  for (std::uintptr_t g = 0; g < last - first; ++g)
    if (granule_bytes(s[g]) != 8) return false;
  return (addr + bytes - 1) % 8 < granule_bytes(s[last - first]);
}

void arena_observe_all() noexcept {
  std::lock_guard lock(mutex);
  if (arena.observed.exchange(true)) return;
  for (const auto& [p, bytes] : live()) {
    std::uint8_t* s = shadow_of(p);
    for (std::size_t g = 0; g < align_up(bytes, 8) / 8; ++g)
      if (const unsigned n = granule_bytes(s[g]); n != 0) s[g] = static_cast<std::uint8_t>(shadow_observed | n);
  }
}

}  // namespace cusim::sim
