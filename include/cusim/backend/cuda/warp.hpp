// SPDX-License-Identifier: MIT
// The GPU's lane and warp of the calling thread, for cusim's lane helpers (CUDA has the primitives built in).
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

namespace cusim::detail {
__device__ inline unsigned lane_of_caller() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__device__ inline unsigned warp_of_caller() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
}
}  // namespace cusim::detail
