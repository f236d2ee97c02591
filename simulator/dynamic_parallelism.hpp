// SPDX-License-Identifier: MIT
// CUDA's device runtime (dynamic parallelism, CDP2) as kernel threads reach it: a launch from a
// kernel thread queued as a child of its launch (its stream, nesting depth and the pending-launch
// limit checked), device-side streams, the calling thread's own last error, the device-side
// cudaMemcpyAsync / cudaMemsetAsync, and the host-only functions a kernel must not call. The
// runtime API functions ask `in_kernel()` first and come here; submit.cpp runs the children.
#pragma once

#include "launch_state.hpp"

#include <cusim/cuda_runtime.hpp>

#include <cstddef>
#include <functional>

namespace cusim::sim {

/// CUDA's deepest grid: a host launch is depth 0, and a launch from a grid at this depth fails
/// with cudaErrorLaunchMaxDepthExceeded.
inline constexpr unsigned max_launch_depth = 24;

/// Whether the calling OS thread runs a kernel thread: a runtime function called there is the
/// device runtime's.
inline bool in_kernel() noexcept { return detail::current_thread_ != nullptr; }

/// A launch from a kernel thread, validated already: queued as a child of the thread's launch
/// (child_launch). Throws cuda_error with CUDA's code when its stream is not one the block may
/// launch into (cudaErrorInvalidResourceHandle), when the parent is at max_launch_depth
/// (cudaErrorLaunchMaxDepthExceeded) or when cudaLimitDevRuntimePendingLaunchCount launches are
/// pending already (cudaErrorLaunchPendingCountExceeded).
void queue_child_launch(const void* kernel, const launch_config& config, detail::bound_kernel bound,
                        bool cooperative);
/// A device-side cudaMemcpyAsync (any of its 1-D, 2-D and 3-D forms) or cudaMemsetAsync on
/// `stream`: checked as CUDA checks it (device memory only), then run in the stream's order among
/// the launch's children. cudaSuccess, or the code to return.
cudaError_t queue_device_copy(const cudaMemcpy3DParms& copy, cudaStream_t stream);
cudaError_t queue_device_memset(const cudaMemsetParams& set, cudaStream_t stream);
/// A child that ran, or will not run (its parent faulted): no longer pending.
void release_pending_launches(std::size_t count) noexcept;
/// cudaLimitDevRuntimePendingLaunchCount (2,048 unless set).
std::size_t pending_launch_limit() noexcept;
void set_pending_launch_limit(std::size_t count) noexcept;

/// cudaStreamCreateWithFlags in a kernel: a stream private to the calling block. CUDA's device
/// runtime has only non-blocking streams: other flags are cudaErrorInvalidValue.
cudaError_t create_device_stream(cudaStream_t* stream, unsigned flags);
/// cudaStreamDestroy in a kernel: the work queued on it still runs.
cudaError_t destroy_device_stream(cudaStream_t stream);

/// The calling kernel thread's last error, which each thread keeps (cudaSuccess not recorded).
void set_device_last_error(cudaError_t code) noexcept;
/// cudaGetLastError (`reset`) and cudaPeekAtLastError in a kernel.
cudaError_t device_last_error(bool reset) noexcept;

/// A host-only runtime function called in a kernel (nvcc rejects it in device code; CUDA 12
/// removed the device-side cudaDeviceSynchronize), or one of the device runtime's the simulator
/// does not simulate (`device_runtime`: device-side events): a tagged fault of the calling thread.
[[noreturn]] void refuse_in_kernel(const char* function, bool device_runtime = false);

}  // namespace cusim::sim
