// SPDX-License-Identifier: MIT
// Stream capture: while a stream captures, the work queued on it is recorded as graph nodes
// instead of run. Events recorded on a capturing stream carry its position; a stream that waits on
// such an event joins the capture (fork), and the origin stream waiting on the other streams' events
// joins them back (join) before cudaStreamEndCapture.
#pragma once

#include "graphs.hpp"

#include <optional>

namespace cusim::sim {

/// Records `work` as a node of the capture `stream` takes part in, after the stream's current
/// dependencies; the stream then depends on the new node. cudaErrorStreamCaptureInvalidated when
/// the capture was invalidated.
cudaError_t capture_work(cudaStream_t stream, node_work work);
/// Records a kernel launch on a capturing stream as a kernel node: the stream layer's
/// launch_recorder, handed to it when a stream starts capturing. Throws cuda_error when the
/// capture was invalidated.
void capture_kernel(const void* kernel, const launch_config& config, bool cooperative, detail::bound_kernel bound);
/// cudaEventRecord on a capturing stream: the event remembers the stream's dependencies.
void capture_event_record(cudaEvent_t event, cudaStream_t stream);
/// cudaStreamWaitEvent when the stream captures or the event was recorded in a capture: the result
/// (a join, a fork, or an error); nothing when neither, and the wait is an ordinary one.
std::optional<cudaError_t> capture_event_wait(cudaStream_t stream, cudaEvent_t event);

/// cudaErrorStreamCaptureUnsupported when a capture forbids this thread calls that may synchronise
/// (cudaMalloc, cudaDeviceSynchronize, ...), per the captures' and the thread's modes; those
/// captures are invalidated.
cudaError_t unsafe_call_during_capture();
/// cudaErrorStreamCaptureImplicit when work on the legacy default stream would wait for a capturing
/// blocking stream (the captures concerned are invalidated).
cudaError_t legacy_stream_during_capture();
/// cudaErrorStreamCaptureUnsupported when `stream` captures (its capture is invalidated): the
/// stream cannot be synchronised or queried.
cudaError_t synchronize_during_capture(cudaStream_t stream);
/// A destroyed stream or event leaves the capture state (a capture it took part in is invalidated).
void forget_captured_stream(cudaStream_t stream);
void forget_captured_event(cudaEvent_t event);

}  // namespace cusim::sim
