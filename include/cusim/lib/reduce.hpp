// SPDX-License-Identifier: MIT
// cusim::reduce(view, init, op): numba's @cuda.reduce, written with the kernel API itself so it
// runs on both backends: a grid-stride, shared-memory tree reduction per block, launched twice
// (the input to at most 1024 partials, then the partials to one value).
#pragma once

#include <cusim/host/device_array.hpp>
#include <cusim/host/launch.hpp>
#include <cusim/kernel/arrays.hpp>
#include <cusim/kernel/grid.hpp>
#include <cusim/kernel/sync.hpp>

#include <cstddef>
#include <type_traits>

namespace cusim {

namespace detail {

inline constexpr unsigned reduce_block_size = 256;

template <class T, class Op>
__global__ void reduce_blocks(span<const T> in, span<T> partial, Op op) {
  __shared__ shared_array<T, reduce_block_size> acc;
  __shared__ shared_array<int, reduce_block_size> has;
  const unsigned tid = threadIdx.x;
  T value{};
  int have = 0;
  for (index_t i = grid<1>(); i < static_cast<index_t>(in.size()); i += gridsize<1>()) {
    value = have ? op(value, in[i]) : in[i];
    have = 1;
  }
  acc[tid] = value;
  has[tid] = have;
  __syncthreads();
  for (unsigned stride = reduce_block_size / 2; stride > 0; stride /= 2) {
    if (tid < stride && has[tid + stride]) {
      acc[tid] = has[tid] ? op(acc[tid], acc[tid + stride]) : acc[tid + stride];
      has[tid] = 1;
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = acc[0];  // every block has an element: blocks <= ceil(n / block)
}

}  // namespace detail

/// Reduces `view` with the associative (and commutative) `op`, starting from `init`:
/// `float total = cusim::reduce(d_x, 0.0f, [] __host__ __device__ (float a, float b) { return a + b; });`
template <class T, class Op>
T reduce(span<const T> view, std::type_identity_t<T> init, Op op) {
  if (view.size() == 0) return init;
  const std::size_t wanted = (view.size() + detail::reduce_block_size - 1) / detail::reduce_block_size;
  const auto blocks = static_cast<unsigned>(wanted < 1024 ? wanted : 1024);
  device_array<T> partial(blocks);
  device_array<T> total(1);
  launch(detail::reduce_blocks<T, Op>, dim3(blocks), dim3(detail::reduce_block_size), view, partial, op);
  launch(detail::reduce_blocks<T, Op>, dim3(1), dim3(detail::reduce_block_size), span<const T>(partial), total, op);
  return op(init, total.copy_to_host()[0]);
}
template <class T, class Op>
T reduce(span<T> view, std::type_identity_t<T> init, Op op) {
  return reduce(span<const T>(view), init, op);
}
template <class T, class Op>
T reduce(const device_array<T, 1>& array, std::type_identity_t<T> init, Op op) {
  return reduce(span<const T>(array), init, op);
}

}  // namespace cusim
