// SPDX-License-Identifier: MIT
// diagnostics: the texts of the simulator's tagged messages.
#include "diagnostics.hpp"

#include <doctest/doctest.h>

#include <string>

using cusim::detail::source_location;

TEST_CASE("messages use numba's tag and the file's base name") {
  CHECK(cusim::sim::format_tag({1, 2, 3}, {4, 5, 6}) == "tid=[1, 2, 3] ctaid=[4, 5, 6]");
  CHECK(cusim::sim::format_site({"/a/b/matmul.cu", 12, 3}) == "matmul.cu:12");
  CHECK(cusim::sim::format_site({"", 0, 0}).empty());
  auto e = cusim::sim::out_of_bounds_error({16, 0, 0}, {1, 0, 0}, 16, 16, 0, cusim::memory_space::shared,
                                           {"/x/matmul.cu", 12, 7});
  CHECK(std::string(e.what()) ==
        "tid=[16, 0, 0] ctaid=[1, 0, 0]: index 16 is out of bounds for axis 0 with size 16 (shared array, matmul.cu:12)");
  auto f = cusim::sim::fault_error(cusim::fault_kind::deadlock, {0, 0, 0}, {0, 0, 0}, "stuck", {});
  CHECK(std::string(f.what()) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: stuck");
}
