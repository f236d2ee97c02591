// SPDX-License-Identifier: MIT
// symbolizer: a code address back to its file and line, from the program's debug information.
#include "symbolizer.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

namespace {
[[gnu::noinline]] std::uintptr_t caller_pc() {
  return reinterpret_cast<std::uintptr_t>(__builtin_extract_return_addr(__builtin_return_address(0)));
}
}  // namespace

TEST_CASE("an address of this test names this file, the calling line and the function") {
  const std::uintptr_t pc = caller_pc() - 1; const unsigned line = __LINE__;  // pc: in the call, this line
  const cusim::sim::code_place place = cusim::sim::place_of(pc);
#if CUSIM_HAVE_LIBBACKTRACE
  CHECK(place.file.ends_with("tests/unit/symbolizer.cpp"));
  CHECK(place.line == line);
#else
  static_cast<void>(line);
#endif
  CHECK(place.function.find("DOCTEST_ANON_FUNC") != std::string::npos);
}
