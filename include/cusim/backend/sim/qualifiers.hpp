// SPDX-License-Identifier: MIT
// CUDA's declaration qualifiers for the host compiler; on nvcc they are built in.
#pragma once

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
// `__shared__ cusim::shared_array<float, 16> s;` must declare a (const) handle per thread.
// A raw `__shared__ float s[16];` becomes an uninitialised const and fails to compile instead
// of silently giving every thread its own copy.
#define __shared__ const
