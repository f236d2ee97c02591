// SPDX-License-Identifier: MIT
// CUDA graphs: built by hand and launched repeatedly, captured from streams that fork and join
// through events, updated in place, with memory nodes; and the errors of each.
#include "test_support.hpp"

#include <atomic>
#include <string>
#include <vector>

__global__ void add_to_each(int* data, int value, int n) {
  const int i = cusim::grid<1>();
  if (i < n) data[i] += value;
}

__global__ void set_each(int* data, int value, int n) {
  const int i = cusim::grid<1>();
  if (i < n) data[i] = value;
}

__global__ void never_launched_by_type(int*) {}

namespace {
struct host_tally {
  const int* values;
  int n;
  std::atomic<int> calls{0};
  std::atomic<long> sum{0};
};
void CUDART_CB tally(void* data) {
  auto* t = static_cast<host_tally*>(data);
  long s = 0;
  for (int i = 0; i < t->n; ++i) s += t->values[i];
  t->sum = s;
  ++t->calls;
}

/// A kernel node's parameters in CUDA's member order (the simulator's built-ins are macros that
/// hide the members named gridDim and blockDim).
cudaKernelNodeParams kernel_params(const void* kernel, dim3 grid, dim3 block, void** args) {
  return cudaKernelNodeParams{const_cast<void*>(kernel), grid, block, 0, args, nullptr};
}
/// The parameters of a memory allocation node of `bytes` on device 0.
cudaMemAllocNodeParams device_allocation(std::size_t bytes) {
  cudaMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = bytes;
  return alloc;
}

}  // namespace

TEST_CASE("a graph built by hand runs its kernel, copy and host nodes in order at every launch") {
  constexpr int n = 64;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, n * sizeof(int)) == cudaSuccess);
  cusim::launch(add_to_each, 1, 32, d, 0, 0);  // a launch with its type makes the kernel known by address
  std::vector<int> h(n, -1);
  host_tally t{h.data(), n};

  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  int value = 1, count = n;
  void* args[] = {&d, &value, &count};
  const cudaKernelNodeParams kp = kernel_params(reinterpret_cast<const void*>(add_to_each), dim3(2), dim3(32), args);
  cudaGraphNode_t kernel, copy, host;
  REQUIRE(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &kp) == cudaSuccess);
  value = 1000;  // the arguments were copied when the node was added
  REQUIRE(cudaGraphAddMemcpyNode1D(&copy, graph, &kernel, 1, h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
  const cudaHostNodeParams hp{tally, &t};
  REQUIRE(cudaGraphAddHostNode(&host, graph, &copy, 1, &hp) == cudaSuccess);

  std::size_t count_nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count_nodes) == cudaSuccess);
  CHECK(count_nodes == 3);
  cudaGraphNode_t roots[2] = {nullptr, nullptr};
  std::size_t count_roots = 2;
  CHECK(cudaGraphGetRootNodes(graph, roots, &count_roots) == cudaSuccess);
  CHECK(count_roots == 1);
  CHECK(roots[0] == kernel);
  CHECK(roots[1] == nullptr);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(copy, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeMemcpy);
  cudaKernelNodeParams read{};
  CHECK(cudaGraphKernelNodeGetParams(kernel, &read) == cudaSuccess);
  CHECK(read.func == reinterpret_cast<void*>(add_to_each));
  CHECK(*static_cast<int*>(read.kernelParams[1]) == 1);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(t.calls == 1);
  CHECK(t.sum == n);
  for (int v : h) CHECK(v == 1);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(t.calls == 2);
  CHECK(t.sum == 2 * n);

  // New arguments for the instantiated kernel node; the graph itself keeps the old ones.
  value = 10;
  const cudaKernelNodeParams changed =
      kernel_params(reinterpret_cast<const void*>(add_to_each), dim3(2), dim3(32), args);
  CHECK(cudaGraphExecKernelNodeSetParams(exec, kernel, &changed) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, nullptr) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(h[5] == 12);

  // A clone runs the same work.
  cudaGraph_t clone;
  REQUIRE(cudaGraphClone(&clone, graph) == cudaSuccess);
  cudaGraphExec_t clone_exec;
  REQUIRE(cudaGraphInstantiate(&clone_exec, clone, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(clone_exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[5] == 13);
  CHECK(t.calls == 4);

  CHECK(cudaGraphExecDestroy(clone_exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(clone) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a graph captured from streams that fork and join through events runs like the streams would") {
  constexpr int n = 256;
  int *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, n * sizeof(int)) == cudaSuccess);
  std::vector<int> ha(n, -1), hb(n, -1);
  cudaStream_t s1, s2;
  REQUIRE(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  cudaEvent_t fork, join;
  REQUIRE(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&join, cudaEventDisableTiming) == cudaSuccess);

  REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s1, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  CHECK(cudaStreamIsCapturing(s2, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  CHECK(cudaMemsetAsync(a, 0, n * sizeof(int), s1) == cudaSuccess);
  CHECK(cudaMemsetAsync(b, 0, n * sizeof(int), s1) == cudaSuccess);
  CHECK(cudaEventRecord(fork, s1) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s2, fork, 0) == cudaSuccess);
  CHECK(cudaStreamIsCapturing(s2, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  cusim::launch(add_to_each, cusim::launch_config{n / 128, 128, 0, s1}, a, 1, n);
  cusim::launch(add_to_each, cusim::launch_config{n / 128, 128, 0, s2}, b, 2, n);
  cusim::launch(add_to_each, cusim::launch_config{n / 128, 128, 0, s2}, b, 3, n);
  CHECK(cudaEventRecord(join, s2) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s1, join, 0) == cudaSuccess);
  CHECK(cudaMemcpyAsync(ha.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost, s1) == cudaSuccess);
  CHECK(cudaMemcpyAsync(hb.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost, s1) == cudaSuccess);
  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  std::size_t ndeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s1, &status, &id, &capturing, &deps, nullptr, &ndeps) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  CHECK(capturing != nullptr);
  CHECK(ndeps == 1);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(s1, &graph) == cudaSuccess);
  REQUIRE(graph != nullptr);
  CHECK(cudaStreamIsCapturing(s2, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  CHECK(ha[0] == -1);  // captured, not run
  CHECK(hb[0] == -1);

  std::size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
  CHECK(count == 7);  // two memsets, three kernels, two copies
  std::size_t edges = 0;
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges) == cudaSuccess);
  CHECK(edges == 7);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaGraphLaunch(exec, s1) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s1) == cudaSuccess);
    for (int i = 0; i < n; ++i) {
      CHECK(ha[i] == 1);
      CHECK(hb[i] == 5);
    }
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaEventDestroy(fork) == cudaSuccess);
  CHECK(cudaEventDestroy(join) == cudaSuccess);
  CHECK(cudaStreamDestroy(s1) == cudaSuccess);
  CHECK(cudaStreamDestroy(s2) == cudaSuccess);
  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(b) == cudaSuccess);
}

namespace {
/// Captures `set_each(d, value, n)` (and, with `twice`, a second kernel) on `s` into a graph.
cudaGraph_t capture_fill(cudaStream_t s, int* d, int value, int n, bool twice) {
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  cusim::launch(set_each, cusim::launch_config{1, 64, 0, s}, d, value, n);
  if (twice) cusim::launch(add_to_each, cusim::launch_config{1, 64, 0, s}, d, 1, n);
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  return graph;
}
}  // namespace

TEST_CASE("cudaGraphExecUpdate takes a new capture's parameters and refuses a new topology") {
  constexpr int n = 64;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaGraph_t first = capture_fill(s, d, 1, n, false);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, first, 0) == cudaSuccess);

  cudaGraph_t second = capture_fill(s, d, 5, n, false);
  cudaGraphExecUpdateResultInfo info{};
  CHECK(cudaGraphExecUpdate(exec, second, &info) == cudaSuccess);
  CHECK(info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  int h = 0;
  CHECK(cudaMemcpy(&h, d + 7, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h == 5);

  cudaGraph_t third = capture_fill(s, d, 9, n, true);
  CHECK(cudaGraphExecUpdate(exec, third, &info) == cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  CHECK(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;
  cudaGraphNode_t error_node = nullptr;
  CHECK(cudaGraphExecUpdate(exec, third, &error_node, &result) == cudaErrorGraphExecUpdateFailure);
  CHECK(result == cudaGraphExecUpdateErrorTopologyChanged);
  (void)cudaGetLastError();

  for (cudaGraph_t g : {first, second, third}) CHECK(cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("memory nodes give the same address at every launch and free it again") {
  constexpr int n = 32;
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaMemAllocNodeParams alloc = device_allocation(n * sizeof(int));
  cudaGraphNode_t alloc_node, set_node, copy_node, free_node;
  REQUIRE(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc) == cudaSuccess);
  REQUIRE(alloc.dptr != nullptr);
  const cudaMemsetParams set{alloc.dptr, 0, 0x01020304u, 4, n, 1};
  REQUIRE(cudaGraphAddMemsetNode(&set_node, graph, &alloc_node, 1, &set) == cudaSuccess);
  std::vector<unsigned> h(n, 0);
  REQUIRE(cudaGraphAddMemcpyNode1D(&copy_node, graph, &set_node, 1, h.data(), alloc.dptr, n * sizeof(int),
                                   cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaGraphAddMemFreeNode(&free_node, graph, &copy_node, 1, alloc.dptr) == cudaSuccess);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(alloc_node, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeMemAlloc);
  CHECK(cudaGraphNodeGetType(free_node, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeMemFree);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    std::fill(h.begin(), h.end(), 0u);
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(h[0] == 0x01020304u);
    CHECK(h[n - 1] == 0x01020304u);
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);

  // cudaMallocAsync and cudaFreeAsync on a capturing stream become the same nodes.
  cudaGraph_t captured = nullptr;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  int* d = nullptr;
  CHECK(cudaMallocAsync(&d, n * sizeof(int), s) == cudaSuccess);
  CHECK(d != nullptr);
  cusim::launch(set_each, cusim::launch_config{1, n, 0, s}, d, 6, n);
  CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaFreeAsync(d, s) == cudaSuccess);
  REQUIRE(cudaStreamEndCapture(s, &captured) == cudaSuccess);
  std::vector<cudaGraphNode_t> nodes(4);
  std::size_t count = nodes.size();
  CHECK(cudaGraphGetNodes(captured, nodes.data(), &count) == cudaSuccess);
  REQUIRE(count == 4);
  CHECK(cudaGraphNodeGetType(nodes[0], &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeMemAlloc);
  CHECK(cudaGraphNodeGetType(nodes[1], &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeKernel);
  CHECK(cudaGraphNodeGetType(nodes[3], &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeMemFree);
  REQUIRE(cudaGraphInstantiate(&exec, captured, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[3] == 6u);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(captured) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("capture errors have CUDA's codes: the legacy stream, unjoined work, synchronising, ending twice") {
  cudaStream_t s1, s2;
  REQUIRE(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  cudaEvent_t fork;
  REQUIRE(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming) == cudaSuccess);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  cudaGraph_t graph = nullptr;

  CHECK(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaErrorIllegalState);

  // Work forked to s2 that s1 never waits for.
  REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaErrorIllegalState);
  CHECK(cudaEventRecord(fork, s1) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s2, fork, 0) == cudaSuccess);
  CHECK(cudaMemsetAsync(d, 0, 64 * sizeof(int), s2) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureUnjoined);
  CHECK(graph == nullptr);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  CHECK(cudaStreamIsCapturing(s2, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);

  // Synchronising a capturing stream invalidates the capture.
  REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed) == cudaSuccess);
  CHECK(cudaMemsetAsync(d, 0, 64 * sizeof(int), s1) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported);
  CHECK(cudaStreamIsCapturing(s1, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusInvalidated);
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated);
  CHECK(graph == nullptr);

  // A global capture forbids calls that may synchronise the device, and is invalidated by one.
  REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
  void* p = nullptr;
  CHECK(cudaMalloc(&p, 16) == cudaErrorStreamCaptureUnsupported);
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated);
  // Unless the calling thread relaxed its own mode.
  REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess);
  CHECK(mode == cudaStreamCaptureModeGlobal);
  CHECK(cudaMalloc(&p, 16) == cudaSuccess);  // this thread relaxed its own mode
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess);
  CHECK(cudaStreamEndCapture(s1, &graph) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(s1, static_cast<cudaStreamCaptureMode>(7)) == cudaErrorInvalidValue);

  CHECK(cudaEventDestroy(fork) == cudaSuccess);
  CHECK(cudaStreamDestroy(s1) == cudaSuccess);
  CHECK(cudaStreamDestroy(s2) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("graph API misuse returns CUDA's codes") {
  cudaGraph_t graph, other;
  CHECK(cudaGraphCreate(&graph, 1) == cudaErrorInvalidValue);
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphCreate(&other, 0) == cudaSuccess);
  cudaGraphNode_t a, b, foreign;
  REQUIRE(cudaGraphAddEmptyNode(&a, graph, nullptr, 0) == cudaSuccess);
  REQUIRE(cudaGraphAddEmptyNode(&b, graph, nullptr, 0) == cudaSuccess);
  REQUIRE(cudaGraphAddEmptyNode(&foreign, other, nullptr, 0) == cudaSuccess);
  CHECK(cudaGraphAddDependencies(graph, &a, &b, nullptr, 1) == cudaSuccess);
  std::size_t count = 0;
  CHECK(cudaGraphNodeGetDependencies(b, nullptr, nullptr, &count) == cudaSuccess);
  CHECK(count == 1);
  cudaGraphNode_t c;
  CHECK(cudaGraphAddEmptyNode(&c, graph, &foreign, 1) == cudaErrorInvalidValue);
  CHECK(cudaGraphAddKernelNode(&c, graph, nullptr, 0, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaGraphAddHostNode(&c, graph, nullptr, 0, nullptr) == cudaErrorInvalidValue);
  const cudaMemsetParams bad_size{nullptr, 0, 0, 3, 1, 1};
  CHECK(cudaGraphAddMemsetNode(&c, graph, nullptr, 0, &bad_size) == cudaErrorInvalidValue);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, nullptr, 0) == cudaErrorInvalidValue);
  if (on_simulator) {
    // Launched only through its address, never with its type: the simulator cannot bind its arguments.
    int* d = nullptr;
    void* args[] = {&d};
    const cudaKernelNodeParams unknown =
        kernel_params(reinterpret_cast<const void*>(never_launched_by_type), dim3(1), dim3(1), args);
    CHECK(cudaGraphAddKernelNode(&c, graph, nullptr, 0, &unknown) == cudaErrorInvalidDeviceFunction);
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(never_launched_by_type), dim3(1), dim3(1), args, 0,
                           nullptr) == cudaErrorInvalidDeviceFunction);
    CHECK(cudaGraphAddDependencies(graph, &a, &b, nullptr, 1) == cudaErrorInvalidValue);  // already there
    CHECK(cudaGraphAddDependencies(graph, &b, &a, nullptr, 1) == cudaSuccess);            // a cycle
    CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaErrorInvalidValue);
    CHECK(cudaGraphLaunch(nullptr, nullptr) == cudaErrorInvalidValue);
  }
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaGraphDestroy(other) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("cudaLaunchKernel through the kernel's address launches a kernel the simulator has seen") {
  constexpr int n = 64;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cusim::launch(set_each, 1, 32, d, 0, 0);  // makes it known by address
  int value = 4, count = n;
  void* args[] = {&d, &value, &count};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(set_each), dim3(2), dim3(32), args, 0, nullptr) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int v : h) CHECK(v == 4);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a stream forked into a capture and its events may be destroyed before the capture ends") {
  // CUDA allows it, and cuda-samples' graphMemoryNodes does it inside its captured function.
  constexpr int n = 256;
  int* a = nullptr;
  REQUIRE(cudaMalloc(&a, n * sizeof(int)) == cudaSuccess);
  std::vector<int> host(n, -1);
  cudaStream_t origin, forked;
  cudaEvent_t fork, join;
  REQUIRE(cudaStreamCreateWithFlags(&origin, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&forked, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaEventCreate(&fork) == cudaSuccess);
  REQUIRE(cudaEventCreate(&join) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaEventRecord(fork, origin) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(forked, fork, 0) == cudaSuccess);
  CHECK(cudaMemsetAsync(a, 0, n * sizeof(int), forked) == cudaSuccess);
  CHECK(cudaEventRecord(join, forked) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(origin, join, 0) == cudaSuccess);
  CHECK(cudaStreamDestroy(forked) == cudaSuccess);
  CHECK(cudaEventDestroy(fork) == cudaSuccess);
  CHECK(cudaEventDestroy(join) == cudaSuccess);
  CHECK(cudaMemcpyAsync(host.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost, origin) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(origin, &graph) == cudaSuccess);
  REQUIRE(graph != nullptr);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, origin) == cudaSuccess);
  CHECK(cudaStreamSynchronize(origin) == cudaSuccess);
  CHECK(host[0] == 0);
  CHECK(host[n - 1] == 0);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(origin) == cudaSuccess);
  CHECK(cudaFree(a) == cudaSuccess);
}

TEST_CASE("a graph's allocation may be freed with cudaFreeAsync right after the launch, and again after the next") {
  // Its address is fixed when the node is made (cuda-samples' graphMemoryNodes frees it so).
  constexpr int n = 1024;
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaMemAllocNodeParams alloc = device_allocation(n * sizeof(int));
  cudaGraphNode_t alloc_node, set_node;
  REQUIRE(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc) == cudaSuccess);
  const cudaMemsetParams set{alloc.dptr, 0, 7u, 4, n, 1};
  REQUIRE(cudaGraphAddMemsetNode(&set_node, graph, &alloc_node, 1, &set) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  std::vector<int> h(n, 0);
  for (int launch = 0; launch < 3; ++launch) {
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(h.data(), alloc.dptr, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(cudaFreeAsync(alloc.dptr, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(h[n - 1] == 7);
    h.assign(n, 0);
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

namespace {
/// One step of a countdown in a WHILE node's body: adds the counter to the sum, counts it down and
/// ends the loop when it reaches 0.
__global__ void count_down(int* counter, int* sum, cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    *sum += *counter;
    if (--*counter == 0) cudaGraphSetConditional(handle, 0);
  }
}
/// Sets the handle to *value (the condition an IF or SWITCH node tests).
__global__ void choose(cudaGraphConditionalHandle handle, const int* value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(handle, static_cast<unsigned>(*value));
}

cudaGraphNodeParams conditional_params(cudaGraphConditionalHandle handle, cudaGraphConditionalNodeType type,
                                       unsigned size) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = type;
  p.conditional.size = size;
  return p;
}
}  // namespace

TEST_CASE("a WHILE node replays its body while the handle is non-zero, from its default at each launch") {
  cudaFuncAttributes attributes;  // makes the kernel known by address (its type seen)
  REQUIRE(cudaFuncGetAttributes(&attributes, count_down) == cudaSuccess);
  int* d = nullptr;  // d[0]: the counter, d[1]: the sum
  REQUIRE(cudaMalloc(&d, 2 * sizeof(int)) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphConditionalHandle handle = 0;
  REQUIRE(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault) == cudaSuccess);
  cudaGraphNodeParams loop = conditional_params(handle, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t node;
  REQUIRE(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &loop) == cudaSuccess);
  REQUIRE(loop.conditional.phGraph_out != nullptr);
  cudaGraph_t body = loop.conditional.phGraph_out[0];
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(node, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeConditional);
  int* counter = d;
  int* sum = d + 1;
  void* args[] = {&counter, &sum, &handle};
  const cudaKernelNodeParams step = kernel_params(reinterpret_cast<const void*>(count_down), dim3(1), dim3(32), args);
  cudaGraphNode_t step_node;
  REQUIRE(cudaGraphAddKernelNode(&step_node, body, nullptr, 0, &step) == cudaSuccess);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  const int start[2] = {5, 0};
  int h[2] = {-1, -1};
  CHECK(cudaMemcpyAsync(d, start, sizeof start, cudaMemcpyHostToDevice, s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  // Queued after the launch: runs after every iteration of the loop.
  CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[0] == 0);
  CHECK(h[1] == 5 + 4 + 3 + 2 + 1);
  // The loop left the handle at 0; cudaGraphCondAssignDefault makes it 1 again for the next launch,
  // also once the graph itself is gone.
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  const int three = 3;
  CHECK(cudaMemcpy(d, &three, sizeof three, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, nullptr) == cudaSuccess);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 0);
  CHECK(h[1] == 15 + 3 + 2 + 1);

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("IF and SWITCH nodes run the body the handle a kernel set picks, or none") {
  cudaFuncAttributes attributes;
  REQUIRE(cudaFuncGetAttributes(&attributes, choose) == cudaSuccess);
  REQUIRE(cudaFuncGetAttributes(&attributes, set_each) == cudaSuccess);
  constexpr int n = 32;
  int *d = nullptr, *value = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&value, sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);

  // choose -> IF (size 2): body 0 sets 1 when the value is non-zero, body 1 sets 2 when it is 0.
  // choose -> SWITCH (size 3): body i sets 10 + i when the value is i; a larger value runs none.
  for (const cudaGraphConditionalNodeType kind : {cudaGraphCondTypeIf, cudaGraphCondTypeSwitch}) {
    const unsigned bodies = kind == cudaGraphCondTypeIf ? 2 : 3;
    cudaGraph_t graph;
    REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
    cudaGraphConditionalHandle handle = 0;
    REQUIRE(cudaGraphConditionalHandleCreate(&handle, graph) == cudaSuccess);
    void* choose_args[] = {&handle, &value};
    const cudaKernelNodeParams cp = kernel_params(reinterpret_cast<const void*>(choose), dim3(1), dim3(1), choose_args);
    cudaGraphNode_t chooser, node;
    REQUIRE(cudaGraphAddKernelNode(&chooser, graph, nullptr, 0, &cp) == cudaSuccess);
    cudaGraphNodeParams p = conditional_params(handle, kind, bodies);
    REQUIRE(cudaGraphAddNode(&node, graph, &chooser, nullptr, 1, &p) == cudaSuccess);
    for (unsigned i = 0; i < bodies; ++i) {
      int mark = kind == cudaGraphCondTypeIf ? static_cast<int>(i) + 1 : 10 + static_cast<int>(i), count = n;
      void* args[] = {&d, &mark, &count};
      const cudaKernelNodeParams kp = kernel_params(reinterpret_cast<const void*>(set_each), dim3(1), dim3(n), args);
      cudaGraphNode_t k;
      REQUIRE(cudaGraphAddKernelNode(&k, p.conditional.phGraph_out[i], nullptr, 0, &kp) == cudaSuccess);
    }
    cudaGraphExec_t exec;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    const auto run = [&](int v) {
      std::vector<int> h(n, -1);
      CHECK(cudaMemsetAsync(d, 0, n * sizeof(int), s) == cudaSuccess);
      CHECK(cudaMemcpyAsync(value, &v, sizeof v, cudaMemcpyHostToDevice, s) == cudaSuccess);
      CHECK(cudaStreamSynchronize(s) == cudaSuccess);
      CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
      CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
      CHECK(cudaStreamSynchronize(s) == cudaSuccess);
      CHECK(h[0] == h[n - 1]);
      return h[n - 1];
    };
    if (kind == cudaGraphCondTypeIf) {
      CHECK(run(7) == 1);
      CHECK(run(0) == 2);
    } else {
      CHECK(run(0) == 10);
      CHECK(run(2) == 12);
      CHECK(run(3) == 0);  // no body 3
    }
    CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(value) == cudaSuccess);
}

TEST_CASE("conditional nodes refuse a bad size, a handle of another graph, a second node on a handle and bad handle flags") {
  cudaGraph_t graph, other;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphCreate(&other, 0) == cudaSuccess);
  cudaGraphConditionalHandle handle = 0, foreign = 0;
  CHECK(cudaGraphConditionalHandleCreate(nullptr, graph) == cudaErrorInvalidValue);
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 0, 2) == cudaErrorInvalidValue);
  REQUIRE(cudaGraphConditionalHandleCreate(&foreign, other) == cudaSuccess);
  cudaGraphNode_t node;
  // Another graph's handle, in a graph with none of its own. (With one, an H200 accepted a foreign
  // handle and refused the graph's own handle afterwards; the simulator refuses it: docs/fidelity.md.)
  cudaGraphNodeParams p = conditional_params(foreign, cudaGraphCondTypeIf, 1);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaErrorInvalidValue);
  REQUIRE(cudaGraphConditionalHandleCreate(&handle, graph) == cudaSuccess);
  p = conditional_params(handle, cudaGraphCondTypeWhile, 2);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaErrorInvalidValue);
  p = conditional_params(handle, cudaGraphCondTypeIf, 3);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaErrorInvalidValue);
  p = conditional_params(handle, cudaGraphCondTypeSwitch, 0);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaErrorInvalidValue);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, nullptr) == cudaErrorInvalidValue);
  p = conditional_params(handle, cudaGraphCondTypeIf, 1);
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaSuccess);
  p = conditional_params(handle, cudaGraphCondTypeIf, 1);  // one conditional node per handle
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p) == cudaErrorInvalidValue);
  std::size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
  CHECK(count == 1);
  // An empty body runs nothing.
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, nullptr) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaGraphDestroy(other) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("the graph memory attributes count what graph allocations mapped, until a trim") {
  using u64 = unsigned long long;
  const auto attribute = [](cudaGraphMemAttributeType attr) {
    u64 v = ~0ull;
    CHECK(cudaDeviceGetGraphMemAttribute(0, attr, &v) == cudaSuccess);
    return v;
  };
  constexpr std::size_t bytes = 1 << 20;
  REQUIRE(cudaDeviceGraphMemTrim(0) == cudaSuccess);  // what earlier tests' freed allocations kept mapped
  const u64 used_before = attribute(cudaGraphMemAttrUsedMemCurrent);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaMemAllocNodeParams alloc = device_allocation(bytes);
  cudaGraphNode_t alloc_node;
  REQUIRE(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(attribute(cudaGraphMemAttrUsedMemCurrent) == used_before);  // mapped when the node first runs
  CHECK(attribute(cudaGraphMemAttrReservedMemCurrent) == used_before);
  CHECK(cudaGraphLaunch(exec, nullptr) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const u64 used = attribute(cudaGraphMemAttrUsedMemCurrent);
  CHECK(used >= bytes);
  CHECK(used >= used_before);
  if (on_simulator) CHECK(used - used_before == 32u << 20);  // a granule, as an H200 maps 1 MiB
  CHECK(attribute(cudaGraphMemAttrUsedMemHigh) >= used);
  CHECK(attribute(cudaGraphMemAttrReservedMemCurrent) >= used);
  CHECK(attribute(cudaGraphMemAttrReservedMemHigh) >= attribute(cudaGraphMemAttrReservedMemCurrent));

  // Freed outside the graph: still mapped, until a trim gives it back.
  CHECK(cudaFree(alloc.dptr) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(attribute(cudaGraphMemAttrUsedMemCurrent) == used);
  CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
  const u64 used_after = attribute(cudaGraphMemAttrUsedMemCurrent);
  CHECK(used_after <= used_before);
  if (used_before == 0) CHECK(used_after < used);
  // The high watermark may only be reset, to 0: it starts again from what is in use.
  u64 zero = 0, one = 1;
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero) == cudaSuccess);
  CHECK(attribute(cudaGraphMemAttrUsedMemHigh) <= used_after);
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero) == cudaSuccess);
  CHECK(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &one) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
  CHECK(cudaDeviceGraphMemTrim(1) == cudaErrorInvalidDevice);

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  (void)cudaGetLastError();
}

namespace {
/// Sets the handle to whether *counter is even.
__global__ void parity(const int* counter, cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(handle, *counter % 2 == 0 ? 1u : 0u);
}
__global__ void add_hundred(int* sum) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *sum += 100;
}
}  // namespace

TEST_CASE("a WHILE body captured from a stream into the node's graph, with an IF nested in it") {
  int* d = nullptr;  // d[0]: the counter, d[1]: the sum
  REQUIRE(cudaMalloc(&d, 2 * sizeof(int)) == cudaSuccess);
  int* counter = d;
  int* sum = d + 1;
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphConditionalHandle loop_handle = 0, if_handle = 0;
  REQUIRE(cudaGraphConditionalHandleCreate(&loop_handle, graph, 1, cudaGraphCondAssignDefault) == cudaSuccess);
  cudaGraphNodeParams loop = conditional_params(loop_handle, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t loop_node;
  REQUIRE(cudaGraphAddNode(&loop_node, graph, nullptr, nullptr, 0, &loop) == cudaSuccess);
  cudaGraph_t body = loop.conditional.phGraph_out[0];

  // The loop's body: count_down, then parity, captured into the body graph.
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaGraphConditionalHandleCreate(&if_handle, body) == cudaSuccess);
  REQUIRE(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cusim::launch(count_down, cusim::launch_config{1, 32, 0, s}, counter, sum, loop_handle);
  cusim::launch(parity, cusim::launch_config{1, 1, 0, s}, static_cast<const int*>(counter), if_handle);
  cudaGraph_t captured = nullptr;
  REQUIRE(cudaStreamEndCapture(s, &captured) == cudaSuccess);
  CHECK(captured == body);
  std::size_t count = 0;
  CHECK(cudaGraphGetNodes(body, nullptr, &count) == cudaSuccess);
  REQUIRE(count == 2);
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK(cudaGraphGetNodes(body, nodes.data(), &count) == cudaSuccess);
  // ... then an IF node after parity: 100 more when the counter just became even.
  cudaGraphNodeParams branch = conditional_params(if_handle, cudaGraphCondTypeIf, 1);
  cudaGraphNode_t if_node;
  REQUIRE(cudaGraphAddNode(&if_node, body, &nodes[1], nullptr, 1, &branch) == cudaSuccess);
  cudaFuncAttributes attributes;
  REQUIRE(cudaFuncGetAttributes(&attributes, add_hundred) == cudaSuccess);
  void* args[] = {&sum};
  const cudaKernelNodeParams kp = kernel_params(reinterpret_cast<const void*>(add_hundred), dim3(1), dim3(1), args);
  cudaGraphNode_t add_node;
  REQUIRE(cudaGraphAddKernelNode(&add_node, branch.conditional.phGraph_out[0], nullptr, 0, &kp) == cudaSuccess);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  const int start[2] = {4, 0};
  int h[2] = {-1, -1};
  CHECK(cudaMemcpyAsync(d, start, sizeof start, cudaMemcpyHostToDevice, s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[0] == 0);
  CHECK(h[1] == 4 + 3 + 2 + 1 + 100 + 100);  // the counter became even at 2 and at 0

  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
}

TEST_CASE("a conditional node added to a graph being captured, its body captured from another stream") {
  constexpr int n = 32;
  int *d = nullptr, *value = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&value, sizeof(int)) == cudaSuccess);
  cudaStream_t s, body_stream;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&body_stream, cudaStreamNonBlocking) == cudaSuccess);

  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cusim::launch(set_each, cusim::launch_config{1, n, 0, s}, d, 5, n);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  std::size_t count = 0;
  REQUIRE(cudaStreamGetCaptureInfo(s, &status, nullptr, &capturing, &deps, nullptr, &count) == cudaSuccess);
  REQUIRE(status == cudaStreamCaptureStatusActive);
  REQUIRE(count == 1);
  cudaGraphConditionalHandle handle = 0;
  REQUIRE(cudaGraphConditionalHandleCreate(&handle, capturing) == cudaSuccess);
  cusim::launch(choose, cusim::launch_config{1, 1, 0, s}, handle, static_cast<const int*>(value));
  REQUIRE(cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, &deps, nullptr, &count) == cudaSuccess);
  cudaGraphNodeParams p = conditional_params(handle, cudaGraphCondTypeIf, 1);
  cudaGraphNode_t if_node;
  REQUIRE(cudaGraphAddNode(&if_node, capturing, deps, nullptr, count, &p) == cudaSuccess);
  CHECK(cudaStreamUpdateCaptureDependencies(s, &if_node, nullptr, 1, 2) == cudaErrorInvalidValue);
  REQUIRE(cudaStreamUpdateCaptureDependencies(s, &if_node, nullptr, 1, cudaStreamSetCaptureDependencies) ==
          cudaSuccess);
  // The body: add 10, captured from another stream into the node's body graph.
  REQUIRE(cudaStreamBeginCaptureToGraph(body_stream, p.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                        cudaStreamCaptureModeGlobal) == cudaSuccess);
  cusim::launch(add_to_each, cusim::launch_config{1, n, 0, body_stream}, d, 10, n);
  cudaGraph_t body = nullptr;
  REQUIRE(cudaStreamEndCapture(body_stream, &body) == cudaSuccess);
  CHECK(body == p.conditional.phGraph_out[0]);
  // After the IF node, on the first stream: add 1.
  cusim::launch(add_to_each, cusim::launch_config{1, n, 0, s}, d, 1, n);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  CHECK(graph == capturing);
  CHECK(cudaStreamUpdateCaptureDependencies(s, &if_node, nullptr, 1, 0) == cudaErrorIllegalState);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (const int v : {1, 0}) {
    std::vector<int> h(n, -1);
    CHECK(cudaMemcpy(value, &v, sizeof v, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(h[0] == (v != 0 ? 16 : 6));
    CHECK(h[n - 1] == h[0]);
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(body_stream) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(value) == cudaSuccess);
  (void)cudaGetLastError();
}
