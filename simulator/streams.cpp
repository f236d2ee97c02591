// SPDX-License-Identifier: MIT
// Streams on threads of their own, and events that complete when their stream reaches them.
#include "streams.hpp"

#include <cusim/error.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  unsigned long long id = 0;
  std::map<int, cudaLaunchAttributeValue> attributes;  // guarded by handles_mutex
  std::mutex mutex;
  std::condition_variable changed;  // work queued, work done, or stopping
  std::deque<std::function<void()>> queue;
  bool running = false;
  bool stopping = false;
  std::thread thread;  // started with the first work
  std::exception_ptr fault;
};

struct CUevent_st {
  /// The event itself, while its handle is valid: work queued on streams holds copies, so that
  /// an event destroyed before its stream reaches it lives until then (CUDA's cudaEventDestroy
  /// returns at once and releases the event once it completes).
  std::shared_ptr<CUevent_st> self;
  unsigned flags = 0;
  std::mutex mutex;
  std::condition_variable completed_changed;
  std::uint64_t recorded = 0;   // records issued
  std::uint64_t completed = 0;  // records reached by their stream
  std::chrono::steady_clock::time_point time;
};

namespace cusim::sim {

namespace {

std::mutex handles_mutex;
std::set<cudaStream_t> streams;
std::set<cudaEvent_t> events;
std::exception_ptr default_stream_fault;
std::map<int, cudaLaunchAttributeValue> default_stream_attributes;
std::set<cudaStream_t> capturing;        // guarded by handles_mutex
std::atomic<int> capturing_count{0};  // lets stream_is_capturing skip the lock when none
std::atomic<launch_recorder> recorder{nullptr};

void serve(CUstream_st* s) {
  std::unique_lock lock(s->mutex);
  for (;;) {
    s->changed.wait(lock, [&] { return !s->queue.empty() || s->stopping; });
    if (s->queue.empty()) return;
    std::function<void()> task = std::move(s->queue.front());
    s->queue.pop_front();
    s->running = true;
    lock.unlock();
    task();
    lock.lock();
    s->running = false;
    s->changed.notify_all();
  }
}

std::vector<cudaStream_t> live_streams(bool blocking_only) {
  std::lock_guard lock(handles_mutex);
  std::vector<cudaStream_t> out;
  for (cudaStream_t s : streams)
    if (!blocking_only || (s->flags & cudaStreamNonBlocking) == 0) out.push_back(s);
  return out;
}

void complete(cudaEvent_t e, std::uint64_t record) {
  std::lock_guard lock(e->mutex);
  e->time = std::chrono::steady_clock::now();
  e->completed = std::max(e->completed, record);
  e->completed_changed.notify_all();
}

std::uint64_t last_record(cudaEvent_t e) {
  std::lock_guard lock(e->mutex);
  return e->recorded;
}

void wait_for_record(cudaEvent_t e, std::uint64_t record) {
  std::unique_lock lock(e->mutex);
  e->completed_changed.wait(lock, [&] { return e->completed >= record; });
}

// Streams and events are handles the user may pass back after destroying them: each lives in
// a registry, and only registered handles are ever dereferenced.
template <class Handle>
Handle* register_handle(std::set<Handle*>& registry, unsigned flags) {
  auto* h = new Handle;
  h->flags = flags;
  std::lock_guard lock(handles_mutex);
  registry.insert(h);
  return h;
}
template <class Handle>
bool unregister_handle(std::set<Handle*>& registry, Handle* h) {
  std::lock_guard lock(handles_mutex);
  return h != nullptr && registry.erase(h) != 0;
}

}  // namespace

bool stream_is_capturing(cudaStream_t stream) noexcept {
  if (capturing_count.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lock(handles_mutex);
  return capturing.count(stream) != 0;
}

void set_stream_capturing(cudaStream_t stream, bool on, launch_recorder record) {
  if (record != nullptr) recorder.store(record);
  std::lock_guard lock(handles_mutex);
  if (on ? capturing.insert(stream).second : capturing.erase(stream) != 0) capturing_count.fetch_add(on ? 1 : -1);
}

void record_launch(const void* kernel, const launch_config& config, bool cooperative, detail::bound_kernel bound) {
  recorder.load()(kernel, config, cooperative, std::move(bound));
}

bool any_stream_capturing() noexcept { return capturing_count.load() != 0; }

cudaStream_t create_stream(unsigned flags, int priority) {
  static std::atomic<unsigned long long> ids{0};
  cudaStream_t s = register_handle(streams, flags);
  s->priority = priority;
  s->id = ++ids;  // 0 is the legacy default stream's
  return s;
}

unsigned stream_flags(cudaStream_t stream) { return stream ? stream->flags : cudaStreamDefault; }
int stream_priority(cudaStream_t stream) { return stream ? stream->priority : 0; }
unsigned long long stream_id(cudaStream_t stream) { return stream ? stream->id : 0; }

bool stream_attribute(cudaStream_t stream, cudaLaunchAttributeID id, cudaLaunchAttributeValue* value) {
  std::lock_guard lock(handles_mutex);
  auto& attributes = stream ? stream->attributes : default_stream_attributes;
  auto it = attributes.find(id);
  if (it == attributes.end()) return false;
  *value = it->second;
  return true;
}

void set_stream_attribute(cudaStream_t stream, cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value) {
  std::lock_guard lock(handles_mutex);
  (stream ? stream->attributes : default_stream_attributes)[id] = value;
}

bool destroy_stream(cudaStream_t stream) {
  if (!unregister_handle(streams, stream)) return false;
  {
    std::lock_guard lock(stream->mutex);
    stream->stopping = true;  // the thread finishes what is queued, then ends
    stream->changed.notify_all();
  }
  if (stream->thread.joinable()) stream->thread.join();
  delete stream;
  return true;
}

bool stream_is_valid(cudaStream_t stream) noexcept {
  if (stream == nullptr) return true;
  std::lock_guard lock(handles_mutex);
  return streams.count(stream) != 0;
}

namespace {
thread_local cudaStream_t inline_stream = nullptr;
}  // namespace

run_inline_scope::run_inline_scope(cudaStream_t stream) noexcept : previous_(inline_stream) { inline_stream = stream; }
run_inline_scope::~run_inline_scope() { inline_stream = previous_; }

void enqueue(cudaStream_t s, std::function<void()> task) {
  if (s == inline_stream) return task();
  std::lock_guard lock(s->mutex);
  if (!s->thread.joinable()) s->thread = std::thread(serve, s);
  s->queue.push_back(std::move(task));
  s->changed.notify_all();
}

void run_on(cudaStream_t stream, std::function<void()> task) {
  if (stream != nullptr) return enqueue(stream, std::move(task));
  wait_for_blocking_streams();
  task();
}

void wait_for_blocking_streams() {
  for (cudaStream_t s : live_streams(true)) wait_for(s);
}

void wait_for(cudaStream_t stream) {
  if (stream == nullptr) {
    for (cudaStream_t s : live_streams(false)) wait_for(s);
    return;
  }
  std::unique_lock lock(stream->mutex);
  stream->changed.wait(lock, [&] { return stream->queue.empty() && !stream->running; });
}

bool is_idle(cudaStream_t stream) {
  if (stream == nullptr) {
    const auto all = live_streams(false);
    return std::all_of(all.begin(), all.end(), [](cudaStream_t s) { return is_idle(s); });
  }
  std::lock_guard lock(stream->mutex);
  return stream->queue.empty() && !stream->running;
}

void keep_stream_fault(cudaStream_t stream, std::exception_ptr fault) {
  std::lock_guard lock(handles_mutex);
  std::exception_ptr& slot = stream ? stream->fault : default_stream_fault;
  if (!slot) slot = std::move(fault);
}

std::exception_ptr stream_fault(cudaStream_t stream) {
  std::lock_guard lock(handles_mutex);
  if (stream != nullptr) return streams.count(stream) ? stream->fault : nullptr;
  if (default_stream_fault) return default_stream_fault;
  for (cudaStream_t s : streams)
    if (s->fault) return s->fault;
  return nullptr;
}

cudaError_t error_code(const std::exception_ptr& fault) {
  if (!fault) return cudaSuccess;
  try {
    std::rethrow_exception(fault);
  } catch (const kernel_error& e) {
    return e.code();
  } catch (...) {
    return cudaErrorLaunchFailure;
  }
}

void clear_stream_faults() {
  std::lock_guard lock(handles_mutex);
  default_stream_fault = nullptr;
  for (cudaStream_t s : streams) s->fault = nullptr;
}

cudaEvent_t create_event(unsigned flags) {
  auto event = std::make_shared<CUevent_st>();
  event->flags = flags;
  event->self = event;
  std::lock_guard lock(handles_mutex);
  events.insert(event.get());
  return event.get();
}

bool destroy_event(cudaEvent_t event) {
  if (!unregister_handle(events, event)) return false;
  std::shared_ptr<CUevent_st> last = std::move(event->self);  // freed here, or by the last queued work
  return true;
}

bool event_is_valid(cudaEvent_t event) noexcept {
  std::lock_guard lock(handles_mutex);
  return events.count(event) != 0;
}

void record_event(cudaEvent_t event, cudaStream_t stream) {
  std::uint64_t record;
  {
    std::lock_guard lock(event->mutex);
    record = ++event->recorded;
  }
  run_on(stream, [event = event->self, record] { complete(event.get(), record); });
}

cudaError_t query_event(cudaEvent_t event) {
  std::lock_guard lock(event->mutex);
  return event->completed >= event->recorded ? cudaSuccess : cudaErrorNotReady;
}

void wait_for_event(cudaEvent_t event) { wait_for_record(event, last_record(event)); }

void stream_wait_event(cudaStream_t stream, cudaEvent_t event) {
  const std::uint64_t record = last_record(event);
  if (record == 0) return;  // never recorded: nothing to wait for
  run_on(stream, [event = event->self, record] { wait_for_record(event.get(), record); });
}

cudaError_t elapsed_ms(float* ms, cudaEvent_t start, cudaEvent_t end) {
  // Both locks at once (std::lock orders them): (a, b) and (b, a) asked together cannot deadlock.
  std::unique_lock first(start->mutex, std::defer_lock);
  std::unique_lock second(end->mutex, std::defer_lock);
  if (end != start)
    std::lock(first, second);
  else
    first.lock();
  if (start->recorded == 0 || end->recorded == 0 || ((start->flags | end->flags) & cudaEventDisableTiming))
    return cudaErrorInvalidResourceHandle;
  if (start->completed < start->recorded || end->completed < end->recorded) return cudaErrorNotReady;
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}

}  // namespace cusim::sim
