// SPDX-License-Identifier: MIT
// Cooperative groups: the block, static and dynamic tiles, coalesced groups, and grid-wide
// synchronisation under a cooperative launch, with its misuse.
#include "test_support.hpp"

#include <numeric>
#include <string>
#include <vector>

namespace cg = cusim::cg;

__global__ void block_fields(cusim::mdspan<unsigned, 2> out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
  const unsigned r = block.thread_rank();
  out(b * 64 + r, 0) = r;
  out(b * 64 + r, 1) = block.size();
  out(b * 64 + r, 2) = block.group_index().x * 10 + block.group_index().y;
  out(b * 64 + r, 3) = block.thread_index().x * 10 + block.thread_index().y;
  block.sync();
}

TEST_CASE("this_thread_block: rank, size, group and thread index") {
  cusim::device_array<unsigned, 2> out(4 * 64, 4);
  cusim::launch(block_fields, dim3(2, 2), dim3(16, 4), out);
  const std::vector<unsigned> r = out.copy_to_host();
  for (unsigned by = 0; by < 2; ++by)
    for (unsigned bx = 0; bx < 2; ++bx)
      for (unsigned ty = 0; ty < 4; ++ty)
        for (unsigned tx = 0; tx < 16; ++tx) {
          const unsigned row = (bx + 2 * by) * 64 + ty * 16 + tx;
          CHECK(r[row * 4 + 0] == ty * 16 + tx);
          CHECK(r[row * 4 + 1] == 64u);
          CHECK(r[row * 4 + 2] == bx * 10 + by);
          CHECK(r[row * 4 + 3] == tx * 10 + ty);
        }
}

template <unsigned N>
__global__ void tile_kernel(cusim::mdspan<int, 2> out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<N>(block);
  const int r = static_cast<int>(block.thread_rank());
  int sum = r;
  for (unsigned offset = N / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
  out(r, 0) = tile.shfl(sum, 0);                      // the tile's total, broadcast
  out(r, 1) = static_cast<int>(tile.ballot(r % 3 == 0));  // bits by rank in the tile
  out(r, 2) = tile.all(r >= 0) * 10 + tile.any(r == 5);
  out(r, 3) = static_cast<int>(tile.thread_rank() * 1000 + tile.meta_group_rank());
  out(r, 4) = tile.shfl_xor(r, 1u);
  out(r, 5) = tile.shfl_up(r, 1u);
  tile.sync();
}

template <unsigned N>
void check_tiles() {
  CAPTURE(N);
  constexpr int threads = 64;
  cusim::device_array<int, 2> out(threads, 6);
  cusim::launch(tile_kernel<N>, 1, threads, out);
  const std::vector<int> r = out.copy_to_host();
  for (int t = 0; t < threads; ++t) {
    const int first = t / static_cast<int>(N) * static_cast<int>(N);
    int total = 0;
    unsigned ballot = 0;
    for (int i = 0; i < static_cast<int>(N); ++i) {
      total += first + i;
      ballot |= ((first + i) % 3 == 0 ? 1u : 0u) << i;
    }
    const bool has5 = first <= 5 && 5 < first + static_cast<int>(N);
    CHECK(r[t * 6 + 0] == total);
    CHECK(static_cast<unsigned>(r[t * 6 + 1]) == ballot);
    CHECK(r[t * 6 + 2] == 10 + (has5 ? 1 : 0));
    CHECK(r[t * 6 + 3] == (t % static_cast<int>(N)) * 1000 + t / static_cast<int>(N));
    CHECK(r[t * 6 + 4] == (N > 1 ? (t ^ 1) : t));
    CHECK(r[t * 6 + 5] == (t % static_cast<int>(N) == 0 ? t : t - 1));
  }
}

TEST_CASE("tiled_partition<N>: shuffles, votes and ranks scoped to tiles of 2 to 32 threads") {
  check_tiles<2>();
  check_tiles<4>();
  check_tiles<8>();
  check_tiles<16>();
  check_tiles<32>();
}

__global__ void dynamic_tile_kernel(cusim::span<int> out, unsigned size) {
  auto block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, size);
  __shared__ cusim::shared_array<int, 64> s;
  s[block.thread_rank()] = static_cast<int>(block.thread_rank());
  tile.sync();
  const unsigned first = block.thread_rank() - tile.thread_rank();
  out[block.thread_rank()] = s[first + (tile.thread_rank() + 1) % tile.size()];  // the next thread in the tile
}

TEST_CASE("tiled_partition(block, n): a run-time tile size") {
  cusim::device_array<int> out(64);
  for (unsigned size : {4u, 16u, 32u}) {
    cusim::launch(dynamic_tile_kernel, 1, 64, out, size);
    const std::vector<int> r = out.copy_to_host();
    for (unsigned t = 0; t < 64; ++t) CHECK(r[t] == static_cast<int>(t / size * size + (t % size + 1) % size));
  }
}

__global__ void coalesced_kernel(cusim::mdspan<unsigned, 2> out) {
  const unsigned lane = cusim::lane_id();
  if (lane % 4 == 1) {  // lanes 1, 5, 9, ...: a group of 8
    cg::coalesced_group active = cg::coalesced_threads();
    out(lane, 0) = active.size();
    out(lane, 1) = active.thread_rank();
    out(lane, 2) = active.ballot(lane >= 16);
    out(lane, 3) = active.shfl(lane * 100, 0);  // from the group's first thread (lane 1)
    active.sync();
  }
}

TEST_CASE("coalesced_threads: the lanes that call it together") {
  cusim::device_array<unsigned, 2> out(32, 4);
  cusim::launch(coalesced_kernel, 1, 32, out);
  const std::vector<unsigned> r = out.copy_to_host();
  for (unsigned lane = 1; lane < 32; lane += 4) {
    CHECK(r[lane * 4 + 0] == 8u);
    CHECK(r[lane * 4 + 1] == lane / 4);
    CHECK(r[lane * 4 + 2] == 0xf0u);  // ranks 4..7 are lanes 17..29
    CHECK(r[lane * 4 + 3] == 100u);
  }
}

// Block-wide inclusive scan: warp scans with a tile, then a scan of the warp totals.
__global__ void block_scan(cusim::span<const int> in, cusim::span<int> out) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  __shared__ cusim::shared_array<int, 32> warp_totals;
  const int i = cusim::grid<1>();
  int v = i < static_cast<int>(in.size()) ? in[i] : 0;
  for (unsigned d = 1; d < 32; d *= 2) {
    const int up = warp.shfl_up(v, d);
    if (warp.thread_rank() >= d) v += up;
  }
  if (warp.thread_rank() == 31) warp_totals[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    const unsigned warps = warp.meta_group_size();
    int t = warp.thread_rank() < warps ? warp_totals[warp.thread_rank()] : 0;
    for (unsigned d = 1; d < 32; d *= 2) {
      const int up = warp.shfl_up(t, d);
      if (warp.thread_rank() >= d) t += up;
    }
    if (warp.thread_rank() < warps) warp_totals[warp.thread_rank()] = t;
  }
  block.sync();
  if (warp.meta_group_rank() > 0) v += warp_totals[warp.meta_group_rank() - 1];
  if (i < static_cast<int>(out.size())) out[i] = v;
}

TEST_CASE("a block-wide inclusive scan with cooperative groups") {
  std::vector<int> host(4 * 256);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i * 7 % 13) - 6;
  auto in = cusim::to_device(host);
  cusim::device_array<int> out(host.size());
  cusim::launch(block_scan, 4, 256, in, out);
  const std::vector<int> r = out.copy_to_host();
  for (int b = 0; b < 4; ++b) {
    int acc = 0;
    for (int t = 0; t < 256; ++t) CHECK(r[b * 256 + t] == (acc += host[b * 256 + t]));
  }
}

// Jacobi-style iterations over the whole grid: each step reads the neighbours' previous values,
// so every step needs a grid-wide barrier. Without one the result differs.
__global__ void grid_iterations(cusim::span<int> a, cusim::span<int> b, int steps, cusim::span<int> valid) {
  cg::grid_group grid = cg::this_grid();
  const int n = static_cast<int>(a.size());
  const int i = static_cast<int>(grid.thread_rank());
  if (i == 0) valid[0] = grid.is_valid() ? 1 : 0;
  for (int s = 0; s < steps; ++s) {
    cusim::span<int> from = s % 2 == 0 ? a : b, to = s % 2 == 0 ? b : a;
    to[i] = from[(i + 1) % n] + from[(i + n - 1) % n] - from[i] + 1;
    grid.sync();
  }
}

std::vector<int> grid_iterations_on_host(std::vector<int> a, int steps) {
  const int n = static_cast<int>(a.size());
  std::vector<int> b(a.size());
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) b[i] = a[(i + 1) % n] + a[(i + n - 1) % n] - a[i] + 1;
    std::swap(a, b);
  }
  return a;
}

void check_grid_iterations(int blocks = 64) {
  constexpr int threads = 128, steps = 12;
  std::vector<int> host(blocks * threads);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 17);
  auto a = cusim::to_device(host);
  cusim::device_array<int> b(host.size());
  cusim::device_array<int> valid(1);
  cusim::launch_cooperative(grid_iterations, cusim::launch_config{blocks, threads}, a, b, steps, valid);
  CHECK(valid.copy_to_host()[0] == 1);
  CHECK((steps % 2 == 0 ? a : b).copy_to_host() == grid_iterations_on_host(host, steps));
}

TEST_CASE("this_grid().sync() across 64 blocks gives the right answer with all workers" *
          doctest::skip(thread_sanitized)) {  // 8192 resident threads
  check_grid_iterations();
}

TEST_CASE("this_grid().sync() across 64 blocks gives the right answer with one worker" *
          doctest::skip(!on_simulator || thread_sanitized)) {
  scoped_env one("CUSIM_WORKERS", "1");
  check_grid_iterations();
}

TEST_CASE("a cooperative launch keeps 40,960 threads resident across grid barriers" *
          doctest::skip(!on_simulator || thread_sanitized)) {
  // Two mappings per guarded stack would exceed vm.max_map_count (65530) near 32k fibers.
  std::vector<int> host(40 * 1024);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 5);
  auto a = cusim::to_device(host);
  cusim::device_array<int> b(host.size());
  cusim::device_array<int> valid(1);
  cusim::launch_cooperative(grid_iterations, cusim::launch_config{40, 1024}, a, b, 2, valid);
  CHECK(a.copy_to_host() == grid_iterations_on_host(host, 2));
}

TEST_CASE("cudaLaunchCooperativeKernel runs the same kernel") {
  std::vector<int> host(8 * 32, 3);
  auto a = cusim::to_device(host);
  cusim::device_array<int> b(host.size());
  cusim::device_array<int> valid(1);
  cusim::span<int> pa = a, pb = b, pv = valid;
  int steps = 3;
  void* args[] = {&pa, &pb, &steps, &pv};
  REQUIRE(cudaLaunchCooperativeKernel(grid_iterations, dim3(8), dim3(32), args, 0, nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(b.copy_to_host() == grid_iterations_on_host(host, steps));
}

TEST_CASE("a cooperative grid larger than the device holds is rejected like CUDA") {
  cusim::device_array<int> a(1), b(1), valid(1);
  try {
    cusim::launch_cooperative(grid_iterations, cusim::launch_config{1 << 20, 1024}, a, b, 1, valid);
    FAIL("expected cudaErrorCooperativeLaunchTooLarge");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorCooperativeLaunchTooLarge);
  }
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_iterations, 1024, 0) == cudaSuccess);
  CHECK(per_sm >= 1);
}

constexpr int outside_line = __LINE__ + 2;
__global__ void grid_sync_outside(cusim::span<int> out) {
  cg::this_grid().sync();
  out[0] = 1;
}

TEST_CASE("grid sync outside a cooperative launch is an error, never silently wrong" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(1);
  CHECK(kernel_error_of([&] { cusim::launch(grid_sync_outside, 2, 32, out); }) ==
        "tid=[0, 0, 0] ctaid=[0, 0, 0]: this_grid().sync() outside a cooperative launch: launch the kernel with "
        "cusim::launch_cooperative or cudaLaunchCooperativeKernel (cooperative.cu:" +
            std::to_string(outside_line) + ")");
}

constexpr int exited_block_line = __LINE__ + 3;
__global__ void block_skips_grid_sync(cusim::span<int> out) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

TEST_CASE("a block that exits without reaching the grid barrier is a deadlock error" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(4);
  for (const char* workers : {"1", "2", "4"}) {
    scoped_env env("CUSIM_WORKERS", workers);
    CHECK(kernel_error_of([&] { cusim::launch_cooperative(block_skips_grid_sync, cusim::launch_config{4, 32}, out); }) ==
          "tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: this_grid().sync() can never complete: block [1, 0, 0] has "
          "exited without reaching it (3 of 4 blocks wait) (cooperative.cu:" +
              std::to_string(exited_block_line) + ")");
  }
}

constexpr int fault_line = __LINE__ + 4;
__global__ void fault_between_grid_syncs(cusim::span<int> out) {
  cg::this_grid().sync();
  const int i = static_cast<int>(cg::this_grid().thread_rank());
  if (blockIdx.x >= 2) out[i + 1000] = 1;  // blocks 2 and 3 fault; the others wait at the barrier
  cg::this_grid().sync();
  out[i] = 2;
}

TEST_CASE("a fault in a cooperative launch unwinds every waiting block; the next launch works" *
          doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(8 * 32);
  for (const char* workers : {"1", "2"}) {
    scoped_env env("CUSIM_WORKERS", workers);
    CHECK(kernel_error_of([&] { cusim::launch_cooperative(fault_between_grid_syncs, cusim::launch_config{8, 32}, out); }) ==
          "tid=[0, 0, 0] ctaid=[2, 0, 0]: index 1064 is out of bounds for axis 0 with size 256 (global array, "
          "cooperative.cu:" + std::to_string(fault_line) + ")");
  }
  check_grid_iterations(thread_sanitized ? 16 : 64);  // 64 blocks: too many fibers for TSan
}
