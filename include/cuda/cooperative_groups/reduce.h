// SPDX-License-Identifier: MIT
// cusim's <cooperative_groups/reduce.h>: cg::reduce over a warp's group (a tile or a coalesced
// group) and the operators it takes: cg::plus, less (the minimum), greater (the maximum), bit_and,
// bit_or, bit_xor. Every member gets the result.
#pragma GCC system_header
#ifndef CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_
#define CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_

#include "../cooperative_groups.h"

#include <type_traits>
#include <utility>

namespace cusim::cg {

template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace detail_cg {
/// op folded over the values of ranks [0, last] of `g`, in rank order: each member reads every
/// value with a shuffle, so that all members agree on the result bit for bit.
template <class Group, class T, class Op>
T fold_ranks(const Group& g, const T& value, Op&& op, unsigned last, detail::source_location site) {
  T acc = g.shfl(value, 0, site);
  for (unsigned r = 1; r < g.num_threads(); ++r) {
    T v = g.shfl(value, r, site);
    if (r <= last) acc = op(acc, v);
  }
  return acc;
}
}  // namespace detail_cg

/// The reduction of every member's `value` with `op`, returned to every member.
template <class Group, class T, class Op>
T reduce(const Group& g, T value, Op&& op, detail::source_location site = detail::source_location::current()) {
  return detail_cg::fold_ranks(g, value, std::forward<Op>(op), g.num_threads() - 1, site);
}

namespace detail_cg {
/// The scratch of reduce over tiles of more than 32 threads, per value type: a value per thread
/// of the block and a result per tile, in the block's shared memory.
template <class T>
struct wide_reduce_scratch {
  T values[1024];
  T results[16];
};
template <class T>
inline const char wide_reduce_key = 0;
}  // namespace detail_cg

/// Over a tile of 64 to 1024 threads: the members' values meet in shared memory, the tile's first
/// thread folds them in rank order, and every member reads the result.
template <unsigned Size, class Parent, class T, class Op>
  requires(Size > 32)
T reduce(const thread_block_tile<Size, Parent>& g, T value, Op&& op,
         detail::source_location site = detail::source_location::current()) {
  static_assert(std::is_trivially_copyable_v<T>, "cg::reduce over a tile of more than 32 threads takes trivially copyable values");
  auto& scratch = *static_cast<detail_cg::wide_reduce_scratch<T>*>(detail::bind_shared(
      &detail_cg::wide_reduce_key<T>, site, sizeof(detail_cg::wide_reduce_scratch<T>), alignof(detail_cg::wide_reduce_scratch<T>)));
  const unsigned first = g.meta_group_rank() * Size, rank = g.thread_rank(), tile = g.meta_group_rank();
  scratch.values[first + rank] = value;
  g.sync(site);
  if (rank == 0) {
    T acc = scratch.values[first];
    for (unsigned r = 1; r < g.members(); ++r) acc = op(acc, scratch.values[first + r]);
    scratch.results[tile] = acc;
  }
  g.sync(site);
  T result = scratch.results[tile];
  g.sync(site);  // before a next reduce writes the scratch again
  return result;
}

}  // namespace cusim::cg

#endif  // CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_
