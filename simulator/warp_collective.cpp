// SPDX-License-Identifier: MIT
// The results of warp collectives.
#include "warp_collective.hpp"

#include "diagnostics.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace cusim::sim {

using detail::warp_op;

namespace {

// PTX shfl.sync: the source lane of `lane`, or `lane` itself when the source lies outside the
// caller's segment of `width` lanes (for xor and idx, an earlier segment may be read).
[[gnu::always_inline]] inline unsigned source_lane(warp_op op, unsigned lane, int arg, int width) {
  const unsigned seg = 32u - static_cast<unsigned>(width);  // the segment mask: high lane bits
  const unsigned first = lane & seg, last = first | (31u & ~seg);
  const auto b = static_cast<unsigned>(arg) & 31u;
  long j = lane;
  bool inside = true;
  switch (op) {
    case warp_op::shfl_up:
      j = static_cast<long>(lane) - b;
      inside = j >= static_cast<long>(first);
      break;
    case warp_op::shfl_down:
      j = static_cast<long>(lane) + b;
      inside = j <= static_cast<long>(last);
      break;
    case warp_op::shfl_xor:
      j = lane ^ b;
      inside = j <= static_cast<long>(last);
      break;
    default:  // shfl_idx
      j = first | (b & ~seg);
      inside = j <= static_cast<long>(last);
      break;
  }
  return inside ? static_cast<unsigned>(j) : lane;
}

std::uint32_t reduce(warp_op op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case warp_op::reduce_add: return a + b;
    case warp_op::reduce_min_signed: return static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
    case warp_op::reduce_max_signed: return static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
    case warp_op::reduce_min_unsigned: return std::min(a, b);
    case warp_op::reduce_max_unsigned: return std::max(a, b);
    case warp_op::reduce_and: return a & b;
    case warp_op::reduce_or: return a | b;
    default: return a ^ b;  // reduce_xor
  }
}

[[noreturn, gnu::cold, gnu::noinline]] void shuffle_fault(warp_op op, unsigned mask, const thread_record& t,
                                                         unsigned lane, unsigned src, unsigned absent) {
  if ((absent >> src & 1u) == 0)
    throw shuffle_outside_mask_error(t.thread_idx, t.block->block_idx, describe_collective(op, mask), lane, src, t.site);
  throw shuffle_reads_absent_lane_error(t.thread_idx, t.block->block_idx, describe_collective(op, mask), lane, src,
                                        static_cast<const block_context*>(t.block)->nthreads, t.site);
}

// Each lane of the mask that exists takes the value of its source lane, which must be one too.
template <warp_op Op>
void shuffle(unsigned mask, thread_record* const (&group)[32], unsigned absent) {
  const unsigned present = mask & ~absent;
  for (unsigned m = present; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    thread_record& t = *group[lane];
    const unsigned src = source_lane(Op, lane, t.arg, t.width);
    if ((present >> src & 1u) == 0) [[unlikely]] shuffle_fault(Op, mask, t, lane, src, absent);
    t.out = group[src]->value;
  }
}

}  // namespace

void combine(warp_op op, unsigned mask, thread_record* const (&group)[32], unsigned absent) {
  const unsigned present = mask & ~absent;
  const auto each = [present](auto&& f) {
    for (unsigned m = present; m != 0; m &= m - 1) f(static_cast<unsigned>(std::countr_zero(m)));
  };
  if (op == warp_op::sync) return;
  switch (op) {  // the shuffles: one loop each, the source-lane rule folded into it
    case warp_op::shfl_idx: return shuffle<warp_op::shfl_idx>(mask, group, absent);
    case warp_op::shfl_up: return shuffle<warp_op::shfl_up>(mask, group, absent);
    case warp_op::shfl_down: return shuffle<warp_op::shfl_down>(mask, group, absent);
    case warp_op::shfl_xor: return shuffle<warp_op::shfl_xor>(mask, group, absent);
    default: break;
  }
  std::uint64_t result = 0;
  int predicate = 0;
  switch (op) {
    case warp_op::ballot:
    case warp_op::all:
    case warp_op::any: {
      unsigned ballot = 0;
      each([&](unsigned lane) { ballot |= (group[lane]->value != 0 ? 1u : 0u) << lane; });
      result = op == warp_op::ballot ? ballot : op == warp_op::all ? ballot == present : ballot != 0;
      break;
    }
    case warp_op::match_any:
      each([&](unsigned lane) {
        unsigned same = 0;
        each([&](unsigned other) { same |= (group[other]->value == group[lane]->value ? 1u : 0u) << other; });
        group[lane]->out = same;
      });
      return;
    case warp_op::match_all: {
      const std::uint64_t first = group[std::countr_zero(present)]->value;
      predicate = 1;
      each([&](unsigned lane) { predicate &= group[lane]->value == first ? 1 : 0; });
      result = predicate ? mask : 0;
      break;
    }
    default: {  // the __reduce_*_sync family, on 32-bit values
      bool first = true;
      std::uint32_t acc = 0;
      each([&](unsigned lane) {
        const auto v = static_cast<std::uint32_t>(group[lane]->value);
        acc = first ? v : reduce(op, acc, v);
        first = false;
      });
      result = acc;
      break;
    }
  }
  each([&](unsigned lane) {
    group[lane]->out = result;
    group[lane]->result = predicate;
  });
}

}  // namespace cusim::sim
