// SPDX-License-Identifier: MIT
// cusim's benchmark suite: each kernel against a plain serial C++ loop doing the same work in the
// same process, with one and with two workers (or the counts given), every result verified;
// then launch overhead and memory over many launches and over a huge grid. Not a test. When
// hip_cpu_benchmark lies beside it (built when ../shared/anchors/hip-cpu is there), or --hip names
// it, the same kernels on AMD HIP-CPU run in the same run, and each line adds HIP-CPU's time, its
// ratio and cusim/HIP-CPU (cusim's time with the last worker count; HIP-CPU uses every core).
//
//   cusim_benchmark [--reps N] [--workers 1,2] [--csv FILE] [--quick] [--hip FILE | --no-hip]
//
// The default checks stay on in every figure (bounds, barrier divergence, deadlock); CUSIM_CHECK
// in the environment adds the opt-in checkers. tools/plot_benchmark.py draws the CSV.
#include <cusim/cusim.hpp>

#include "benchmark_reference.hpp"
#include "histogram_kernel.hpp"
#include "matmul_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using bench::BIG;
using bench::BIG_ROUNDS;
using bench::RED;
using bench::ST;

__global__ void vector_add(cusim::span<float> c, cusim::span<const float> a, cusim::span<const float> b) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(c.size())) c[i] = a[i] + b[i];
}

__global__ void block_reduce(cusim::span<const float> in, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, RED> s;
  const unsigned t = threadIdx.x;
  s[t] = in[cusim::grid<1>()];
  __syncthreads();
  for (unsigned stride = RED / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

// block_reduce as a compiler that runs the code between two barriers as a loop over the
// block's threads would emit it (issue 15's item 4, done by hand): one CUDA thread a block runs
// each phase for all 256, with the same checked accesses in the same order. What that
// transformation would be worth: it is not what cusim does with block_reduce.
__global__ void block_reduce_phases(cusim::span<const float> in, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, RED> s;
  const unsigned base = blockIdx.x * RED;
  for (unsigned t = 0; t < RED; ++t) s[t] = in[base + t];
  for (unsigned stride = RED / 2; stride > 0; stride >>= 1)
    for (unsigned t = 0; t < stride; ++t) s[t] += s[t + stride];
  partial[blockIdx.x] = s[0];
}

__global__ void warp_shuffle_reduce(cusim::span<const float> in, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, RED / 32> warp_sums;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[cusim::grid<1>()];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < RED / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}

// 5-point stencil on an n x n grid (zero outside), each block staging its tile and halo in
// shared memory.
__global__ void stencil(cusim::mdspan<const float, 2> in, cusim::mdspan<float, 2> out) {
  __shared__ cusim::shared_array<float, ST + 2, ST + 2> tile;
  const int n = static_cast<int>(in.extent(0));
  auto [x, y] = cusim::grid<2>();
  const int tx = static_cast<int>(threadIdx.x) + 1, ty = static_cast<int>(threadIdx.y) + 1;
  auto at = [&](int i, int j) { return i >= 0 && i < n && j >= 0 && j < n ? in(i, j) : 0.0f; };
  tile(tx, ty) = at(x, y);
  if (tx == 1) tile(0, ty) = at(x - 1, y);
  if (tx == ST) tile(ST + 1, ty) = at(x + 1, y);
  if (ty == 1) tile(tx, 0) = at(x, y - 1);
  if (ty == ST) tile(tx, ST + 1) = at(x, y + 1);
  __syncthreads();
  out(x, y) = 0.2f * (tile(tx, ty) + tile(tx - 1, ty) + tile(tx + 1, ty) + tile(tx, ty - 1) + tile(tx, ty + 1));
}

// 1024-thread blocks: each round every thread publishes its value and averages it with its
// neighbour's, two __syncthreads per round.
__global__ void barrier_heavy(cusim::span<const float> in, cusim::span<float> out) {
  __shared__ cusim::shared_array<float, BIG> s;
  const unsigned t = threadIdx.x;
  float v = in[cusim::grid<1>()];
  for (int r = 0; r < BIG_ROUNDS; ++r) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) % BIG]);
    __syncthreads();
  }
  out[cusim::grid<1>()] = v;
}

__global__ void empty_kernel() {}

__global__ void big_grid(cusim::span<unsigned> per_block) {
  __shared__ cusim::shared_array<unsigned, 1> first;
  if (threadIdx.x == 0) first[0] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) per_block[blockIdx.x] = first[0];
}

// ---------------------------------------------------------------------------------------------

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double best_seconds(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) best = std::min(best, seconds_of(f));
  return best;
}

/// Resident memory of this process in MiB (VmRSS).
double rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  return 0;
}

void set_workers(unsigned n) { setenv("CUSIM_WORKERS", std::to_string(n).c_str(), 1); }

struct kernel_case {
  std::string name;
  std::function<void()> serial;  // the plain C++ loop, writing the reference result
  std::function<void()> sim;     // the launch
  std::function<bool()> verify;  // the launch's result against the reference
  std::string hip_name = {};      // HIP-CPU's row to compare with, when not `name`
};

struct options {
  int reps = 3;
  std::vector<unsigned> workers{1, 2};
  std::string csv;
  bool quick = false;  // smaller sizes, for a smoke run
  std::string hip;     // hip_cpu_benchmark ("": beside this program, if there; "-": none)
  std::vector<std::string> only;  // --only: kernels whose name contains one of these ("launch": the launch figures)
  bool runs(const std::string& name) const {
    if (only.empty()) return true;
    for (const std::string& part : only)
      if (name.find(part) != std::string::npos) return true;
    return false;
  }
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cusim_benchmark: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--reps") {
      o.reps = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--workers") {
      o.workers.clear();
      std::stringstream list(value());
      for (std::string w; std::getline(list, w, ',');) o.workers.push_back(static_cast<unsigned>(std::max(1, std::atoi(w.c_str()))));
    } else if (a == "--csv") {
      o.csv = value();
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--hip") {
      o.hip = value();
    } else if (a == "--no-hip") {
      o.hip = "-";
    } else if (a == "--only") {
      std::stringstream list(value());
      for (std::string part; std::getline(list, part, ',');) o.only.push_back(part);
    } else {
      std::fprintf(stderr, "usage: cusim_benchmark [--reps N] [--workers 1,2] [--csv FILE] [--quick] [--hip FILE | --no-hip]"
                           " [--only NAME,...]\n");
      std::exit(2);
    }
  }
  return o;
}

/// HIP-CPU's time (ms) per kernel name, from hip_cpu_benchmark's lines; empty when there is none
/// (a kernel it got wrong is left out).
std::map<std::string, double> hip_cpu_times(const options& o, const char* argv0) {
  std::string program = o.hip;
  if (program == "-") return {};
  if (program.empty()) {
    const std::string self = argv0;
    const std::size_t slash = self.rfind('/');
    program = (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/hip_cpu_benchmark";
    if (std::FILE* f = std::fopen(program.c_str(), "r")) std::fclose(f);
    else return {};
  }
  const std::string cmd = program + " --reps " + std::to_string(o.reps) + (o.quick ? " --quick" : "");
  std::map<std::string, double> times;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return times;
  char line[256];
  while (std::fgets(line, sizeof line, p) != nullptr) {
    std::stringstream fields(line);
    std::string name, ms, verdict;
    if (std::getline(fields, name, '\t') && std::getline(fields, ms, '\t') && std::getline(fields, verdict) &&
        verdict.rfind("verified", 0) == 0)
      times[name] = std::strtod(ms.c_str(), nullptr);
  }
  if (pclose(p) != 0) std::fprintf(stderr, "cusim_benchmark: %s failed or got a kernel wrong\n", cmd.c_str());
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  const options opt = parse(argc, argv);
  const int shift = opt.quick ? 4 : 0;  // --quick: 16x fewer elements
  std::vector<kernel_case> cases;

  // vector add, 2^24 floats, block 256
  const int nv = bench::vector_size(shift);
  std::vector<float> va(nv), vb(nv), vref(nv);
  bench::vector_inputs(va, vb);
  auto dva = cusim::to_device(va), dvb = cusim::to_device(vb);
  cusim::device_array<float> dvc(nv);
  cases.push_back({"vector add 2^24", [&] { bench::vector_add(va, vb, vref); },
                   [&] { cusim::launch<vector_add>(nv / 256, 256, dvc, dva, dvb); },
                   [&] { return dvc.copy_to_host() == vref; }});
  // The same launch spelled as the README spells it: cusim_add_executable's copy of this file
  // spells it launch<vector_add> in an optimised build (docs/api.md, "Launch spellings").
  cases.push_back({"vector add 2^24 (by name)", [&] { bench::vector_add(va, vb, vref); },
                   [&] { cusim::launch(vector_add, nv / 256, 256, dvc, dva, dvb); },
                   [&] { return dvc.copy_to_host() == vref; }, "vector add 2^24"});
  // And through a variable, which no build-time copy can resolve: the kernel is called through its
  // address for every thread.
  void (*vector_add_pointer)(cusim::span<float>, cusim::span<const float>, cusim::span<const float>) =
      vector_add;
  cases.push_back({"vector add 2^24 (pointer)", [&] { bench::vector_add(va, vb, vref); },
                   [&] { cusim::launch(vector_add_pointer, nv / 256, 256, dvc, dva, dvb); },
                   [&] { return dvc.copy_to_host() == vref; }, "vector add 2^24"});

  // matmul 512 (naive and 16x16 tiled)
  const int n = bench::matrix_side(shift);
  std::vector<float> ma(n * n), mb(n * n), mref(n * n);
  bench::matrix_inputs(ma, mb);
  auto dA = cusim::to_device(ma, n, n), dB = cusim::to_device(mb, n, n);
  cusim::device_array<float, 2> dC(n, n);
  auto serial_matmul = [&] { bench::matmul(n, ma, mb, mref); };
  cases.push_back({"naive matmul 512", serial_matmul,
                   [&] { cusim::launch<matmul_naive>(dim3(n / 16, n / 16), dim3(16, 16), dA, dB, dC); },
                   [&] { return bench::close_enough(dC.copy_to_host(), mref); }});
  cases.push_back({"tiled matmul 512", serial_matmul,
                   [&] { cusim::launch<matmul_tiled>(dim3(n / TPB, n / TPB), dim3(TPB, TPB), dA, dB, dC); },
                   [&] { return bench::close_enough(dC.copy_to_host(), mref); }});

  // reductions, 2^24 floats, block 256: one partial sum per block
  const int nr = bench::reduction_size(shift);
  const std::vector<float> rx = bench::reduction_input(nr);
  std::vector<float> rref(nr / RED);
  auto drx = cusim::to_device(rx);
  cusim::device_array<float> dpartial(nr / RED);
  auto serial_sums = [&] { bench::block_sums(rx, rref); };
  cases.push_back({"block reduction 2^24", serial_sums,
                   [&] { cusim::launch<block_reduce>(nr / RED, RED, drx, dpartial); },
                   [&] { return dpartial.copy_to_host() == rref; }});  // small integers: exact
  cases.push_back({"block reduction (loops by hand)", serial_sums,
                   [&] { cusim::launch<block_reduce_phases>(nr / RED, 1, drx, dpartial); },
                   [&] { return dpartial.copy_to_host() == rref; }});
  cases.push_back({"warp-shuffle reduce 2^24", serial_sums,
                   [&] { cusim::launch<warp_shuffle_reduce>(nr / RED, RED, drx, dpartial); },
                   [&] { return dpartial.copy_to_host() == rref; }});

  // 2-D 5-point stencil 512^2, 16x16 tiles with a shared halo
  const std::vector<float> sgrid = bench::stencil_input(n);
  std::vector<float> sref(n * n);
  auto dsin = cusim::to_device(sgrid, n, n);
  cusim::device_array<float, 2> dsout(n, n);
  cases.push_back({"2-D stencil 512^2", [&] { bench::stencil(n, sgrid, sref); },
                   [&] { cusim::launch<stencil>(dim3(n / ST, n / ST), dim3(ST, ST), dsin, dsout); },
                   [&] { return dsout.copy_to_host() == sref; }});

  // atomic histogram, 2^24 bytes, 256 bins: shared-memory counts, then one global atomic per bin
  static_assert(bins == bench::BINS);
  const std::vector<std::uint8_t> hdata = bench::histogram_input(bench::histogram_size(shift));
  std::vector<unsigned> href(bins);
  auto dhdata = cusim::to_device(hdata);
  cusim::device_array<unsigned> dcounts(bins);
  cases.push_back({"atomic histogram 2^24", [&] { bench::histogram(hdata, href); },
                   [&] {
                     dcounts.copy_from_host(std::vector<unsigned>(bins, 0u));
                     cusim::launch<histogram>(256, RED, dhdata, dcounts);
                   },
                   [&] { return dcounts.copy_to_host() == href; }});

  // 1024-thread blocks, 64 __syncthreads each
  const int nb = bench::barrier_blocks(shift);
  const std::vector<float> bin = bench::barrier_input(nb);
  std::vector<float> bref(nb * BIG);
  auto dbin = cusim::to_device(bin);
  cusim::device_array<float> dbout(nb * BIG);
  cases.push_back({"1024-thread barriers", [&] { bench::barrier_rounds(bin, bref); },
                   [&] { cusim::launch<barrier_heavy>(nb, BIG, dbin, dbout); },
                   [&] { return dbout.copy_to_host() == bref; }});

  // ---- run ----
  const std::map<std::string, double> hip = hip_cpu_times(opt, argv[0]);
  const char* check = std::getenv("CUSIM_CHECK");
  std::printf("cusim benchmark: best of %d; default checks on (bounds, barrier divergence, deadlock)%s%s%s\n",
              opt.reps, check ? "; CUSIM_CHECK=" : "", check ? check : "", opt.quick ? "; --quick sizes" : "");
  std::printf("%-31s %10s", "kernel", "serial ms");
  for (unsigned w : opt.workers) std::printf("  %7s %2u %6s", "cusim ms", w, "ratio");
  if (opt.workers.size() >= 2) std::printf("  %8s", "speed-up");
  if (!hip.empty()) std::printf("  %10s %6s %10s", "HIP-CPU ms", "ratio", "cusim/HIP");
  std::printf("  result\n");

  std::ostringstream csv;
  csv << "kernel,serial_ms";
  for (unsigned w : opt.workers) csv << ",cusim_ms_" << w << ",ratio_" << w;
  if (!hip.empty()) csv << ",hip_cpu_ms,hip_cpu_ratio,cusim_over_hip_cpu";
  csv << ",verified\n";
  bool all_ok = true;
  for (const kernel_case& c : cases) {
    if (!opt.runs(c.name)) continue;
    const double serial = best_seconds(opt.reps, c.serial);
    std::vector<double> sim;
    bool ok = true;
    for (unsigned w : opt.workers) {
      set_workers(w);
      sim.push_back(best_seconds(opt.reps, c.sim));
      ok = ok && c.verify();
    }
    all_ok = all_ok && ok;
    std::printf("%-31s %10.2f", c.name.c_str(), serial * 1e3);
    csv << c.name << ',' << serial * 1e3;
    for (double s : sim) {
      std::printf("  %10.2f %6.2f", s * 1e3, s / serial);
      csv << ',' << s * 1e3 << ',' << s / serial;
    }
    if (sim.size() >= 2) std::printf("  %7.2fx", sim.front() / sim.back());
    if (!hip.empty()) {
      const auto h = hip.find(c.hip_name.empty() ? c.name : c.hip_name);
      if (h == hip.end()) {
        std::printf("  %10s %6s %10s", "-", "-", "-");
        csv << ",,,";
      } else {
        const double hip_s = h->second / 1e3;
        std::printf("  %10.2f %6.2f %10.2f", h->second, hip_s / serial, sim.back() / hip_s);
        csv << ',' << h->second << ',' << hip_s / serial << ',' << sim.back() / hip_s;
      }
    }
    std::printf("  %s\n", ok ? "verified" : "WRONG");
    csv << ',' << (ok ? "yes" : "no") << '\n';
  }

  // ---- launch overhead and memory ----
  if (!opt.runs("launch")) return all_ok ? 0 : 1;
  const int launches = opt.quick ? 10000 : 100000;
  set_workers(opt.workers.back());
  cusim::launch<empty_kernel>(1, 1);
  const double rss0 = rss_mib();
  const double launch_s = seconds_of([&] {
    for (int i = 0; i < launches; ++i) cusim::launch<empty_kernel>(1, 1);
  });
  const double rss1 = rss_mib();
  std::printf("\nempty kernel launch: %.2f us per launch over %d launches; RSS %.1f -> %.1f MiB\n",
              launch_s * 1e6 / launches, launches, rss0, rss1);

  const unsigned grid_blocks = opt.quick ? 4096 : 65535;
  cusim::device_array<unsigned> dper(grid_blocks);
  const double rss2 = rss_mib();
  const double grid_s = seconds_of([&] { cusim::launch<big_grid>(grid_blocks, 1024, dper); });
  const double rss3 = rss_mib();
  const double grid_again_s = seconds_of([&] { cusim::launch<big_grid>(grid_blocks, 1024, dper); });
  const double rss4 = rss_mib();
  const std::vector<unsigned> per = dper.copy_to_host();
  bool grid_ok = true;
  for (unsigned b = 0; b < grid_blocks; ++b) grid_ok = grid_ok && per[b] == b;
  all_ok = all_ok && grid_ok;
  std::printf("grid of %u blocks x 1024 threads (a barrier each): %.2f s, again %.2f s; RSS %.1f -> %.1f -> %.1f MiB"
              " (%s)\n",
              grid_blocks, grid_s, grid_again_s, rss2, rss3, rss4, grid_ok ? "verified" : "WRONG");

  csv << "empty launch us," << launch_s * 1e6 / launches << "\n";
  csv << "rss over launches MiB," << rss0 << ',' << rss1 << "\n";
  csv << "rss over big grid MiB," << rss2 << ',' << rss3 << ',' << rss4 << "\n";
  if (!opt.csv.empty()) {
    std::ofstream(opt.csv) << csv.str();
    std::printf("wrote %s\n", opt.csv.c_str());
  }
  return all_ok ? 0 : 1;
}
