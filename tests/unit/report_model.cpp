// SPDX-License-Identifier: MIT
// report_model: a warp's addresses -> 32-byte sectors, shared-memory wavefronts and bank
// conflicts; a launch's theoretical occupancy and its limiter.
#include "report_model.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using cusim::sim::lane_access;

namespace {

/// A full warp whose lane l accesses `bytes` at address(l).
std::vector<lane_access> warp(std::uint32_t bytes, const std::function<std::uintptr_t(unsigned)>& address,
                              unsigned lanes = 32) {
  std::vector<lane_access> w;
  for (unsigned l = 0; l < lanes; ++l) w.push_back({address(l), bytes, l});
  return w;
}

}  // namespace

TEST_CASE("global sectors: coalesced, offset, strided, broadcast, wide and narrow elements") {
  using cusim::sim::global_sectors;
  const std::uintptr_t base = 0x10000;  // 256-byte aligned, as cudaMalloc's
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 4 * l; })) == 4);
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 4 * (l + 1); })) == 5);
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 8 * l; })) == 8);
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 128 * l; })) == 32);
  CHECK(global_sectors(warp(4, [&](unsigned) { return base + 12; })) == 1);
  CHECK(global_sectors(warp(8, [&](unsigned l) { return base + 8 * l; })) == 8);
  CHECK(global_sectors(warp(16, [&](unsigned l) { return base + 16 * l; })) == 16);
  CHECK(global_sectors(warp(1, [&](unsigned l) { return base + l; })) == 1);
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 4 * l; }, 1)) == 1);  // one lane active
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + 30 + 0 * l; })) == 2);  // straddles two sectors
  CHECK(global_sectors({}) == 0);
  // Two rows of 16 floats (a 16x16 block's warp): two sectors each.
  CHECK(global_sectors(warp(4, [&](unsigned l) { return base + (l / 16) * 1024 + 4 * (l % 16); })) == 4);
}

TEST_CASE("shared wavefronts: 32 banks of 4 bytes, broadcasts, conflicts") {
  using cusim::sim::shared_wavefronts;
  auto cost = shared_wavefronts(warp(4, [](unsigned l) { return 4 * l; }));
  CHECK(cost.wavefronts == 1);
  CHECK(cost.conflicts == 0);
  cost = shared_wavefronts(warp(4, [](unsigned l) { return 8 * l; }));  // stride 2: two words a bank
  CHECK(cost.wavefronts == 2);
  CHECK(cost.conflicts == 1);
  cost = shared_wavefronts(warp(4, [](unsigned l) { return 128 * l; }));  // a column of float[32][32]
  CHECK(cost.wavefronts == 32);
  CHECK(cost.conflicts == 31);
  cost = shared_wavefronts(warp(4, [](unsigned l) { return 132 * l; }));  // float[32][33]: padded
  CHECK(cost.wavefronts == 1);
  CHECK(cost.conflicts == 0);
  cost = shared_wavefronts(warp(4, [](unsigned) { return 0; }));  // broadcast
  CHECK(cost.wavefronts == 1);
  CHECK(cost.conflicts == 0);
  cost = shared_wavefronts(warp(1, [](unsigned l) { return l; }));  // bytes of 8 words
  CHECK(cost.wavefronts == 1);
  cost = shared_wavefronts(warp(4, [](unsigned l) { return 16 * l; }, 16));  // 16 lanes, stride 4: banks 0, 4, ... twice
  CHECK(cost.wavefronts == 2);
  CHECK(cost.conflicts == 1);
  cost = shared_wavefronts(warp(4, [](unsigned l) { return 4 * (l % 2) * 32; }));  // two words of bank 0
  CHECK(cost.wavefronts == 2);
  CHECK(shared_wavefronts({}).wavefronts == 0);
}

TEST_CASE("shared wavefronts of 8- and 16-byte accesses: a pass per half- or quarter-warp") {
  using cusim::sim::shared_wavefronts;
  auto cost = shared_wavefronts(warp(8, [](unsigned l) { return 8 * l; }));  // consecutive doubles
  CHECK(cost.wavefronts == 2);
  CHECK(cost.ideal == 2);
  CHECK(cost.conflicts == 0);
  cost = shared_wavefronts(warp(16, [](unsigned l) { return 16 * l; }));  // consecutive float4
  CHECK(cost.wavefronts == 4);
  CHECK(cost.conflicts == 0);
  cost = shared_wavefronts(warp(8, [](unsigned l) { return 16 * l; }));  // stride 2 doubles: 2 words a bank per pass
  CHECK(cost.wavefronts == 4);
  CHECK(cost.conflicts == 2);
  cost = shared_wavefronts(warp(8, [](unsigned l) { return 8 * l; }, 16));  // only the first half-warp
  CHECK(cost.wavefronts == 1);
  CHECK(cost.ideal == 1);
  CHECK(cost.conflicts == 0);
}

TEST_CASE("theoretical occupancy: the least of the block, warp and shared-memory limits") {
  cusim::sim::occupancy_limits a100{2048, 32, 164 * 1024, 1024, 32};
  auto o = theoretical_occupancy(a100, 256, 0);
  CHECK(o.limit_warps == 8);
  CHECK(o.limit_blocks == 32);
  CHECK(o.active_blocks == 8);
  CHECK(o.active_warps == 64);
  CHECK(o.percent == doctest::Approx(100.0));
  CHECK(std::string(limiter_name(o.limiter)) == "threads");
  o = theoretical_occupancy(a100, 32, 0);  // 32 blocks of one warp: half the warps
  CHECK(o.active_blocks == 32);
  CHECK(o.percent == doctest::Approx(50.0));
  CHECK(std::string(limiter_name(o.limiter)) == "blocks");
  o = theoretical_occupancy(a100, 256, 40 * 1024);  // 164 KiB / 41 KiB: 4 blocks
  CHECK(o.limit_shared_memory == 4);
  CHECK(o.active_warps == 32);
  CHECK(o.percent == doctest::Approx(50.0));
  CHECK(std::string(limiter_name(o.limiter)) == "shared memory");
  o = theoretical_occupancy(a100, 1000, 0);  // 32 warps a block (the last one partial)
  CHECK(o.limit_warps == 2);
  CHECK(o.percent == doctest::Approx(100.0));
}
