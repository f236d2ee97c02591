// Namespace-scope __shared__ variables (one per block, the same object for every function of a
// block), __shared__ declarations in macro bodies (cuda-samples' cudasharedmem.h), and the
// bounds check of a namespace-scope array naming shared memory.
#include <cstdio>
#include "block_tile.cuh"

namespace stage {
__shared__ float local[TILE];
extern __shared__ float dynamic_part[];
}  // namespace stage

template <typename T> struct SharedMemory;
#define BUILD_SHAREDMEMORY_TYPE(t, n) \
  template <> struct SharedMemory<t> { \
    __device__ t& operator[](int i) { \
      extern __shared__ t n[]; \
      return n[i]; \
    } \
  }
BUILD_SHAREDMEMORY_TYPE(float, s_float);
BUILD_SHAREDMEMORY_TYPE(unsigned int, s_uint);

#define FIXED_SCRATCH(type, name, count) __shared__ type name[count]

__device__ float from_local(int i) { return stage::local[i]; }

// Each block writes its own index into the header's tile through put(), the file's own local and
// the dynamic array; another function reads them back after the barrier: the same objects.
__global__ void fill(float* out, int* counts) {
  int i = threadIdx.x;
  if (i == 0) block_count = 0;
  __syncthreads();
  put(i, blockIdx.x * 100.0f + i);
  stage::local[i] = blockIdx.x + 0.5f;
  stage::dynamic_part[i] = -1.0f * blockIdx.x;
  atomicAdd(&block_count, 1);
  __syncthreads();
  out[blockIdx.x * TILE + i] = tile[(i + 1) % TILE] + from_local(i) + stage::dynamic_part[TILE - 1 - i];
  if (i == 0) counts[blockIdx.x] = block_count;
}

// A second kernel sees the block's own variables afresh (no value left from another launch is
// relied on), through macros of shared memory.
__global__ void macros(unsigned* out) {
  SharedMemory<unsigned int> smem;
  FIXED_SCRATCH(unsigned, scratch, TILE);
  FIXED_SCRATCH(unsigned, other, 2);
  smem[threadIdx.x] = threadIdx.x * 3u;
  scratch[threadIdx.x] = blockIdx.x;
  if (threadIdx.x < 2) other[threadIdx.x] = 7u;
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = smem[TILE - 1 - threadIdx.x] + scratch[0] + other[1];
}

__global__ void overrun(int index) { stage::local[index] = 1.0f; }

// Fit for the phased form in optimised builds: the array bound before the phases.
__shared__ float reversed[TILE];
__global__ void reverse(float* out) {
  int t = threadIdx.x;
  reversed[t] = blockIdx.x * TILE + t;
  __syncthreads();
  out[blockIdx.x * TILE + t] = reversed[TILE - 1 - t];
}

int main(int argc, char**) {
  float* out;
  int* counts;
  unsigned* u;
  cudaMallocManaged(&out, 4 * TILE * sizeof(float));
  cudaMallocManaged(&counts, 4 * sizeof(int));
  cudaMallocManaged(&u, 4 * TILE * sizeof(unsigned));
  fill<<<4, TILE, TILE * sizeof(float)>>>(out, counts);
  macros<<<4, TILE, TILE * sizeof(unsigned)>>>(u);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  int bad = 0;
  float* r;
  cudaMallocManaged(&r, 4 * TILE * sizeof(float));
  reverse<<<4, TILE>>>(r);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  for (int i = 0; i < 4 * TILE; ++i)
    if (r[i] != (i / TILE) * TILE + TILE - 1 - i % TILE) ++bad;
  for (int b = 0; b < 4; ++b) {
    if (counts[b] != TILE) ++bad;
    for (int i = 0; i < TILE; ++i) {
      float want = b * 100.0f + (i + 1) % TILE + b + 0.5f - b;
      if (out[b * TILE + i] != want) ++bad;
      if (u[b * TILE + i] != (TILE - 1u - i) * 3u + b + 7u) ++bad;
    }
  }
  std::printf("%s %d\n", bad ? "wrong" : "ok", bad);
  if (argc > 1) {
    overrun<<<1, 1>>>(TILE);
    std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  }
  return 0;
}
