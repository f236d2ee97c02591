// SPDX-License-Identifier: MIT
// The benchmark's kernels on AMD HIP-CPU (../shared/anchors/hip-cpu, MIT), for cusim_benchmark to
// run side by side: the same kernels, sizes and block shapes as tools/benchmark.cu, written as
// HIP code with raw pointers, each result verified against a serial loop. HIP-CPU checks nothing
// and runs on all cores (TBB). Prints one line per kernel: name, tab, best milliseconds, tab,
// "verified" or "WRONG". Not a test.
//
//   hip_cpu_benchmark [--reps N] [--quick]
#include <hip/hip_runtime.h>

#include "benchmark_reference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using bench::BIG;
using bench::BIG_ROUNDS;
using bench::BINS;
using bench::RED;
using bench::ST;
constexpr int TPB = 16;

__global__ void vector_add(float* c, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// As cusim's: i from x, j from y; C(i, j) is row i of a row-major n x n matrix.
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[i * n + k] * B[k * n + j];
    C[i * n + j] = acc;
  }
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  const int x = blockIdx.x * TPB + threadIdx.x, y = blockIdx.y * TPB + threadIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0;
  for (int t = 0; t < (n + TPB - 1) / TPB; ++t) {
    sA[tx][ty] = (x < n && ty + t * TPB < n) ? A[x * n + ty + t * TPB] : 0.f;
    sB[tx][ty] = (tx + t * TPB < n && y < n) ? B[(tx + t * TPB) * n + y] : 0.f;
    __syncthreads();
    for (int j = 0; j < TPB; ++j) acc += sA[tx][j] * sB[j][ty];
    __syncthreads();
  }
  if (x < n && y < n) C[x * n + y] = acc;
}

__global__ void block_reduce(const float* in, float* partial) {
  __shared__ float s[RED];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = RED / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

__global__ void stencil(const float* in, float* out, int n) {
  __shared__ float tile[ST + 2][ST + 2];
  const int x = blockIdx.x * ST + threadIdx.x, y = blockIdx.y * ST + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  auto at = [&](int i, int j) { return i >= 0 && i < n && j >= 0 && j < n ? in[i * n + j] : 0.0f; };
  tile[tx][ty] = at(x, y);
  if (tx == 1) tile[0][ty] = at(x - 1, y);
  if (tx == ST) tile[ST + 1][ty] = at(x + 1, y);
  if (ty == 1) tile[tx][0] = at(x, y - 1);
  if (ty == ST) tile[tx][ST + 1] = at(x, y + 1);
  __syncthreads();
  out[x * n + y] = 0.2f * (tile[tx][ty] + tile[tx - 1][ty] + tile[tx + 1][ty] + tile[tx][ty - 1] + tile[tx][ty + 1]);
}

__global__ void histogram(const std::uint8_t* data, int n, unsigned* counts) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&counts[b], local[b]);
}

__global__ void barrier_heavy(const float* in, float* out) {
  __shared__ float s[BIG];
  const unsigned t = threadIdx.x;
  float v = in[blockIdx.x * BIG + t];
  for (int r = 0; r < BIG_ROUNDS; ++r) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) % BIG]);
    __syncthreads();
  }
  out[blockIdx.x * BIG + t] = v;
}

double best_ms(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    hipDeviceSynchronize();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

template <class T>
T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  hipMalloc(reinterpret_cast<void**>(&d), h.size() * sizeof(T));
  hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice);
  return d;
}

template <class T>
std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost);
  return h;
}

void report(const char* name, double ms, bool ok) { std::printf("%s\t%.3f\t%s\n", name, ms, ok ? "verified" : "WRONG"); }

}  // namespace

int main(int argc, char** argv) {
  int reps = 3, shift = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--quick") == 0) shift = 4;
    else {
      std::fprintf(stderr, "usage: hip_cpu_benchmark [--reps N] [--quick]\n");
      return 2;
    }
  }
  bool all_ok = true;
  auto run = [&](const char* name, double ms, bool ok) {
    report(name, ms, ok);
    all_ok = all_ok && ok;
  };

  const int nv = bench::vector_size(shift);
  std::vector<float> va(nv), vb(nv), vref(nv);
  bench::vector_inputs(va, vb);
  bench::vector_add(va, vb, vref);
  float *dva = device_copy(va), *dvb = device_copy(vb), *dvc = device_copy(vref);
  hipMemset(dvc, 0, nv * sizeof(float));
  double ms = best_ms(reps, [&] { hipLaunchKernelGGL(vector_add, dim3(nv / 256), dim3(256), 0, nullptr, dvc, dva, dvb, nv); });
  run("vector add 2^24", ms, host_copy(dvc, nv) == vref);

  const int n = bench::matrix_side(shift);
  std::vector<float> ma(n * n), mb(n * n), mref(n * n);
  bench::matrix_inputs(ma, mb);
  bench::matmul(n, ma, mb, mref);
  float *dA = device_copy(ma), *dB = device_copy(mb), *dC = device_copy(mref);
  hipMemset(dC, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(matmul_naive, dim3(n / 16, n / 16), dim3(16, 16), 0, nullptr, dA, dB, dC, n); });
  run("naive matmul 512", ms, bench::close_enough(host_copy(dC, n * n), mref));
  hipMemset(dC, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(matmul_tiled, dim3(n / TPB, n / TPB), dim3(TPB, TPB), 0, nullptr, dA, dB, dC, n); });
  run("tiled matmul 512", ms, bench::close_enough(host_copy(dC, n * n), mref));

  const int nr = bench::reduction_size(shift);
  const std::vector<float> rx = bench::reduction_input(nr);
  std::vector<float> rref(nr / RED);
  bench::block_sums(rx, rref);
  float *drx = device_copy(rx), *dpartial = device_copy(rref);
  hipMemset(dpartial, 0, nr / RED * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(block_reduce, dim3(nr / RED), dim3(RED), 0, nullptr, drx, dpartial); });
  run("block reduction 2^24", ms, host_copy(dpartial, nr / RED) == rref);

  const std::vector<float> sgrid = bench::stencil_input(n);
  std::vector<float> sref(n * n);
  bench::stencil(n, sgrid, sref);
  float *dsin = device_copy(sgrid), *dsout = device_copy(sref);
  hipMemset(dsout, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(stencil, dim3(n / ST, n / ST), dim3(ST, ST), 0, nullptr, dsin, dsout, n); });
  run("2-D stencil 512^2", ms, host_copy(dsout, n * n) == sref);

  const int nh = bench::histogram_size(shift);
  const std::vector<std::uint8_t> hdata = bench::histogram_input(nh);
  std::vector<unsigned> href;
  bench::histogram(hdata, href);
  std::uint8_t* dh = device_copy(hdata);
  unsigned* dcounts = device_copy(std::vector<unsigned>(BINS, 0u));
  ms = best_ms(reps, [&] {
    hipMemset(dcounts, 0, BINS * sizeof(unsigned));
    hipLaunchKernelGGL(histogram, dim3(256), dim3(RED), 0, nullptr, dh, nh, dcounts);
  });
  run("atomic histogram 2^24", ms, host_copy(dcounts, BINS) == href);

  const int nb = bench::barrier_blocks(shift);
  const std::vector<float> bin = bench::barrier_input(nb);
  std::vector<float> bref(nb * BIG);
  bench::barrier_rounds(bin, bref);
  float *dbin = device_copy(bin), *dbout = device_copy(bref);
  hipMemset(dbout, 0, nb * BIG * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(barrier_heavy, dim3(nb), dim3(BIG), 0, nullptr, dbin, dbout); });
  run("1024-thread barriers", ms, host_copy(dbout, nb * BIG) == bref);
  return all_ok ? 0 : 1;
}
