// SPDX-License-Identifier: MIT
// The sticky fault a kernel leaves behind (runtime_errors.cpp), as the runtime API's other files
// (runtime_*.cpp) report it.
#pragma once

#include "last_error.hpp"

namespace cusim::sim {

/// After a kernel fault every call that uses the device returns the fault's code until
/// cudaDeviceReset, as on a GPU (its context is lost): cudaSuccess while none was kept.
cudaError_t sticky_fault();
/// The sticky code of a kernel fault kept by `stream` (any stream, for nullptr).
cudaError_t fault_code(cudaStream_t stream);
/// cudaDeviceReset's part: forgets the sticky fault and the calling host thread's last error.
void reset_errors() noexcept;

}  // namespace cusim::sim
