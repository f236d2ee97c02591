// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's thrust/system/cpp/memory_resource.h in the toolkit layout's thrust/. The CPP
// system is Thrust's device system on the simulator (thrust/detail/config/device_system.h beside
// this file), so its memory resources are the device's, as Thrust's CUDA system has them:
// device_vector and device_allocator allocate with cudaMalloc, the universal resource with
// cudaMallocManaged, the pinned one with cudaMallocHost. Kernels can then be given
// raw_pointer_cast(v.data()), cudaMemcpy reads and writes it as device memory, and the simulator's
// checks report an access past its end. A failed allocation throws thrust::system::detail::bad_alloc
// whose what() ends with the error's name and string; a failed free (a kernel fault's sticky
// error, say) throws thrust::system_error, worded as the CUDA system's resources word it.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/system/system_error.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

THRUST_NAMESPACE_BEGIN
namespace system { namespace cpp
{

namespace detail
{

inline std::string cusim_error_words(cudaError_t e)
{
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// The CUDA runtime's errors as Thrust's CUDA system words them (thrust::cuda_category()).
class cusim_cuda_category final : public thrust::error_category
{
public:
  const char* name() const override { return "cuda"; }
  std::string message(int ev) const override { return cusim_error_words(static_cast<cudaError_t>(ev)); }
};

inline const thrust::error_category& cusim_cuda_errors()
{
  static const cusim_cuda_category category;
  return category;
}

// Allocate(void** p, size_t bytes), Free(void* p): the CUDA runtime's pair for this kind of memory.
template <cudaError_t (*Allocate)(void**, std::size_t), cudaError_t (*Free)(void*), typename Pointer>
class cusim_cuda_resource final : public thrust::mr::memory_resource<Pointer>
{
public:
  Pointer do_allocate(std::size_t bytes, std::size_t = THRUST_MR_DEFAULT_ALIGNMENT) override
  {
    void* p = nullptr;
    cudaError_t e = Allocate(&p, bytes);
    if (e != cudaSuccess)
    {
      cudaGetLastError();  // not sticky: the program goes on, as with the CUDA system
      throw thrust::system::detail::bad_alloc(cusim_error_words(e));
    }
    return Pointer(p);
  }

  void do_deallocate(Pointer p, std::size_t, std::size_t) override
  {
    cudaError_t e = Free(thrust::detail::pointer_traits<Pointer>::get(p));
    if (e != cudaSuccess)
    {
      throw thrust::system_error(static_cast<int>(e), cusim_cuda_errors(), "CUDA free failed");
    }
  }
};

inline cudaError_t cusim_malloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline cudaError_t cusim_malloc_managed(void** p, std::size_t bytes) { return cudaMallocManaged(p, bytes); }
inline cudaError_t cusim_malloc_host(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }

typedef cusim_cuda_resource<cusim_malloc, cudaFree, thrust::cpp::pointer<void>> native_resource;
typedef cusim_cuda_resource<cusim_malloc_managed, cudaFree, thrust::cpp::universal_pointer<void>>
  universal_native_resource;
typedef cusim_cuda_resource<cusim_malloc_host, cudaFreeHost, thrust::cpp::pointer<void>>
  universal_host_pinned_native_resource;

} // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::universal_host_pinned_native_resource universal_host_pinned_memory_resource;

}} // namespace system::cpp
THRUST_NAMESPACE_END
