// SPDX-License-Identifier: MIT
// Streams and events: in-order work on a stream, concurrency between streams, the legacy
// default stream, events with query, synchronisation, waits and real elapsed times.
#include "test_support.hpp"

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

__global__ void add_one(cusim::span<int> v) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(v.size())) v[i] += 1;
}

struct trace {
  std::mutex mutex;
  std::vector<std::string> steps;
  void add(std::string s) {
    std::lock_guard lock(mutex);
    steps.push_back(std::move(s));
  }
};

struct step {
  trace* t;
  const char* name;
  int sleep_ms;
};

void CUDART_CB record_step(void* p) {
  auto* s = static_cast<step*>(p);
  if (s->sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(s->sleep_ms));
  s->t->add(s->name);
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

TEST_CASE("work on one stream runs in order: copies, kernels and host functions") {
  constexpr int n = 4096;
  int* host = nullptr;
  REQUIRE(cudaMallocHost(&host, n * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < n; ++i) host[i] = i;
  cusim::device_array<int> d(n);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  trace t;
  step slow{&t, "after upload", 30}, done{&t, "after download", 0};

  REQUIRE(cudaMemcpyAsync(d.data(), host, n * sizeof(int), cudaMemcpyHostToDevice, s) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(s, record_step, &slow) == cudaSuccess);  // the kernel must wait for it
  for (int k = 0; k < 3; ++k) cusim::launch(add_one, cusim::launch_config{n / 256, 256, 0, s}, d);
  REQUIRE(cudaMemcpyAsync(host, d.data(), n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(s, record_step, &done) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);

  CHECK(t.steps == std::vector<std::string>{"after upload", "after download"});
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == i + 3);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFreeHost(host) == cudaSuccess);
}

namespace {
struct rendezvous {
  std::atomic<int> flag{0};
  std::atomic<bool> saw_flag{false};
};
void CUDART_CB wait_for_flag(void* p) {  // gives up after 10 s instead of hanging
  auto* r = static_cast<rendezvous*>(p);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (r->flag.load() == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  r->saw_flag = r->flag.load() != 0;
}
void CUDART_CB set_flag(void* p) { static_cast<rendezvous*>(p)->flag = 1; }
}  // namespace

// A GPU may run all host functions on one driver thread, so this holds on the simulator only.
TEST_CASE("streams run concurrently: work on one waits for work queued later on another" *
          doctest::skip(!on_simulator)) {
  cudaStream_t a, b;
  REQUIRE(cudaStreamCreate(&a) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&b) == cudaSuccess);
  rendezvous r;
  REQUIRE(cudaLaunchHostFunc(a, wait_for_flag, &r) == cudaSuccess);
  CHECK(cudaStreamQuery(a) == cudaErrorNotReady);
  REQUIRE(cudaLaunchHostFunc(b, set_flag, &r) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(a) == cudaSuccess);
  CHECK(r.saw_flag.load());
  CHECK(cudaStreamQuery(a) == cudaSuccess);
  CHECK(cudaStreamDestroy(a) == cudaSuccess);
  CHECK(cudaStreamDestroy(b) == cudaSuccess);
}

TEST_CASE("cudaStreamWaitEvent orders work across streams") {
  cudaStream_t a, b;
  REQUIRE(cudaStreamCreate(&a) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&b) == cudaSuccess);
  cudaEvent_t ready;
  REQUIRE(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming) == cudaSuccess);
  trace t;
  step first{&t, "a: produce", 50}, second{&t, "b: consume", 0};
  REQUIRE(cudaLaunchHostFunc(a, record_step, &first) == cudaSuccess);
  REQUIRE(cudaEventRecord(ready, a) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(b, ready, 0) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(b, record_step, &second) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(b) == cudaSuccess);
  CHECK(t.steps == std::vector<std::string>{"a: produce", "b: consume"});
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, ready, ready) == cudaErrorInvalidResourceHandle);  // timing disabled
  (void)cudaGetLastError();
  CHECK(cudaEventDestroy(ready) == cudaSuccess);
  CHECK(cudaStreamDestroy(a) == cudaSuccess);
  CHECK(cudaStreamDestroy(b) == cudaSuccess);
}

TEST_CASE("events: query before completion, synchronise, and a real elapsed time") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  cudaEvent_t start, stop;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  trace t;
  step nap{&t, "nap", 80};
  REQUIRE(cudaEventRecord(start, s) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(s, record_step, &nap) == cudaSuccess);
  REQUIRE(cudaEventRecord(stop, s) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaErrorNotReady);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorNotReady);
  REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  REQUIRE(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 75.0f);
  CHECK(ms < 5000.0f);
  CHECK(cudaGetLastError() == cudaSuccess);  // cudaErrorNotReady is not an error
  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("the legacy default stream waits for blocking streams, not for non-blocking ones") {
  cudaStream_t blocking, nonblocking;
  REQUIRE(cudaStreamCreate(&blocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking) == cudaSuccess);
  auto d = cusim::to_device(std::vector<int>(256, 0));
  trace t;
  step slow{&t, "slow", 50};
  REQUIRE(cudaLaunchHostFunc(blocking, record_step, &slow) == cudaSuccess);
  cusim::launch(add_one, cusim::launch_config{1, 256, 0, blocking}, d);
  // A copy on the default stream waits for the kernel queued on the blocking stream.
  CHECK(d.copy_to_host() == std::vector<int>(256, 1));

  rendezvous r;
  REQUIRE(cudaLaunchHostFunc(nonblocking, wait_for_flag, &r) == cudaSuccess);
  REQUIRE(cudaMemset(d.data(), 0, 256 * sizeof(int)) == cudaSuccess);  // must not wait for it
  r.flag = 1;
  REQUIRE(cudaStreamSynchronize(nonblocking) == cudaSuccess);
  CHECK(r.saw_flag.load());
  CHECK(d.copy_to_host() == std::vector<int>(256, 0));
  CHECK(cudaStreamDestroy(blocking) == cudaSuccess);
  CHECK(cudaStreamDestroy(nonblocking) == cudaSuccess);
}

// The simulator knows each allocation's size and each stream's life; a GPU does not check them:
// there the copy overruns the host vector and the memset the device array, and the stream is
// used after its destruction (the H100 run crashed in this case).
TEST_CASE("async copies and memsets check their arguments at once" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> d(16);
  std::vector<int> h(16);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(h.data(), d.data(), 64 * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaErrorInvalidValue);
  CHECK(cudaMemsetAsync(d.data(), 0, 64 * sizeof(int), s) == cudaErrorInvalidValue);
  CHECK(cudaLaunchHostFunc(s, nullptr, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaMemsetAsync(d.data(), 0, 16 * sizeof(int), s) == cudaErrorInvalidResourceHandle);  // destroyed
  (void)cudaGetLastError();
}

TEST_CASE("idle streams do not spin" * doctest::skip(!on_simulator)) {
  std::vector<cudaStream_t> streams(4);
  for (auto& s : streams) {
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    trace t;
    step quick{&t, "started", 0};
    REQUIRE(cudaLaunchHostFunc(s, record_step, &quick) == cudaSuccess);  // starts the stream's thread
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  }
  const double before = cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double used = cpu_seconds() - before;
  CHECK(used < 0.05);  // four spinning threads would use about 1.2 s of CPU in 300 ms
  for (auto s : streams) CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("an event destroyed before its stream reaches it still orders the work that waits on it") {
  // CUDA's cudaEventDestroy returns at once; a stream that waits on the event still waits for
  // the work recorded before it (cuda-samples' graphMemoryNodes relies on it).
  cudaStream_t first, second;
  REQUIRE(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking) == cudaSuccess);
  trace t;
  step slow{&t, "first: slow work", 50}, after{&t, "second: after the event", 0};
  for (int round = 0; round < 3; ++round) {
    cudaEvent_t e;
    REQUIRE(cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess);
    REQUIRE(cudaLaunchHostFunc(first, record_step, &slow) == cudaSuccess);
    REQUIRE(cudaEventRecord(e, first) == cudaSuccess);
    REQUIRE(cudaStreamWaitEvent(second, e, 0) == cudaSuccess);
    REQUIRE(cudaEventDestroy(e) == cudaSuccess);
    REQUIRE(cudaLaunchHostFunc(second, record_step, &after) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(second) == cudaSuccess);
  }
  REQUIRE(cudaStreamSynchronize(first) == cudaSuccess);
  REQUIRE(t.steps.size() == 6);
  for (int round = 0; round < 3; ++round) {
    CHECK(t.steps[2 * round] == "first: slow work");
    CHECK(t.steps[2 * round + 1] == "second: after the event");
  }
  CHECK(cudaStreamDestroy(first) == cudaSuccess);
  CHECK(cudaStreamDestroy(second) == cudaSuccess);
}
