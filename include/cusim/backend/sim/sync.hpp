// SPDX-License-Identifier: MIT
// The simulator's block and warp barriers (__syncthreads and its predicate forms, __syncwarp) and fences.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>

/// Waits until every thread of the block has reached this __syncthreads (exited threads count
/// as arrived). Threads waiting at different call sites are reported as barrier divergence.
inline void __syncthreads(cusim::detail::source_location site = cusim::detail::source_location::current()) {
  cusim::detail::sync_block(cusim::detail::sync_op::plain, 0, site);
}
/// __syncthreads that returns how many threads passed a non-zero predicate.
inline int __syncthreads_count(int predicate, cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cusim::detail::sync_block(cusim::detail::sync_op::count, predicate, site);
}
/// __syncthreads that returns non-zero iff the predicate is non-zero for every thread.
inline int __syncthreads_and(int predicate, cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cusim::detail::sync_block(cusim::detail::sync_op::all, predicate, site);
}
/// __syncthreads that returns non-zero iff the predicate is non-zero for any thread.
inline int __syncthreads_or(int predicate, cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cusim::detail::sync_block(cusim::detail::sync_op::any, predicate, site);
}
/// The lanes of the calling warp named in mask wait for each other (the caller must be in mask).
inline void __syncwarp(unsigned mask = 0xffffffffu, cusim::detail::source_location site = cusim::detail::source_location::current()) {
  cusim::detail::warp_collective({cusim::detail::warp_op::sync, mask}, site);
}

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
