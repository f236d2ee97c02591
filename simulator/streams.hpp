// SPDX-License-Identifier: MIT
// Streams and events. Each stream runs its work in order on a thread of its own, started with
// its first work and asleep on a condition variable while idle, so streams run concurrently
// with each other and with the host. The legacy default stream is synchronous: its work waits
// for every blocking stream, then runs on the calling thread.
#pragma once

#include <cusim/cuda_runtime.hpp>

#include <exception>
#include <functional>

namespace cusim::sim {

cudaStream_t create_stream(unsigned flags, int priority = 0);
/// A live stream's flags, priority and process-unique id (cudaStreamGetFlags & co.).
unsigned stream_flags(cudaStream_t stream);
int stream_priority(cudaStream_t stream);
unsigned long long stream_id(cudaStream_t stream);
/// A stream attribute as last set (cudaStreamSetAttribute); false if it was never set.
bool stream_attribute(cudaStream_t stream, cudaLaunchAttributeID id, cudaLaunchAttributeValue* value);
void set_stream_attribute(cudaStream_t stream, cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value);
/// Waits for the stream's work, then frees it; false if `stream` is not a live stream.
bool destroy_stream(cudaStream_t stream);
/// nullptr (the default stream) or a stream created and not yet destroyed.
bool stream_is_valid(cudaStream_t stream) noexcept;

/// Whether `stream` is capturing into a graph (cudaStreamBeginCapture): the work queued on it is
/// recorded instead of run. The capture layer (capture.hpp) says when a stream starts and stops.
bool stream_is_capturing(cudaStream_t stream) noexcept;
/// What records a kernel launch on a capturing stream as a graph node: the capture layer's, handed
/// over when a stream starts capturing. The launch entry (submit.cpp) reaches it here, below the
/// capture layer, which depends on graphs, whose replays launch.
using launch_recorder = void (*)(const void* kernel, const launch_config& config, bool cooperative,
                                 detail::bound_kernel bound);
void set_stream_capturing(cudaStream_t stream, bool capturing, launch_recorder record = nullptr);
/// Records a launch on a capturing stream (stream_is_capturing(config.stream) holds) through the
/// capture layer's recorder.
void record_launch(const void* kernel, const launch_config& config, bool cooperative, detail::bound_kernel bound);
/// Whether any stream is capturing (a test without a lock).
bool any_stream_capturing() noexcept;

/// Queues `task` on `stream` (not the default stream) behind the work queued before it.
void enqueue(cudaStream_t stream, std::function<void()> task);
/// While it lives, work this OS thread queues on `stream` runs at once instead: a graph's
/// conditional node, itself one step of the stream, runs its body graphs inside that step.
class run_inline_scope {
 public:
  explicit run_inline_scope(cudaStream_t stream) noexcept;
  ~run_inline_scope();
  run_inline_scope(const run_inline_scope&) = delete;
  run_inline_scope& operator=(const run_inline_scope&) = delete;

 private:
  cudaStream_t previous_;
};
/// Runs `task` on `stream`: queued on a stream, at once (after every blocking stream) on the
/// default stream.
void run_on(cudaStream_t stream, std::function<void()> task);
/// What the legacy default stream does before its own work: waits for every blocking stream.
void wait_for_blocking_streams();
/// Waits until `stream` has run everything queued on it (nullptr: every stream).
void wait_for(cudaStream_t stream);
/// Whether `stream` has nothing queued or running.
bool is_idle(cudaStream_t stream);

/// Keeps the first kernel fault of `stream` (nullptr: the default stream). It is sticky, as on
/// a GPU: every later synchronisation reports it, until cudaDeviceReset.
void keep_stream_fault(cudaStream_t stream, std::exception_ptr fault);
/// The fault kept by `stream`; for nullptr, the default stream's or any stream's.
std::exception_ptr stream_fault(cudaStream_t stream);
/// The CUDA error a kept fault stands for (cudaErrorAssert, cudaErrorIllegalAddress, ...).
cudaError_t error_code(const std::exception_ptr& fault);
void clear_stream_faults();

cudaEvent_t create_event(unsigned flags);
/// Waits for the event's pending records, then frees it; false if it is not a live event.
bool destroy_event(cudaEvent_t event);
bool event_is_valid(cudaEvent_t event) noexcept;
/// Records the event on `stream`: it completes, with its time, when the stream gets there.
void record_event(cudaEvent_t event, cudaStream_t stream);
/// cudaSuccess once the last record has completed, cudaErrorNotReady before.
cudaError_t query_event(cudaEvent_t event);
void wait_for_event(cudaEvent_t event);
/// Work queued on `stream` after this waits for the event's last record (cudaStreamWaitEvent).
void stream_wait_event(cudaStream_t stream, cudaEvent_t event);
cudaError_t elapsed_ms(float* ms, cudaEvent_t start, cudaEvent_t end);

}  // namespace cusim::sim

