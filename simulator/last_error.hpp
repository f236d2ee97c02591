// SPDX-License-Identifier: MIT
// The calling host thread's last CUDA error, kept by every file that implements a runtime API
// function (defined in runtime_errors.cpp).
#pragma once

#include <cusim/cuda_runtime.hpp>

namespace cusim::sim {

/// Records `code` as the calling host thread's last error (cudaSuccess is not recorded).
void set_last_error(cudaError_t code) noexcept;
/// Records `code` as the last error and returns it: `return fail(cudaErrorInvalidValue);`.
inline cudaError_t fail(cudaError_t code) noexcept {
  set_last_error(code);
  return code;
}

}  // namespace cusim::sim
