// SPDX-License-Identifier: MIT
// Raw __shared__ arrays are bounds-checked per axis: `tile[ty][tx + 1]` past a row's end is the
// simulator's out-of-bounds fault (cudaErrorIllegalAddress at the next synchronisation, the report
// naming the thread, block, axis, size and the line of the access), not a read of the next row.
// The checked array stays an array to CUDA code: pointers, decay, sizeof, volatile, atomics.
#include "check.h"

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

constexpr int TILE = 16;

// Rows from `first` on read one element past their end in the threads with threadIdx.x == 15.
__global__ void row_overrun(const float* in, float* out, int first) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  if (static_cast<int>(threadIdx.y) < first) return;
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x + 1];
}

// Row y - 1 of row 0: index -1 on axis 0.
__global__ void row_before_first(float* out) {
  __shared__ float tile[TILE][TILE];
  int y = threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[y - 1][threadIdx.x];
}

// What CUDA code does with __shared__ arrays, in a correct kernel whose results main checks.
__device__ float sum_of(const float* p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
__device__ void fill(float* p, int n, float v) {
  for (int i = 0; i < n; ++i) p[i] = v;
}
__device__ float sum_of_row(const float (*rows)[TILE], int r) { return sum_of(rows[r], TILE); }
__device__ float sum_of_array(const float (&a)[TILE]) {
  float s = 0;
  for (float x : a) s += x;
  return s;
}
// The last warp of a reduction, through a volatile pointer.
__device__ void warp_reduce(volatile float* s, unsigned tid) {
  for (unsigned stride = 16; stride > 0; stride /= 2) {
    const float v = s[tid] + s[tid + stride];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
}
template <unsigned Add>
__device__ void add_first(unsigned* dst, const unsigned* src) {
  dst[0] = src[0] + Add;
}
// A template deduces T* from a pointer only: `+array` decays the array, as in C++.
template <class T>
__device__ T front_of(const T* p) {
  return p[0];
}

enum { THIRD = 3 };
struct lane_index {
  operator unsigned() const { return 2; }
};

constexpr int RESULTS = 16;

__global__ void transparent(float* out) {
  __shared__ float tile[TILE][TILE];
  __shared__ float line[TILE];
  volatile __shared__ float partial[64];
  __shared__ __align__(4) unsigned char bytes[64];
  __shared__ int counts[8], cube[2][3][4];
  __shared__ unsigned dst[1], src[1];
  static_assert(sizeof(tile) == sizeof(float[TILE][TILE]) && sizeof(tile[0]) == sizeof(float[TILE]));
  static_assert(sizeof(tile) / sizeof(tile[0]) == TILE && sizeof(cube[1]) == sizeof(int[3][4]));
  static_assert(alignof(std::remove_reference_t<decltype(tile)>) == alignof(float));
  static_assert(std::is_same_v<decltype(tile[0][0]), float&> && std::is_same_v<decltype(partial[0]), volatile float&>);
  const unsigned tid = threadIdx.x;  // 64 threads

  // A block reduction: 64 -> 32 with __syncthreads, then the last warp through a volatile pointer.
  partial[tid] = static_cast<float>(tid);
  if (tid < 8) counts[tid] = 0;
  if (tid < TILE)
    for (int r = 0; r < TILE; ++r) tile[r][tid] = static_cast<float>(r * TILE + static_cast<int>(tid));
  if (tid < TILE) line[tid] = static_cast<float>(tid);
  if (tid < 24) cube[tid / 12][tid / 4 % 3][tid % 4] = static_cast<int>(tid);
  __syncthreads();
  if (tid < 32) partial[tid] = partial[tid] + partial[tid + 32];
  __syncthreads();
  if (tid < 32) warp_reduce(partial, tid);
  atomicAdd(&counts[tid % 8], 1);
  atomicAdd(counts + THIRD, 1);
  __syncthreads();
  if (tid != 0) return;

  out[0] = partial[0];                                   // 0 + ... + 63 = 2016
  out[1] = sum_of(line, TILE) + sum_of(tile[2], TILE);   // 120 + (32 + ... + 47 = 632)
  out[2] = sum_of_row(tile, 3) + sum_of_array(line);     // (48 + ... + 63 = 888) + 120
  float* row = tile[1];
  float(*rows)[TILE] = tile;
  const float* cline = line;
  void* any = tile;
  float* flat = (float*)tile;
  out[3] = row[3] + rows[2][1] + cline[4] + static_cast<float*>(any)[5] + flat[17];  // 19 + 33 + 4 + 5 + 17
  float(*whole)[TILE][TILE] = &tile;
  out[4] = *(tile[1] + 2) + *(line + 5) + *line + (*tile)[1] + (*whole)[3][3];     // 18 + 5 + 0 + 1 + 51
  out[5] = static_cast<float>((tile == rows) + (rows == tile) + (line == cline) + (line != row) +
                              (&line[5] - line) + ((line + 3) - line) + ((void*)&tile == (void*)&tile[0][0]));  // 4 + 5 + 3 + 1
  float s = 0;
  for (float x : line) s += x;
  out[6] = s;  // 120
  out[7] = static_cast<float>(std::size(line)) + line[THIRD] + line[lane_index{}] + line[static_cast<char>(1)] +
           line[std::size_t{4}] + line[static_cast<short>(1)] + line[tid];  // 16 + 3 + 2 + 1 + 4 + 1 + 0
  float copy[TILE];
  std::memcpy(copy, tile[4], sizeof(tile[4]));
  std::memset(line, 0, sizeof(line));
  out[8] = copy[15] + line[3];  // 79 + 0
  ((unsigned*)bytes)[0] = 0x01020304u;
  out[9] = static_cast<float>(bytes[0] + (std::uintptr_t)bytes % 4);  // 4 (little-endian) + 0
  out[10] = static_cast<float>(counts[THIRD] + counts[0]);             // 8 + 64 + 8
  src[0] = 5;
  add_first<2>(dst + 0, src);
  out[11] = static_cast<float>(dst[0] + front_of(+src));  // 7 + 5
  fill(tile[5], TILE, 2.0f);
  tile[6][0] += 4.0f;
  out[12] = tile[5][15] + tile[6][0];  // 2 + 96 + 4
  out[13] = static_cast<float>(cube[1][2][3] + cube[0][1][0] + cube[1][0][0]);  // 23 + 4 + 12
  int* plane = cube[1][1];
  out[14] = static_cast<float>(plane[3] + sizeof(cube) / sizeof(cube[0][0][0]));  // 19 + 24
  out[15] = static_cast<float>((partial + 1) - partial);  // 1
}

int main() {
  float *in = nullptr, *out = nullptr;
  CHECK_EQ(cudaMallocManaged(&in, TILE * TILE * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&out, TILE * TILE * sizeof(float)), cudaSuccess);
  for (int i = 0; i < TILE * TILE; ++i) in[i] = static_cast<float>(i);

  // A correct kernel: the arrays behave as arrays.
  transparent<<<1, 64>>>(out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const float expected[RESULTS] = {2016, 752, 1008, 78, 75, 13, 120, 27, 79, 4, 80, 12, 102, 39, 43, 1};
  for (int i = 0; i < RESULTS; ++i) {
    if (out[i] != expected[i]) std::printf("result %d: %g, expected %g\n", i, out[i], expected[i]);
    CHECK(out[i] == expected[i]);
  }

  // One element past a row's end: axis 1, in the first faulting thread of the lowest block.
  std::string report;
  {
    stderr_capture capture;
    row_overrun<<<2, dim3(TILE, TILE)>>>(in, out, 3);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);  // sticky
    report = capture.text();
  }
  CHECK_EQ(report, std::string("tid=[15, 3, 0] ctaid=[0, 0, 0]: index 16 is out of bounds for axis 1 with size 16 "
                               "(shared array, shared_bounds.cu:21)\n"));
  CHECK_EQ(cudaDeviceReset(), cudaSuccess);

  // A negative index: -1 on axis 0.
  {
    stderr_capture capture;
    row_before_first<<<1, dim3(TILE, TILE)>>>(out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    report = capture.text();
  }
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: index -1 is out of bounds for axis 0 with size 16 "
                               "(shared array, shared_bounds.cu:30)\n"));
  return finish();
}
