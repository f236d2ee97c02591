// SPDX-License-Identifier: MIT
// Stream capture into graphs, and the cudaStream*Capture* API.
#include "capture.hpp"

#include "diagnostics.hpp"
#include "last_error.hpp"
#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

namespace cusim::sim {

namespace {

/// One capture, from cudaStreamBeginCapture on its origin stream to cudaStreamEndCapture.
struct capture_sequence {
  cudaGraph_t graph = nullptr;
  bool own_graph = true;                 // false: cudaStreamBeginCaptureToGraph's graph, the caller's
  std::vector<cudaGraphNode_t> captured;  // the nodes the capture added
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread;
  cudaStream_t origin = nullptr;
  unsigned long long id = 0;
  bool invalidated = false;
  /// Each stream taking part, and the nodes its next work depends on.
  std::map<cudaStream_t, std::vector<cudaGraphNode_t>> dependencies;
};

/// An event recorded on a capturing stream: the capture and the nodes it stands for.
struct captured_record {
  std::weak_ptr<capture_sequence> sequence;
  std::vector<cudaGraphNode_t> nodes;
};

std::mutex mutex;
std::map<cudaStream_t, std::shared_ptr<capture_sequence>> capturing;
std::map<cudaEvent_t, captured_record> captured_events;
thread_local cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

/// Ends the capture: its streams capture no more. Called with the mutex held.
void end(const std::shared_ptr<capture_sequence>& sequence) {
  for (const auto& [stream, deps] : sequence->dependencies)
    if (capturing.erase(stream) != 0) set_stream_capturing(stream, false);
  std::erase_if(captured_events, [&](const auto& e) { return e.second.sequence.lock() == sequence; });
}

std::shared_ptr<capture_sequence> sequence_of(cudaStream_t stream) {
  auto it = capturing.find(stream);
  return it != capturing.end() ? it->second : nullptr;
}

}  // namespace

cudaError_t capture_work(cudaStream_t stream, node_work work) {
  std::lock_guard lock(mutex);
  const auto sequence = sequence_of(stream);
  if (sequence == nullptr) return cudaErrorIllegalState;
  if (sequence->invalidated) return cudaErrorStreamCaptureInvalidated;
  std::vector<cudaGraphNode_t>& deps = sequence->dependencies[stream];
  cudaGraphNode_t node = add_node(sequence->graph, std::move(work), deps.data(), deps.size());
  sequence->captured.push_back(node);
  deps.assign(1, node);
  return cudaSuccess;
}

void capture_event_record(cudaEvent_t event, cudaStream_t stream) {
  std::lock_guard lock(mutex);
  if (const auto sequence = sequence_of(stream)) captured_events[event] = {sequence, sequence->dependencies[stream]};
}

std::optional<cudaError_t> capture_event_wait(cudaStream_t stream, cudaEvent_t event) {
  std::lock_guard lock(mutex);
  auto recorded = captured_events.find(event);
  const auto from_event = recorded != captured_events.end() ? recorded->second.sequence.lock() : nullptr;
  const auto waiting = sequence_of(stream);
  if (from_event == nullptr && waiting == nullptr) return std::nullopt;
  if (from_event == nullptr || (waiting != nullptr && waiting != from_event)) {
    // A dependency on work outside the capture (or in another capture).
    if (waiting != nullptr) waiting->invalidated = true;
    return cudaErrorStreamCaptureIsolation;
  }
  if (from_event->invalidated) return cudaErrorStreamCaptureInvalidated;
  const std::vector<cudaGraphNode_t>& nodes = recorded->second.nodes;
  if (waiting == nullptr) {  // a fork: the stream joins the capture where the event was recorded
    capturing[stream] = from_event;
    set_stream_capturing(stream, true, &capture_kernel);
    from_event->dependencies[stream] = nodes;
    return cudaSuccess;
  }
  std::vector<cudaGraphNode_t>& deps = from_event->dependencies[stream];  // a join
  for (cudaGraphNode_t n : nodes)
    if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
  return cudaSuccess;
}

cudaError_t unsafe_call_during_capture() {
  if (!any_stream_capturing() || thread_mode == cudaStreamCaptureModeRelaxed) return cudaSuccess;
  std::lock_guard lock(mutex);
  cudaError_t result = cudaSuccess;
  for (const auto& [stream, sequence] : capturing) {
    if (sequence->mode == cudaStreamCaptureModeRelaxed) continue;
    if (sequence->thread == std::this_thread::get_id() ||
        (sequence->mode == cudaStreamCaptureModeGlobal && thread_mode == cudaStreamCaptureModeGlobal)) {
      sequence->invalidated = true;  // as in CUDA, the capture cannot be trusted any more
      result = cudaErrorStreamCaptureUnsupported;
    }
  }
  return result;
}

cudaError_t legacy_stream_during_capture() {
  if (!any_stream_capturing()) return cudaSuccess;
  std::lock_guard lock(mutex);
  cudaError_t result = cudaSuccess;
  for (const auto& [stream, sequence] : capturing)
    if ((stream_flags(stream) & cudaStreamNonBlocking) == 0) {
      sequence->invalidated = true;
      result = cudaErrorStreamCaptureImplicit;
    }
  return result;
}

cudaError_t synchronize_during_capture(cudaStream_t stream) {
  if (!any_stream_capturing()) return cudaSuccess;
  std::lock_guard lock(mutex);
  const auto sequence = sequence_of(stream);
  if (sequence == nullptr) return cudaSuccess;
  sequence->invalidated = true;
  return cudaErrorStreamCaptureUnsupported;
}

// A stream forked into a capture may be destroyed before the capture ends (CUDA allows it, and
// cuda-samples' graphMemoryNodes does it): its work stays in the graph, and whether it was joined
// is still checked at the end. Destroying the origin stream ends the capture for good.
void forget_captured_stream(cudaStream_t stream) {
  std::lock_guard lock(mutex);
  if (const auto sequence = sequence_of(stream)) {
    if (sequence->origin == stream) sequence->invalidated = true;
    capturing.erase(stream);
    set_stream_capturing(stream, false);
  }
}

void forget_captured_event(cudaEvent_t event) {
  std::lock_guard lock(mutex);
  captured_events.erase(event);
}

void capture_kernel(const void* kernel, const launch_config& config, bool cooperative, detail::bound_kernel bound) {
  if (cudaError_t e = capture_work(config.stream, kernel_node_work(kernel, config, cooperative, std::move(bound)));
      e != cudaSuccess)
    throw capture_failed_error(e);
}

}  // namespace cusim::sim

using namespace cusim::sim;

namespace {
/// cudaStreamBeginCapture into a new graph, or into `graph` after `dependencies` (ToGraph).
cudaError_t begin_capture(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                          const cudaGraphEdgeData* edge_data, std::size_t count, cudaStreamCaptureMode mode) {
  if (stream == nullptr) return fail(cudaErrorStreamCaptureUnsupported);  // the legacy stream cannot capture
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return fail(cudaErrorInvalidValue);
  if (graph != nullptr && (!graph_is_valid(graph) || !dependencies_in_graph(graph, dependencies, count)))
    return fail(cudaErrorInvalidValue);
  for (std::size_t i = 0; edge_data != nullptr && i < count; ++i)
    if (edge_data[i].from_port != 0 || edge_data[i].to_port != 0 || edge_data[i].type != 0)
      return fail(cudaErrorNotSupported);  // only full-completion edges
  static std::atomic<unsigned long long> ids{0};
  std::lock_guard lock(cusim::sim::mutex);
  if (cusim::sim::capturing.count(stream) != 0) return fail(cudaErrorIllegalState);
  auto sequence = std::make_shared<cusim::sim::capture_sequence>();
  sequence->graph = graph != nullptr ? graph : create_graph();
  sequence->own_graph = graph == nullptr;
  sequence->mode = mode;
  sequence->thread = std::this_thread::get_id();
  sequence->origin = stream;
  sequence->id = ++ids;
  sequence->dependencies[stream].assign(dependencies, dependencies + count);
  cusim::sim::capturing[stream] = std::move(sequence);
  set_stream_capturing(stream, true, &capture_kernel);
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return begin_capture(stream, nullptr, nullptr, nullptr, 0, mode);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* edge_data, std::size_t count,
                                          cudaStreamCaptureMode mode) {
  if (graph == nullptr) return fail(cudaErrorInvalidValue);
  return begin_capture(stream, graph, dependencies, edge_data, count, mode);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (graph == nullptr) return fail(cudaErrorInvalidValue);
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  std::lock_guard lock(cusim::sim::mutex);
  const auto sequence = cusim::sim::sequence_of(stream);
  if (sequence == nullptr) return fail(cudaErrorIllegalState);
  if (sequence->origin != stream) {
    sequence->invalidated = true;
    return fail(cudaErrorStreamCaptureUnmatched);
  }
  if (sequence->mode != cudaStreamCaptureModeRelaxed && sequence->thread != std::this_thread::get_id())
    return fail(cudaErrorStreamCaptureWrongThread);
  cusim::sim::end(sequence);
  *graph = nullptr;
  if (sequence->invalidated) {
    if (sequence->own_graph) destroy_graph(sequence->graph);
    return fail(cudaErrorStreamCaptureInvalidated);
  }
  // Every node must lead to the origin stream's position: work forked to another stream that the
  // origin never waited for is unjoined.
  const std::vector<cudaGraphNode_t>& joined = sequence->dependencies[stream];
  std::vector<cudaGraphNode_t> captured = sequence->captured;  // a graph given to capture into has others
  std::sort(captured.begin(), captured.end());
  for (cudaGraphNode_t leaf : leaves_of(sequence->graph))
    if (std::find(joined.begin(), joined.end(), leaf) == joined.end() &&
        std::binary_search(captured.begin(), captured.end(), leaf)) {
      if (sequence->own_graph) destroy_graph(sequence->graph);
      return fail(cudaErrorStreamCaptureUnjoined);
    }
  *graph = sequence->graph;
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (status == nullptr) return fail(cudaErrorInvalidValue);
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  std::lock_guard lock(cusim::sim::mutex);
  if (stream == nullptr) {
    for (const auto& [s, sequence] : cusim::sim::capturing)
      if ((stream_flags(s) & cudaStreamNonBlocking) == 0) return fail(cudaErrorStreamCaptureImplicit);
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
  }
  const auto sequence = cusim::sim::sequence_of(stream);
  *status = sequence == nullptr    ? cudaStreamCaptureStatusNone
            : sequence->invalidated ? cudaStreamCaptureStatusInvalidated
                                    : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id,
                                     cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                                     const cudaGraphEdgeData** edge_data, std::size_t* count) {
  if (cudaError_t e = cudaStreamIsCapturing(stream, status); e != cudaSuccess) return e;
  std::lock_guard lock(cusim::sim::mutex);
  const auto sequence = cusim::sim::sequence_of(stream);
  if (sequence == nullptr) return cudaSuccess;
  const std::vector<cudaGraphNode_t>& deps = sequence->dependencies[stream];
  if (id != nullptr) *id = sequence->id;
  if (graph != nullptr) *graph = sequence->graph;
  if (dependencies != nullptr) *dependencies = deps.data();
  if (edge_data != nullptr) *edge_data = nullptr;  // every edge is a full-completion one
  if (count != nullptr) *count = deps.size();
  return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* edge_data, std::size_t count, unsigned flags) {
  if (flags > cudaStreamSetCaptureDependencies || (count > 0 && dependencies == nullptr))
    return fail(cudaErrorInvalidValue);
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  for (std::size_t i = 0; edge_data != nullptr && i < count; ++i)
    if (edge_data[i].from_port != 0 || edge_data[i].to_port != 0 || edge_data[i].type != 0)
      return fail(cudaErrorNotSupported);  // only full-completion edges
  std::lock_guard lock(cusim::sim::mutex);
  const auto sequence = cusim::sim::sequence_of(stream);
  if (sequence == nullptr) return fail(cudaErrorIllegalState);
  if (sequence->invalidated) return fail(cudaErrorStreamCaptureInvalidated);
  if (!dependencies_in_graph(sequence->graph, dependencies, count)) return fail(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t>& deps = sequence->dependencies[stream];
  if (flags == cudaStreamSetCaptureDependencies) deps.clear();
  for (std::size_t i = 0; i < count; ++i)
    if (std::find(deps.begin(), deps.end(), dependencies[i]) == deps.end()) deps.push_back(dependencies[i]);
  return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (mode == nullptr || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
    return fail(cudaErrorInvalidValue);
  std::swap(*mode, cusim::sim::thread_mode);
  return cudaSuccess;
}
