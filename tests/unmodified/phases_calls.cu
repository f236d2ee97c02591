// SPDX-License-Identifier: MIT
// Kernels whose barriers are in __device__ functions they call, and kernels with atomics that
// cannot wait, which the driver runs as loops between their barriers (docs/internals.md,
// "Phases"): scan's shape (a volatile shared pointer and the block handle passed down two calls,
// the callee's result in an expression, its loop over barriers), a void function holding a
// barrier called as a statement, histogram's shape (a __device__ function's atomicAdd on shared
// memory, a ticket taken with atomicInc outside any loop) and atomicMax that changes nothing many
// times in a row. The build's CUSIM_NVCC_PHASES_REPORT=1 lines say each is phased (a test of its
// own); here each gives the host's answer, one thread's overrun inside a callee is reported with
// its thread, block and the callee's line, and a thread leaving the callee's loop over a barrier
// early is a barrier divergence, in phases and with CUSIM_PHASES=0 on fibers (a second test).
#include "check.h"

#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace cg = cooperative_groups;

typedef unsigned int uint;

// scan's scan1Inclusive, with `bad` (a thread of block 1 that writes far past s_Data) and `skew`
// (a thread of every block that leaves the loop a round early).
inline __device__ uint scan1Inclusive(uint idata, volatile uint* s_Data, uint size, cg::thread_block cta, int bad,
                                      int skew) {
  uint pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s_Data[pos] = 0;
  pos += size;
  s_Data[pos + (blockIdx.x == 1 && static_cast<int>(threadIdx.x) == bad ? 4096 : 0)] = idata;
  for (uint offset = 1; offset < (static_cast<int>(threadIdx.x) == skew ? size / 2 : size); offset <<= 1) {
    cg::sync(cta);
    uint t = s_Data[pos] + s_Data[pos - offset];
    cg::sync(cta);
    s_Data[pos] = t;
  }
  return s_Data[pos];
}

inline __device__ uint scan1Exclusive(uint idata, volatile uint* s_Data, uint size, cg::thread_block cta, int bad,
                                      int skew) {
  return scan1Inclusive(idata, s_Data, size, cta, bad, skew) - idata;
}

// Exclusive scans of `size` elements each (size a power of two up to 256).
__global__ void scan_exclusive(uint* d_Dst, const uint* d_Src, uint size, int bad, int skew) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_Data[2 * 256];
  uint pos = blockIdx.x * blockDim.x + threadIdx.x;
  uint idata = d_Src[pos];
  uint odata = scan1Exclusive(idata, s_Data, size, cta, bad, skew);
  cg::sync(cta);  // (where a thread that left the callee's loop early waits on fibers)
  d_Dst[pos] = odata;
}

// A void function holding a barrier, called as a statement: the block's values reversed.
__device__ void reverse_block(float* s, uint n) {
  float v = s[n - 1 - threadIdx.x];
  __syncthreads();
  s[threadIdx.x] = v;
}

__global__ void reverse(float* out, const float* in) {
  __shared__ float s[128];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  reverse_block(s, blockDim.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

// histogram256's shape: per-block counts in shared memory by a __device__ function's atomicAdd,
// merged into the global counts; the last block to finish (a ticket from atomicInc) writes the
// total. `bad`: a thread of block 2 that counts a byte past the shared histogram.
inline __device__ void addByte(uint* s_Hist, uint data) { atomicAdd(s_Hist + data, 1); }

__device__ uint tickets;

__global__ void histogram(uint* d_Hist, uint* d_Total, const unsigned char* d_Data, uint n, int bad) {
  __shared__ uint s_Hist[256];
  __shared__ bool s_last;
  for (uint i = threadIdx.x; i < 256; i += blockDim.x) s_Hist[i] = 0;
  __syncthreads();
  for (uint i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    addByte(s_Hist, d_Data[i] + (blockIdx.x == 2 && static_cast<int>(threadIdx.x) == bad ? 256u : 0u));
  __syncthreads();
  for (uint i = threadIdx.x; i < 256; i += blockDim.x)
    if (s_Hist[i] != 0) atomicAdd(&d_Hist[i], s_Hist[i]);
  __threadfence();
  if (threadIdx.x == 0) {
    uint ticket = atomicInc(&tickets, gridDim.x - 1);
    s_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (s_last && threadIdx.x == 0) {
    uint total = 0;
    for (uint i = 0; i < 256; ++i) total += d_Hist[i];
    *d_Total = total;
  }
}

// atomicMax that changes nothing 64 times in a row per thread (after the first): no spin.
__global__ void maxima(int* d_Max, const int* d_In) {
  __shared__ int s_Max;
  if (threadIdx.x == 0) s_Max = d_In[blockIdx.x];
  __syncthreads();
  for (int k = 0; k < 64; ++k) atomicMax(&s_Max, d_In[blockIdx.x] - k);
  __syncthreads();
  if (threadIdx.x == 0) d_Max[blockIdx.x] = s_Max;
}


static uint *scan_in, *scan_out;
static const uint scan_n = 4 * 256;

static void scan_inputs() {
  cudaMallocManaged(&scan_in, scan_n * sizeof(uint));
  cudaMallocManaged(&scan_out, scan_n * sizeof(uint));
  for (uint i = 0; i < scan_n; ++i) scan_in[i] = (i * 37u) % 11u;
}

static uint* hist;
static uint* total;
static unsigned char* bytes;
static const uint hist_n = 10000;

static void histogram_inputs() {
  cudaMallocManaged(&hist, 256 * sizeof(uint));
  cudaMallocManaged(&total, sizeof(uint));
  cudaMallocManaged(&bytes, hist_n);
  std::memset(hist, 0, 256 * sizeof(uint));
  *total = 0;
  for (uint i = 0; i < hist_n; ++i) bytes[i] = static_cast<unsigned char>((i * 7919u) >> 3);
}

int main() {
  const bool phases = std::getenv("CUSIM_PHASES") == nullptr || std::strcmp(std::getenv("CUSIM_PHASES"), "0") != 0;
  // The answers.
  scan_inputs();
  for (uint size : {4u, 32u, 256u}) {
    scan_exclusive<<<scan_n / 256, 256>>>(scan_out, scan_in, size, -1, -1);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (uint a = 0; a < scan_n; a += size) {
      uint sum = 0;
      for (uint i = a; i < a + size; ++i) {
        CHECK_EQ(scan_out[i], sum);
        sum += scan_in[i];
      }
    }
  }
  float *in, *out;
  cudaMallocManaged(&in, 256 * sizeof(float));
  cudaMallocManaged(&out, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) in[i] = static_cast<float>(i);
  reverse<<<2, 128>>>(out, in);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 256; ++i) CHECK_EQ(out[i], static_cast<float>((i / 128) * 128 + 127 - i % 128));
  histogram_inputs();
  histogram<<<5, 96>>>(hist, total, bytes, hist_n, -1);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  uint counts[256] = {};
  for (uint i = 0; i < hist_n; ++i) ++counts[bytes[i]];
  for (int b = 0; b < 256; ++b) CHECK_EQ(hist[b], counts[b]);
  CHECK_EQ(*total, hist_n);
  int *maxes, *values;
  cudaMallocManaged(&maxes, 3 * sizeof(int));
  cudaMallocManaged(&values, 3 * sizeof(int));
  for (int b = 0; b < 3; ++b) values[b] = 1000 * b - 7;
  maxima<<<3, 64>>>(maxes, values);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < 3; ++b) CHECK_EQ(maxes[b], 1000 * b - 7);
  cudaDeviceReset();

  // An overrun by one thread inside a callee: its thread, block and the callee's line.
  std::string report;
  CHECK_EQ(fault_of([] { scan_inputs(); scan_exclusive<<<scan_n / 256, 256>>>(scan_out, scan_in, 32, 77, -1); },
                    &report),
           std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[77, 0, 0] ctaid=[1, 0, 0]: ", 0) == 0);
  CHECK(report.find("(phases_calls.cu:31)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  CHECK_EQ(fault_of([] { histogram_inputs(); histogram<<<5, 96>>>(hist, total, bytes, hist_n, 50); }, &report),
           std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[50, 0, 0] ctaid=[2, 0, 0]: ", 0) == 0);
  CHECK(report.find("(phases_calls.cu:76)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());

  // One thread leaving the callee's loop over a barrier a round early: a barrier divergence in
  // either form, in the words of each.
  const char* in_phases = "barrier divergence: threads of the block disagree on the condition of a loop holding";
  const char* on_fibers = "barrier divergence: threads of the block wait at different";
  CHECK_EQ(fault_of([] { scan_inputs(); scan_exclusive<<<scan_n / 256, 256>>>(scan_out, scan_in, 64, -1, 9); },
                    &report),
           std::string("cudaErrorLaunchFailure"));
  CHECK(report.find(phases ? in_phases : on_fibers) != std::string::npos);
  CHECK(report.find(phases ? "(phases_calls.cu:32)" : "(phases_calls.cu:") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  return finish();
}
