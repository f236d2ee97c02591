// SPDX-License-Identifier: MIT
// cusim's <cooperative_groups/reduce.h>: cg::reduce over a warp's group (a tile or a coalesced
// group) and the operators it takes: cg::plus, less (the minimum), greater (the maximum), bit_and,
// bit_or, bit_xor. Every member gets the result.
#pragma GCC system_header
#ifndef CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_
#define CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_

#include "../cooperative_groups.h"

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

}  // namespace cusim::cg

#endif  // CUSIM_CUDA_COOPERATIVE_GROUPS_REDUCE_H_
