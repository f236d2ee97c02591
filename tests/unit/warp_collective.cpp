// SPDX-License-Identifier: MIT
// warp_collective: the lane arithmetic of shuffles (PTX shfl.sync segments), votes, match and
// reductions, computed once every lane of a mask has arrived.
#include "diagnostics.hpp"
#include "warp_collective.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <vector>

using cusim::detail::warp_op;
using cusim::sim::thread_record;

namespace {

/// 32 lanes of one warp, lane i contributing value(i), each asking for `arg` and `width`.
struct warp {
  cusim::detail::block_info block{};
  std::vector<std::unique_ptr<thread_record>> lanes;
  thread_record* group[32] = {};

  template <class Value>
  warp(Value value, int arg = 0, int width = 32) {
    for (unsigned i = 0; i < 32; ++i) {
      lanes.push_back(std::make_unique<thread_record>());
      thread_record& t = *lanes.back();
      t.thread_idx = {i, 0, 0};
      t.block = &block;
      t.linear = i;
      t.value = value(i);
      t.arg = arg;
      t.width = width;
      group[i] = &t;
    }
  }
  std::uint64_t out(unsigned lane) const { return group[lane]->out; }
};

constexpr unsigned all_lanes = 0xffffffffu;

}  // namespace

TEST_CASE("shfl_down reads lane + delta, and a lane past its segment keeps its own value") {
  warp w([](unsigned i) { return 100 + i; }, 4, 8);
  cusim::sim::combine(warp_op::shfl_down, all_lanes, w.group);
  CHECK(w.out(0) == 104);
  CHECK(w.out(3) == 107);
  CHECK(w.out(4) == 104);   // 4 + 4 = 8 is the next segment of 8 lanes: its own value
  CHECK(w.out(8) == 112);
  CHECK(w.out(31) == 131);  // past the warp
}

TEST_CASE("shfl_up reads lane - delta within the segment") {
  warp w([](unsigned i) { return i; }, 1, 16);
  cusim::sim::combine(warp_op::shfl_up, all_lanes, w.group);
  CHECK(w.out(0) == 0);
  CHECK(w.out(1) == 0);
  CHECK(w.out(16) == 16);  // first lane of the second segment
  CHECK(w.out(17) == 16);
}

TEST_CASE("shfl_xor and shfl (idx) follow PTX's segment rules") {
  warp x([](unsigned i) { return i; }, 1);
  cusim::sim::combine(warp_op::shfl_xor, all_lanes, x.group);
  CHECK(x.out(0) == 1);
  CHECK(x.out(1) == 0);
  CHECK(x.out(30) == 31);
  warp idx([](unsigned i) { return i * 10; }, 3, 8);
  cusim::sim::combine(warp_op::shfl_idx, all_lanes, idx.group);
  CHECK(idx.out(0) == 30);    // lane 3 of segment 0
  CHECK(idx.out(9) == 110);   // lane 3 of segment 1 is lane 11
  CHECK(idx.out(31) == 270);  // lane 27
}

TEST_CASE("a shuffle that reads a lane outside the mask names the reading lane") {
  warp w([](unsigned i) { return i; }, 1);
  CHECK_THROWS_WITH_AS(cusim::sim::combine(warp_op::shfl_down, 0x0000ffffu, w.group),
                       "tid=[15, 0, 0] ctaid=[0, 0, 0]: __shfl_down_sync(0x0000ffff) in lane 15 reads lane 16, "
                       "which is not in the mask",
                       cusim::kernel_error);
}

TEST_CASE("ballot, all and any see only the lanes of the mask") {
  warp w([](unsigned i) { return i % 2; });
  cusim::sim::combine(warp_op::ballot, 0x0000000fu, w.group);
  CHECK(w.out(0) == 0xau);
  cusim::sim::combine(warp_op::all, 0x0000000au, w.group);
  CHECK(w.out(1) == 1);
  cusim::sim::combine(warp_op::any, 0x00000005u, w.group);
  CHECK(w.out(0) == 0);
}

TEST_CASE("match_any groups equal values; match_all sets its predicate") {
  warp w([](unsigned i) { return i < 4 ? 7u : 9u; });
  cusim::sim::combine(warp_op::match_any, 0xffu, w.group);
  CHECK(w.out(0) == 0x0fu);
  CHECK(w.out(5) == 0xf0u);
  cusim::sim::combine(warp_op::match_all, 0x0fu, w.group);
  CHECK(w.out(2) == 0x0fu);
  CHECK(w.group[2]->result == 1);
  cusim::sim::combine(warp_op::match_all, 0xffu, w.group);
  CHECK(w.out(2) == 0);
  CHECK(w.group[2]->result == 0);
}

TEST_CASE("__reduce_*_sync reduce 32-bit values, signed and unsigned") {
  warp w([](unsigned i) { return static_cast<std::uint32_t>(static_cast<int>(i) - 3); });
  cusim::sim::combine(warp_op::reduce_add, all_lanes, w.group);
  CHECK(w.out(0) == 32u * 31u / 2u - 3u * 32u);
  cusim::sim::combine(warp_op::reduce_min_signed, all_lanes, w.group);
  CHECK(static_cast<std::int32_t>(w.out(0)) == -3);
  cusim::sim::combine(warp_op::reduce_min_unsigned, all_lanes, w.group);
  CHECK(w.out(0) == 0u);  // lane 3
  cusim::sim::combine(warp_op::reduce_max_unsigned, all_lanes, w.group);
  CHECK(w.out(0) == static_cast<std::uint32_t>(-1));  // lane 2 is -1 as unsigned
}

TEST_CASE("a shuffle width must be a power of two from 1 to 32") {
  CHECK(cusim::sim::valid_request({warp_op::shfl_idx, all_lanes, 0, 0, 16}));
  CHECK_FALSE(cusim::sim::valid_request({warp_op::shfl_idx, all_lanes, 0, 0, 12}));
  CHECK_FALSE(cusim::sim::valid_request({warp_op::shfl_down, all_lanes, 0, 0, 64}));
  CHECK(cusim::sim::valid_request({warp_op::ballot, all_lanes, 0, 0, 12}));  // not a shuffle
}
