// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's thrust/system/cuda/execution_policy.h in the toolkit layout's thrust/.
// Thrust's device system on the simulator is its CPP one (thrust/detail/config/device_system.h), so
// the CUDA system's policies a program names, thrust::cuda::par, thrust::cuda::par_nosync and
// their .on(stream), run the algorithm on the calling thread like thrust::device. .on(stream)
// first waits for the work queued on the stream (cudaStreamSynchronize), so that the algorithm
// sees what the stream's kernels and copies wrote, as it would running on that stream; the
// algorithm has finished when the call returns, which thrust::cuda::par promises and
// par_nosync allows. A policy made with .on(stream) and kept waits when it is made, not when it
// is used.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include <thrust/system/cpp/detail/par.h>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub
{

// The policy .on(stream) gives: the CPP system's own, after the stream's work.
typedef thrust::system::cpp::detail::par_t execute_on_stream;
typedef thrust::system::cpp::detail::par_t execute_on_stream_nosync;

struct par_t : thrust::system::cpp::detail::par_t
{
  typedef execute_on_stream stream_attachment_type;

  constexpr par_t() : thrust::system::cpp::detail::par_t() {}

  stream_attachment_type on(cudaStream_t const& stream) const
  {
    cudaStreamSynchronize(stream);  // a fault it returns stays the program's sticky error
    return stream_attachment_type();
  }
};

struct par_nosync_t : thrust::system::cpp::detail::par_t
{
  typedef execute_on_stream_nosync stream_attachment_type;

  constexpr par_nosync_t() : thrust::system::cpp::detail::par_t() {}

  stream_attachment_type on(cudaStream_t const& stream) const
  {
    cudaStreamSynchronize(stream);
    return stream_attachment_type();
  }
};

inline constexpr par_t par;
inline constexpr par_nosync_t par_nosync;

} // namespace cuda_cub

namespace system { namespace cuda
{
using thrust::cuda_cub::par;
using thrust::cuda_cub::par_nosync;
namespace detail
{
using thrust::cuda_cub::par_t;
using thrust::cuda_cub::par_nosync_t;
} // namespace detail
}} // namespace system::cuda

namespace cuda = cuda_cub;

THRUST_NAMESPACE_END
