// SPDX-License-Identifier: MIT
// The checked arena: where device, managed and pinned host allocations live, so that a raw
// pointer of an unmodified program can be checked against them. One reserved range of address
// space (pages cost nothing until touched, and none is accessible until allocated); each
// allocation starts on a page of its own and is followed by a redzone as large as itself (4 KiB
// to 64 MiB); address space is never reused, so a freed allocation stays unaddressable for the
// rest of the run.
//
// The shadow is AddressSanitizer's own layout and encoding, so that the compiler can check an
// access inline (the nvcc driver's -fasan-shadow-offset, raw_access.cpp): the shadow byte of the
// 8 bytes at `a` is at (a >> 3) + shadow_offset, for every address of the process when a program
// with those inline checks is linked (a reservation of 16 TiB of address space, which costs a
// page only where written), for the arena's addresses alone otherwise. 0: all 8 bytes
// addressable (what untouched shadow reads as: the stack, the heap, globals); 1 to 7: that many
// from the first; shadow_poison: none (redzones, freed memory, shared memory no variable holds).
// Under CUSIM_CHECK=race/init and CUSIM_SCHEDULE=random every access of the arena must reach the
// checkers, so from the first launch that needs it (arena_observe_all) addressable granules read
// shadow_observed | n (n of 1 to 8 addressable), a value the inline check sends to the slow path.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cusim::sim {

/// AddressSanitizer's shadow offset on x86-64 Linux; the nvcc driver passes the same number to the
/// compiler (tools/nvcc/driver.py, check_flags).
inline constexpr std::uintptr_t shadow_offset = 0x7fff8000;
inline constexpr std::uint8_t shadow_poison = 0xfa;    ///< no byte addressable
inline constexpr std::uint8_t shadow_observed = 0x80;  ///< | n: n bytes addressable, each access observed

/// The shadow byte of the granule holding `addr`.
[[gnu::always_inline]] inline std::uint8_t* shadow_of(std::uintptr_t addr) noexcept {
  return reinterpret_cast<std::uint8_t*>((addr >> 3) + shadow_offset);
}
/// How many bytes of its granule (from the first) a shadow byte makes addressable: 0 to 8.
[[gnu::always_inline]] inline unsigned granule_bytes(std::uint8_t s) noexcept {
  if (s == 0) return 8;
  if (s < 8) return s;
  if ((s & 0xf0) == shadow_observed && (s & 0x0f) - 1u < 8u) return s & 0x0f;
  return 0;
}

struct checked_arena {
  std::atomic<std::uintptr_t> base{0};
  std::atomic<std::uintptr_t> bytes{0};  ///< 0: no arena (not reserved yet, or unavailable)
  std::atomic<bool> observed{false};     ///< addressable granules encoded as shadow_observed | n
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
/// From now on every access of the arena by inline-checked code reaches the slow path (the
/// checkers observe it): the live allocations are encoded again. Never undone.
void arena_observe_all() noexcept;

}  // namespace cusim::sim
