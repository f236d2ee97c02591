// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): the reduction operators of CUB.
#pragma once

namespace cub {

struct Sum {
  template <class A, class B>
  __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};

struct Max {
  template <class A, class B>
  __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const {
    return (a > b) ? a : b;
  }
};

struct Min {
  template <class A, class B>
  __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const {
    return (a < b) ? a : b;
  }
};

}  // namespace cub
