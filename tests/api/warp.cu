// SPDX-License-Identifier: MIT
// Warp primitives: shuffles with every width, votes, match, reductions, __activemask, partial
// masks, warps spanning rows of a 2-D block, and every misuse with its exact message.
#include "test_support.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr unsigned full = 0xffffffffu;

enum shuffle_kind : int { idx, up, down, bxor };

// Reference for one lane, written from the CUDA Programming Guide's description (not from the
// simulator's PTX-style formulation).
int reference_source(shuffle_kind kind, int lane, int arg, int width) {
  const int group = lane / width * width;
  switch (kind) {
    case idx: return group + ((arg % width) + width) % width;
    case up: return lane % width >= arg ? lane - arg : lane;
    case down: return lane % width + arg < width ? lane + arg : lane;
    case bxor: {
      const int src = lane ^ arg;
      return src >= group + width ? lane : src;  // later groups give the caller's own value
    }
  }
  return lane;
}

template <class T>
__device__ T shuffle(shuffle_kind kind, T v, int arg, int width) {
  switch (kind) {
    case idx: return __shfl_sync(full, v, arg, width);
    case up: return __shfl_up_sync(full, v, static_cast<unsigned>(arg), width);
    case down: return __shfl_down_sync(full, v, static_cast<unsigned>(arg), width);
    default: return __shfl_xor_sync(full, v, arg, width);
  }
}

template <class T>
__global__ void shuffle_kernel(cusim::span<T> out, int kind, int arg, int width) {
  const int t = cusim::grid<1>();
  const T mine = static_cast<T>(t * 3 + 1) / static_cast<T>(2);
  out[t] = shuffle(static_cast<shuffle_kind>(kind), mine, arg, width);
}

template <class T>
void check_shuffles(int threads) {
  cusim::device_array<T> out(static_cast<std::size_t>(threads));
  for (int kind : {idx, up, down, bxor})
    for (int width : {32, 16, 8, 4, 2, 1})
      for (int arg : {0, 1, 3, 5, 16, 31}) {
        CAPTURE(kind);
        CAPTURE(width);
        CAPTURE(arg);
        cusim::launch(shuffle_kernel<T>, 1, threads, out, kind, arg, width);
        const std::vector<T> r = out.copy_to_host();
        for (int t = 0; t < threads; ++t) {
          const int src = t / 32 * 32 + reference_source(static_cast<shuffle_kind>(kind), t % 32, arg, width);
          CHECK(r[t] == static_cast<T>(src * 3 + 1) / static_cast<T>(2));
        }
      }
}

}  // namespace

TEST_CASE("shuffles follow CUDA's lane and width rules for int, float, double and long long") {
  check_shuffles<int>(64);
  check_shuffles<float>(32);
  check_shuffles<double>(32);
  check_shuffles<long long>(32);
}

__global__ void partial_mask_kernel(cusim::span<int> out) {
  const unsigned lane = cusim::lane_id();
  const int v = static_cast<int>(lane) * 10;
  if (lane < 16) {
    out[lane] = __shfl_down_sync(0x0000ffffu, v, 4, 16);  // lanes 12..15 keep their own value
  } else {
    out[lane] = static_cast<int>(__ballot_sync(0xffff0000u, lane % 3 == 0));
  }
}

TEST_CASE("two halves of a warp use disjoint masks at different collectives") {
  cusim::device_array<int> out(32);
  cusim::launch(partial_mask_kernel, 1, 32, out);
  const std::vector<int> r = out.copy_to_host();
  unsigned ballot = 0;
  for (unsigned lane = 16; lane < 32; ++lane) ballot |= (lane % 3 == 0 ? 1u : 0u) << lane;
  for (int lane = 0; lane < 16; ++lane) CHECK(r[lane] == (lane + 4 < 16 ? lane + 4 : lane) * 10);
  for (int lane = 16; lane < 32; ++lane) CHECK(static_cast<unsigned>(r[lane]) == ballot);
}

__global__ void rows_kernel(cusim::span<int> out) {
  // Block (8, 8): warp 0 holds rows 0..3, warp 1 rows 4..7; lane ^ 8 is the neighbouring row.
  const int v = static_cast<int>(threadIdx.y * 100 + threadIdx.x);
  const int t = static_cast<int>(threadIdx.y * 8 + threadIdx.x);
  out[t] = __shfl_xor_sync(full, v, 8);
  out[64 + t] = static_cast<int>(cusim::lane_id() + 32 * cusim::warp_id());
}

TEST_CASE("in a 2-D block warps span rows, x fastest") {
  cusim::device_array<int> out(128);
  cusim::launch(rows_kernel, 1, dim3(8, 8), out);
  const std::vector<int> r = out.copy_to_host();
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      CHECK(r[y * 8 + x] == (y ^ 1) * 100 + x);
      CHECK(r[64 + y * 8 + x] == y * 8 + x);
    }
}

__global__ void vote_kernel(cusim::span<unsigned> out) {
  const unsigned lane = cusim::lane_id();
  const unsigned w = cusim::warp_id();
  const bool odd = lane % 2 == 1;
  out[w * 8 + 0] = __ballot_sync(full, odd);
  out[w * 8 + 1] = static_cast<unsigned>(__all_sync(full, lane < 32));
  out[w * 8 + 2] = static_cast<unsigned>(__all_sync(full, lane != 7));
  out[w * 8 + 3] = static_cast<unsigned>(__any_sync(full, lane == 31));
  out[w * 8 + 4] = static_cast<unsigned>(__any_sync(full, lane > 40));
  if (lane < 8) {  // a partial mask: votes see only its lanes
    out[w * 8 + 5] = __ballot_sync(0xffu, odd);
    out[w * 8 + 6] = static_cast<unsigned>(__all_sync(0xffu, lane < 8));
  }
  out[w * 8 + 7] = static_cast<unsigned>(__popc(__ballot_sync(full, 1) & cusim::lanemask_lt())) == lane ? 1u : 0u;
}

TEST_CASE("ballot, all and any over full and partial masks") {
  cusim::device_array<unsigned> out(16);
  cusim::launch(vote_kernel, 1, 64, out);
  const std::vector<unsigned> r = out.copy_to_host();
  for (int w = 0; w < 2; ++w) {
    CHECK(r[w * 8 + 0] == 0xaaaaaaaau);
    CHECK(r[w * 8 + 1] == 1u);
    CHECK(r[w * 8 + 2] == 0u);
    CHECK(r[w * 8 + 3] == 1u);
    CHECK(r[w * 8 + 4] == 0u);
    CHECK(r[w * 8 + 5] == 0xaau);
    CHECK(r[w * 8 + 6] == 1u);
    CHECK(r[w * 8 + 7] == 1u);
  }
}

__global__ void match_reduce_kernel(cusim::span<unsigned> out) {
  const unsigned lane = cusim::lane_id();
  out[lane] = __match_any_sync(full, lane / 8);          // lanes in groups of 8
  out[32 + lane] = __match_any_sync(full, static_cast<long long>(lane % 2) << 40);
  int pred = -1;
  out[64] = __match_all_sync(full, 42, &pred);
  out[65] = static_cast<unsigned>(pred);
  out[66] = __match_all_sync(full, lane == 3 ? 1.0f : 2.0f, &pred);
  out[67] = static_cast<unsigned>(pred);
  out[68] = __reduce_add_sync(full, lane);
  out[69] = static_cast<unsigned>(__reduce_min_sync(full, static_cast<int>(lane) - 5));
  out[70] = static_cast<unsigned>(__reduce_max_sync(full, static_cast<int>(lane) - 5));
  out[71] = __reduce_min_sync(full, lane + 3);
  out[72] = __reduce_max_sync(full, lane + 3);
  out[73] = __reduce_and_sync(full, 0xf0u | lane);
  out[74] = __reduce_or_sync(full, 1u << lane);
  out[75] = __reduce_xor_sync(full, lane);
}

TEST_CASE("match_any, match_all and the __reduce_*_sync family") {
  cusim::device_array<unsigned> out(76);
  cusim::launch(match_reduce_kernel, 1, 32, out);
  const std::vector<unsigned> r = out.copy_to_host();
  for (unsigned lane = 0; lane < 32; ++lane) {
    CHECK(r[lane] == 0xffu << (lane / 8 * 8));
    CHECK(r[32 + lane] == (lane % 2 ? 0xaaaaaaaau : 0x55555555u));
  }
  CHECK(r[64] == full);
  CHECK(r[65] == 1u);
  CHECK(r[66] == 0u);
  CHECK(r[67] == 0u);
  CHECK(r[68] == 496u);
  CHECK(static_cast<int>(r[69]) == -5);
  CHECK(static_cast<int>(r[70]) == 26);
  CHECK(r[71] == 3u);
  CHECK(r[72] == 34u);
  CHECK(r[73] == 0xf0u);
  CHECK(r[74] == full);
  CHECK(r[75] == 0u);
}

__global__ void active_mask_kernel(cusim::span<unsigned> out) {
  const unsigned lane = cusim::lane_id();
  out[lane] = __activemask();
  if (lane < 10) out[32 + lane] = __activemask();
  else out[32 + lane] = 0;
}

TEST_CASE("__activemask names the lanes that execute it together") {
  cusim::device_array<unsigned> out(64);
  cusim::launch(active_mask_kernel, 1, 32, out);
  const std::vector<unsigned> r = out.copy_to_host();
  for (unsigned lane = 0; lane < 32; ++lane) CHECK(r[lane] == full);
  for (unsigned lane = 0; lane < 10; ++lane) {
    CHECK((r[32 + lane] >> lane & 1u) == 1u);
    CHECK((r[32 + lane] & ~0x3ffu) == 0u);  // never a lane of the other branch
    if (on_simulator) CHECK(r[32 + lane] == 0x3ffu);
  }
}

// The classic warp-shuffle reduction, with a grid-stride loop and one atomic per warp.
__global__ void warp_sum(cusim::span<const int> in, cusim::span<long long> total) {
  long long sum = 0;
  for (int i = cusim::grid<1>(); i < static_cast<int>(in.size()); i += cusim::gridsize<1>()) sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(full, sum, static_cast<unsigned>(offset));
  if (cusim::lane_id() == 0) atomicAdd(reinterpret_cast<unsigned long long*>(&total[0]), static_cast<unsigned long long>(sum));
}

TEST_CASE("a warp-shuffle reduction over many blocks gives the exact sum") {
  std::vector<int> host(1 << 16);
  long long expected = 0;
  for (std::size_t i = 0; i < host.size(); ++i) expected += host[i] = static_cast<int>(i % 1000) - 300;
  auto in = cusim::to_device(host);
  auto total = cusim::to_device(std::vector<long long>{0});
  cusim::launch(warp_sum, 24, 256, in, total);
  CHECK(total.copy_to_host()[0] == expected);
}

// ---- misuse: each a tagged error naming thread, block and line, never a hang ----------------

constexpr int excluded_line = __LINE__ + 2;
__global__ void excluded_lane(cusim::span<int> out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, 1, 0);
}

TEST_CASE("a lane calling a collective with a mask that excludes it is an error" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(32);
  const std::string msg = kernel_error_of([&] { cusim::launch(excluded_lane, 1, 32, out); });
  CHECK(msg == "tid=[16, 0, 0] ctaid=[0, 0, 0]: __shfl_sync(0x0000ffff) called by lane 16, which is not in the mask "
               "(warp.cu:" + std::to_string(excluded_line) + ")");
}

constexpr int different_first_line = __LINE__ + 3;
constexpr int different_second_line = __LINE__ + 3;
__global__ void different_collectives(cusim::span<int> out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_down_sync(full, 1, 1);
  else out[threadIdx.x] = static_cast<int>(__ballot_sync(full, 1));
}

TEST_CASE("lanes of one mask at different collectives are an error" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(32);
  const std::string msg = kernel_error_of([&] { cusim::launch(different_collectives, dim3(2), dim3(32), out); });
  CHECK(msg == "tid=[0, 0, 0] ctaid=[0, 0, 0]: lanes of one mask wait at different warp collectives: lane 0 at "
               "__shfl_down_sync(0xffffffff), lane 16 at __ballot_sync(0xffffffff) (warp.cu:" +
                   std::to_string(different_second_line) +
                   "); every lane of a mask must call the same collective with the same mask (warp.cu:" +
                   std::to_string(different_first_line) + ")");
}

constexpr int exited_line = __LINE__ + 4;
__global__ void exited_lane(cusim::span<int> out) {
  const unsigned lane = cusim::lane_id();
  if (lane == 5) return;
  out[lane] = static_cast<int>(__reduce_add_sync(full, lane));
}

TEST_CASE("a collective whose mask names an exited lane is an error, never a wrong sum" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(32);
  const std::string msg = kernel_error_of([&] { cusim::launch(exited_lane, 1, 32, out); });
  CHECK(msg == "tid=[0, 0, 0] ctaid=[0, 0, 0]: __reduce_add_sync(0xffffffff) can never complete: lane 5 of the mask "
               "has exited (warp.cu:" + std::to_string(exited_line) + ")");
}

// A partial last warp (48 threads: lanes 16-31 of warp 1 do not exist). As on a GPU, a full mask
// completes among the lanes that exist (cuda-samples' shfl_scan runs 120-thread blocks so).
__global__ void partial_warp(cusim::span<int> out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const unsigned ballot = __ballot_sync(full, lane % 2 == 0);
  const int up = __shfl_up_sync(full, lane, 1);  // lane 0 keeps its own value
  const int sum = __reduce_add_sync(full, 1);
  out[threadIdx.x] = (__all_sync(full, 1) ? 1 : 0) + 10 * (up == (lane > 0 ? lane - 1 : 0)) + 100 * sum;
  if (threadIdx.x == 32) out[48] = static_cast<int>(ballot);
}

TEST_CASE("a full mask in a partial warp completes among the lanes that exist") {
  cusim::device_array<int> out(49);
  cusim::launch(partial_warp, 1, 48, out);
  const std::vector<int> r = out.copy_to_host();
  CHECK(r[0] == 1 + 10 + 100 * 32);
  CHECK(r[47] == 1 + 10 + 100 * 16);
  CHECK(r[48] == 0x5555);
}

constexpr int absent_line = __LINE__ + 2;
__global__ void absent_lane(cusim::span<int> out) {
  out[threadIdx.x] = __shfl_down_sync(full, static_cast<int>(threadIdx.x), 8);
}

TEST_CASE("a shuffle that reads a lane past the end of the block is an error, not an undefined value" *
          doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(48);
  const std::string msg = kernel_error_of([&] { cusim::launch(absent_lane, 1, 48, out); });
  CHECK(msg == "tid=[40, 0, 0] ctaid=[0, 0, 0]: __shfl_down_sync(0xffffffff) in lane 8 reads lane 16, which does not "
               "exist (the block has 48 threads): its value is undefined (warp.cu:" + std::to_string(absent_line) + ")");
}

constexpr int strict_absent_line = __LINE__ + 2;
__global__ void strict_absent_lane(cusim::span<int> out) {
  out[threadIdx.x] = __any_sync(full, 1);
}

TEST_CASE("under CUSIM_CHECK=sync a full mask in a partial warp names the lanes that do not exist" *
          doctest::skip(!on_simulator)) {
  scoped_env check("CUSIM_CHECK", "sync");
  cusim::device_array<int> out(48);
  const std::string msg = kernel_error_of([&] { cusim::launch(strict_absent_lane, 1, 48, out); });
  CHECK(msg == "tid=[32, 0, 0] ctaid=[0, 0, 0]: __any_sync(0xffffffff) can never complete: lane 16 of the mask does "
               "not exist (the block has 48 threads) (warp.cu:" + std::to_string(strict_absent_line) + ")");
}

constexpr int width_line = __LINE__ + 2;
__global__ void bad_width(cusim::span<int> out) {
  out[threadIdx.x] = __shfl_xor_sync(full, 1, 1, 12);
}

constexpr int outside_line = __LINE__ + 3;
__global__ void reads_outside_mask(cusim::span<int> out) {
  // lanes 0..15 with width 32: lane 8 + 8 = 16 is not in the mask
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, 1, 8);
}

TEST_CASE("a bad width and a shuffle that reads outside its mask are errors" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(32);
  CHECK(kernel_error_of([&] { cusim::launch(bad_width, 1, 32, out); }) ==
        "tid=[0, 0, 0] ctaid=[0, 0, 0]: __shfl_xor_sync(0xffffffff): width 12 is not a power of two from 1 to 32 "
        "(warp.cu:" + std::to_string(width_line) + ")");
  CHECK(kernel_error_of([&] { cusim::launch(reads_outside_mask, 1, 32, out); }) ==
        "tid=[8, 0, 0] ctaid=[0, 0, 0]: __shfl_down_sync(0x0000ffff) in lane 8 reads lane 16, which is not in the "
        "mask (warp.cu:" + std::to_string(outside_line) + ")");
}

__global__ void collective_against_barrier(cusim::span<int> out) {
  if (threadIdx.x == 0) out[0] = __shfl_sync(full, 1, 0);
  else __syncthreads();
}

TEST_CASE("a collective whose lanes wait at __syncthreads is a deadlock" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(1);
  const std::string msg = kernel_error_of([&] { cusim::launch(collective_against_barrier, 1, 32, out); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: __shfl_sync(0xffffffff) can never complete: lanes of its "
                  "mask wait at __syncthreads (warp.cu:",
                  0) == 0);
}

TEST_CASE("after a misused collective the next launch works" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(32);
  for (int i = 0; i < 3; ++i) CHECK_THROWS_AS(cusim::launch(exited_lane, 4, 32, out), cusim::kernel_error);
  cusim::launch(vote_kernel, 1, 64, cusim::device_array<unsigned>(16));
  cusim::launch(rows_kernel, 1, dim3(8, 8), cusim::device_array<int>(128));
}
