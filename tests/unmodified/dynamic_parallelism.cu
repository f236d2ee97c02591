// SPDX-License-Identifier: MIT
// Dynamic parallelism as CUDA 12 and 13 define it (CDP2): launches from kernels, recursion,
// device-side streams (non-blocking only), the named streams cudaStreamTailLaunch and
// cudaStreamFireAndForget, each thread's device-side last error, device-side cudaMalloc/cudaFree
// and cudaMemcpyAsync, the nesting depth and pending-launch limits with CUDA's error codes, and a
// fault in a grandchild reported as the host launch's error. Plain CUDA: the same program builds
// with nvcc -rdc=true (the limits' cases count what the simulator's schedule leaves pending: see
// docs/fidelity.md).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "check.h"

// --- recursion: each level reads what its parent wrote before launching it --------------------

__global__ void descend(int* values, int depth, int max_depth) {
  // The parent wrote values[depth - 1] before this launch: the child sees it.
  values[depth] = depth == 0 ? 1 : values[depth - 1] * 2;
  if (depth + 1 <= max_depth) descend<<<1, 1>>>(values, depth + 1, max_depth);
}

// --- the nesting depth: a chain that goes as deep as CUDA lets it ------------------------------

__global__ void chain(int* reached, int* codes, int depth) {
  reached[depth] = 1;
  if (depth > 30) return;  // never reached: the launch at depth 24 fails
  chain<<<1, 1>>>(reached, codes, depth + 1);
  codes[depth] = cudaGetLastError();
}

// --- fan-out: one child per thread -------------------------------------------------------------

__global__ void leaf(int* out, int i) { out[i] = i + 1; }

__global__ void fan_out(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) leaf<<<1, 1>>>(out, i);
}

// --- the pending-launch limit: one thread launches until the runtime refuses ------------------

__global__ void count_one(int* counter) { atomicAdd(counter, 1); }

__global__ void launch_many(int* counter, int tries, int* accepted, int* first_error) {
  *accepted = 0;
  *first_error = 0;
  for (int k = 0; k < tries; ++k) {
    count_one<<<1, 1>>>(counter);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      *first_error = e;
      return;
    }
    ++*accepted;
  }
}

// --- device streams: order within a stream, flags, destroy, a host stream refused ---------------

__global__ void store(int* at, int value) { *at = value; }
__global__ void add_from(int* at, const int* from, int value) { *at = *from + value; }

__global__ void streams(int* results, int* codes, cudaStream_t host_stream) {
  cudaStream_t s;
  codes[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  store<<<1, 1, 0, s>>>(&results[0], 5);
  add_from<<<1, 1, 0, s>>>(&results[1], &results[0], 1);  // after store, in the same stream
  add_from<<<1, 1, 0, s>>>(&results[2], &results[1], 1);
  codes[1] = cudaGetLastError();
  cudaStream_t blocking;
  codes[2] = cudaStreamCreateWithFlags(&blocking, cudaStreamDefault);  // the device runtime has none
  codes[3] = cudaGetLastError();
  codes[4] = cudaStreamDestroy(s);  // what was queued still runs
  codes[5] = cudaStreamDestroy(s);
  store<<<1, 1, 0, host_stream>>>(&results[3], 7);  // not a stream of this block
  codes[6] = cudaGetLastError();
}

// --- named streams: the tail launch runs after the grid and all its other work ------------------

__device__ int sequence;

__global__ void record(int* order, int slot) { order[slot] = atomicAdd(&sequence, 1); }

__global__ void with_grandchild(int* order) {
  order[1] = atomicAdd(&sequence, 1);
  record<<<1, 1>>>(order, 2);
}

__global__ void named_streams(int* order, int* code) {
  record<<<1, 1, 0, cudaStreamTailLaunch>>>(order, 3);  // launched first, runs last
  with_grandchild<<<1, 1>>>(order);
  record<<<1, 1, 0, cudaStreamFireAndForget>>>(order, 4);
  order[0] = atomicAdd(&sequence, 1);  // the parent itself
  *code = cudaGetLastError();
}

// --- each thread's own last error; device queries -------------------------------------------------

__global__ void last_errors(int* codes, int* device, int* sms) {
  if (threadIdx.x == 0) store<<<1, 2048>>>(codes, 0);  // too many threads per block
  __syncthreads();
  codes[threadIdx.x * 3 + 0] = cudaPeekAtLastError();
  codes[threadIdx.x * 3 + 1] = cudaGetLastError();
  codes[threadIdx.x * 3 + 2] = cudaGetLastError();  // reset by the call before
  if (threadIdx.x == 0) {
    cudaGetDevice(device);
    cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, 0);
  }
}

// --- device-side cudaMalloc, cudaFree and cudaMemcpyAsync -----------------------------------------

__global__ void sum_and_free(int* buffer, int n, int* out) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += buffer[i];
  *out = total;
  cudaFree(buffer);
}

__global__ void fill(int* buffer, int n) {
  for (int i = 0; i < n; ++i) buffer[i] = i;
}

__global__ void device_memory(int* out, int* copy, int* codes) {
  int* buffer = nullptr;
  codes[0] = cudaMalloc(reinterpret_cast<void**>(&buffer), 16 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fill<<<1, 1, 0, s>>>(buffer, 16);
  codes[1] = cudaMemcpyAsync(copy, buffer, 16 * sizeof(int), cudaMemcpyDeviceToDevice, s);  // after fill
  sum_and_free<<<1, 1, 0, s>>>(buffer, 16, out);  // after the copy
  void* huge = nullptr;
  codes[2] = cudaMalloc(&huge, size_t{1} << 40);  // past the device heap
  codes[3] = cudaMemcpyAsync(copy, buffer, 4, cudaMemcpyHostToDevice, s);
}

// --- a fault two levels down ------------------------------------------------------------------------

__global__ void overrun(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i;  // one block too many
  (void)n;
}

__global__ void middle(int* data, int n) { overrun<<<n / 32 + 1, 32>>>(data, n); }
__global__ void top(int* data, int n) { middle<<<1, 1>>>(data, n); }

__global__ void waits_for_children(int* out) {
  store<<<1, 1>>>(out, 1);
  cudaDeviceSynchronize();  // CUDA 12 removed it from the device runtime
}

__global__ void records_an_event(cudaEvent_t event) { cudaEventRecord(event, 0); }

int main() {
  // Recursion 20 deep, each level reading its parent's value.
  {
    int* values = nullptr;
    CHECK_EQ(cudaMallocManaged(&values, 32 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 32; ++i) values[i] = -1;
    descend<<<1, 1>>>(values, 0, 20);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i <= 20; ++i) CHECK_EQ(values[i], 1 << i);
    CHECK_EQ(values[21], -1);
    cudaFree(values);
  }
  // The nesting depth: grids of depth 0 (the host's) to 24 run; the launch from depth 24 fails.
  {
    int* reached = nullptr;
    int* codes = nullptr;
    CHECK_EQ(cudaMallocManaged(&reached, 32 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&codes, 32 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 32; ++i) reached[i] = codes[i] = 0;
    chain<<<1, 1>>>(reached, codes, 0);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i <= 24; ++i) CHECK_EQ(reached[i], 1);
    CHECK_EQ(reached[25], 0);
    for (int i = 0; i < 24; ++i) CHECK_EQ(codes[i], 0);
    CHECK_EQ(codes[24], static_cast<int>(cudaErrorLaunchMaxDepthExceeded));
    cudaFree(reached);
    cudaFree(codes);
  }
  // The pending-launch limit: 2,048 by default, settable.
  {
    size_t limit = 0;
    CHECK_EQ(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount), cudaSuccess);
    CHECK_EQ(limit, size_t{2048});
    int* counter = nullptr;
    int* accepted = nullptr;
    int* first_error = nullptr;
    CHECK_EQ(cudaMallocManaged(&counter, sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&accepted, sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&first_error, sizeof(int)), cudaSuccess);
    *counter = 0;
    launch_many<<<1, 1>>>(counter, 3000, accepted, first_error);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(*accepted, 2048);
    CHECK_EQ(*first_error, static_cast<int>(cudaErrorLaunchPendingCountExceeded));
    CHECK_EQ(*counter, 2048);  // the refused launch ran nothing
    CHECK_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096), cudaSuccess);
    *counter = 0;
    launch_many<<<1, 1>>>(counter, 3000, accepted, first_error);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(*accepted, 3000);
    CHECK_EQ(*first_error, 0);
    CHECK_EQ(*counter, 3000);
    // A second grid starts with none pending: every child of the first has completed.
    *counter = 0;
    launch_many<<<1, 1>>>(counter, 4096, accepted, first_error);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(*accepted, 4096);
    // cudaLimitDevRuntimeSyncDepth is kept (CDP2 has no device-side synchronisation to limit).
    CHECK_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4), cudaSuccess);
    CHECK_EQ(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimeSyncDepth), cudaSuccess);
    CHECK_EQ(limit, size_t{4});
    cudaFree(counter);
    cudaFree(accepted);
    cudaFree(first_error);
  }
  // A wide fan-out: 100,000 children of one grid, each run once.
  {
    const int n = 100000;
    CHECK_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, n), cudaSuccess);
    int* out = nullptr;
    CHECK_EQ(cudaMallocManaged(&out, n * sizeof(int)), cudaSuccess);
    for (int i = 0; i < n; ++i) out[i] = 0;
    const auto start = std::chrono::steady_clock::now();
    fan_out<<<(n + 255) / 256, 256>>>(out, n);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("info: 100000 child grids in %.3f s\n", seconds);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += out[i] != i + 1;
    CHECK_EQ(wrong, 0);
    cudaFree(out);
    CHECK_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048), cudaSuccess);
  }
  // Device streams.
  {
    int* results = nullptr;
    int* codes = nullptr;
    CHECK_EQ(cudaMallocManaged(&results, 4 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&codes, 8 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 4; ++i) results[i] = -1;
    cudaStream_t host_stream;
    CHECK_EQ(cudaStreamCreate(&host_stream), cudaSuccess);
    streams<<<1, 1>>>(results, codes, host_stream);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(codes[0], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[1], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[2], static_cast<int>(cudaErrorInvalidValue));
    CHECK_EQ(codes[3], static_cast<int>(cudaErrorInvalidValue));
    CHECK_EQ(codes[4], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[5], static_cast<int>(cudaErrorInvalidResourceHandle));
    CHECK_EQ(codes[6], static_cast<int>(cudaErrorInvalidResourceHandle));
    CHECK_EQ(results[0], 5);
    CHECK_EQ(results[1], 6);
    CHECK_EQ(results[2], 7);
    CHECK_EQ(results[3], -1);
    CHECK_EQ(cudaStreamDestroy(host_stream), cudaSuccess);
    cudaFree(results);
    cudaFree(codes);
  }
  // The tail launch runs after the parent, its child and its grandchild; fire-and-forget runs.
  {
    int* order = nullptr;
    int* code = nullptr;
    CHECK_EQ(cudaMallocManaged(&order, 5 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&code, sizeof(int)), cudaSuccess);
    for (int i = 0; i < 5; ++i) order[i] = -1;
    named_streams<<<1, 1>>>(order, code);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(*code, 0);
    CHECK_EQ(order[0], 0);  // the parent first
    CHECK(order[1] > order[0] && order[2] > order[1]);  // the child, then its child
    CHECK(order[4] > order[0]);  // fire-and-forget: after its parent, otherwise in any order
    CHECK_EQ(order[3], 4);  // the tail launch last of all
    cudaFree(order);
    cudaFree(code);
  }
  // Each thread keeps its own last error; device queries in a kernel.
  {
    int* codes = nullptr;
    int* device = nullptr;
    int* sms = nullptr;
    CHECK_EQ(cudaMallocManaged(&codes, 6 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&device, sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&sms, sizeof(int)), cudaSuccess);
    *device = -1;
    *sms = -1;
    last_errors<<<1, 2>>>(codes, device, sms);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(codes[0], static_cast<int>(cudaErrorInvalidValue));  // as the host's launch (gpu-truth)
    CHECK_EQ(codes[1], static_cast<int>(cudaErrorInvalidValue));
    CHECK_EQ(codes[2], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[3], static_cast<int>(cudaSuccess));  // thread 1 launched nothing
    CHECK_EQ(codes[4], static_cast<int>(cudaSuccess));
    CHECK_EQ(*device, 0);
    int host_sms = 0;
    CHECK_EQ(cudaDeviceGetAttribute(&host_sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    CHECK_EQ(*sms, host_sms);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);  // the kernel's errors are not the host's
    cudaFree(codes);
    cudaFree(device);
    cudaFree(sms);
  }
  // Device-side cudaMalloc (the device heap), cudaMemcpyAsync and cudaFree, in stream order.
  {
    int* out = nullptr;
    int* copy = nullptr;
    int* codes = nullptr;
    CHECK_EQ(cudaMallocManaged(&out, sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&copy, 16 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&codes, 4 * sizeof(int)), cudaSuccess);
    *out = -1;
    for (int i = 0; i < 16; ++i) copy[i] = -1;
    device_memory<<<1, 1>>>(out, copy, codes);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(codes[0], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[1], static_cast<int>(cudaSuccess));
    CHECK_EQ(codes[2], static_cast<int>(cudaErrorMemoryAllocation));
    CHECK_EQ(codes[3], static_cast<int>(cudaErrorInvalidMemcpyDirection));
    CHECK_EQ(*out, 120);
    for (int i = 0; i < 16; ++i) CHECK_EQ(copy[i], i);
    cudaFree(out);
    cudaFree(copy);
    cudaFree(codes);
  }
  // A fault in a grandchild is the host launch's error, tagged with the grandchild's thread.
  {
    int* data = nullptr;
    CHECK_EQ(cudaMalloc(&data, 64 * sizeof(int)), cudaSuccess);
    std::string report;
    {
      stderr_capture capture;
      top<<<1, 1>>>(data, 64);
      CHECK_EQ(cudaGetLastError(), cudaSuccess);
      CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
      report = capture.text();
    }
    CHECK(report.rfind("tid=[0, 0, 0] ctaid=[2, 0, 0]: ", 0) == 0);
    CHECK(report.find("dynamic_parallelism.cu:145") != std::string::npos);
    if (report.rfind("tid=[0, 0, 0] ctaid=[2, 0, 0]: ", 0) != 0) std::printf("report: %s", report.c_str());
    CHECK_EQ(cudaDeviceReset(), cudaSuccess);
  }
  // cudaDeviceSynchronize in a kernel: a host function since CUDA 12, a tagged fault here.
  {
    int* out = nullptr;
    CHECK_EQ(cudaMallocManaged(&out, sizeof(int)), cudaSuccess);
    std::string report;
    {
      stderr_capture capture;
      waits_for_children<<<1, 1>>>(out);
      CHECK_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
      report = capture.text();
    }
    CHECK(report.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: cudaDeviceSynchronize was called in a kernel", 0) == 0);
    if (report.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: cudaDeviceSynchronize", 0) != 0)
      std::printf("report: %s", report.c_str());
    CHECK_EQ(cudaDeviceReset(), cudaSuccess);
  }
  // Device-side events are not simulated: a tagged fault naming the call, never a host event.
  {
    cudaEvent_t event;
    CHECK_EQ(cudaEventCreate(&event), cudaSuccess);
    std::string report;
    {
      stderr_capture capture;
      records_an_event<<<1, 1>>>(event);
      CHECK_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
      report = capture.text();
    }
    CHECK(report.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: cudaEventRecord was called in a kernel: the simulator does "
                       "not simulate",
                       0) == 0);
    CHECK_EQ(cudaDeviceReset(), cudaSuccess);
  }
  return finish();
}
