// SPDX-License-Identifier: MIT
// graphs: through the cudaGraph* API. A graph built by hand runs each node after its dependencies
// (edges added later included), at every launch; an instantiated graph is a snapshot; a cycle is
// refused; a stream captured into a graph runs nothing until the graph is launched, then runs the
// captured work, in order, at every launch.
#include "host_trace.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

namespace {

cudaGraphNode_t host_node(cudaGraph_t g, host_step* s, std::vector<cudaGraphNode_t> dependencies) {
  const cudaHostNodeParams params{record, s};
  cudaGraphNode_t node = nullptr;
  REQUIRE(cudaGraphAddHostNode(&node, g, dependencies.data(), dependencies.size(), &params) == cudaSuccess);
  return node;
}

std::size_t position(const std::vector<std::string>& steps, const std::string& name, std::size_t from = 0) {
  return static_cast<std::size_t>(std::find(steps.begin() + static_cast<long>(from), steps.end(), name) - steps.begin());
}

__global__ void add_value(int* data, int value, int n) {
  const int i = cusim::grid<1>();
  if (i < n) data[i] += value;
}

}  // namespace

TEST_CASE("a graph built by hand runs every node after its dependencies, at each of two launches") {
  trace t;
  host_step a{&t, "a"}, b{&t, "b"}, c{&t, "c"}, d{&t, "d"}, e{&t, "e"};
  cudaGraph_t g;
  REQUIRE(cudaGraphCreate(&g, 0) == cudaSuccess);
  // a and b are roots; c after a; d after b and c; e, added last, is made a dependency of a (an
  // edge to an earlier node, so the order nodes were added in is not a valid order).
  cudaGraphNode_t na = host_node(g, &a, {}), nb = host_node(g, &b, {});
  cudaGraphNode_t nc = host_node(g, &c, {na});
  cudaGraphNode_t nd = host_node(g, &d, {nb, nc});
  cudaGraphNode_t ne = host_node(g, &e, {});
  REQUIRE(cudaGraphAddDependencies(g, &ne, &na, nullptr, 1) == cudaSuccess);
  CHECK(cudaGraphAddDependencies(g, &ne, &na, nullptr, 1) == cudaErrorInvalidValue);  // the same edge twice
  CHECK(cudaGraphAddDependencies(g, &na, &na, nullptr, 1) == cudaErrorInvalidValue);  // a node on itself
  (void)cudaGetLastError();

  std::size_t count = 0;
  CHECK(cudaGraphGetRootNodes(g, nullptr, &count) == cudaSuccess);
  CHECK(count == 2);  // b and e
  CHECK(cudaGraphNodeGetDependencies(nd, nullptr, nullptr, &count) == cudaSuccess);
  CHECK(count == 2);
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count) == cudaSuccess);
  CHECK(count == 4);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, g, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(t.steps.empty());  // instantiating runs nothing
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  REQUIRE(t.steps.size() == 10);
  for (std::size_t launch = 0; launch < 2; ++launch) {
    const std::size_t from = launch * 5;
    const std::vector<std::string> one(t.steps.begin() + static_cast<long>(from),
                                       t.steps.begin() + static_cast<long>(from + 5));
    CHECK(position(one, "e") < position(one, "a"));
    CHECK(position(one, "a") < position(one, "c"));
    CHECK(position(one, "b") < position(one, "d"));
    CHECK(position(one, "c") < position(one, "d"));
    // Among ready nodes, the earliest added first: b, e, a, c, d.
    CHECK(one == std::vector<std::string>{"b", "e", "a", "c", "d"});
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("a graph with a cycle cannot be instantiated") {
  trace t;
  host_step a{&t, "a"}, b{&t, "b"};
  cudaGraph_t g;
  REQUIRE(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t na = host_node(g, &a, {});
  cudaGraphNode_t nb = host_node(g, &b, {na});
  REQUIRE(cudaGraphAddDependencies(g, &nb, &na, nullptr, 1) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, g, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(t.steps.empty());
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
}

TEST_CASE("an instantiated graph is a snapshot: nodes added later run only in a new instantiation") {
  trace t;
  host_step a{&t, "a"}, late{&t, "late"};
  cudaGraph_t g;
  REQUIRE(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t na = host_node(g, &a, {});
  cudaGraphExec_t first;
  REQUIRE(cudaGraphInstantiate(&first, g, 0) == cudaSuccess);
  host_node(g, &late, {na});
  REQUIRE(cudaGraphLaunch(first, nullptr) == cudaSuccess);  // the default stream: runs at once
  CHECK(t.steps == std::vector<std::string>{"a"});
  cudaGraphExec_t second;
  REQUIRE(cudaGraphInstantiate(&second, g, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(second, nullptr) == cudaSuccess);
  CHECK(t.steps == std::vector<std::string>{"a", "a", "late"});
  CHECK(cudaGraphExecDestroy(first) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(second) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(second) == cudaErrorInvalidValue);  // already destroyed
  (void)cudaGetLastError();
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
}

TEST_CASE("a memset, kernel and copy graph replayed twice runs its steps in order at each launch") {
  constexpr int n = 100;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cusim::launch(add_value, 1, 1, d, 0, 0);  // a launch with its type makes the kernel known by address
  std::vector<int> after_first(n, -1), after_second(n, -1);

  cudaGraph_t g;
  REQUIRE(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaMemsetParams ms{};
  ms.dst = d;
  ms.value = 0;
  ms.elementSize = sizeof(int);
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t clear, add, copy;
  REQUIRE(cudaGraphAddMemsetNode(&clear, g, nullptr, 0, &ms) == cudaSuccess);
  int value = 7, count = n;
  void* args[] = {&d, &value, &count};
  const cudaKernelNodeParams kp{reinterpret_cast<void*>(add_value), dim3(4), dim3(32), 0, args, nullptr};
  REQUIRE(cudaGraphAddKernelNode(&add, g, &clear, 1, &kp) == cudaSuccess);
  REQUIRE(cudaGraphAddMemcpyNode1D(&copy, g, &add, 1, after_first.data(), d, n * sizeof(int),
                                   cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaGraphNodeType type;
  REQUIRE(cudaGraphNodeGetType(add, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeKernel);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, g, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0x7f, n * sizeof(int)) == cudaSuccess);  // the memset node must clear this
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  for (int v : after_first) CHECK(v == 7);
  // Again, copying into another buffer: the memset runs before the kernel each time (7, not 14 nor 0).
  cudaMemcpy3DParms to_second{};
  REQUIRE(cudaGraphMemcpyNodeGetParams(copy, &to_second) == cudaSuccess);
  to_second.dstPtr.ptr = after_second.data();
  REQUIRE(cudaGraphExecMemcpyNodeSetParams(exec, copy, &to_second) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  for (int v : after_second) CHECK(v == 7);
  std::vector<int> h(n);
  REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[n - 1] == 7);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a stream captured into a graph runs nothing while capturing; the graph replays the work in order") {
  constexpr int n = 64;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, n * sizeof(int)) == cudaSuccess);
  std::vector<int> snapshot(n, -1);
  trace t;
  host_step before{&t, "before the kernel"}, after{&t, "after the copy"};

  cudaStream_t s, side;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaStreamCreate(&side) == cudaSuccess);
  cudaEvent_t fork, join;
  REQUIRE(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&join, cudaEventDisableTiming) == cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);

  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  REQUIRE(cudaLaunchHostFunc(s, record, &before) == cudaSuccess);
  cusim::launch(add_value, cusim::launch_config{dim3(2), dim3(32), 0, s}, d, 1, n);
  // The side stream joins the capture through an event, adds 10, and is joined back.
  REQUIRE(cudaEventRecord(fork, s) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(side, fork, 0) == cudaSuccess);
  cusim::launch(add_value, cusim::launch_config{dim3(2), dim3(32), 0, side}, d, 10, n);
  REQUIRE(cudaEventRecord(join, side) == cudaSuccess);
  REQUIRE(cudaStreamWaitEvent(s, join, 0) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(snapshot.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  REQUIRE(cudaLaunchHostFunc(s, record, &after) == cudaSuccess);
  cudaGraph_t g = nullptr;
  REQUIRE(cudaStreamEndCapture(s, &g) == cudaSuccess);
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);

  // Nothing ran while capturing.
  CHECK(t.steps.empty());
  std::vector<int> h(n, -1);
  REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 0);
  CHECK(snapshot[0] == -1);
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(g, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes == 5);  // host, kernel, kernel, copy, host

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, g, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(t.steps == std::vector<std::string>{"before the kernel", "after the copy"});
  for (int v : snapshot) CHECK(v == 11);
  REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(t.steps.size() == 4);
  for (int v : snapshot) CHECK(v == 22);

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaEventDestroy(fork) == cudaSuccess);
  CHECK(cudaEventDestroy(join) == cudaSuccess);
  CHECK(cudaStreamDestroy(side) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}
