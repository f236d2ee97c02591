// SPDX-License-Identifier: MIT
// The simulator's side of the CUDA runtime subset: the last error.
#pragma once

#include <cusim/cuda_runtime.hpp>

namespace cusim::sim {

/// Records `code` as the calling host thread's last error (cudaSuccess is not recorded).
void set_last_error(cudaError_t code) noexcept;

}  // namespace cusim::sim
