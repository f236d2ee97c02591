// SPDX-License-Identifier: MIT
// __global__ functions known by address: how to bind their arguments (so that a kernel seen only
// as `const void*` can be launched), and the attributes cudaFuncSetAttribute keeps for them.
#pragma once

#include <cusim/cuda_runtime.hpp>

namespace cusim::sim {

/// How to bind the arguments of `kernel`, or null if no typed launch or registration of it has
/// been seen.
detail::kernel_binder binder_for(const void* kernel);

}  // namespace cusim::sim
