// SPDX-License-Identifier: MIT
// shared_memory: one allocation per __shared__ variable, poisoned between blocks, limited.
#include "shared_memory.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

using cusim::detail::source_location;

TEST_CASE("a declaration site binds to the same shared storage for the whole block") {
  cusim::sim::shared_memory shm;
  shm.reset(0);
  const source_location a{"k.cu", 10, 5}, b{"k.cu", 10, 40}, a_copy{"/other/path/../k.cu", 10, 5};
  void* pa = shm.bind(nullptr, a, 64, 4);
  void* pb = shm.bind(nullptr, b, 64, 4);
  CHECK(pa != nullptr);
  CHECK(pb != nullptr);
  CHECK(pa != pb);
  CHECK(shm.bind(nullptr, a, 64, 4) == pa);
  CHECK(shm.bind(nullptr, source_location{"k.cu", 10, 5}, 64, 4) == pa);  // equal file text, other pointer
  CHECK(shm.bind(nullptr, a, 128, 4) != pa);                                 // same site, other size (templates)
  CHECK(shm.bind(nullptr, a_copy, 64, 4) != pa);
}

TEST_CASE("a keyed declaration binds by its key: one variable per function specialization") {
  cusim::sim::shared_memory shm;
  shm.reset(0);
  static constexpr char key_int = 0, key_float = 0;  // what __shared__ emits in scratch<int>, scratch<float>
  const source_location site{"k.cu", 10, 5};
  void* as_int = shm.bind(&key_int, site, 16, 4);
  void* as_float = shm.bind(&key_float, site, 16, 4);
  CHECK(as_int != as_float);
  CHECK(shm.bind(&key_int, site, 16, 4) == as_int);
  CHECK(shm.bind(&key_float, source_location{"other.cu", 1, 1}, 16, 4) == as_float);  // inlined elsewhere
}

TEST_CASE("shared variables get their type's alignment as addresses, up to 64 bytes") {
  cusim::sim::shared_memory shm;
  shm.reset(8);
  for (std::size_t align : {16, 32, 64}) {
    auto p = reinterpret_cast<std::uintptr_t>(shm.bind(nullptr, {"k.cu", static_cast<unsigned>(align), 1}, 8, align));
    CHECK(p % align == 0);
  }
}

TEST_CASE("shared memory is poisoned between blocks and limited per block") {
  cusim::sim::shared_memory shm;
  shm.reset(16);
  std::size_t dyn = 0;
  CHECK(shm.dynamic(&dyn) != nullptr);
  CHECK(dyn == 16);
  auto* p = static_cast<int*>(shm.bind(nullptr, {"k.cu", 1, 1}, sizeof(int), alignof(int)));
  *p = 42;
  shm.reset(0);
  auto* q = static_cast<int*>(shm.bind(nullptr, {"k.cu", 1, 1}, sizeof(int), alignof(int)));
  CHECK(*q == -1);  // 0xff bytes
  CHECK(shm.bind(nullptr, {"k.cu", 2, 1}, cusim::sim::shared_memory::limit_bytes, 16) == nullptr);
  CHECK(shm.requested() > cusim::sim::shared_memory::limit_bytes);
}
