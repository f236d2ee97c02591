// SPDX-License-Identifier: MIT
// numba's cuda.grid(ndim) and cuda.gridsize(ndim): absolute thread position and grid extent.
#pragma once

#include <cusim/cuda_runtime.hpp>

namespace cusim {

struct int2_xy {
  int x, y;
};
struct int3_xyz {
  int x, y, z;
};

/// grid<1>() == blockIdx.x * blockDim.x + threadIdx.x; grid<2>() and grid<3>() return a struct
/// of ints usable with structured bindings, x first.
template <int N>
CUSIM_DEVICE inline auto grid() {
  static_assert(N >= 1 && N <= 3, "cusim::grid<N>: N must be 1, 2 or 3");
  auto axis = [](unsigned b, unsigned d, unsigned t) { return static_cast<int>(b * d + t); };
  if constexpr (N == 1) {
    return axis(blockIdx.x, blockDim.x, threadIdx.x);
  } else if constexpr (N == 2) {
    return int2_xy{axis(blockIdx.x, blockDim.x, threadIdx.x), axis(blockIdx.y, blockDim.y, threadIdx.y)};
  } else {
    return int3_xyz{axis(blockIdx.x, blockDim.x, threadIdx.x), axis(blockIdx.y, blockDim.y, threadIdx.y),
                    axis(blockIdx.z, blockDim.z, threadIdx.z)};
  }
}

/// The number of threads in the grid along each of the first N axes (grid-stride loop steps).
template <int N>
CUSIM_DEVICE inline auto gridsize() {
  static_assert(N >= 1 && N <= 3, "cusim::gridsize<N>: N must be 1, 2 or 3");
  if constexpr (N == 1) {
    return static_cast<int>(blockDim.x * gridDim.x);
  } else if constexpr (N == 2) {
    return int2_xy{static_cast<int>(blockDim.x * gridDim.x), static_cast<int>(blockDim.y * gridDim.y)};
  } else {
    return int3_xyz{static_cast<int>(blockDim.x * gridDim.x), static_cast<int>(blockDim.y * gridDim.y),
                    static_cast<int>(blockDim.z * gridDim.z)};
  }
}

}  // namespace cusim
