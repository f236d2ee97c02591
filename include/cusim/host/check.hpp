// SPDX-License-Identifier: MIT
// Turns a cudaError_t into a thrown cusim::cuda_error (the C++ API's error tier).
#pragma once

#include <cusim/error.hpp>
#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/runtime.hpp>
#endif

#include <string>

namespace cusim {

/// Throws cuda_error if `code` is not cudaSuccess; `what` names the failing operation.
inline void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) {
    (void)cudaGetLastError();  // the C++ API reports by exception; don't leave it sticky
    throw cuda_error(code, std::string(what) + ": " + cudaGetErrorString(code) + " (" +
                               cudaGetErrorName(code) + ")");
  }
}

}  // namespace cusim
