// SPDX-License-Identifier: MIT
// The cuda-samples' shapes of kernels with barriers, which the driver runs as loops between their
// barriers (docs/performance.md, "Which samples' kernels get phases"): a template with a value
// parameter and __shared__ tiles declared in the loop (matrixMul), a template with a type and
// value parameters, a SharedMemory<T> helper over extern __shared__ and a local living across
// barriers (reduction's reduce3), a block of its own holding barriers, a loop variable named as a
// parameter, a function-like macro and a __device__ call as a statement (the sorting networks),
// an early return. The build's CUSIM_NVCC_PHASES_REPORT=1 lines say each is phased (a test of its
// own); here each gives the host's answer, one thread's overrun is reported with its thread,
// block and line, and a thread leaving a loop over a barrier early is a barrier divergence, in
// phases and with CUSIM_PHASES=0 on fibers (a second test), each form's report where it differs.
#include "check.h"

#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace cg = cooperative_groups;

// matrixMul's shape. `bad`: the linear index of a thread of block (1, 0) that reads one tile too
// far down A's column; `skew`: that of a thread of every block that takes one round fewer.
template <int BLOCK_SIZE>
__global__ void tile_matmul(float* C, const float* A, const float* B, int wA, int wB, int bad, int skew) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  int me = ty * BLOCK_SIZE + tx;
  for (int a = aBegin + (me == skew ? aStep : 0), b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    int row = ty + (me == bad && bx == 1 && by == 0 ? BLOCK_SIZE * gridDim.y : 0);
    As[ty][tx] = A[a + wA * row + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  __syncthreads();
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

// reduction's helper: the dynamic shared memory as a T*.
template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int cusim_test_smem[];
    return (T*)cusim_test_smem;
  }
};

template <>
struct SharedMemory<double> {
  __device__ inline operator double*() {
    extern __shared__ double cusim_test_smem_d[];
    return (double*)cusim_test_smem_d;
  }
};

// reduce3's shape, with reduce4's template parameters: mySum lives across the barriers.
template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce_sum(const T* g_idata, T* g_odata, unsigned int n, int bad, int skew) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  if (blockIdx.x == 1 && static_cast<int>(tid) == bad) i += n;
  T mySum = (i < n || bad >= 0) ? g_idata[i] : 0;
  if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  cg::sync(cta);
  for (unsigned int s = static_cast<int>(tid) == skew ? blockDim.x / 4 : blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] = mySum = mySum + sdata[tid + s];
    }
    cta.sync();
  }
  cg::sync(cta);
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// A type that is not trivial: reduce_sum<Counted> keeps only its fibers (the driver's phased form
// is compiled for trivial types only), and still adds up.
struct Counted {
  int v;
  __host__ __device__ Counted() : v(0) {}
  __host__ __device__ Counted(int x) : v(x) {}
  __host__ __device__ Counted& operator+=(const Counted& o) {
    v += o.v;
    return *this;
  }
  __host__ __device__ Counted operator+(const Counted& o) const { return Counted(v + o.v); }
};

#define IMUL(a, b) __mul24(a, b)
#define KEY_OF(x) ((x) & 0xffffu)

__device__ inline void Comparator(unsigned& a, unsigned& b, unsigned dir) {
  if ((KEY_OF(a) > KEY_OF(b)) == (dir != 0)) {
    unsigned t = a;
    a = b;
    b = t;
  }
}

// The sorting networks' shape: a bitonic sort of 2 * blockDim.x keys, its last merge in a block of
// its own, `stride` both a parameter and the merge loop's variable. Threads of blocks past `blocks`
// return before any barrier.
__global__ void sort_block(unsigned* keys, unsigned stride, unsigned dir, int blocks, int bad, int skew) {
  __shared__ unsigned s_key[256];
  if (static_cast<int>(blockIdx.x) >= blocks) return;
  const unsigned n = 2 * blockDim.x;
  keys += IMUL(blockIdx.x, n) + threadIdx.x;
  s_key[threadIdx.x] = keys[0];
  s_key[threadIdx.x + n / 2] = keys[n / 2];
  for (unsigned size = 2; size < n; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos], s_key[pos + stride], ddd);
    }
  }
  {
    for (unsigned stride = static_cast<int>(threadIdx.x) == skew ? n / 4 : n / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos], s_key[pos + stride], dir);
    }
  }
  __syncthreads();
  keys[0] = s_key[threadIdx.x];
  keys[n / 2 + (blockIdx.x == 1 && static_cast<int>(threadIdx.x) == bad ? stride : 0)] = s_key[threadIdx.x + n / 2];
}


static float *mA, *mB, *mC;
static const int BS = 16, WA = 64, HA = 32, WB = 48;

static void matmul_inputs() {
  cudaMallocManaged(&mA, WA * HA * sizeof(float));
  cudaMallocManaged(&mB, WB * WA * sizeof(float));
  cudaMallocManaged(&mC, WB * HA * sizeof(float));
  for (int i = 0; i < WA * HA; ++i) mA[i] = static_cast<float>(i % 7) - 3.0f;
  for (int i = 0; i < WB * WA; ++i) mB[i] = static_cast<float>(i % 5) * 0.5f;
}

static void matmul(int bad, int skew) {
  tile_matmul<BS><<<dim3(WB / BS, HA / BS), dim3(BS, BS)>>>(mC, mA, mB, WA, WB, bad, skew);
}

template <class T>
static T* reduce_inputs(unsigned n) {
  T* in;
  cudaMallocManaged(&in, n * sizeof(T));
  for (unsigned i = 0; i < n; ++i) in[i] = T(static_cast<int>(i % 11) - 4);
  return in;
}

static int* ints;
static int* int_sums;

template <class T>
static bool reduce_checks(unsigned n) {
  const unsigned threads = 128, blocks = n / (2 * threads);
  T* in = reduce_inputs<T>(n);
  T* out;
  cudaMallocManaged(&out, blocks * sizeof(T));
  reduce_sum<T, threads, true><<<blocks, threads, threads * sizeof(T)>>>(in, out, n, -1, -1);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  for (unsigned b = 0; b < blocks; ++b) {
    T sum = T(0);
    for (unsigned i = 0; i < 2 * threads; ++i) sum += in[b * 2 * threads + i];
    ok = ok && std::memcmp(&sum, &out[b], sizeof(T)) == 0;
  }
  cudaFree(in);
  cudaFree(out);
  return ok;
}

static unsigned* sort_keys;

static void sort_inputs() {
  cudaMallocManaged(&sort_keys, 3 * 256 * sizeof(unsigned));
  for (unsigned i = 0; i < 3 * 256; ++i) sort_keys[i] = (i * 7919u) % 1000u | (i << 16);
}

int main() {
  const bool phases = std::getenv("CUSIM_PHASES") == nullptr || std::strcmp(std::getenv("CUSIM_PHASES"), "0") != 0;
  // The answers.
  matmul_inputs();
  matmul(-1, -1);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int y = 0; y < HA; ++y)
    for (int x = 0; x < WB; ++x) {
      float sum = 0;
      for (int k = 0; k < WA; ++k) sum += mA[y * WA + k] * mB[k * WB + x];
      CHECK_EQ(mC[y * WB + x], sum);
    }
  CHECK(reduce_checks<float>(4096));
  CHECK(reduce_checks<int>(4096));
  CHECK(reduce_checks<double>(4096));
  CHECK(reduce_checks<Counted>(1024));
  sort_inputs();
  sort_block<<<3, 128>>>(sort_keys, 5, 1, 2, -1, -1);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < 2; ++b)
    for (int i = 1; i < 256; ++i) CHECK((sort_keys[b * 256 + i - 1] & 0xffffu) <= (sort_keys[b * 256 + i] & 0xffffu));
  for (int i = 0; i < 256; ++i) CHECK_EQ(sort_keys[512 + i], ((512u + i) * 7919u) % 1000u | ((512u + i) << 16));
  cudaDeviceReset();

  // An overrun by one thread: its thread, block and line, in either form.
  std::string report;
  CHECK_EQ(fault_of([] { matmul_inputs(); matmul(37, -1); }, &report), std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[5, 2, 0] ctaid=[1, 0, 0]: invalid global read of 4 bytes at ", 0) == 0);
  CHECK(report.find("(phases_shapes.cu:39)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  CHECK_EQ(fault_of([] {
             ints = reduce_inputs<int>(1024);
             cudaMallocManaged(&int_sums, 4 * sizeof(int));
             reduce_sum<int, 128, true><<<4, 128, 128 * sizeof(int)>>>(ints, int_sums, 1024, 99, -1);
           }, &report),
           std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[99, 0, 0] ctaid=[1, 0, 0]: invalid global read of 4 bytes at ", 0) == 0);
  CHECK(report.find("(phases_shapes.cu:76)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  CHECK_EQ(fault_of([] { sort_inputs(); sort_block<<<3, 128>>>(sort_keys, 1024, 1, 3, 7, -1); }, &report),
           std::string("cudaErrorIllegalAddress"));
  CHECK(report.rfind("tid=[7, 0, 0] ctaid=[1, 0, 0]: invalid global write of 4 bytes at ", 0) == 0);
  CHECK(report.find("(phases_shapes.cu:141)") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());

  // One thread leaving a loop over a barrier a round early (or late): a barrier divergence in
  // either form, in the words of each.
  const char* in_phases = "barrier divergence: threads of the block disagree on the condition of a loop holding";
  const char* on_fibers = "barrier divergence: threads of the block wait at different __syncthreads";
  const char* expected = phases ? in_phases : on_fibers;
  CHECK_EQ(fault_of([] { matmul_inputs(); matmul(-1, 21); }, &report), std::string("cudaErrorLaunchFailure"));
  CHECK(report.find(expected) != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  CHECK_EQ(fault_of([] {
             ints = reduce_inputs<int>(1024);
             cudaMallocManaged(&int_sums, 4 * sizeof(int));
             reduce_sum<int, 128, true><<<4, 128, 128 * sizeof(int)>>>(ints, int_sums, 1024, -1, 3);
           }, &report),
           std::string("cudaErrorLaunchFailure"));
  CHECK(report.find(expected) != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  CHECK_EQ(fault_of([] { sort_inputs(); sort_block<<<3, 128>>>(sort_keys, 1, 1, 3, -1, 9); }, &report),
           std::string("cudaErrorLaunchFailure"));
  CHECK(report.find(expected) != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  return finish();
}
