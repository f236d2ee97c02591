// SPDX-License-Identifier: MIT
// The benchmark's kernels on AMD HIP-CPU (../shared/anchors/hip-cpu, MIT), for cusim_benchmark to
// run side by side: the same kernels, sizes and block shapes as tools/benchmark.cu, written as
// HIP code with raw pointers, each result verified against a serial loop. HIP-CPU checks nothing
// and runs on all cores (TBB). Prints one line per kernel: name, tab, best milliseconds, tab,
// "verified" or "WRONG". Not a test.
//
//   hip_cpu_benchmark [--reps N] [--quick]
#include <hip/hip_runtime.h>

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

constexpr int RED = 256;
constexpr int ST = 16;
constexpr int TPB = 16;
constexpr int BIG = 1024;
constexpr int BIG_ROUNDS = 32;
constexpr int BINS = 256;

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

bool close_enough(const std::vector<float>& got, const std::vector<float>& want) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-3f * (1 + std::fabs(want[i]))) return false;
  return got.size() == want.size();
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

  const int nv = (1 << 24) >> shift;
  std::vector<float> va(nv), vb(nv), vref(nv);
  for (int i = 0; i < nv; ++i) va[i] = 0.5f * static_cast<float>(i % 1000), vb[i] = static_cast<float>(i % 77), vref[i] = va[i] + vb[i];
  float *dva = device_copy(va), *dvb = device_copy(vb), *dvc = device_copy(vref);
  hipMemset(dvc, 0, nv * sizeof(float));
  double ms = best_ms(reps, [&] { hipLaunchKernelGGL(vector_add, dim3(nv / 256), dim3(256), 0, nullptr, dvc, dva, dvb, nv); });
  run("vector add 2^24", ms, host_copy(dvc, nv) == vref);

  const int n = 512 >> (shift / 2);
  std::vector<float> ma(n * n), mb(n * n), mref(n * n);
  for (int i = 0; i < n * n; ++i) ma[i] = static_cast<float>(i % 17) * 0.25f, mb[i] = static_cast<float>(i % 13) - 6;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += ma[i * n + k] * mb[k * n + j];
      mref[i * n + j] = acc;
    }
  float *dA = device_copy(ma), *dB = device_copy(mb), *dC = device_copy(mref);
  hipMemset(dC, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(matmul_naive, dim3(n / 16, n / 16), dim3(16, 16), 0, nullptr, dA, dB, dC, n); });
  run("naive matmul 512", ms, close_enough(host_copy(dC, n * n), mref));
  hipMemset(dC, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(matmul_tiled, dim3(n / TPB, n / TPB), dim3(TPB, TPB), 0, nullptr, dA, dB, dC, n); });
  run("tiled matmul 512", ms, close_enough(host_copy(dC, n * n), mref));

  const int nr = (1 << 24) >> shift;
  std::vector<float> rx(nr), rref(nr / RED);
  for (int i = 0; i < nr; ++i) rx[i] = static_cast<float>(i % 8);
  for (int b = 0; b < nr / RED; ++b) {
    float s = 0;
    for (int i = 0; i < RED; ++i) s += rx[b * RED + i];
    rref[b] = s;
  }
  float *drx = device_copy(rx), *dpartial = device_copy(rref);
  hipMemset(dpartial, 0, nr / RED * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(block_reduce, dim3(nr / RED), dim3(RED), 0, nullptr, drx, dpartial); });
  run("block reduction 2^24", ms, host_copy(dpartial, nr / RED) == rref);

  std::vector<float> sgrid(n * n), sref(n * n);
  for (int i = 0; i < n * n; ++i) sgrid[i] = static_cast<float>((i * 7) % 23) * 0.5f;
  auto at = [&](int i, int j) { return i >= 0 && i < n && j >= 0 && j < n ? sgrid[i * n + j] : 0.0f; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sref[i * n + j] = 0.2f * (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
  float *dsin = device_copy(sgrid), *dsout = device_copy(sref);
  hipMemset(dsout, 0, n * n * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(stencil, dim3(n / ST, n / ST), dim3(ST, ST), 0, nullptr, dsin, dsout, n); });
  run("2-D stencil 512^2", ms, host_copy(dsout, n * n) == sref);

  const int nh = (1 << 24) >> shift;
  std::vector<std::uint8_t> hdata(nh);
  for (int i = 0; i < nh; ++i) hdata[i] = static_cast<std::uint8_t>((static_cast<unsigned>(i) * 2654435761u) >> 24);
  std::vector<unsigned> href(BINS, 0u);
  for (int i = 0; i < nh; ++i) ++href[hdata[i]];
  std::uint8_t* dh = device_copy(hdata);
  unsigned* dcounts = device_copy(std::vector<unsigned>(BINS, 0u));
  ms = best_ms(reps, [&] {
    hipMemset(dcounts, 0, BINS * sizeof(unsigned));
    hipLaunchKernelGGL(histogram, dim3(256), dim3(RED), 0, nullptr, dh, nh, dcounts);
  });
  run("atomic histogram 2^24", ms, host_copy(dcounts, BINS) == href);

  const int nb = 256 >> (shift / 2);
  std::vector<float> bin(nb * BIG), bref(nb * BIG);
  for (int i = 0; i < nb * BIG; ++i) bin[i] = static_cast<float>(i % 101);
  {
    std::vector<float> v(BIG), s(BIG);
    for (int b = 0; b < nb; ++b) {
      std::copy_n(bin.begin() + b * BIG, BIG, v.begin());
      for (int r = 0; r < BIG_ROUNDS; ++r) {
        s = v;
        for (int t = 0; t < BIG; ++t) v[t] = 0.5f * (v[t] + s[(t + 1) % BIG]);
      }
      std::copy_n(v.begin(), BIG, bref.begin() + b * BIG);
    }
  }
  float *dbin = device_copy(bin), *dbout = device_copy(bref);
  hipMemset(dbout, 0, nb * BIG * sizeof(float));
  ms = best_ms(reps, [&] { hipLaunchKernelGGL(barrier_heavy, dim3(nb), dim3(BIG), 0, nullptr, dbin, dbout); });
  run("1024-thread barriers", ms, host_copy(dbout, nb * BIG) == bref);
  return all_ok ? 0 : 1;
}
