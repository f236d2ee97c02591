// SPDX-License-Identifier: MIT
// CUB's block, warp and device primitives as CUDA programs use them, from the toolkit layout's cub/
// (cusim's own: docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): results compared with the
// host's, the temporary-storage protocol of the device primitives, and a device reduction told
// more items than its input has, reported by the checks in the reduction's kernel.
#include "check.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

constexpr int threads = 128;

__global__ void block_primitives(const int* in, int* sums, int* partial, int* scans, int* warps, int* lanes) {
  typedef cub::BlockLoad<int, threads, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockReduce<int, threads> Reduce;
  typedef cub::BlockScan<int, threads> Scan;
  typedef cub::BlockStore<int, threads, 4, cub::BLOCK_STORE_DIRECT> Store;
  typedef cub::WarpReduce<int> Warp;
  typedef cub::WarpScan<int, 8> Lanes;  // logical warps of 8 lanes
  __shared__ typename Reduce::TempStorage reduce_storage;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ typename Warp::TempStorage warp_storage[threads / 32];
  __shared__ typename Lanes::TempStorage lanes_storage[threads / 8];
  __shared__ typename Load::TempStorage load_storage;
  __shared__ typename Store::TempStorage store_storage;
  int items[4];
  Load(load_storage).Load(in + blockIdx.x * threads * 4, items);
  int sum = Reduce(reduce_storage).Sum(items);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
  int part = Reduce(reduce_storage).Reduce(items[0], cub::Max(), 100);  // the first 100 threads
  if (threadIdx.x == 0) partial[blockIdx.x] = part;
  int aggregate = 0;
  Scan(scan_storage).ExclusiveSum(items, items, aggregate);
  Store(store_storage).Store(scans + blockIdx.x * threads * 4, items);
  int w = Warp(warp_storage[threadIdx.x / 32]).Sum(static_cast<int>(threadIdx.x));
  if (threadIdx.x % 32 == 0) warps[blockIdx.x * (threads / 32) + threadIdx.x / 32] = w;
  int lane_scan = 0, lane_total = 0;
  Lanes(lanes_storage[threadIdx.x / 8]).ExclusiveScan(static_cast<int>(threadIdx.x % 8) + 1, lane_scan, 100, cub::Sum(), lane_total);
  lanes[blockIdx.x * threads + threadIdx.x] = lane_scan * 100 + lane_total;
}

int main() {
  const int blocks = 3;
  const int n = blocks * threads * 4;
  int *in, *sums, *partial, *scans, *warps, *lanes;
  CHECK_EQ(cudaMallocManaged(&in, n * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&sums, blocks * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&partial, blocks * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&scans, n * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&warps, blocks * (threads / 32) * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&lanes, blocks * threads * sizeof(int)), cudaSuccess);
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
  block_primitives<<<blocks, threads>>>(in, sums, partial, scans, warps, lanes);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < blocks; b++) {
    const int* block = in + b * threads * 4;
    CHECK_EQ(sums[b], std::accumulate(block, block + threads * 4, 0));
    int max = -1000;
    for (int t = 0; t < 100; t++) max = std::max(max, block[t * 4]);
    CHECK_EQ(partial[b], max);
    int running = 0, wrong = 0;
    for (int i = 0; i < threads * 4; i++) {
      wrong += scans[b * threads * 4 + i] != running;
      running += block[i];
    }
    CHECK_EQ(wrong, 0);
    for (int w = 0; w < threads / 32; w++) CHECK_EQ(warps[b * (threads / 32) + w], 32 * 32 * w + 31 * 32 / 2);
    wrong = 0;
    for (int t = 0; t < threads; t++) {
      const int l = t % 8;  // lanes 1..l before it, from 100; all 8 lanes: 36
      wrong += lanes[b * threads + t] != (100 + l * (l + 1) / 2) * 100 + 36;
    }
    CHECK_EQ(wrong, 0);
  }

  // DeviceReduce::Sum, DeviceScan::InclusiveSum, DeviceRadixSort::SortPairs: the size query, then
  // the work on a stream.
  const int m = 10000;
  std::vector<unsigned> keys(m);
  std::vector<int> values(m);
  for (int i = 0; i < m; i++) {
    keys[i] = (i * 2654435761u) >> 7;
    values[i] = i;
  }
  unsigned *d_keys, *d_keys_out;
  int *d_values, *d_values_out, *d_sum, *d_scan;
  CHECK_EQ(cudaMalloc(&d_keys, m * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_keys_out, m * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_values, m * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_values_out, m * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_sum, sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_scan, m * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMemcpy(d_keys, keys.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice), cudaSuccess);
  CHECK_EQ(cudaMemcpy(d_values, values.data(), m * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  cudaStream_t stream;
  CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);

  size_t bytes = 0;
  CHECK_EQ(cub::DeviceReduce::Sum(nullptr, bytes, d_values, d_sum, m, stream), cudaSuccess);
  CHECK(bytes > 0);
  void* temp = nullptr;
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  size_t too_few = bytes - 1;
  CHECK_EQ(cub::DeviceReduce::Sum(temp, too_few, d_values, d_sum, m, stream), cudaErrorInvalidValue);
  CHECK_EQ(cub::DeviceReduce::Sum(temp, bytes, d_values, d_sum, m, stream), cudaSuccess);
  CHECK_EQ(cudaFree(temp), cudaSuccess);

  bytes = 0;
  CHECK_EQ(cub::DeviceScan::InclusiveSum(nullptr, bytes, d_values, d_scan, m, stream), cudaSuccess);
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  CHECK_EQ(cub::DeviceScan::InclusiveSum(temp, bytes, d_values, d_scan, m, stream), cudaSuccess);
  CHECK_EQ(cudaFree(temp), cudaSuccess);

  bytes = 0;
  CHECK_EQ(cub::DeviceRadixSort::SortPairs(nullptr, bytes, d_keys, d_keys_out, d_values, d_values_out, m, 0, 32,
                                           stream),
           cudaSuccess);
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  CHECK_EQ(cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys, d_keys_out, d_values, d_values_out, m, 0, 32,
                                           stream),
           cudaSuccess);
  CHECK_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  CHECK_EQ(cudaFree(temp), cudaSuccess);

  int sum = 0;
  CHECK_EQ(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK_EQ(sum, m * (m - 1) / 2);
  std::vector<int> scan(m);
  CHECK_EQ(cudaMemcpy(scan.data(), d_scan, m * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK_EQ(scan[m - 1], m * (m - 1) / 2);
  CHECK_EQ(scan[99], 99 * 100 / 2);
  std::vector<unsigned> sorted_keys(m);
  std::vector<int> sorted_values(m);
  CHECK_EQ(cudaMemcpy(sorted_keys.data(), d_keys_out, m * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK_EQ(cudaMemcpy(sorted_values.data(), d_values_out, m * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<int> order(values);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  int wrong = 0;
  for (int i = 0; i < m; i++) wrong += sorted_values[i] != order[i] || sorted_keys[i] != keys[order[i]];
  CHECK_EQ(wrong, 0);

  // Signed and floating keys, descending, only some bits: as CUB orders them.
  std::vector<float> f = {3.5f, -0.0f, -2.0f, 0.0f, 1e30f, -1e30f, 0.25f};
  float *d_f, *d_f_out;
  CHECK_EQ(cudaMalloc(&d_f, f.size() * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&d_f_out, f.size() * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMemcpy(d_f, f.data(), f.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  bytes = 0;
  CHECK_EQ(cub::DeviceRadixSort::SortKeysDescending(nullptr, bytes, d_f, d_f_out, (int)f.size()), cudaSuccess);
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  CHECK_EQ(cub::DeviceRadixSort::SortKeysDescending(temp, bytes, d_f, d_f_out, (int)f.size()), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> fs(f.size());
  CHECK_EQ(cudaMemcpy(fs.data(), d_f_out, f.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  const float want[] = {1e30f, 3.5f, 0.25f, 0.0f, -0.0f, -2.0f, -1e30f};
  for (size_t i = 0; i < f.size(); i++) CHECK_EQ(fs[i], want[i]);
  CHECK(!std::signbit(fs[3]) && std::signbit(fs[4]));
  CHECK_EQ(cudaFree(temp), cudaSuccess);

  // The DoubleBuffer form: the result in the buffer Current() names afterwards.
  cub::DoubleBuffer<unsigned> db(d_keys, d_keys_out);
  bytes = 0;
  CHECK_EQ(cub::DeviceRadixSort::SortKeys(nullptr, bytes, db, m), cudaSuccess);
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  CHECK_EQ(cub::DeviceRadixSort::SortKeys(temp, bytes, db, m), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(db.Current() == d_keys || db.Current() == d_keys_out);  // CUB names either, by its passes
  CHECK_EQ(cudaMemcpy(sorted_keys.data(), db.Current(), m * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<unsigned> want_keys(keys);
  std::sort(want_keys.begin(), want_keys.end());
  CHECK(sorted_keys == want_keys);
  CHECK_EQ(cudaFree(temp), cudaSuccess);

  // A reduction told one item more than d_values has: the kernel's read past the end is reported.
  bytes = 0;
  CHECK_EQ(cub::DeviceReduce::Sum(nullptr, bytes, d_values, d_sum, m + 1), cudaSuccess);
  CHECK_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  std::string report;
  {
    stderr_capture capture;
    CHECK_EQ(cub::DeviceReduce::Sum(temp, bytes, d_values, d_sum, m + 1), cudaSuccess);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    report = capture.text();
  }
  CHECK(report.find("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at ") == 0);
  CHECK(report.find(": 0 bytes past the end of a 40000-byte allocation of device memory (cudaMalloc)") !=
        std::string::npos);
  CHECK(report.find("(device_reduce.cuh:") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  return finish();
}
