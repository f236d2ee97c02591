// SPDX-License-Identifier: MIT
// cusim's <cooperative_groups/scan.h>: cg::inclusive_scan and cg::exclusive_scan over a warp's group
// (a tile or a coalesced group), in rank order, with cg::plus by default.
#pragma GCC system_header
#ifndef CUSIM_CUDA_COOPERATIVE_GROUPS_SCAN_H_
#define CUSIM_CUDA_COOPERATIVE_GROUPS_SCAN_H_

#include "reduce.h"

namespace cusim::cg {

/// op over the values of ranks 0 to the caller's, inclusive.
template <class Group, class T, class Op>
T inclusive_scan(const Group& g, T value, Op&& op, detail::source_location site = detail::source_location::current()) {
  return detail_cg::fold_ranks(g, value, std::forward<Op>(op), g.thread_rank(), site);
}
template <class Group, class T>
T inclusive_scan(const Group& g, T value, detail::source_location site = detail::source_location::current()) {
  return inclusive_scan(g, value, plus<T>(), site);
}

/// op over the values of the ranks below the caller's; rank 0 gets T() (CUDA leaves it undefined
/// for operators other than plus, where it is 0).
template <class Group, class T, class Op>
T exclusive_scan(const Group& g, T value, Op&& op, detail::source_location site = detail::source_location::current()) {
  const unsigned rank = g.thread_rank();
  T below = detail_cg::fold_ranks(g, value, op, rank == 0 ? 0 : rank - 1, site);
  return rank == 0 ? T() : below;
}
template <class Group, class T>
T exclusive_scan(const Group& g, T value, detail::source_location site = detail::source_location::current()) {
  return exclusive_scan(g, value, plus<T>(), site);
}

}  // namespace cusim::cg

#endif  // CUSIM_CUDA_COOPERATIVE_GROUPS_SCAN_H_
