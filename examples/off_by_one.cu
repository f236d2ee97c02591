// SPDX-License-Identifier: MIT
// Lesson 10: debugging. The bug: `<=` instead of `<` lets thread 10 write past a 10-element
// array. On a GPU this silently corrupts memory; cusim names the thread, block and line (so does
// a GPU build with CUSIM_CHECKS=ON; a GPU build without it checks nothing and only says so).
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <string>

__global__ void fill_squares(cusim::span<int> out) {
  int i = cusim::grid<1>();
  if (i <= static_cast<int>(out.size()))  // BUG: should be `<`
    out[i] = i * i;
}

int main() {
  cusim::device_array<int> out(10);
  try {
    cusim::launch(fill_squares, 1, 16, out);
    cusim::synchronize();
  } catch (const cusim::kernel_error& e) {
    std::printf("caught the bug: %s\n", e.what());
    const bool ok = e.thread_idx().x == 10 && e.block_idx().x == 0 && e.index() == 10;
    return report("off_by_one", ok, "the fault names tid=[10, 0, 0], the index and the line");
  }
#if !CUSIM_BACKEND_IS_SIM() && !defined(CUSIM_CHECKS)
  std::printf("off_by_one             an unchecked GPU build lets the write through: build with CUSIM_CHECKS=ON\n");
  return 0;
#else
  return report("off_by_one", false, "the out-of-bounds write went unnoticed");
#endif
}
