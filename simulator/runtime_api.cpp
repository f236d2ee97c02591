// SPDX-License-Identifier: MIT
// The CUDA runtime subset on the simulator. Never throws: failures are returned and kept as the
// calling host thread's last error. Work on the default stream runs at once, after the work of
// every blocking stream; work on other streams runs on their threads (streams.cpp). A kernel
// fault on a stream is sticky: every later synchronisation reports its code.
#include "runtime_api.hpp"

#include "device.hpp"
#include "memory.hpp"
#include "memory_checker.hpp"
#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <chrono>
#include <cstring>

namespace cusim::sim {

namespace {
thread_local cudaError_t last_error = cudaSuccess;

cudaError_t fail(cudaError_t code) noexcept {
  set_last_error(code);
  return code;
}
/// The sticky code of a kernel fault kept by `stream` (any stream, for nullptr).
cudaError_t fault_code(cudaStream_t stream) { return fail(error_code(stream_fault(stream))); }
}  // namespace

void set_last_error(cudaError_t code) noexcept {
  if (code != cudaSuccess) last_error = code;
}

}  // namespace cusim::sim

namespace cusim::detail {

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
cudaError_t allocate(void** ptr, std::size_t bytes, cusim::sim::allocation_kind kind,
                     const cusim::detail::source_location& site = {}) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  if (bytes > cusim::sim::device_properties().totalGlobalMem) return fail(cudaErrorMemoryAllocation);
  *ptr = cusim::sim::allocate(bytes, kind, site);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
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
  return allocate(ptr, bytes, cusim::sim::allocation_kind::host);
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }
cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  cusim::sim::wait_for(nullptr);  // like CUDA, cudaFree waits for the device
  return cusim::sim::release(ptr, true, false) ? cudaSuccess : fail(cudaErrorInvalidValue);
}
cudaError_t cudaFreeHost(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  cusim::sim::wait_for(nullptr);
  return cusim::sim::release(ptr, false, true) ? cudaSuccess : fail(cudaErrorInvalidValue);
}

namespace {
cudaError_t check_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  using cusim::sim::is_device_range;
  switch (kind) {
    case cudaMemcpyHostToHost: return cudaSuccess;
    case cudaMemcpyHostToDevice: return is_device_range(dst, bytes) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost: return is_device_range(src, bytes) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice:
      return is_device_range(dst, bytes) && is_device_range(src, bytes) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDefault: return cudaSuccess;
  }
  return cudaErrorInvalidMemcpyDirection;
}
}  // namespace

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (cudaError_t e = check_copy(dst, src, bytes, kind); e != cudaSuccess) return fail(e);
  cusim::sim::submit(stream, [=] {
    std::memmove(dst, src, bytes);
    cusim::sim::note_host_write(dst, bytes);  // CUSIM_CHECK=init: the bytes are initialised
  });
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  return cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (!cusim::sim::is_device_range(ptr, bytes)) return fail(cudaErrorInvalidValue);
  cusim::sim::submit(stream, [=] {
    std::memset(ptr, value, bytes);
    cusim::sim::note_host_write(ptr, bytes);
  });
  return cudaSuccess;
}
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) { return cudaMemsetAsync(ptr, value, bytes, nullptr); }
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return fail(cudaErrorInvalidValue);
  *total_bytes = cusim::sim::device_properties().totalGlobalMem;
  const std::size_t used = cusim::sim::device_bytes_in_use();
  *free_bytes = used < *total_bytes ? *total_bytes - used : 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  cusim::sim::wait_for(nullptr);
  return cusim::sim::fault_code(nullptr);
}
cudaError_t cudaDeviceReset() {
  cusim::sim::wait_for(nullptr);
  cusim::sim::clear_stream_faults();
  cusim::sim::last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() { return std::exchange(cusim::sim::last_error, cudaSuccess); }
cudaError_t cudaPeekAtLastError() { return cusim::sim::last_error; }

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
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
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
    CUSIM_NAME(cudaErrorLaunchFailure)
    CUSIM_NAME(cudaErrorCooperativeLaunchTooLarge)
    CUSIM_NAME(cudaErrorNotSupported)
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
  if (stream == nullptr || flags > cudaStreamNonBlocking) return fail(cudaErrorInvalidValue);
  *stream = cusim::sim::create_stream(flags);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return cusim::sim::destroy_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (stream == nullptr) cusim::sim::wait_for_blocking_streams();  // the legacy default stream
  else cusim::sim::wait_for(stream);
  return cusim::sim::fault_code(stream);
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = cusim::sim::fault_code(stream); e != cudaSuccess) return e;
  return cusim::sim::is_idle(stream) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  if (!cusim::sim::stream_is_valid(stream) || !cusim::sim::event_is_valid(event))
    return fail(cudaErrorInvalidResourceHandle);
  if (flags != 0) return fail(cudaErrorInvalidValue);
  cusim::sim::stream_wait_event(stream, event);
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (fn == nullptr) return fail(cudaErrorInvalidValue);
  cusim::sim::submit(stream, [fn, user_data] { fn(user_data); });
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (event == nullptr || flags > (cudaEventBlockingSync | cudaEventDisableTiming)) return fail(cudaErrorInvalidValue);
  *event = cusim::sim::create_event(flags);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return cusim::sim::destroy_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!cusim::sim::event_is_valid(event) || !cusim::sim::stream_is_valid(stream))
    return fail(cudaErrorInvalidResourceHandle);
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

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void*, int block_size, std::size_t shared_bytes) {
  if (blocks == nullptr || block_size <= 0 || block_size > cusim::sim::device_properties().maxThreadsPerBlock)
    return fail(cudaErrorInvalidValue);
  *blocks = cusim::sim::max_blocks_per_multiprocessor(static_cast<unsigned>(block_size), shared_bytes);
  return cudaSuccess;
}
