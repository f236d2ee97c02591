// SPDX-License-Identifier: MIT
// The CUDA runtime subset on the simulator. Never throws: failures are returned and kept as the
// calling host thread's last error. Work on the default stream runs at once, after the work of
// every blocking stream; work on other streams runs on their threads (streams.cpp). A kernel
// fault on a stream is sticky: every later synchronisation reports its code.
#include "runtime_api.hpp"

#include "capture.hpp"
#include "copies.hpp"
#include "device.hpp"
#include "device_heap.hpp"
#include "memory.hpp"
#include "memory_checker.hpp"
#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>

namespace cusim::sim {

namespace {
thread_local cudaError_t last_error = cudaSuccess;

/// A kernel fault is sticky, as on a GPU: once a call has returned its code (a synchronisation
/// first), cudaGetLastError and cudaPeekAtLastError return it too, until cudaDeviceReset.
std::atomic<cudaError_t> observed_fault{cudaSuccess};

cudaError_t observe(cudaError_t code) {
  if (code != cudaSuccess) observed_fault.store(code, std::memory_order_relaxed);
  return fail(code);
}

/// The sticky code of a kernel fault kept by `stream` (any stream, for nullptr).
cudaError_t fault_code(cudaStream_t stream) { return observe(error_code(stream_fault(stream))); }
}  // namespace

/// After a kernel fault every call that uses the device returns the fault's code until
/// cudaDeviceReset, as on a GPU (its context is lost): cudaSuccess while none was kept.
cudaError_t sticky_fault() { return fault_code(nullptr); }

void set_last_error(cudaError_t code) noexcept {
  if (code != cudaSuccess) last_error = code;
}

}  // namespace cusim::sim

namespace cusim::detail {

cudaError_t runtime_error(cudaError_t code) noexcept { return sim::fail(code); }

cudaError_t c_api_launch_failed(std::exception_ptr failure, cudaStream_t stream) {
  try {
    std::rethrow_exception(failure);
  } catch (const cuda_error& e) {
    return sim::fail(e.code());
  } catch (const kernel_error&) {
    sim::keep_stream_fault(stream, failure);  // reported at the next synchronisation, as on a GPU
    return cudaSuccess;
  } catch (...) {
    return sim::fail(cudaErrorUnknown);
  }
}

void rethrow_stream_fault(cudaStream_t stream) {
  if (stream == nullptr) sim::wait_for(nullptr);
  else if (sim::stream_is_valid(stream)) sim::wait_for(stream);
  if (std::exception_ptr fault = sim::stream_fault(stream)) std::rethrow_exception(fault);
}

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

/// cudaMallocPitch's and cudaMalloc3D's row alignment (what current GPUs use).
constexpr std::size_t pitch_alignment = 512;
/// Stream priorities, as current GPUs number them: lower is greater.
constexpr int least_priority = 0, greatest_priority = -5;

/// What cudaSetDeviceFlags, cudaDeviceSetLimit and cudaDeviceSet*Config keep.
struct device_settings {
  std::mutex mutex;
  unsigned flags = cudaDeviceMapHost;  // mapped pinned memory is always on with unified addressing
  // Indexed by cudaLimit; cudaLimitMallocHeapSize's is the device heap's (device_heap.cpp).
  std::size_t limits[7] = {1024, 1 << 20, 0, 2, 2048, 64, 0};
  cudaFuncCache cache = cudaFuncCachePreferNone;
  cudaSharedMemConfig shared = cudaSharedMemBankSizeFourByte;
};
device_settings& settings() {
  static device_settings s;
  return s;
}

/// Async work on the legacy default stream while a blocking stream captures is an error; on a
/// capturing stream the work is recorded (`work`); else `run` queues or runs it.
template <class Run>
cudaError_t enqueue_or_capture(cudaStream_t stream, cusim::sim::node_work work, Run run) {
  if (stream != nullptr && cusim::detail::stream_is_capturing(stream)) {
    const cudaError_t e = cusim::sim::capture_work(stream, std::move(work));
    return e == cudaSuccess ? e : fail(e);
  }
  if (stream == nullptr)
    if (cudaError_t e = cusim::sim::legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::submit(stream, std::move(run));
  return cudaSuccess;
}

cudaError_t copy_async(const cudaMemcpy3DParms& copy, cudaStream_t stream) {
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::check_copy(copy); e != cudaSuccess) return fail(e);
  if (copy.extent.width == 0 || copy.extent.height == 0 || copy.extent.depth == 0) return cudaSuccess;
  return enqueue_or_capture(stream, cusim::sim::copy_work{copy}, [copy] { cusim::sim::run_copy(copy); });
}

cudaError_t memset_async(const cudaMemsetParams& set, cudaStream_t stream) {
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::check_memset(set); e != cudaSuccess) return fail(e);
  if (set.width == 0 || set.height == 0) return cudaSuccess;
  return enqueue_or_capture(stream, cusim::sim::memset_work{set}, [set] { cusim::sim::run_memset(set); });
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, cusim::detail::source_location site) {
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
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return fail(cudaErrorInvalidValue);
  return copy_async(cusim::sim::linear_copy(dst, src, bytes, kind), stream);
}
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  return cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream) {
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
  return copy_async(*params, stream);
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

cudaError_t cudaDeviceSynchronize() {
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::wait_for(nullptr);
  return cusim::sim::fault_code(nullptr);
}
cudaError_t cudaDeviceReset() {
  cusim::sim::wait_for(nullptr);
  cusim::sim::clear_stream_faults();
  cusim::sim::reset_device_heap();
  cusim::sim::observed_fault.store(cudaSuccess, std::memory_order_relaxed);
  cusim::sim::last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  const cudaError_t last = std::exchange(cusim::sim::last_error, cudaSuccess);
  const cudaError_t sticky = cusim::sim::observed_fault.load(std::memory_order_relaxed);
  return sticky != cudaSuccess ? sticky : last;
}
cudaError_t cudaPeekAtLastError() {
  const cudaError_t sticky = cusim::sim::observed_fault.load(std::memory_order_relaxed);
  return sticky != cudaSuccess ? sticky : cusim::sim::last_error;
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidHostPointer: return "invalid host pointer";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorUnsupportedLimit: return "unsupported limit";
    case cudaErrorPeerAccessUnsupported: return "peer access is not supported between these two devices";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorSetOnActiveProcess: return "cannot set while device is active in this process";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    case cudaErrorNotPermitted: return "operation not permitted";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureMerge: return "operation would result in a merge of separate capture sequences";
    case cudaErrorStreamCaptureUnmatched: return "capture was not ended in the same stream as it began";
    case cudaErrorStreamCaptureUnjoined: return "capturing stream has unjoined work";
    case cudaErrorStreamCaptureIsolation: return "dependency created on uncaptured work in another stream";
    case cudaErrorStreamCaptureImplicit:
      return "operation would make the legacy stream depend on a capturing blocking stream";
    case cudaErrorCapturedEvent: return "operation not permitted on an event last recorded in a capturing stream";
    case cudaErrorStreamCaptureWrongThread:
      return "attempt to terminate a thread-local capture sequence from another thread";
    case cudaErrorGraphExecUpdateFailure:
      return "the graph update was not performed because it included changes which violated constraints specific "
             "to instantiated graph update";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUSIM_NAME(e) \
  case e: return #e;
    CUSIM_NAME(cudaSuccess)
    CUSIM_NAME(cudaErrorInvalidValue)
    CUSIM_NAME(cudaErrorMemoryAllocation)
    CUSIM_NAME(cudaErrorInitializationError)
    CUSIM_NAME(cudaErrorInvalidConfiguration)
    CUSIM_NAME(cudaErrorInvalidSymbol)
    CUSIM_NAME(cudaErrorInvalidDevicePointer)
    CUSIM_NAME(cudaErrorInvalidMemcpyDirection)
    CUSIM_NAME(cudaErrorNoDevice)
    CUSIM_NAME(cudaErrorInvalidDevice)
    CUSIM_NAME(cudaErrorInvalidResourceHandle)
    CUSIM_NAME(cudaErrorNotReady)
    CUSIM_NAME(cudaErrorIllegalAddress)
    CUSIM_NAME(cudaErrorLaunchOutOfResources)
    CUSIM_NAME(cudaErrorAssert)
    CUSIM_NAME(cudaErrorMisalignedAddress)
    CUSIM_NAME(cudaErrorLaunchFailure)
    CUSIM_NAME(cudaErrorCooperativeLaunchTooLarge)
    CUSIM_NAME(cudaErrorNotSupported)
    CUSIM_NAME(cudaErrorInvalidPitchValue)
    CUSIM_NAME(cudaErrorInvalidHostPointer)
    CUSIM_NAME(cudaErrorInvalidDeviceFunction)
    CUSIM_NAME(cudaErrorUnsupportedLimit)
    CUSIM_NAME(cudaErrorPeerAccessUnsupported)
    CUSIM_NAME(cudaErrorIllegalState)
    CUSIM_NAME(cudaErrorPeerAccessAlreadyEnabled)
    CUSIM_NAME(cudaErrorPeerAccessNotEnabled)
    CUSIM_NAME(cudaErrorSetOnActiveProcess)
    CUSIM_NAME(cudaErrorHostMemoryAlreadyRegistered)
    CUSIM_NAME(cudaErrorHostMemoryNotRegistered)
    CUSIM_NAME(cudaErrorNotPermitted)
    CUSIM_NAME(cudaErrorStreamCaptureUnsupported)
    CUSIM_NAME(cudaErrorStreamCaptureInvalidated)
    CUSIM_NAME(cudaErrorStreamCaptureMerge)
    CUSIM_NAME(cudaErrorStreamCaptureUnmatched)
    CUSIM_NAME(cudaErrorStreamCaptureUnjoined)
    CUSIM_NAME(cudaErrorStreamCaptureIsolation)
    CUSIM_NAME(cudaErrorStreamCaptureImplicit)
    CUSIM_NAME(cudaErrorCapturedEvent)
    CUSIM_NAME(cudaErrorStreamCaptureWrongThread)
    CUSIM_NAME(cudaErrorGraphExecUpdateFailure)
    CUSIM_NAME(cudaErrorUnknown)
#undef CUSIM_NAME
  }
  return "cudaErrorUnknown";
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  *prop = cusim::sim::device_properties();
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority) {
  if (stream == nullptr || flags > cudaStreamNonBlocking) return fail(cudaErrorInvalidValue);
  // Like CUDA, a priority outside the device's range is clamped into it.
  *stream = cusim::sim::create_stream(flags, std::clamp(priority, greatest_priority, least_priority));
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return fail(cudaErrorInvalidValue);
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  *priority = cusim::sim::stream_priority(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags) {
  if (flags == nullptr) return fail(cudaErrorInvalidValue);
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  *flags = cusim::sim::stream_flags(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long* id) {
  if (id == nullptr) return fail(cudaErrorInvalidValue);
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  *id = cusim::sim::stream_id(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream != nullptr && cusim::sim::stream_is_valid(stream)) cusim::sim::forget_captured_stream(stream);
  return cusim::sim::destroy_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::synchronize_during_capture(stream); e != cudaSuccess) return fail(e);
  if (stream == nullptr) cusim::sim::wait_for_blocking_streams();  // the legacy default stream
  else cusim::sim::wait_for(stream);
  return cusim::sim::fault_code(stream);
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::synchronize_during_capture(stream); e != cudaSuccess) return fail(e);
  if (cudaError_t e = cusim::sim::fault_code(stream); e != cudaSuccess) return e;
  return cusim::sim::is_idle(stream) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  if (!cusim::sim::stream_is_valid(stream) || !cusim::sim::event_is_valid(event))
    return fail(cudaErrorInvalidResourceHandle);
  if (flags != cudaEventWaitDefault) return fail(cudaErrorInvalidValue);  // external waits are not simulated
  if (auto captured = cusim::sim::capture_event_wait(stream, event))
    return *captured == cudaSuccess ? cudaSuccess : fail(*captured);
  cusim::sim::stream_wait_event(stream, event);
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (fn == nullptr) return fail(cudaErrorInvalidValue);
  return enqueue_or_capture(stream, cusim::sim::host_work{fn, user_data}, [fn, user_data] { fn(user_data); });
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned flags) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (callback == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
  if (stream != nullptr && cusim::detail::stream_is_capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported);  // as in CUDA: cudaLaunchHostFunc is the capturable one
  if (stream == nullptr)
    if (cudaError_t e = cusim::sim::legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::submit(stream, [stream, callback, user_data] {
    callback(stream, cusim::sim::error_code(cusim::sim::stream_fault(stream)), user_data);
  });
  return cudaSuccess;
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue* value) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: {
      const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
      const auto max_window = static_cast<std::size_t>(cusim::sim::device_properties().accessPolicyMaxWindowSize);
      if (w.num_bytes > max_window || !(w.hitRatio >= 0.f && w.hitRatio <= 1.f) ||
          w.hitProp < cudaAccessPropertyNormal || w.hitProp > cudaAccessPropertyPersisting ||
          w.missProp < cudaAccessPropertyNormal || w.missProp > cudaAccessPropertyPersisting)
        return fail(cudaErrorInvalidValue);
      break;
    }
    case cudaLaunchAttributeSynchronizationPolicy:
      if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync)
        return fail(cudaErrorInvalidValue);
      break;
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain: break;
    default: return fail(cudaErrorInvalidValue);  // not a stream attribute
  }
  cusim::sim::set_stream_attribute(stream, attr, *value);
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* value) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain: break;
    default: return fail(cudaErrorInvalidValue);
  }
  if (cusim::sim::stream_attribute(stream, attr, value)) return cudaSuccess;
  *value = cudaLaunchAttributeValue{};
  if (attr == cudaLaunchAttributeSynchronizationPolicy) value->syncPolicy = cudaSyncPolicyAuto;
  if (attr == cudaLaunchAttributePriority) value->priority = cusim::sim::stream_priority(stream);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (event == nullptr || flags > (cudaEventBlockingSync | cudaEventDisableTiming)) return fail(cudaErrorInvalidValue);
  *event = cusim::sim::create_event(flags);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (cusim::sim::event_is_valid(event)) cusim::sim::forget_captured_event(event);
  return cusim::sim::destroy_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
  if (!cusim::sim::event_is_valid(event) || !cusim::sim::stream_is_valid(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (flags != cudaEventRecordDefault && flags != cudaEventRecordExternal) return fail(cudaErrorInvalidValue);
  if (stream != nullptr && cusim::detail::stream_is_capturing(stream)) {  // marks a point of the capture
    cusim::sim::capture_event_record(event, stream);
    return cudaSuccess;
  }
  if (stream == nullptr)
    if (cudaError_t e = cusim::sim::legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::record_event(event, stream);
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!cusim::sim::event_is_valid(event)) return fail(cudaErrorInvalidResourceHandle);
  cusim::sim::wait_for_event(event);
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!cusim::sim::event_is_valid(event)) return fail(cudaErrorInvalidResourceHandle);
  return cusim::sim::query_event(event);  // cudaErrorNotReady is not an error: not recorded as one
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return fail(cudaErrorInvalidValue);
  if (!cusim::sim::event_is_valid(start) || !cusim::sim::event_is_valid(end)) return fail(cudaErrorInvalidResourceHandle);
  const cudaError_t e = cusim::sim::elapsed_ms(ms, start, end);
  return e == cudaSuccess || e == cudaErrorNotReady ? e : fail(e);
}


cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  const auto i = [](std::size_t v) { return static_cast<int>(std::min<std::size_t>(v, 0x7fffffff)); };
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = i(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = i(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = i(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrTextureAlignment: *value = i(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrSurfaceAlignment: *value = i(p.surfaceAlignment); break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrTexturePitchAlignment: *value = i(p.texturePitchAlignment); break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = i(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = i(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCanFlushRemoteWrites: *value = 0; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = p.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = i(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSparseCudaArraySupported: *value = p.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *value = p.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *value = p.gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *value = static_cast<int>(p.gpuDirectRDMAFlushWritesOptions); break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = p.gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *value = static_cast<int>(p.memoryPoolSupportedHandleTypes); break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *value = p.deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: *value = p.ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: *value = 1; break;
    case cudaDevAttrNumaConfig: *value = p.deviceNumaConfig; break;
    case cudaDevAttrNumaId: *value = p.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: *value = p.mpsEnabled; break;
    case cudaDevAttrHostNumaId: *value = p.hostNumaId; break;
    case cudaDevAttrGpuPciDeviceId: *value = static_cast<int>(p.gpuPciDeviceID); break;
    case cudaDevAttrGpuPciSubsystemId: *value = static_cast<int>(p.gpuPciSubsystemID); break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *value = p.hostNumaMultinodeIpcSupported; break;
    case cudaDevAttrMaxTexture1DWidth:
    case cudaDevAttrMaxTexture2DWidth:
    case cudaDevAttrMaxTexture2DHeight:
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth:
    case cudaDevAttrMaxTexture2DLayeredWidth:
    case cudaDevAttrMaxTexture2DLayeredHeight:
    case cudaDevAttrMaxTexture2DLayeredLayers:
    case cudaDevAttrMaxTexture1DLayeredWidth:
    case cudaDevAttrMaxTexture1DLayeredLayers:
    case cudaDevAttrMaxTexture2DGatherWidth:
    case cudaDevAttrMaxTexture2DGatherHeight:
    case cudaDevAttrMaxTexture3DWidthAlt:
    case cudaDevAttrMaxTexture3DHeightAlt:
    case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrMaxTextureCubemapWidth:
    case cudaDevAttrMaxTextureCubemapLayeredWidth:
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
    case cudaDevAttrMaxSurface1DWidth:
    case cudaDevAttrMaxSurface2DWidth:
    case cudaDevAttrMaxSurface2DHeight:
    case cudaDevAttrMaxSurface3DWidth:
    case cudaDevAttrMaxSurface3DHeight:
    case cudaDevAttrMaxSurface3DDepth:
    case cudaDevAttrMaxSurface1DLayeredWidth:
    case cudaDevAttrMaxSurface1DLayeredLayers:
    case cudaDevAttrMaxSurface2DLayeredWidth:
    case cudaDevAttrMaxSurface2DLayeredHeight:
    case cudaDevAttrMaxSurface2DLayeredLayers:
    case cudaDevAttrMaxSurfaceCubemapWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    case cudaDevAttrMaxTexture1DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearHeight:
    case cudaDevAttrMaxTexture2DLinearPitch:
    case cudaDevAttrMaxTexture2DMipmappedWidth:
    case cudaDevAttrMaxTexture2DMipmappedHeight:
    case cudaDevAttrMaxTexture1DMipmappedWidth:
      *value = 0;  // textures and surfaces are not simulated
      break;
    case cudaDevAttrReserved92:
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
    case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrHostNumaMemoryPoolsSupported:
    case cudaDevAttrHostMemoryPoolsSupported:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *value = 0; break;
    default: return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return fail(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

cudaError_t cudaSetDeviceFlags(unsigned flags) {
  const unsigned schedule = flags & cudaDeviceScheduleMask;
  if ((flags & ~cudaDeviceMask) != 0 ||
      (schedule != cudaDeviceScheduleAuto && schedule != cudaDeviceScheduleSpin && schedule != cudaDeviceScheduleYield &&
       schedule != cudaDeviceScheduleBlockingSync))
    return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().flags = flags | cudaDeviceMapHost;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (flags == nullptr) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  *flags = settings().flags;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return fail(cudaErrorInvalidValue);
  *device = 0;  // the only one
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  if (limit == cudaLimitMallocHeapSize)
    return cusim::sim::set_device_heap_limit(value) ? cudaSuccess : fail(cudaErrorInvalidValue);
  if (limit == cudaLimitMaxL2FetchGranularity && (value > 128 || (value & (value - 1)) != 0))
    return fail(cudaErrorInvalidValue);
  if (limit == cudaLimitPersistingL2CacheSize) value = std::min<std::size_t>(value, p.persistingL2CacheMaxSize);
  std::lock_guard lock(settings().mutex);
  settings().limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
  if (limit == cudaLimitMallocHeapSize) {
    *value = cusim::sim::device_heap_limit();
    return cudaSuccess;
  }
  std::lock_guard lock(settings().mutex);
  *value = settings().limits[limit];
  return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (can_access == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0 || peer_device != 0) return fail(cudaErrorInvalidDevice);
  *can_access = 0;  // a device is not its own peer
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned flags) {
  if (flags != 0) return fail(cudaErrorInvalidValue);
  return fail(cudaErrorInvalidDevice);  // device 0 cannot be its own peer; there is no other
}
cudaError_t cudaDeviceDisablePeerAccess(int) { return fail(cudaErrorInvalidDevice); }
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = least_priority;
  if (greatest != nullptr) *greatest = greatest_priority;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().cache = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  *config = settings().cache;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().shared = config;  // banks stay 4 bytes wide, as on every current GPU
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int length, int device) {
  if (bus_id == nullptr || length <= 0) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  std::snprintf(bus_id, static_cast<std::size_t>(length), "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }
cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }
