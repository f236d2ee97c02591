// SPDX-License-Identifier: MIT
// The simulator's side of the CUDA runtime subset: last error, streams, device memory registry.
#pragma once

#include <cusim/backend/sim/runtime.hpp>

#include <exception>

namespace cusim::sim {

/// Records `code` as the calling host thread's last error (cudaSuccess is not recorded).
void set_last_error(cudaError_t code) noexcept;
/// nullptr (the default stream) or a stream created and not yet destroyed.
bool stream_is_valid(cudaStream_t stream) noexcept;
/// Keeps a kernel fault on `stream` until the next synchronisation reports it.
void keep_stream_fault(cudaStream_t stream, std::exception_ptr fault);
/// Takes the fault kept by `stream` (any stream for nullptr), or null.
std::exception_ptr take_stream_fault(cudaStream_t stream);

}  // namespace cusim::sim
