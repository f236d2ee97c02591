// SPDX-License-Identifier: MIT
// cusim's <cooperative_groups/memcpy_async.h>: cg::memcpy_async(group, dst, src, bytes) (a size_t
// or a cuda::aligned_size_t), cg::memcpy_async(group, dst, dst_count, src, src_count) in elements,
// cg::wait(group) and cg::wait_prior<N>(group). Every thread of the group calls them; each copies
// its share now, checked like any access of the program, and the wait is the group's sync (the
// copies are complete by then: include/cusim/backend/sim/libcudacxx_sync.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_
#define CUSIM_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_

#include "../cooperative_groups.h"

#include <cusim/backend/sim/libcudacxx_sync.hpp>

#include <cstddef>
#include <type_traits>

namespace cusim::cg {

namespace detail_async {
template <class T>
constexpr std::size_t align_of() {
  if constexpr (std::is_void_v<T>) return 1;
  else return alignof(T);
}
template <class Group, class T, class Size>
[[gnu::always_inline]] inline void copy(const Group& g, T* dst, const T* src, Size bytes, const detail::source_location& site) {
  constexpr std::size_t align = ::cuda::detail_lcx::size_align<Size>();
  detail::check_alignment(dst, src, static_cast<std::size_t>(bytes), align, site);
  detail::group_async_copy(g, const_cast<std::remove_const_t<T>*>(dst), src, static_cast<std::size_t>(bytes),
                           align > align_of<T>() ? align : align_of<T>());
}
}  // namespace detail_async

/// The group copies `bytes` bytes from `src` to `dst`, each thread its share.
template <class Group, class T, class Size>
  requires std::is_convertible_v<Size, std::size_t>
[[gnu::always_inline]] inline void memcpy_async(const Group& g, T* dst, const T* src, const Size& bytes,
                                                detail::source_location site = detail::source_location::current()) {
  detail_async::copy(g, dst, src, bytes, site);
}

/// The group copies min(dst_count, src_count) elements from `src` to `dst`.
template <class Group, class T, class DstCount, class SrcCount>
  requires std::is_convertible_v<DstCount, std::size_t> && std::is_convertible_v<SrcCount, std::size_t>
[[gnu::always_inline]] inline void memcpy_async(const Group& g, T* dst, const DstCount& dst_count, const T* src,
                                                const SrcCount& src_count,
                                                detail::source_location site = detail::source_location::current()) {
  const std::size_t d = static_cast<std::size_t>(dst_count), s = static_cast<std::size_t>(src_count);
  constexpr std::size_t align = ::cuda::detail_lcx::size_align<DstCount>();
  const std::size_t bytes = (d < s ? d : s) * sizeof(T);
  detail::check_alignment(dst, src, bytes, align, site);
  detail::group_async_copy(g, dst, src, bytes, align > alignof(T) ? align : alignof(T));
}

/// Waits for the group's copies (all complete at their call), then syncs the group.
template <class Group>
void wait(const Group& g, detail::source_location site = detail::source_location::current()) {
  g.sync(site);
}
/// Waits until at most `Stage` of the group's latest copies are in flight, then syncs the group.
template <unsigned Stage, class Group>
void wait_prior(const Group& g, detail::source_location site = detail::source_location::current()) {
  g.sync(site);
}

}  // namespace cusim::cg

#endif  // CUSIM_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_
