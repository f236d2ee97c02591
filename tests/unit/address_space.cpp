// SPDX-License-Identifier: MIT
// address_space: the checked arena. Each allocation is page-aligned and addressable to its last
// byte, followed by a redzone at least as large as itself (4 KiB to 64 MiB) plus its colour (0 to
// 15 pages, in turn), so that arrays allocated one after another start at different offsets modulo
// a large power of two; address space is never reused; a released allocation reads as zeros and is
// unaddressable for good. Under AddressSanitizer and ThreadSanitizer there is no arena.
#include "address_space.hpp"
#include "sanitizers.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace sim = cusim::sim;

namespace {
constexpr bool no_arena = CUSIM_SIM_ASAN || CUSIM_SIM_TSAN;
constexpr std::size_t page = 4096;
std::uintptr_t addr(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
}  // namespace

TEST_CASE("under a sanitizer there is no arena: allocations fall back to unchecked memory" * doctest::skip(!no_arena)) {
  CHECK(sim::arena_allocate(64) == nullptr);
  void* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  CHECK_FALSE(sim::in_arena(d));
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("an allocation is page-aligned and addressable to its last byte, not one past it" * doctest::skip(no_arena)) {
  auto* p = static_cast<unsigned char*>(sim::arena_allocate(100));
  REQUIRE(p != nullptr);
  CHECK(addr(p) % page == 0);
  CHECK(sim::in_arena(p));
  CHECK(sim::in_arena(p + 99));
  CHECK(sim::arena_addressable(addr(p), 100));
  CHECK(sim::arena_addressable(addr(p) + 96, 4));
  CHECK(sim::arena_addressable(addr(p) + 99, 1));
  CHECK_FALSE(sim::arena_addressable(addr(p) + 100, 1));
  CHECK_FALSE(sim::arena_addressable(addr(p) + 96, 5));  // the last granule holds 4 bytes
  CHECK_FALSE(sim::arena_addressable(addr(p), 101));
  CHECK_FALSE(sim::arena_addressable(addr(p) - 1, 1));  // the redzone before it
  CHECK(sim::arena_addressable(addr(p) + 3, 9));  // straddling two whole granules
  CHECK(sim::arena_addressable(addr(p) + 100, 0));  // an empty range is always addressable
  std::memset(p, 0x5a, 100);  // the memory itself is writable
  CHECK(p[99] == 0x5a);
  sim::arena_release(p, 100);

  // Memory outside the arena is not in it.
  int local = 0;
  std::vector<int> heap(4);
  CHECK_FALSE(sim::in_arena(&local));
  CHECK_FALSE(sim::in_arena(heap.data()));
  CHECK_FALSE(sim::in_arena(nullptr));
}

TEST_CASE("each allocation is followed by a redzone at least as large as itself, never less than a page" *
          doctest::skip(no_arena)) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{5000}, std::size_t{40 * 1024}}) {
    CAPTURE(bytes);
    auto* a = static_cast<unsigned char*>(sim::arena_allocate(bytes));
    auto* b = static_cast<unsigned char*>(sim::arena_allocate(bytes));
    REQUIRE((a != nullptr && b != nullptr));
    REQUIRE(b > a);
    const std::size_t span = (bytes + page - 1) / page * page;
    const std::size_t gap = static_cast<std::size_t>(b - a) - span;
    CHECK(gap >= std::max(span, page));
    CHECK(gap <= std::max(span, page) + 15 * page);  // and at most 15 pages of colour more
    // No byte between the end of a and the start of b is addressable.
    for (std::uintptr_t x = addr(a) + bytes; x < addr(b); x += 512) CHECK_FALSE(sim::arena_addressable(x, 1));
    CHECK_FALSE(sim::arena_addressable(addr(b) - 1, 1));
    sim::arena_release(a, bytes);
    sim::arena_release(b, bytes);
  }
}

TEST_CASE("arrays allocated one after another start at different offsets modulo 1 MiB (their colour)" *
          doctest::skip(no_arena)) {
  constexpr std::size_t bytes = std::size_t{1} << 20;
  std::set<std::uintptr_t> offsets;
  std::vector<void*> all;
  for (int i = 0; i < 16; ++i) {
    void* p = sim::arena_allocate(bytes);
    REQUIRE(p != nullptr);
    all.push_back(p);
    offsets.insert(addr(p) % bytes);
  }
  // The colours of 16 allocations in turn add 0 to 15 pages to each redzone: at most one step of
  // 16 adds nothing, so at least 15 distinct offsets (without colour: one).
  CHECK(offsets.size() >= 15);
  for (void* p : all) sim::arena_release(p, bytes);
}

TEST_CASE("released memory is unaddressable for good, reads as zeros, and its range is never handed out again" *
          doctest::skip(no_arena)) {
  constexpr std::size_t bytes = 3 * page;
  auto* a = static_cast<unsigned char*>(sim::arena_allocate(bytes));
  REQUIRE(a != nullptr);
  std::memset(a, 0xab, bytes);
  sim::arena_release(a, bytes);
  CHECK_FALSE(sim::arena_addressable(addr(a), 1));
  CHECK_FALSE(sim::arena_addressable(addr(a) + bytes - 1, 1));
  CHECK(sim::in_arena(a));  // still the arena's, never anyone's again
  CHECK(a[0] == 0);         // its pages were given back
  CHECK(a[bytes - 1] == 0);
  for (int i = 0; i < 8; ++i) {
    auto* b = static_cast<unsigned char*>(sim::arena_allocate(bytes));
    REQUIRE(b != nullptr);
    CHECK(b >= a + 2 * bytes);  // past a and its redzone: the released range is not reused
    CHECK_FALSE(sim::arena_addressable(addr(a), 1));
    sim::arena_release(b, bytes);
  }
}

TEST_CASE("arena_mark makes part of an allocation unaddressable and addressable again" * doctest::skip(no_arena)) {
  auto* p = static_cast<unsigned char*>(sim::arena_allocate(256));
  REQUIRE(p != nullptr);
  sim::arena_mark(p + 64, 64, false);
  CHECK(sim::arena_addressable(addr(p), 64));
  CHECK_FALSE(sim::arena_addressable(addr(p) + 64, 1));
  CHECK_FALSE(sim::arena_addressable(addr(p) + 60, 8));  // straddles into the hole
  CHECK_FALSE(sim::arena_addressable(addr(p), 256));
  CHECK(sim::arena_addressable(addr(p) + 128, 128));
  sim::arena_mark(p + 64, 64, true);
  CHECK(sim::arena_addressable(addr(p), 256));
  sim::arena_release(p, 256);
}

TEST_CASE("cudaMalloc's memory lives in the arena, and cudaFree leaves it unaddressable" * doctest::skip(no_arena)) {
  void* d = nullptr;
  REQUIRE(cudaMalloc(&d, 40) == cudaSuccess);
  CHECK(sim::in_arena(d));
  CHECK(sim::arena_addressable(addr(d), 40));
  CHECK_FALSE(sim::arena_addressable(addr(d) + 40, 1));
  REQUIRE(cudaFree(d) == cudaSuccess);
  CHECK_FALSE(sim::arena_addressable(addr(d), 1));
  void* e = nullptr;
  REQUIRE(cudaMalloc(&e, 40) == cudaSuccess);
  CHECK(e != d);  // a new allocation never takes a freed one's address
  CHECK(cudaFree(e) == cudaSuccess);
}
