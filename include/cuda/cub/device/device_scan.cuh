// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::DeviceScan, with DeviceReduce's protocol
// (cub/device/device_reduce.cuh): a size query with d_temp_storage null, then the scan queued on
// the stream as a kernel that walks the items in order. d_in and d_out may be the same array.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/thread/thread_operators.cuh>

namespace cub {
namespace cusim_detail {

template <bool Exclusive, typename InputIt, typename OutputIt, typename Op, typename T>
__global__ void scan_kernel(InputIt in, OutputIt out, int n, Op op, T init) {
  T acc = init;
  for (int i = 0; i < n; ++i) {
    T item = in[i];  // read before the write: in place is allowed
    if (Exclusive) {
      out[i] = acc;
      acc = op(acc, item);
    } else {
      acc = i == 0 ? item : op(acc, item);
      out[i] = acc;
    }
  }
}

template <bool Exclusive, typename T, typename InputIt, typename OutputIt, typename Op>
cudaError_t scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt in, OutputIt out, int n, Op op,
                 T init, cudaStream_t stream) {
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = reduce_temp_bytes;
    return cudaSuccess;
  }
  if (temp_storage_bytes < reduce_temp_bytes) return cudaErrorInvalidValue;
  return CUSIM_CUB_LAUNCH((scan_kernel<Exclusive, InputIt, OutputIt, Op, T>), 1, 1, stream, in, out, n, op, init);
}

}  // namespace cusim_detail

struct DeviceScan {
  template <typename InputIt, typename OutputIt>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                  OutputIt d_out, int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::scan<true, T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(), T(),
                                       stream);
  }

  template <typename InputIt, typename OutputIt>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                  OutputIt d_out, int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::scan<false, T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(), T(),
                                        stream);
  }

  template <typename InputIt, typename OutputIt, typename ScanOp, typename T>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                   OutputIt d_out, ScanOp scan_op, T init_value, int num_items,
                                   cudaStream_t stream = 0) {
    return cusim_detail::scan<true, T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, scan_op,
                                       init_value, stream);
  }

  template <typename InputIt, typename OutputIt, typename ScanOp>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                   OutputIt d_out, ScanOp scan_op, int num_items, cudaStream_t stream = 0) {
    using T = cusim_detail::value_of<InputIt>;
    return cusim_detail::scan<false, T>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, scan_op, T(),
                                        stream);
  }
};

}  // namespace cub
