// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::DeviceReduce. As in CUB, a call with
// d_temp_storage null only sets temp_storage_bytes; the next, with that much device memory, queues
// the reduction on the stream as a kernel (one thread, the items in order, read and written
// through the simulator's checks) and returns the launch's error; a smaller temp_storage_bytes is
// cudaErrorInvalidValue. Floating-point sums are folded in order, so their last bits may differ
// from CUB's tree on a GPU.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/thread/thread_operators.cuh>

#include <iterator>
#include <limits>

namespace cub {
namespace cusim_detail {

template <typename InputIt, typename OutputIt, typename Op, typename T>
__global__ void reduce_kernel(InputIt in, OutputIt out, int n, Op op, T init) {
  T acc = init;
  for (int i = 0; i < n; ++i) {
    T item = in[i];  // read here, so that a report names this line
    acc = op(acc, item);
  }
  *out = acc;
}

// The device memory a reduction asks for: CUB never asks for none.
constexpr std::size_t reduce_temp_bytes = 16;

template <typename T, typename InputIt, typename OutputIt, typename Op>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt in, OutputIt out, int n, Op op,
                   T init, cudaStream_t stream) {
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = reduce_temp_bytes;
    return cudaSuccess;
  }
  if (temp_storage_bytes < reduce_temp_bytes) return cudaErrorInvalidValue;
  return CUSIM_CUB_LAUNCH((reduce_kernel<InputIt, OutputIt, Op, T>), 1, 1, stream, in, out, n, op, init);
}

template <typename It>
using value_of = typename std::iterator_traits<It>::value_type;

}  // namespace cusim_detail

struct DeviceReduce {
  template <typename InputIt, typename OutputIt, typename ReductionOp, typename T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            int num_items, ReductionOp reduction_op, T init, cudaStream_t stream = 0) {
    return cusim_detail::reduce<T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init,
                                   stream);
  }

  template <typename InputIt, typename OutputIt>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::reduce<T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(), T(),
                                   stream);
  }

  template <typename InputIt, typename OutputIt>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::reduce<T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Max(),
                                   std::numeric_limits<T>::lowest(), stream);
  }

  template <typename InputIt, typename OutputIt>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::reduce<T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Min(),
                                   std::numeric_limits<T>::max(), stream);
  }
};

}  // namespace cub
