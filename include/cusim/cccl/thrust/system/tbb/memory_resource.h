// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's thrust/system/tbb/memory_resource.h in the toolkit layout's thrust/. With
// THRUST_DEVICE_SYSTEM_TBB, the TBB system is the device's, so its memory resources are the
// device's as for the CPP system (thrust/system/cpp/memory_resource.h): cudaMalloc,
// cudaMallocManaged and cudaMallocHost, with TBB's pointer types.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cpp/memory_resource.h>
#include <thrust/system/tbb/pointer.h>

THRUST_NAMESPACE_BEGIN
namespace system { namespace tbb
{

namespace detail
{
using thrust::system::cpp::detail::cusim_cuda_resource;
using thrust::system::cpp::detail::cusim_malloc;
using thrust::system::cpp::detail::cusim_malloc_host;
using thrust::system::cpp::detail::cusim_malloc_managed;

typedef cusim_cuda_resource<cusim_malloc, cudaFree, thrust::tbb::pointer<void>> native_resource;
typedef cusim_cuda_resource<cusim_malloc_managed, cudaFree, thrust::tbb::universal_pointer<void>>
  universal_native_resource;
typedef cusim_cuda_resource<cusim_malloc_host, cudaFreeHost, thrust::tbb::pointer<void>>
  universal_host_pinned_native_resource;
} // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::universal_host_pinned_native_resource universal_host_pinned_memory_resource;

}} // namespace system::tbb
THRUST_NAMESPACE_END
