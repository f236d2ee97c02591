// SPDX-License-Identifier: MIT
// What the runtime API's stream, memory and device calls (runtime_*.cpp) share about streams: the
// priority range, and queueing work on a stream or recording it into the stream's capture.
#pragma once

#include "capture.hpp"
#include "last_error.hpp"
#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <utility>

namespace cusim::sim {

/// Stream priorities, as current GPUs number them: lower is greater.
inline constexpr int least_priority = 0, greatest_priority = -5;

/// Async work on the legacy default stream while a blocking stream captures is an error; on a
/// capturing stream the work is recorded (`work`); else `run` queues or runs it.
template <class Run>
cudaError_t enqueue_or_capture(cudaStream_t stream, cusim::sim::node_work work, Run run) {
  if (stream_is_capturing(stream)) {
    const cudaError_t e = cusim::sim::capture_work(stream, std::move(work));
    return e == cudaSuccess ? e : fail(e);
  }
  if (stream == nullptr)
    if (cudaError_t e = cusim::sim::legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::run_on(stream, std::move(run));
  return cudaSuccess;
}

}  // namespace cusim::sim
