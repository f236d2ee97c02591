// SPDX-License-Identifier: MIT
// Tiles of more than 32 threads (CUDA 12's multi-warp tiles), as cuda-samples' reduction uses them:
// ranks, sync across the warps of a tile, and cg::reduce, also over a partial last tile.
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <unsigned Tile>
__global__ void tile_sums(const int* in, int* sums, int* ranks) {
  __shared__ cg::block_tile_memory<1024> scratch;
  auto block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<Tile>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int total = cg::reduce(tile, in[i], cg::plus<int>());
  if (tile.thread_rank() == 0) sums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = total;
  ranks[i] = static_cast<int>(tile.thread_rank() + 10000 * tile.meta_group_rank());
}

// The sync orders the tile's shared-memory writes before its reads: each thread reads the value
// its tile's neighbour wrote, which a later warp of the tile writes.
__global__ void tile_sync(int* out) {
  __shared__ int values[256];
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  values[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  tile.sync();
  const unsigned base = tile.meta_group_rank() * 128;
  out[threadIdx.x] = values[base + (tile.thread_rank() + 64) % 128];
}

int main() {
  const int blocks = 3, threads = 320;  // 320 = 2 full tiles of 128 and one of 64, or 5 of 64
  int *in, *sums, *ranks;
  CHECK_EQ(cudaMallocManaged(&in, blocks * threads * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&sums, 64 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&ranks, blocks * threads * sizeof(int)), cudaSuccess);
  for (int i = 0; i < blocks * threads; ++i) in[i] = i % 7 + 1;

  tile_sums<128><<<blocks, threads>>>(in, sums, ranks);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 3; ++t) {
      int expected = 0;
      for (int r = t * 128; r < threads && r < (t + 1) * 128; ++r) expected += in[b * threads + r];
      CHECK_EQ(sums[b * 3 + t], expected);
    }
  CHECK_EQ(ranks[threads + 300], 300 - 256 + 10000 * 2);

  tile_sums<64><<<blocks, threads>>>(in, sums, ranks);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int expected = 0;
  for (int r = 256; r < 320; ++r) expected += in[2 * threads + r];
  CHECK_EQ(sums[2 * 5 + 4], expected);

  int* out;
  CHECK_EQ(cudaMallocManaged(&out, 256 * sizeof(int)), cudaSuccess);
  tile_sync<<<1, 256>>>(out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(out[0], 64 * 3);
  CHECK_EQ(out[100], 36 * 3);
  CHECK_EQ(out[200], (128 + 8) * 3);
  return finish();
}
