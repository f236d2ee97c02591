// SPDX-License-Identifier: MIT
// CUSIM_REPORT's counting model (report_model.hpp).
#include "report_model.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace cusim::sim {

unsigned global_sectors(std::span<const lane_access> lanes) {
  std::array<std::uintptr_t, 96> inline_sectors;  // 32 lanes of up to 16 bytes touch at most 64
  std::vector<std::uintptr_t> more;
  std::size_t n = 0;
  auto add = [&](std::uintptr_t s) {
    if (n < inline_sectors.size()) inline_sectors[n++] = s;
    else more.push_back(s);
  };
  for (const lane_access& a : lanes) {
    if (a.bytes == 0) continue;
    for (std::uintptr_t s = a.address / 32; s <= (a.address + a.bytes - 1) / 32; ++s) add(s);
  }
  if (!more.empty()) {
    more.insert(more.end(), inline_sectors.begin(), inline_sectors.begin() + static_cast<std::ptrdiff_t>(n));
    std::sort(more.begin(), more.end());
    return static_cast<unsigned>(std::unique(more.begin(), more.end()) - more.begin());
  }
  std::sort(inline_sectors.begin(), inline_sectors.begin() + static_cast<std::ptrdiff_t>(n));
  return static_cast<unsigned>(std::unique(inline_sectors.begin(), inline_sectors.begin() + static_cast<std::ptrdiff_t>(n)) -
                               inline_sectors.begin());
}

namespace {

/// The wavefronts of one pass: the most distinct 4-byte words any bank holds.
unsigned pass_wavefronts(std::span<const lane_access> lanes, unsigned first_lane, unsigned lane_count) {
  std::vector<std::uintptr_t> words;  // distinct words of the pass
  for (const lane_access& a : lanes) {
    if (a.lane < first_lane || a.lane >= first_lane + lane_count || a.bytes == 0) continue;
    for (std::uintptr_t w = a.address / 4; w <= (a.address + a.bytes - 1) / 4; ++w) words.push_back(w);
  }
  if (words.empty()) return 0;
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::array<unsigned, 32> per_bank{};
  for (std::uintptr_t w : words) ++per_bank[w % 32];
  return *std::max_element(per_bank.begin(), per_bank.end());
}

}  // namespace

shared_cost shared_wavefronts(std::span<const lane_access> lanes) {
  std::uint32_t widest = 0;
  for (const lane_access& a : lanes) widest = std::max(widest, a.bytes);
  // A pass moves 128 bytes: 32 lanes of up to 4 bytes, 16 of 8, 8 of 16 (and 4 of 32, should an
  // access be that wide).
  unsigned lanes_per_pass = 32;
  while (lanes_per_pass > 1 && lanes_per_pass * std::max<std::uint32_t>(widest, 4) > 128) lanes_per_pass /= 2;
  shared_cost cost;
  for (unsigned first = 0; first < 32; first += lanes_per_pass) {
    const unsigned w = pass_wavefronts(lanes, first, lanes_per_pass);
    cost.wavefronts += w;
    cost.ideal += w > 0;
  }
  cost.conflicts = cost.wavefronts - cost.ideal;
  return cost;
}

occupancy theoretical_occupancy(const occupancy_limits& device, unsigned threads_per_block,
                                std::size_t shared_bytes_per_block) {
  occupancy o;
  const int warp = std::max(device.warp_size, 1);
  const int warps_per_block = std::max(1, static_cast<int>((threads_per_block + warp - 1) / warp));
  const int max_warps = device.max_threads_per_multiprocessor / warp;
  o.limit_blocks = device.max_blocks_per_multiprocessor;
  o.limit_warps = max_warps / warps_per_block;
  o.limit_shared_memory = o.limit_blocks;
  if (shared_bytes_per_block > 0) {
    const std::size_t per_block = shared_bytes_per_block + device.reserved_shared_memory_per_block;
    o.limit_shared_memory = static_cast<int>(device.shared_memory_per_multiprocessor / per_block);
  }
  o.active_blocks = std::min({o.limit_blocks, o.limit_warps, o.limit_shared_memory});
  // The limiter: the one that gives the least; on a tie, threads before shared memory before the
  // block count (a student changes the block size first).
  if (o.active_blocks == o.limit_warps) o.limiter = occupancy_limiter::warps;
  else if (shared_bytes_per_block > 0 && o.active_blocks == o.limit_shared_memory) o.limiter = occupancy_limiter::shared_memory;
  else o.limiter = occupancy_limiter::blocks;
  o.active_warps = o.active_blocks * warps_per_block;
  o.percent = max_warps > 0 ? 100.0 * o.active_warps / max_warps : 0;
  return o;
}

const char* limiter_name(occupancy_limiter l) noexcept {
  switch (l) {
    case occupancy_limiter::blocks: return "blocks";
    case occupancy_limiter::warps: return "threads";
    case occupancy_limiter::shared_memory: return "shared memory";
  }
  return "blocks";
}

}  // namespace cusim::sim
