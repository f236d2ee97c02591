// SPDX-License-Identifier: MIT
// Memory management: allocation, copies and memsets (queued on a stream or recorded into its
// capture), host registration, pointer attributes and __device__ symbols.
#include "capture.hpp"
#include "copies.hpp"
#include "device.hpp"
#include "dynamic_parallelism.hpp"
#include "memory.hpp"
#include "runtime_errors.hpp"
#include "runtime_streams.hpp"
#include "streams.hpp"
#include "cuda_arrays.hpp"

#include <cusim/host/launch.hpp>

#include <cstring>
#include <optional>

namespace cusim::detail {

cudaError_t memcpy_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t bytes,
                          std::size_t offset, cudaMemcpyKind kind, bool to_symbol) {
  sim::wait_for_blocking_streams();
  const cudaMemcpyKind expected = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (kind != expected && kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice)
    return sim::fail(cudaErrorInvalidMemcpyDirection);
  if (src == nullptr || offset > symbol_bytes || bytes > symbol_bytes - offset) return sim::fail(cudaErrorInvalidValue);
  char* at = static_cast<char*>(symbol) + offset;
  if (to_symbol)
    std::memcpy(at, src, bytes);
  else
    std::memcpy(const_cast<void*>(src), at, bytes);
  return cudaSuccess;
}

}  // namespace cusim::detail

using cusim::sim::fail;
using cusim::sim::enqueue_or_capture;

namespace {
/// `caller`: the API call's return address into the program (named by raw-pointer reports).
cudaError_t allocate(void** ptr, std::size_t bytes, cusim::sim::allocation_kind kind,
                     const cusim::detail::source_location& site = {}, unsigned flags = 0, std::uintptr_t caller = 0) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  if (bytes == 0) return cudaSuccess;
  if (bytes > cusim::sim::device_properties().totalGlobalMem) return fail(cudaErrorMemoryAllocation);
  *ptr = cusim::sim::allocate(bytes, kind, site, flags, caller);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

std::uintptr_t address(void* pc) { return reinterpret_cast<std::uintptr_t>(pc); }

/// `code`, kept as the last error unless it is cudaSuccess.
cudaError_t or_fail(cudaError_t code) { return code == cudaSuccess ? code : fail(code); }

/// cudaMalloc in a kernel: the device heap's (malloc's), cudaErrorMemoryAllocation past it.
cudaError_t device_allocate(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  *ptr = cusim::detail::device_malloc(bytes);
  return *ptr != nullptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

/// cudaMallocPitch's and cudaMalloc3D's row alignment (what current GPUs use).
constexpr std::size_t pitch_alignment = 512;

cudaError_t copy_async(const cudaMemcpy3DParms& copy, cudaStream_t stream) {
  if (cusim::sim::in_kernel()) return or_fail(cusim::sim::queue_device_copy(copy, stream));  // the device runtime's
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::check_copy(copy); e != cudaSuccess) return fail(e);
  if (copy.extent.width == 0 || copy.extent.height == 0 || copy.extent.depth == 0) return cudaSuccess;
  return enqueue_or_capture(stream, cusim::sim::copy_work{copy}, [copy] { cusim::sim::run_copy(copy); });
}

cudaError_t memset_async(const cudaMemsetParams& set, cudaStream_t stream) {
  if (cusim::sim::in_kernel()) return or_fail(cusim::sim::queue_device_memset(set, stream));
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::check_memset(set); e != cudaSuccess) return fail(e);
  if (set.width == 0 || set.height == 0) return cudaSuccess;
  return enqueue_or_capture(stream, cusim::sim::memset_work{set}, [set] { cusim::sim::run_memset(set); });
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, cusim::detail::source_location site) {
  if (cusim::sim::in_kernel()) return device_allocate(ptr, bytes);
  return allocate(ptr, bytes, cusim::sim::allocation_kind::device, site);
}
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags, cusim::detail::source_location site) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return fail(cudaErrorInvalidValue);
  return allocate(ptr, bytes, cusim::sim::allocation_kind::managed, site);
}
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  return allocate(ptr, bytes, cusim::sim::allocation_kind::host, {}, 0, address(__builtin_return_address(0)));
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags) {
  if (flags & ~(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
    return fail(cudaErrorInvalidValue);
  return allocate(ptr, bytes, cusim::sim::allocation_kind::host, {}, flags, address(__builtin_return_address(0)));
}
cudaError_t cudaFree(void* ptr) {
  if (cusim::sim::in_kernel()) return cusim::detail::device_free(ptr), cudaSuccess;  // the device heap's
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (ptr == nullptr) return cudaSuccess;
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::wait_for(nullptr);  // like CUDA, cudaFree waits for the device
  return cusim::sim::release(ptr, true, false, address(__builtin_return_address(0))) ? cudaSuccess : fail(cudaErrorInvalidValue);
}
cudaError_t cudaFreeHost(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::wait_for(nullptr);
  return cusim::sim::release(ptr, false, true, address(__builtin_return_address(0))) ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (cusim::sim::in_kernel()) return copy_async(cusim::sim::linear_copy(dst, src, bytes, kind), stream);
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return fail(cudaErrorInvalidValue);
  return copy_async(cusim::sim::linear_copy(dst, src, bytes, kind), stream);
}
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaMemcpy");
  return cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream) {
  if (cusim::sim::in_kernel())
    return memset_async(cudaMemsetParams{ptr, bytes, static_cast<unsigned>(value), 1, bytes, 1}, stream);
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  return memset_async(cudaMemsetParams{ptr, bytes, static_cast<unsigned>(value), 1, bytes, 1}, stream);
}
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) { return cudaMemsetAsync(ptr, value, bytes, nullptr); }
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return fail(cudaErrorInvalidValue);
  *total_bytes = cusim::sim::device_properties().totalGlobalMem;
  const std::size_t used = cusim::sim::device_bytes_in_use();
  *free_bytes = used < *total_bytes ? *total_bytes - used : 0;
  return cudaSuccess;
}

cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  if (ptr == nullptr || pitch == nullptr) return fail(cudaErrorInvalidValue);
  *pitch = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
  return allocate(ptr, *pitch * height, cusim::sim::allocation_kind::device, {}, 0,
                  address(__builtin_return_address(0)));
}
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
  if (pitched == nullptr) return fail(cudaErrorInvalidValue);
  const std::size_t pitch = (extent.width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
  void* p = nullptr;
  if (cudaError_t e = allocate(&p, pitch * extent.height * extent.depth, cusim::sim::allocation_kind::device);
      e != cudaSuccess)
    return e;
  *pitched = make_cudaPitchedPtr(p, pitch, extent.width, extent.height);
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (width == 0 || height == 0) return cudaSuccess;
  if (dpitch < width || spitch < width) return fail(cudaErrorInvalidPitchValue);
  const std::size_t max_pitch = cusim::sim::device_properties().memPitch;
  if (dpitch > max_pitch || spitch > max_pitch) return fail(cudaErrorInvalidValue);
  return copy_async(cusim::sim::pitched_copy(dst, dpitch, src, spitch, width, height, kind), stream);
}
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, nullptr);
}
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream) {
  return memset_async(cudaMemsetParams{ptr, pitch, static_cast<unsigned>(value), 1, width, height}, stream);
}
cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  return cudaMemset2DAsync(ptr, pitch, value, width, height, nullptr);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* params, cudaStream_t stream) {
  if (params == nullptr) return fail(cudaErrorInvalidValue);
  cudaMemcpy3DParms copy = *params;  // a CUDA array's side becomes its storage's (cuda_arrays.hpp)
  if (cudaError_t e = cusim::sim::resolve_array_copy(copy); e != cudaSuccess) return fail(e);
  return copy_async(copy, stream);
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* params) { return cudaMemcpy3DAsync(params, nullptr); }
cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent) {
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) return cudaSuccess;
  if (extent.width > pitched.pitch || (extent.depth > 1 && extent.height > pitched.ysize)) return fail(cudaErrorInvalidValue);
  // Whole slices are one 2-D memset of height * depth rows when they are contiguous.
  for (std::size_t z = 0; z < extent.depth; ++z) {
    void* slice = static_cast<char*>(pitched.ptr) + z * pitched.pitch * pitched.ysize;
    if (cudaError_t e = cudaMemset2D(slice, pitched.pitch, value, extent.width, extent.height); e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream) {
  if (dst_device != 0 || src_device != 0) return fail(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
}
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, nullptr);
}

cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags) {
  if (ptr == nullptr || bytes == 0 ||
      (flags & ~(cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)))
    return fail(cudaErrorInvalidValue);
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  return cusim::sim::adopt(ptr, bytes, cusim::sim::allocation_kind::registered_host, flags)
             ? cudaSuccess
             : fail(cudaErrorHostMemoryAlreadyRegistered);
}
cudaError_t cudaHostUnregister(void* ptr) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  return cusim::sim::release_registered(ptr) ? cudaSuccess : fail(cudaErrorHostMemoryNotRegistered);
}
namespace {
/// The pinned or registered host allocation holding `p`.
std::optional<cusim::sim::allocation_info> host_allocation(const void* p) {
  auto a = cusim::sim::find_allocation(p);
  using cusim::sim::allocation_kind;
  if (a && (a->kind == allocation_kind::host || a->kind == allocation_kind::registered_host)) return a;
  return std::nullopt;
}
}  // namespace
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags) {
  if (device_ptr == nullptr || flags != 0 || !host_allocation(host_ptr)) return fail(cudaErrorInvalidValue);
  *device_ptr = host_ptr;  // zero copy: kernels use the host's memory through the same address
  return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned* flags, void* host_ptr) {
  const auto a = host_allocation(host_ptr);
  if (flags == nullptr || !a) return fail(cudaErrorInvalidValue);
  *flags = a->flags;
  return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return fail(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  attributes->type = cudaMemoryTypeUnregistered;
  attributes->device = cudaInvalidDeviceId;
  const auto a = cusim::sim::find_allocation(ptr);
  if (!a) return cudaSuccess;
  void* p = const_cast<void*>(ptr);
  attributes->device = 0;
  attributes->devicePointer = p;  // one address space: the device sees host and managed memory where the host does
  switch (a->kind) {
    case cusim::sim::allocation_kind::device:
    case cusim::sim::allocation_kind::symbol: attributes->type = cudaMemoryTypeDevice; break;
    case cusim::sim::allocation_kind::managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = p;
      break;
    case cusim::sim::allocation_kind::host:
    case cusim::sim::allocation_kind::registered_host:
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = p;
      break;
  }
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (ptr == nullptr || flags != 0 || !cusim::sim::is_device_range(ptr, bytes ? bytes : 1)) return fail(cudaErrorInvalidValue);
  if (location.type == cudaMemLocationTypeDevice ? location.id != 0 : location.type != cudaMemLocationTypeHost)
    return fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location) {
  if (ptr == nullptr || advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy ||
      !cusim::sim::is_device_range(ptr, bytes ? bytes : 1))
    return fail(cudaErrorInvalidValue);
  const bool needs_location = advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
  if (needs_location && (location.type == cudaMemLocationTypeDevice ? location.id != 0 : location.type != cudaMemLocationTypeHost))
    return fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}
cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol) {
  if (ptr == nullptr || symbol == nullptr) return fail(cudaErrorInvalidSymbol);
  *ptr = const_cast<void*>(symbol);  // a __device__ variable is an ordinary variable here
  return cudaSuccess;
}
namespace cusim::detail {
cudaError_t symbol_address(void** ptr, const void* symbol, std::size_t bytes) {
  if (ptr == nullptr || symbol == nullptr) return sim::fail(cudaErrorInvalidSymbol);
  // Known by its size now, the variable is device memory to the copy checks from here on.
  sim::adopt(const_cast<void*>(symbol), bytes, sim::allocation_kind::symbol);
  *ptr = const_cast<void*>(symbol);
  return cudaSuccess;
}
}  // namespace cusim::detail
cudaError_t cudaGetSymbolSize(std::size_t*, const void*) {
  return fail(cudaErrorInvalidSymbol);  // known only from the variable's type: the C++ overload
}
