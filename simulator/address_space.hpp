// SPDX-License-Identifier: MIT
// The checked arena: where device, managed and pinned host allocations live, so that a raw
// pointer of an unmodified program can be checked against them. One reserved range of address
// space (pages cost nothing until touched); each allocation starts on a page of its own and is
// followed by a redzone as large as itself (4 KiB to 64 MiB); address space is never reused, so a
// freed allocation stays unaddressable for the rest of the run. A shadow byte per 8 bytes says
// how many of them (from the first) are addressable: 0 for redzones, freed memory and everything
// not allocated, the state untouched shadow pages read as.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cusim::sim {

struct checked_arena {
  std::atomic<std::uintptr_t> base{0};
  std::atomic<std::uintptr_t> bytes{0};  ///< 0: no arena (not reserved yet, or unavailable)
  std::atomic<const std::uint8_t*> shadow{nullptr};
};
// Hidden: the instrumentation's fast path reads it without going through the GOT.
extern checked_arena arena [[gnu::visibility("hidden")]];

/// Memory for `bytes` in the arena, page-aligned and addressable; null when the arena is absent
/// (a sanitizer build, or the address space could not be reserved) or full: the caller falls
/// back to unchecked memory.
void* arena_allocate(std::size_t bytes) noexcept;
/// Whether `p` lies in the arena.
bool in_arena(const void* p) noexcept;
/// Makes the allocation [p, p + bytes) unaddressable for good and gives its pages back.
void arena_release(void* p, std::size_t bytes) noexcept;
/// Marks [p, p + bytes) of the arena addressable (`on`) or not; p 8-byte aligned.
void arena_mark(void* p, std::size_t bytes, bool on) noexcept;
/// Whether every byte of [addr, addr + bytes) is addressable (addr in the arena).
bool arena_addressable(std::uintptr_t addr, std::size_t bytes) noexcept;

}  // namespace cusim::sim
