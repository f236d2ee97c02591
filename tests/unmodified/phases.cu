// SPDX-License-Identifier: MIT
// Kernels the driver runs as loops between their barriers (docs/internals.md, "Phases"): barriers
// at the top level and in loops (nested too), early exits, 1-D to 3-D blocks, variables of several
// types across barriers, a __device__ helper. Each result is checked against the host, and the
// same program runs with CUSIM_PHASES=0 (fibers) in a second test: the same results, the same
// faults. What differs is said where it does: a loop over a barrier left by some threads only.
#include "check.h"

#include <cooperative_groups.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cg = cooperative_groups;

__device__ float twice(float x) { return 2.0f * x; }

// A tree reduction: the barrier in a loop whose variable halves.
__global__ void reduce(const float* in, float* out) {
  __shared__ float s[256];
  const unsigned t = threadIdx.x;
  s[t] = twice(in[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// A bitonic sort of 128 keys in shared memory: barriers in a loop in a loop.
__global__ void bitonic(int* keys) {
  __shared__ int s[128];
  unsigned i = threadIdx.x;
  s[i] = keys[blockIdx.x * 128 + i];
  __syncthreads();
  for (unsigned k = 2; k <= 128; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned partner = i ^ j;
      if (partner > i) {
        bool up = (i & k) == 0;
        int a = s[i], b = s[partner];
        if ((a > b) == up) {
          s[i] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  keys[blockIdx.x * 128 + i] = s[i];
}

// Threads past `active` return before the loop; the others go on without them, as on a GPU.
__global__ void early_exit(const int* in, int* out, int active) {
  __shared__ int s[64];
  int t = threadIdx.x, sum = 0, rounds = 0;
  if (t >= active) return;
  s[t] = in[t];
  __syncthreads();
  while (rounds < 3) {
    sum += s[(t + rounds) % active];
    ++rounds;
    __syncthreads();
  }
  out[t] = sum;
}

// A 2-D tile transposed through shared memory, and a 3-D block counting its threads.
__global__ void transpose(const float* in, float* out) {
  __shared__ float tile[8][17];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 16 + x];
  __syncthreads();
  if (x < 8) out[x * 8 + y] = tile[y][x] + tile[x % 8][y];
}

__global__ void volume(int* out) {
  __shared__ int s[4][3][5];
  const int* first = &out[0];
  double weight = 0.5;
  s[threadIdx.z][threadIdx.y][threadIdx.x] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
  __syncthreads();
  out[1 + threadIdx.x + 5 * (threadIdx.y + 3 * threadIdx.z)] =
      s[3 - threadIdx.z][2 - threadIdx.y][4 - threadIdx.x] + static_cast<int>(weight * 2) + (first == out ? 0 : 1000);
}

// The cuda-samples' spelling of a block barrier: cg::sync(cta) and cta.sync().
__global__ void rotate_cg(const int* in, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int s[32];
  int t = threadIdx.x, v = in[t];
  for (int r = 0; r < 3; ++r) {
    s[t] = v;
    cg::sync(cta);
    v = s[(t + 1) % 32];
    cta.sync();
  }
  out[t] = v;
}

// Thread 37 of block 1 reads one past the end of `in` in the third round.
__global__ void overrun(const int* in, int* out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x;
  for (int round = 0; round < 4; ++round) {
    int i = blockIdx.x * 64 + t + (t == 37 && blockIdx.x == 1 && round == 2 ? 64 : 0);
    s[t] = in[i];
    __syncthreads();
    out[blockIdx.x * 64 + t] += s[63 - t];
    __syncthreads();
  }
  (void)n;
}

// Threads 0..15 take 2 rounds, the others 3, then all meet at the barrier after the loop.
__global__ void split_loop(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  for (int r = 0; r < (t < 16 ? 2 : 3); ++r) {
    s[t] = r;
    __syncthreads();
  }
  __syncthreads();
  out[t] = s[31 - t];
}

// Threads 0..15 take 2 rounds and exit, the others 3: fibers let the others go on alone.
__global__ void leave_and_exit(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  for (int r = 0; r < (t < 16 ? 2 : 3); ++r) {
    s[t] = r;
    __syncthreads();
  }
  out[t] = 1;
}

// Pointer parameters advanced by each thread, as the cuda-samples' sorts do, and a scalar one
// written: each thread's own copies.
__global__ void offset_pointers(const int* in, int* out, int rounds) {
  __shared__ int s[64];
  in += blockIdx.x * 64 + threadIdx.x;
  out += blockIdx.x * 64 + threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    s[threadIdx.x] = in[0] + r;
    __syncthreads();
    out[0] += s[63 - threadIdx.x];
    __syncthreads();
  }
  rounds -= static_cast<int>(threadIdx.x);
  out[0] += rounds;
}

// Runs a launch that faults; returns the error of the synchronisation and leaves the report of
// stderr in `report`. Then resets the device (a fault is sticky) and allocates `ints` and
// `ints_out` anew.
static int* ints;
static int* ints_out;

static void allocate() {
  cudaMalloc(&ints, 2 * 64 * sizeof(int));
  cudaMalloc(&ints_out, 2 * 64 * sizeof(int));
  cudaMemset(ints_out, 0, 2 * 64 * sizeof(int));
}

static std::string fault_of(cudaError_t (*launch)(), std::string* report) {
  cudaError_t e;
  {
    stderr_capture capture;
    e = launch();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    *report = capture.text();
  }
  cudaDeviceReset();
  allocate();
  return cudaGetErrorName(e);
}

int main() {
  const bool phases = std::getenv("CUSIM_PHASES") == nullptr || std::strcmp(std::getenv("CUSIM_PHASES"), "0") != 0;
  {
    const int blocks = 64;
    float *in, *out;
    cudaMallocManaged(&in, blocks * 256 * sizeof(float));
    cudaMallocManaged(&out, blocks * sizeof(float));
    for (int i = 0; i < blocks * 256; ++i) in[i] = static_cast<float>(i % 13);
    reduce<<<blocks, 256>>>(in, out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int b = 0; b < blocks; ++b) {
      float sum = 0;
      for (int i = 0; i < 256; ++i) sum += 2.0f * in[b * 256 + i];
      CHECK_EQ(out[b], sum);
    }
    cudaFree(in);
    cudaFree(out);
  }
  {
    int* keys;
    cudaMallocManaged(&keys, 4 * 128 * sizeof(int));
    for (int i = 0; i < 4 * 128; ++i) keys[i] = (i * 7919) % 1000 - 500;
    bitonic<<<4, 128>>>(keys);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int b = 0; b < 4; ++b)
      for (int i = 1; i < 128; ++i) CHECK(keys[b * 128 + i - 1] <= keys[b * 128 + i]);
    cudaFree(keys);
  }
  {
    int *in, *out;
    cudaMallocManaged(&in, 64 * sizeof(int));
    cudaMallocManaged(&out, 64 * sizeof(int));
    for (int i = 0; i < 64; ++i) in[i] = i, out[i] = -1;
    early_exit<<<1, 64>>>(in, out, 40);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int t = 0; t < 64; ++t) CHECK_EQ(out[t], t < 40 ? t % 40 + (t + 1) % 40 + (t + 2) % 40 : -1);
    cudaFree(in);
    cudaFree(out);
  }
  {
    float *in, *out;
    cudaMallocManaged(&in, 8 * 16 * sizeof(float));
    cudaMallocManaged(&out, 64 * sizeof(float));
    for (int i = 0; i < 128; ++i) in[i] = static_cast<float>(i);
    transpose<<<1, dim3(16, 8)>>>(in, out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) CHECK_EQ(out[x * 8 + y], in[y * 16 + x] + in[x * 16 + y]);
    int* vol;
    cudaMallocManaged(&vol, 61 * sizeof(int));
    volume<<<1, dim3(5, 3, 4)>>>(vol);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int z = 0; z < 4; ++z)
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) CHECK_EQ(vol[1 + x + 5 * (y + 3 * z)], (4 - x) + 10 * (2 - y) + 100 * (3 - z) + 1);
    cudaFree(in);
    cudaFree(out);
    cudaFree(vol);
  }
  {
    int *in, *out;
    cudaMallocManaged(&in, 32 * sizeof(int));
    cudaMallocManaged(&out, 32 * sizeof(int));
    for (int i = 0; i < 32; ++i) in[i] = 100 + i;
    rotate_cg<<<1, 32>>>(in, out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int t = 0; t < 32; ++t) CHECK_EQ(out[t], 100 + (t + 3) % 32);
    cudaFree(in);
    cudaFree(out);
  }
  {
    int *in, *out;
    cudaMallocManaged(&in, 3 * 64 * sizeof(int));
    cudaMallocManaged(&out, 3 * 64 * sizeof(int));
    for (int i = 0; i < 3 * 64; ++i) in[i] = i * 7 % 61, out[i] = 0;
    offset_pointers<<<3, 64>>>(in, out, 4);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int b = 0; b < 3; ++b)
      for (int t = 0; t < 64; ++t) CHECK_EQ(out[b * 64 + t], 4 * in[b * 64 + 63 - t] + 6 + 4 - t);
    cudaFree(in);
    cudaFree(out);
  }
  // A fault in a phase names the thread, block and line, as on fibers: the same report.
  allocate();
  std::string report;
  CHECK_EQ(fault_of([] { overrun<<<2, 64>>>(ints, ints_out, 64); return cudaGetLastError(); }, &report),
           std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[37, 0, 0] ctaid=[1, 0, 0]: invalid global read of 4 bytes at ", 0) == 0);
  CHECK(report.find("148 bytes past the end of a 512-byte allocation of device memory (cudaMalloc)") !=
        std::string::npos);
  CHECK(report.find("(phases.cu:110)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  // Threads that leave a loop over a barrier at different rounds and meet at a later barrier: a
  // divergence either way, found where each form can see it.
  CHECK_EQ(fault_of([] { split_loop<<<1, 32>>>(ints_out); return cudaGetLastError(); }, &report),
           std::string("cudaErrorLaunchFailure"));
  if (phases)
    CHECK_EQ(report, std::string("tid=[16, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block "
                                 "disagree on the condition of a loop holding __syncthreads (16 of 32 stay in it); "
                                 "thread tid=[0, 0, 0] ctaid=[0, 0, 0] leaves it (phases.cu:122)\n"));
  else
    CHECK_EQ(report, std::string("tid=[16, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block wait "
                                 "at different __syncthreads (16 at phases.cu:126, 16 at phases.cu:124); thread "
                                 "tid=[0, 0, 0] ctaid=[0, 0, 0] waits at phases.cu:126 (phases.cu:124)\n"));
  // Threads that leave such a loop and exit: on fibers the others go on without them (a GPU's
  // exited threads do not hold up a barrier); run in phases it is the divergence it is by CUDA's
  // rule that a barrier in conditional code needs the same condition in every thread.
  const std::string left = fault_of([] { leave_and_exit<<<1, 32>>>(ints_out); return cudaGetLastError(); }, &report);
  if (phases) {
    CHECK_EQ(left, std::string("cudaErrorLaunchFailure"));
    CHECK(report.find("disagree on the condition of a loop holding __syncthreads (16 of 32 stay in it)") !=
          std::string::npos);
  } else {
    CHECK_EQ(left, std::string("cudaSuccess"));
    CHECK_EQ(report, std::string());
  }
  // The next launch works.
  early_exit<<<1, 64>>>(ints, ints_out, 64);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(ints);
  cudaFree(ints_out);
  return finish();
}
