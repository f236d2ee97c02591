// SPDX-License-Identifier: MIT
// CUDA's declaration qualifiers for the host compiler; on nvcc they are built in.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// __restrict__ is already a keyword of g++ and clang++.

// A __shared__ variable lives in the block's shared memory. On the simulator the checked
// cusim::shared_array is a handle that binds to that memory when it is constructed, so
// `__shared__ cusim::shared_array<float, 16> s;` declares a (const) handle per thread.
// A raw `__shared__ float s[16];` becomes an uninitialised const and fails to compile instead
// of silently giving every thread its own copy.
// CUDA gives every declaration its own variable per function, and per specialization of a
// function template. The key of that variable here is the address of a static local emitted
// beside the declaration: each specialization has its own static, and every inlined copy of one
// function shares it. The handle's constructor takes the key (cusim::detail::shared_key).
#define __shared__ CUSIM_SHARED_DECLARATION_(__COUNTER__)
#define CUSIM_SHARED_DECLARATION_(n) CUSIM_SHARED_DECLARATION_KEY_(CUSIM_SHARED_PASTE_(cusim_shared_key_, n))
#define CUSIM_SHARED_PASTE_(a, b) a##b
#define CUSIM_SHARED_DECLARATION_KEY_(key)  \
  static constexpr char key = 0;              \
  ::cusim::detail::shared_key = &key;         \
  const
