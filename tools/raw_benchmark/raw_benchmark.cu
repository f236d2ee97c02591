// SPDX-License-Identifier: MIT
// The cuda-samples' own kernels, as the samples write them (raw pointers, `template <int
// BLOCK_SIZE>`, `extern __shared__`, `<<<>>>`, `cg::sync(cta)`), timed. One source, three builds:
//
//   raw_benchmark_checked    cusim's nvcc driver (build/cuda/bin/nvcc -O3), every check on, as a
//                            user's program is built;
//   raw_benchmark_unchecked  the same with CUSIM_NVCC_UNCHECKED=1 (no bounds instrumentation);
//   raw_benchmark_hip_cpu    g++ -O3 on AMD HIP-CPU's headers (../shared/anchors/hip-cpu): this
//                            file after hipify.py (`<<<>>>` to hipLaunchKernelGGL), its CUDA names
//                            from hip_cpu/cuda_runtime.h, cooperative groups from
//                            hip_cpu/cooperative_groups.h (shims of the benchmark, not the kernels).
//
// The kernels come from NVIDIA's cuda-samples (../shared/compat/cuda-samples/Samples), unchanged:
// BlackScholes_kernel.cuh is included as it is; the others are copied byte for byte out of their
// files at build time by extract_kernels.py into raw_benchmark_kernels.cuh (their files also hold
// `main` or host wrappers needing the samples' helper_cuda.h). The launch configurations are the
// samples' (reduction's getNumBlocksAndThreads with 256 threads and 64 blocks at most, histogram's
// 240 partial histograms, scan's 256-thread blocks, ...).
//
// Each kernel is launched once (warm-up), then N times; the best time counts (launch to
// cudaDeviceSynchronize). Every result is verified against a serial loop here; a wrong result or a
// CUDA error makes the exit status 1. One line per kernel: name, tab, best ms, tab, "verified" or
// "WRONG". Workers: CUSIM_WORKERS for all three builds (HIP-CPU's through tbb::global_control),
// every core when unset.
//
//   raw_benchmark_* [--reps N] [--only a,b] [--small] [--list]
//
// Run the three side by side with tools/raw_benchmark/run.py (a Markdown table of ratios):
//
//   cmake --build build --target raw_benchmark      # the three builds (CUSIM_BUILD_TOOLS=ON)
//   python3 tools/raw_benchmark/run.py --bin build/tools/raw_benchmark --reps 5 [--only reduce6]
//
// --small: tiny sizes (the ctest smoke test "raw_benchmark:smoke", which checks results only).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#include "convolutionSeparable_common.h"
#include "histogram_common.h"
#include "scan_common.h"

#include "raw_benchmark_kernels.cuh"

#include "BlackScholes_kernel.cuh"

namespace {

struct options {
  int reps = 5;
  bool small = false;
  bool list = false;
  std::vector<std::string> only;
};

options opt;
int failures = 0;

bool selected(const std::string& name) {
  if (opt.list) {
    std::printf("%s\n", name.c_str());
    return false;
  }
  if (opt.only.empty()) return true;
  return std::find(opt.only.begin(), opt.only.end(), name) != opt.only.end();
}

/// cudaSuccess, or the error printed (and counted) with what failed
bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "raw_benchmark: %s: %s\n", what, cudaGetErrorString(e));
  ++failures;
  return false;
}

/// the launches' own errors, then the kernels' (at the synchronisation)
bool finished(const char* what) {
  return ok(cudaGetLastError(), what) && ok(cudaDeviceSynchronize(), what);
}

/// best milliseconds of opt.reps runs of `launch` after one warm-up run; negative on an error
double best_ms(const char* name, const std::function<void()>& launch) {
  launch();
  if (!finished(name)) return -1;
  double best = 1e300;
  for (int r = 0; r < opt.reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    launch();
    if (!finished(name)) return -1;
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

void report(const std::string& name, double ms, bool verified) {
  if (ms < 0) verified = false;
  if (!verified) ++failures;
  std::printf("%s\t%.3f\t%s\n", name.c_str(), ms < 0 ? 0.0 : ms, verified ? "verified" : "WRONG");
  std::fflush(stdout);
}

/// device buffer of n Ts, freed at scope exit
template <class T> struct device_buffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit device_buffer(std::size_t count) : n(count) {
    ok(cudaMalloc((void**)&p, n * sizeof(T)), "cudaMalloc");
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(p); }
  void upload(const std::vector<T>& h) { ok(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload"); }
  std::vector<T> download() const {
    std::vector<T> h(n);
    ok(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return h;
  }
};

std::mt19937 rng(2024);

std::vector<float> random_floats(std::size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

bool close_all(const std::vector<float>& got, const std::vector<float>& want, double rel) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(double(got[i]) - want[i]) <= rel * std::max(1.0, std::fabs(double(want[i]))))) {
      std::fprintf(stderr, "raw_benchmark: element %zu is %g, expected %g\n", i, double(got[i]), double(want[i]));
      return false;
    }
  return true;
}

// vectorAdd (0_Introduction/vectorAdd): 2^24 floats, 256 threads a block.
void bench_vector_add() {
  if (!selected("vectorAdd")) return;
  const int n = opt.small ? 1 << 12 : 1 << 24;
  const auto a = random_floats(n, 0, 1), b = random_floats(n, 0, 1);
  device_buffer<float> dA(n), dB(n), dC(n);
  dA.upload(a);
  dB.upload(b);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  const double ms = best_ms("vectorAdd", [&] { vectorAdd<<<blocks, threads>>>(dA.p, dB.p, dC.p, n); });
  const auto c = dC.download();
  bool good = true;
  for (int i = 0; i < n && good; ++i) good = c[i] == a[i] + b[i] + 0.0f;
  report("vectorAdd", ms, good);
}

// matrixMul (0_Introduction/matrixMul): C = A * B, 512 x 512, BLOCK_SIZE x BLOCK_SIZE threads.
template <int BLOCK_SIZE> void bench_matrix_mul(const char* name) {
  if (!selected(name)) return;
  const int n = opt.small ? 64 : 512;
  const auto a = random_floats(std::size_t(n) * n, -1, 1), b = random_floats(std::size_t(n) * n, -1, 1);
  device_buffer<float> dA(a.size()), dB(b.size()), dC(a.size());
  dA.upload(a);
  dB.upload(b);
  const dim3 threads(BLOCK_SIZE, BLOCK_SIZE), grid(n / BLOCK_SIZE, n / BLOCK_SIZE);
  const double ms =
      best_ms(name, [&] { MatrixMulCUDA<BLOCK_SIZE><<<grid, threads>>>(dC.p, dA.p, dB.p, n, n); });
  std::vector<float> want(a.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += double(a[std::size_t(i) * n + k]) * b[std::size_t(k) * n + j];
      want[std::size_t(i) * n + j] = float(s);
    }
  report(name, ms, close_all(dC.download(), want, 1e-4));
}

// transpose (6_Performance/transpose): 2048 x 2048 floats, TILE_DIM x BLOCK_ROWS threads.
void bench_transpose(const char* name, bool no_bank_conflicts) {
  if (!selected(name)) return;
  const int n = opt.small ? 64 : 2048;
  const auto in = random_floats(std::size_t(n) * n, 0, 1);
  device_buffer<float> dIn(in.size()), dOut(in.size());
  dIn.upload(in);
  const dim3 grid(n / TILE_DIM, n / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  double ms = -1;
  if (no_bank_conflicts)
    ms = best_ms(name, [&] { transposeNoBankConflicts<<<grid, threads>>>(dOut.p, dIn.p, n, n); });
  else
    ms = best_ms(name, [&] { transposeCoalesced<<<grid, threads>>>(dOut.p, dIn.p, n, n); });
  const auto out = dOut.download();
  bool good = true;
  for (int y = 0; y < n && good; ++y)
    for (int x = 0; x < n && good; ++x) good = out[std::size_t(x) * n + y] == in[std::size_t(y) * n + x];
  report(name, ms, good);
}

// reduction (2_Concepts_and_Techniques/reduction): 2^24 ints (rand() & 0xFF as the sample),
// the sample's defaults: 256 threads, 64 blocks at most for reduce6; one pass timed, the partial
// sums added here.
unsigned next_pow2(unsigned x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

void reduction_shape(int kernel, int n, int& blocks, int& threads) {
  const int max_threads = 256, max_blocks = 64;
  if (kernel < 3) {
    threads = (n < max_threads) ? int(next_pow2(n)) : max_threads;
    blocks = (n + threads - 1) / threads;
  } else {
    threads = (n < max_threads * 2) ? int(next_pow2((n + 1) / 2)) : max_threads;
    blocks = (n + (threads * 2 - 1)) / (threads * 2);
  }
  if (kernel >= 6) blocks = std::min(max_blocks, blocks);
}

void bench_reduction() {
  const int n = opt.small ? 1 << 12 : 1 << 24;
  std::vector<int> in;
  long long want = 0;
  for (int k = 0; k <= 6; ++k) {
    const std::string name = "reduce" + std::to_string(k);
    if (!selected(name)) continue;
    if (in.empty()) {
      in.resize(n);
      for (auto& x : in) x = int(rng() & 0xFF);
      for (int x : in) want += x;
    }
    int blocks = 0, threads = 0;
    reduction_shape(k, n, blocks, threads);
    if (threads != 256) {
      std::fprintf(stderr, "raw_benchmark: %s: %d threads, the benchmark has 256\n", name.c_str(), threads);
      report(name, -1, false);
      continue;
    }
    device_buffer<int> dIn(n), dOut(blocks);
    dIn.upload(in);
    const int smem = threads * int(sizeof(int));
    const bool pow2 = (unsigned(n) & (unsigned(n) - 1)) == 0;
    const unsigned size = unsigned(n);
    int* i = dIn.p;
    int* o = dOut.p;
    std::function<void()> launch;
    switch (k) {
      case 0: launch = [&] { reduce0<int><<<blocks, threads, smem>>>(i, o, size); }; break;
      case 1: launch = [&] { reduce1<int><<<blocks, threads, smem>>>(i, o, size); }; break;
      case 2: launch = [&] { reduce2<int><<<blocks, threads, smem>>>(i, o, size); }; break;
      case 3: launch = [&] { reduce3<int><<<blocks, threads, smem>>>(i, o, size); }; break;
      case 4: launch = [&] { reduce4<int, 256><<<blocks, threads, smem>>>(i, o, size); }; break;
      case 5: launch = [&] { reduce5<int, 256><<<blocks, threads, smem>>>(i, o, size); }; break;
      default:
        if (pow2)
          launch = [&] { reduce6<int, 256, true><<<blocks, threads, smem>>>(i, o, size); };
        else
          launch = [&] { reduce6<int, 256, false><<<blocks, threads, smem>>>(i, o, size); };
    }
    const double ms = best_ms(name.c_str(), launch);
    long long got = 0;
    for (int x : dOut.download()) got += x;
    if (got != want) std::fprintf(stderr, "raw_benchmark: %s: sum %lld, expected %lld\n", name.c_str(), got, want);
    report(name, ms, got == want);
  }
}

// histogram (2_Concepts_and_Techniques/histogram): 2^24 random bytes; each histogram kernel
// with its merge kernel, launched as histogram64() and histogram256() launch them.
uint div_up(uint a, uint b) { return (a % b != 0) ? (a / b + 1) : (a / b); }

void bench_histogram(int bins) {
  const std::string name = "histogram" + std::to_string(bins);
  if (!selected(name)) return;
  const uint bytes = opt.small ? 1u << 12 : 1u << 24;
  std::vector<uchar> data(bytes);
  for (auto& b : data) b = uchar(rng() & 0xFF);
  device_buffer<uchar> dData(bytes);
  dData.upload(data);
  device_buffer<uint> dHist(bins);
  std::vector<uint> want(bins, 0);
  for (uchar b : data) ++want[bins == 64 ? (b >> 2) : b];
  double ms = -1;
  if (bins == 64) {
    const uint count = div_up(bytes, HISTOGRAM64_THREADBLOCK_SIZE * (255 - 255 % sizeof(data_t)));
    device_buffer<uint> partial(std::size_t(count) * HISTOGRAM64_BIN_COUNT);
    ms = best_ms(name.c_str(), [&] {
      histogram64Kernel<<<count, HISTOGRAM64_THREADBLOCK_SIZE>>>(partial.p, (data_t*)dData.p, bytes / sizeof(data_t));
      mergeHistogram64Kernel<<<HISTOGRAM64_BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(dHist.p, partial.p, count);
    });
  } else {
    const uint count = 240;  // histogram256.cu's PARTIAL_HISTOGRAM256_COUNT
    device_buffer<uint> partial(std::size_t(count) * HISTOGRAM256_BIN_COUNT);
    ms = best_ms(name.c_str(), [&] {
      histogram256Kernel<<<count, HISTOGRAM256_THREADBLOCK_SIZE>>>(partial.p, (uint*)dData.p, bytes / sizeof(uint));
      mergeHistogram256Kernel<<<HISTOGRAM256_BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(dHist.p, partial.p, count);
    });
  }
  report(name, ms, dHist.download() == want);
}

// scan (2_Concepts_and_Techniques/scan): 2^22 uints (rand() % 16 ... here & 0xF), exclusive
// scans of arrays of 1,024 (scanExclusiveShort: scanExclusiveShared) and of 262,144
// (scanExclusiveLarge: scanExclusiveShared, scanExclusiveShared2, uniformUpdate).
void bench_scan(bool large) {
  const char* name = large ? "scanLarge" : "scanShort";
  if (!selected(name)) return;
  const uint n = opt.small ? 1u << 13 : 1u << 22;
  const uint length = large ? (opt.small ? 8 * THREADBLOCK_SIZE : 4 * THREADBLOCK_SIZE * THREADBLOCK_SIZE)
                            : 4 * THREADBLOCK_SIZE;
  std::vector<uint> in(n);
  for (auto& x : in) x = uint(rng() & 0xF);
  device_buffer<uint> dIn(n), dOut(n), dBuf(n / (4 * THREADBLOCK_SIZE));
  dIn.upload(in);
  const uint blocks = n / (4 * THREADBLOCK_SIZE);
  double ms = -1;
  if (!large) {
    ms = best_ms(name, [&] {
      scanExclusiveShared<<<blocks, THREADBLOCK_SIZE>>>((uint4*)dOut.p, (uint4*)dIn.p, length);
    });
  } else {
    const uint blocks2 = div_up(blocks, THREADBLOCK_SIZE);
    ms = best_ms(name, [&] {
      scanExclusiveShared<<<blocks, THREADBLOCK_SIZE>>>((uint4*)dOut.p, (uint4*)dIn.p, 4 * THREADBLOCK_SIZE);
      scanExclusiveShared2<<<blocks2, THREADBLOCK_SIZE>>>(dBuf.p, dOut.p, dIn.p, blocks, length / (4 * THREADBLOCK_SIZE));
      uniformUpdate<<<blocks, THREADBLOCK_SIZE>>>((uint4*)dOut.p, dBuf.p);
    });
  }
  const auto out = dOut.download();
  bool good = true;
  for (uint a = 0; a < n / length && good; ++a) {
    uint sum = 0;
    for (uint i = 0; i < length && good; ++i) {
      good = out[a * length + i] == sum;
      sum += in[a * length + i];
    }
  }
  report(name, ms, good);
}

// BlackScholes (5_Domain_Specific/BlackScholes): 4,000,000 options, 128 threads a block.
double normal_cdf(double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); }

void bench_black_scholes() {
  if (!selected("BlackScholes")) return;
  const int opt_n = opt.small ? 4096 : 4000000;
  const float riskfree = 0.02f, volatility = 0.30f;
  const auto s = random_floats(opt_n, 5.0f, 30.0f), x = random_floats(opt_n, 1.0f, 100.0f),
             t = random_floats(opt_n, 0.25f, 10.0f);
  device_buffer<float> dCall(opt_n), dPut(opt_n), dS(opt_n), dX(opt_n), dT(opt_n);
  dS.upload(s);
  dX.upload(x);
  dT.upload(t);
  const int blocks = (opt_n / 2 + 127) / 128;
  const double ms = best_ms("BlackScholes", [&] {
    BlackScholesGPU<<<blocks, 128>>>((float2*)dCall.p, (float2*)dPut.p, (float2*)dS.p, (float2*)dX.p, (float2*)dT.p,
                                     riskfree, volatility, opt_n);
  });
  const auto call = dCall.download(), put = dPut.download();
  double delta = 0, ref = 0, max_put = 0;
  for (int i = 0; i < opt_n; ++i) {
    const double S = s[i], X = x[i], T = t[i], R = riskfree, V = volatility;
    const double d1 = (std::log(S / X) + (R + 0.5 * V * V) * T) / (V * std::sqrt(T)), d2 = d1 - V * std::sqrt(T);
    const double e = std::exp(-R * T);
    const double c = S * normal_cdf(d1) - X * e * normal_cdf(d2), p = X * e * normal_cdf(-d2) - S * normal_cdf(-d1);
    delta += std::fabs(c - call[i]);
    ref += std::fabs(c);
    max_put = std::max(max_put, std::fabs(p - put[i]));
  }
  // The sample's test: the L1 norm of the call prices' error relative to theirs under 1e-6 (its
  // CPU reference is the same polynomial; the exact normal distribution here differs from it by
  // up to 7.5e-8, so the bound here is 1e-5), and the put prices within 1e-3.
  const bool good = ref > 0 && delta / ref < 1e-5 && max_put < 1e-3;
  if (!good) std::fprintf(stderr, "raw_benchmark: BlackScholes: L1 %g, put error %g\n", delta / ref, max_put);
  report("BlackScholes", ms, good);
}

// convolutionSeparable (2_Concepts_and_Techniques/convolutionSeparable): 3072 x 3072 floats,
// a 17-tap kernel in __constant__ memory, rows then columns.
void bench_convolution() {
  const bool rows = selected("convolutionRows"), columns = selected("convolutionColumns");
  if (!rows && !columns) return;
  const int w = opt.small ? 128 : 3072, h = w;
  std::vector<float> kernel(KERNEL_LENGTH);
  for (auto& k : kernel) k = float(rng() % 16);
  const auto in = random_floats(std::size_t(w) * h, 0, 16);
  if (!ok(cudaMemcpyToSymbol(c_Kernel, kernel.data(), KERNEL_LENGTH * sizeof(float)), "cudaMemcpyToSymbol")) return;
  device_buffer<float> dIn(in.size()), dBuf(in.size()), dOut(in.size());
  dIn.upload(in);
  std::vector<float> row_ref(in.size()), col_ref(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
        if (x + k >= 0 && x + k < w) s += double(in[std::size_t(y) * w + x + k]) * kernel[KERNEL_RADIUS - k];
      row_ref[std::size_t(y) * w + x] = float(s);
    }
  auto l2_ok = [](const std::vector<float>& got, const std::vector<float>& want, const char* what) {
    double delta = 0, sum = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      delta += (double(got[i]) - want[i]) * (double(got[i]) - want[i]);
      sum += double(want[i]) * want[i];
    }
    const bool good = sum > 0 && std::sqrt(delta / sum) < 1e-6;  // the sample's bound
    if (!good) std::fprintf(stderr, "raw_benchmark: %s: relative L2 norm %g\n", what, std::sqrt(delta / sum));
    return good;
  };
  const dim3 row_blocks(w / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), h / ROWS_BLOCKDIM_Y),
      row_threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
  const dim3 col_blocks(w / COLUMNS_BLOCKDIM_X, h / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)),
      col_threads(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y);
  const double row_ms =
      best_ms("convolutionRows", [&] { convolutionRowsKernel<<<row_blocks, row_threads>>>(dBuf.p, dIn.p, w, h, w); });
  const bool row_good = l2_ok(dBuf.download(), row_ref, "convolutionRows");
  if (rows) report("convolutionRows", row_ms, row_good);
  if (!columns) return;
  // The columns pass reads the rows pass's output, as in the sample.
  const auto mid = dBuf.download();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
        if (y + k >= 0 && y + k < h) s += double(mid[std::size_t(y + k) * w + x]) * kernel[KERNEL_RADIUS - k];
      col_ref[std::size_t(y) * w + x] = float(s);
    }
  const double col_ms = best_ms("convolutionColumns", [&] {
    convolutionColumnsKernel<<<col_blocks, col_threads>>>(dOut.p, dBuf.p, w, h, w);
  });
  report("convolutionColumns", col_ms, l2_ok(dOut.download(), col_ref, "convolutionColumns"));
}

int usage() {
  std::fprintf(stderr, "usage: raw_benchmark [--reps N] [--only a,b] [--small] [--list]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      opt.reps = std::atoi(argv[++i]);
      if (opt.reps < 1) return usage();
    } else if (a == "--only" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) opt.only.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (a == "--small") {
      opt.small = true;
    } else if (a == "--list") {
      opt.list = true;
    } else {
      return usage();
    }
  }
  bench_vector_add();
  bench_matrix_mul<16>("matrixMul16");
  bench_matrix_mul<32>("matrixMul32");
  bench_transpose("transposeCoalesced", false);
  bench_transpose("transposeNoBankConflicts", true);
  bench_reduction();
  bench_histogram(64);
  bench_histogram(256);
  bench_scan(false);
  bench_scan(true);
  bench_black_scholes();
  bench_convolution();
  return failures == 0 ? 0 : 1;
}
