// SPDX-License-Identifier: MIT
// raw_access: the checks the compiler's address instrumentation calls before each load and store
// of an unmodified program (__asan_load4_noabort(addr) & co.), called here directly as the
// instrumented code would. In a kernel thread an access that no allocation makes addressable, or a
// sized access off its alignment, is a tagged fault naming the allocation it missed; in host code,
// a report on stderr once per place, and the program goes on. Not under AddressSanitizer (its
// runtime defines these functions) nor ThreadSanitizer (no arena: nothing is checked).
#include "sanitizers.hpp"

#include "../api/test_support.hpp"
#include "../stderr_capture.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#if !CUSIM_SIM_ASAN && !CUSIM_SIM_TSAN

extern "C" {
void __asan_load4_noabort(void*);
void __asan_store4_noabort(void*);
void __asan_load8_noabort(void*);
void __asan_loadN_noabort(void*, long);
void __asan_storeN_noabort(void*, long);
}

namespace {

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%#lx", static_cast<unsigned long>(reinterpret_cast<std::uintptr_t>(p)));
  return text;
}
std::string here(int line) { return "raw_access.cpp:" + std::to_string(line); }


/// What follows each check, as the access follows it in instrumented code: the check is never a
/// tail call, so its return address is in the kernel, at the access's line.
inline void access_follows() { asm volatile("" ::: "memory"); }

/// Thread `who` stores 4 bytes at p + offset (bytes), loads 4 bytes at each of [p, p + in_bounds).
__global__ void store_at(char* p, long offset, unsigned who, long in_bounds) {
  for (long i = 0; i + 4 <= in_bounds; i += 4) __asan_load4_noabort(p + i);
  if (threadIdx.x == who) __asan_store4_noabort(p + offset);
  access_follows();
}
constexpr int store_line = __LINE__ - 3;

__global__ void load_at(char* p, long offset) {
  __asan_load4_noabort(p + offset);
  access_follows();
}
constexpr int load_line = __LINE__ - 3;

__global__ void load8_at(char* p, long offset) {
  __asan_load8_noabort(p + offset);
  access_follows();
}
constexpr int load8_line = __LINE__ - 3;

}  // namespace

TEST_CASE("in-bounds raw accesses pass, in kernels and in host code, whole or straddling granules") {
  char* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  stderr_capture err;
  cusim::launch(store_at, 1, 32, d, 60L, 31u, 64L);  // the last 4 bytes, and every word read
  __asan_loadN_noabort(d, 64);
  __asan_storeN_noabort(d + 3, 61);  // unaligned, to the last byte
  __asan_load4_noabort(d + 60);
  CHECK(err.text().empty());
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a kernel's raw write one past an allocation is a tagged illegal address naming the allocation") {
  char* d = nullptr;
  constexpr int alloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(store_at, 2, 8, d, 64L, 5u, 0L); });
  CHECK(std::string(e.what()) == "tid=[5, 0, 0] ctaid=[0, 0, 0]: invalid global write of 4 bytes at " + hex(d + 64) +
                                     ": 0 bytes past the end of a 64-byte allocation of device memory (cudaMalloc) at " +
                                     hex(d) + ", allocated at " + here(alloc_line) + " (" + here(store_line) + ")");
  CHECK(e.kind() == cusim::fault_kind::illegal_address);
  CHECK(e.code() == cudaErrorIllegalAddress);
  CHECK(e.line() == static_cast<unsigned>(store_line));

  // Before the start, and far past the end.
  const cusim::kernel_error before = kernel_error_for([&] { cusim::launch(load_at, 1, 1, d, -4L); });
  CHECK(std::string(before.what()) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at " +
                                          hex(d - 4) + ": 4 bytes before the start of a 64-byte allocation of device "
                                          "memory (cudaMalloc) at " + hex(d) + ", allocated at " + here(alloc_line) +
                                          " (" + here(load_line) + ")");
  const cusim::kernel_error past = kernel_error_for([&] { cusim::launch(load_at, 1, 1, d, 200L); });
  CHECK(std::string(past.what()).find(": 136 bytes past the end of a 64-byte allocation") != std::string::npos);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a kernel's raw read of freed memory names where it was freed and allocated") {
  char* d = nullptr;
  constexpr int alloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&d, 32) == cudaSuccess);
  constexpr int free_line = __LINE__ + 1;
  REQUIRE(cudaFree(d) == cudaSuccess);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(load_at, 1, 1, d, 8L); });
  CHECK(std::string(e.what()) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at " + hex(d + 8) +
                                     ": 8 bytes into a 32-byte allocation of device memory (cudaMalloc) at " + hex(d) +
                                     ", freed at " + here(free_line) + " (allocated at " + here(alloc_line) + ") (" +
                                     here(load_line) + ")");
  CHECK(e.code() == cudaErrorIllegalAddress);
}

TEST_CASE("a kernel's sized raw access off its alignment is a misaligned address, even in bounds") {
  char* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(load8_at, 1, 1, d, 4L); });
  CHECK(std::string(e.what()) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: misaligned global read of 8 bytes at " + hex(d + 4) +
                                     ": not a multiple of 8 (misaligned address) (" + here(load8_line) + ")");
  CHECK(e.kind() == cusim::fault_kind::misaligned_address);
  CHECK(e.code() == cudaErrorMisalignedAddress);
  // In host code, which x86 lets do so, the same access is checked for bounds only: it passes.
  stderr_capture err;
  __asan_load8_noabort(d + 4);
  CHECK(err.text().empty());
  // And the next launch works.
  cusim::launch(load_at, 1, 1, d, 0L);
  CHECK(cudaFree(d) == cudaSuccess);
}

// One place of host code (not a loop's body, which a compiler may unroll into several places;
// the empty asm keeps the check from becoming a tail call, which would name the caller instead).
constexpr int host_store_line = __LINE__ + 2;
[[gnu::noinline]] void host_store4(char* p) {
  __asan_store4_noabort(p);
  asm volatile("");
}

TEST_CASE("a host raw access outside an allocation is reported on stderr once per place, and the program goes on") {
  char* d = nullptr;
  constexpr int alloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&d, 16) == cudaSuccess);
  stderr_capture err;
  for (int i = 0; i < 3; ++i) host_store4(d + 16);  // one place, three times
  constexpr int host_line = host_store_line;
  const std::string text = err.text();
  const std::string expected = "cusim: invalid host write of 4 bytes at " + hex(d + 16) +
                               ": 0 bytes past the end of a 16-byte allocation of device memory (cudaMalloc) at " +
                               hex(d) + ", allocated at " + here(alloc_line) + " in host code at " + here(host_line) +
                               "\n";
  CHECK(text == expected);
  CHECK(cudaGetLastError() == cudaSuccess);  // a report, not an error
  CHECK(cudaFree(d) == cudaSuccess);
}

#else

TEST_CASE("under a sanitizer raw accesses are the sanitizer's to check: cudaMalloc's memory is outside any arena") {
  void* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16) == cudaSuccess);
  CHECK(d != nullptr);
  CHECK(cudaFree(d) == cudaSuccess);
}

#endif
