// SPDX-License-Identifier: MIT
// streams: work on one stream in order on the stream's thread, the default stream at once, events
// (record, query, wait, elapsed time), a stream waiting on another's event, host functions and
// callbacks in order, and sticky faults.
#include "streams.hpp"

#include "sanitizers.hpp"
#include "host_trace.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace sim = cusim::sim;

namespace {

/// A task that holds its stream until opened.
class gate {
 public:
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};


}  // namespace

TEST_CASE("tasks queued on one stream run in order, on the stream's own thread, and wait_for waits for them") {
  cudaStream_t s = sim::create_stream(cudaStreamNonBlocking);
  CHECK(sim::is_idle(s));
  gate g;
  std::vector<int> ran;  // touched by the stream's thread only, until wait_for
  std::thread::id where;
  sim::enqueue(s, [&] { g.wait(); });
  for (int i = 0; i < 100; ++i) sim::enqueue(s, [&ran, i] { ran.push_back(i); });
  sim::enqueue(s, [&] { where = std::this_thread::get_id(); });
  CHECK_FALSE(sim::is_idle(s));  // held by the gate
  g.open();
  sim::wait_for(s);
  CHECK(sim::is_idle(s));
  REQUIRE(ran.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(ran[i] == i);
  CHECK(where != std::this_thread::get_id());
  CHECK(sim::stream_is_valid(s));
  CHECK(sim::destroy_stream(s));
  CHECK_FALSE(sim::stream_is_valid(s));
  CHECK_FALSE(sim::destroy_stream(s));  // a second destroy is refused
}

TEST_CASE("destroying a stream runs what is queued on it first") {
  cudaStream_t s = sim::create_stream(cudaStreamNonBlocking);
  int done = 0;
  for (int i = 0; i < 10; ++i)
    sim::enqueue(s, [&done] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++done;
    });
  CHECK(sim::destroy_stream(s));
  CHECK(done == 10);
}

TEST_CASE("work on the default stream runs at once on the caller, after every blocking stream's work") {
  cudaStream_t blocking = sim::create_stream(cudaStreamDefault);
  cudaStream_t nonblocking = sim::create_stream(cudaStreamNonBlocking);
  trace t;
  gate hold;
  sim::enqueue(nonblocking, [&] { hold.wait(); });  // the default stream must not wait for it
  sim::enqueue(blocking, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    t.add("blocking stream");
  });
  std::thread::id where;
  sim::run_on(nullptr, [&] {
    where = std::this_thread::get_id();
    t.add("default stream");
  });
  CHECK(where == std::this_thread::get_id());  // ran before submit returned
  CHECK(t.get() == std::vector<std::string>{"blocking stream", "default stream"});
  CHECK_FALSE(sim::is_idle(nonblocking));
  hold.open();
  CHECK(sim::destroy_stream(nonblocking));
  CHECK(sim::destroy_stream(blocking));
}

TEST_CASE("an event completes when its stream reaches it, and a wait on it waits for that record") {
  cudaStream_t s = sim::create_stream(cudaStreamNonBlocking);
  cudaEvent_t e = sim::create_event(cudaEventDefault);
  CHECK(sim::event_is_valid(e));
  CHECK(sim::query_event(e) == cudaSuccess);  // never recorded: nothing to wait for
  gate g;
  sim::enqueue(s, [&] { g.wait(); });
  sim::record_event(e, s);
  CHECK(sim::query_event(e) == cudaErrorNotReady);
  float ms = -1;
  CHECK(sim::elapsed_ms(&ms, e, e) == cudaErrorNotReady);
  g.open();
  sim::wait_for_event(e);
  CHECK(sim::query_event(e) == cudaSuccess);
  CHECK(sim::elapsed_ms(&ms, e, e) == cudaSuccess);
  CHECK(ms == 0.0f);
  CHECK(sim::destroy_event(e));
  CHECK_FALSE(sim::event_is_valid(e));
  CHECK_FALSE(sim::destroy_event(e));
  CHECK(sim::destroy_stream(s));
}

TEST_CASE("elapsed time between two events measures the work between them; timing can be disabled") {
  cudaStream_t s = sim::create_stream(cudaStreamNonBlocking);
  cudaEvent_t start = sim::create_event(cudaEventDefault), stop = sim::create_event(cudaEventDefault);
  cudaEvent_t untimed = sim::create_event(cudaEventDisableTiming);
  float ms = -1;
  CHECK(sim::elapsed_ms(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // neither recorded
  sim::record_event(start, s);
  sim::enqueue(s, [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); });
  sim::record_event(stop, s);
  sim::record_event(untimed, s);
  sim::wait_for(s);
  REQUIRE(sim::elapsed_ms(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 29.0f);
  CHECK(ms < 5000.0f);
  // The other way round: negative. Both locks are taken together, so ThreadSanitizer sees no
  // lock-order inversion (two host threads asking for (start, stop) and (stop, start) at once).
  REQUIRE(sim::elapsed_ms(&ms, stop, start) == cudaSuccess);
  CHECK(ms <= -29.0f);
  CHECK(sim::elapsed_ms(&ms, start, untimed) == cudaErrorInvalidResourceHandle);
  for (cudaEvent_t e : {start, stop, untimed}) CHECK(sim::destroy_event(e));
  CHECK(sim::destroy_stream(s));
}

TEST_CASE("a stream waiting on an event waits for the record made before the wait, not for later ones") {
  cudaStream_t a = sim::create_stream(cudaStreamNonBlocking), b = sim::create_stream(cudaStreamNonBlocking);
  cudaEvent_t e = sim::create_event(cudaEventDisableTiming);
  trace t;
  gate first, second;
  sim::enqueue(a, [&] {
    first.wait();
    t.add("a: first");
  });
  sim::record_event(e, a);
  sim::stream_wait_event(b, e);
  sim::enqueue(b, [&] { t.add("b: after the wait"); });
  sim::enqueue(a, [&] {
    second.wait();
    t.add("a: second");
  });
  sim::record_event(e, a);  // a later record: b does not wait for it
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(t.get().empty());  // b is held by the event
  CHECK_FALSE(sim::is_idle(b));
  first.open();
  sim::wait_for(b);
  CHECK(t.get() == std::vector<std::string>{"a: first", "b: after the wait"});
  CHECK(sim::query_event(e) == cudaErrorNotReady);  // the second record is still pending
  second.open();
  sim::wait_for_event(e);
  CHECK(t.get() == std::vector<std::string>{"a: first", "b: after the wait", "a: second"});

  // A wait on an event never recorded waits for nothing.
  cudaEvent_t fresh = sim::create_event(cudaEventDefault);
  sim::stream_wait_event(b, fresh);
  sim::enqueue(b, [&] { t.add("b: not held"); });
  sim::wait_for(b);
  CHECK(t.get().back() == "b: not held");
  CHECK(sim::destroy_event(fresh));
  CHECK(sim::destroy_event(e));
  CHECK(sim::destroy_stream(a));
  CHECK(sim::destroy_stream(b));
}

namespace {
struct callback_step {
  trace* t;
  std::string name;
  cudaStream_t stream = nullptr;
  cudaError_t status = cudaErrorUnknown;
};
void CUDART_CB callback_fn(cudaStream_t stream, cudaError_t status, void* p) {
  auto* s = static_cast<callback_step*>(p);
  s->stream = stream;
  s->status = status;
  s->t->add(s->name);
}
}  // namespace

TEST_CASE("host functions and callbacks run in the order queued, callbacks with their stream and status") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  trace t;
  host_step h1{&t, "host 1"}, h2{&t, "host 2"};
  callback_step c1{&t, "callback 1"}, c2{&t, "callback 2"};
  gate g;
  sim::enqueue(s, [&] { g.wait(); });
  REQUIRE(cudaLaunchHostFunc(s, record, &h1) == cudaSuccess);
  REQUIRE(cudaStreamAddCallback(s, callback_fn, &c1, 0) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(s, record, &h2) == cudaSuccess);
  REQUIRE(cudaStreamAddCallback(s, callback_fn, &c2, 0) == cudaSuccess);
  CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
  CHECK(t.get().empty());
  g.open();
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(t.get() == std::vector<std::string>{"host 1", "callback 1", "host 2", "callback 2"});
  CHECK((c1.stream == s && c2.stream == s));
  CHECK((c1.status == cudaSuccess && c2.status == cudaSuccess));
  CHECK(cudaStreamAddCallback(s, callback_fn, &c1, 1) == cudaErrorInvalidValue);  // flags must be 0
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  // On the legacy default stream both run before the call returns.
  trace d;
  host_step h{&d, "default host"};
  callback_step c{&d, "default callback"};
  REQUIRE(cudaLaunchHostFunc(nullptr, record, &h) == cudaSuccess);
  REQUIRE(cudaStreamAddCallback(nullptr, callback_fn, &c, 0) == cudaSuccess);
  CHECK(d.get() == std::vector<std::string>{"default host", "default callback"});
  CHECK(c.stream == nullptr);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

namespace {
cusim::kernel_error fault_of_kind(cusim::fault_kind kind, const char* what) {
  cusim::kernel_error::details d;
  d.kind = kind;
  return cusim::kernel_error(what, d);
}
}  // namespace

TEST_CASE("a stream keeps its first fault; the fault's CUDA code is its kind's, until the faults are cleared") {
  cudaStream_t a = sim::create_stream(cudaStreamNonBlocking), b = sim::create_stream(cudaStreamNonBlocking);
  CHECK(sim::stream_fault(a) == nullptr);
  CHECK(sim::error_code(nullptr) == cudaSuccess);
  sim::keep_stream_fault(a, std::make_exception_ptr(fault_of_kind(cusim::fault_kind::assertion, "first")));
  sim::keep_stream_fault(a, std::make_exception_ptr(fault_of_kind(cusim::fault_kind::out_of_bounds, "second")));
  REQUIRE(sim::stream_fault(a) != nullptr);
  CHECK(sim::error_code(sim::stream_fault(a)) == cudaErrorAssert);
  try {
    std::rethrow_exception(sim::stream_fault(a));
  } catch (const cusim::kernel_error& e) {
    CHECK(std::string(e.what()) == "first");
  }
  CHECK(sim::stream_fault(b) == nullptr);  // a stream's fault is its own
  CHECK(sim::stream_fault(nullptr) == sim::stream_fault(a));  // the default stream's: any stream's
  CHECK(sim::error_code(std::make_exception_ptr(std::runtime_error("not a kernel fault"))) ==
        cudaErrorLaunchFailure);
  CHECK(sim::error_code(std::make_exception_ptr(fault_of_kind(cusim::fault_kind::out_of_bounds, "x"))) ==
        cudaErrorIllegalAddress);
  sim::clear_stream_faults();
  CHECK(sim::stream_fault(a) == nullptr);
  CHECK(sim::stream_fault(nullptr) == nullptr);
  CHECK(sim::destroy_stream(a));
  CHECK(sim::destroy_stream(b));
}

namespace {
__global__ void throw_in_thread_3(cusim::span<int> out) {
  if (threadIdx.x == 3) throw std::runtime_error("kernel failed");
  out[threadIdx.x] = 1;
}
}  // namespace

TEST_CASE("a kernel fault on a stream is sticky: every later sync and callback sees it until cudaDeviceReset") {
  cudaStream_t s, other;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&other) == cudaSuccess);
  cusim::device_array<int> out(8);
  cusim::launch(throw_in_thread_3, cusim::launch_config{dim3(1), dim3(8), 0, s}, out);  // queued: no throw here
  trace t;
  callback_step after{&t, "after the fault"};
  REQUIRE(cudaStreamAddCallback(s, callback_fn, &after, 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaErrorLaunchFailure);
  CHECK(cudaStreamSynchronize(s) == cudaErrorLaunchFailure);  // again
  CHECK(after.status == cudaErrorLaunchFailure);  // the callback ran, told of the fault
  CHECK(t.get() == std::vector<std::string>{"after the fault"});
  CHECK(cudaStreamQuery(s) == cudaErrorLaunchFailure);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
  CHECK(cudaPeekAtLastError() == cudaErrorLaunchFailure);  // sticky: reading it does not clear it
  try {
    cusim::synchronize(s);
    FAIL("expected the kept fault");
  } catch (const cusim::kernel_error& e) {
    CHECK(std::string(e.what()) ==
          "tid=[3, 0, 0] ctaid=[0, 0, 0]: uncaught exception of type std::runtime_error in kernel: kernel failed");
  }
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(other) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(other) == cudaSuccess);
}
