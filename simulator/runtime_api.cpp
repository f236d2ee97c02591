// SPDX-License-Identifier: MIT
// The CUDA runtime subset on the simulator. Never throws: failures are returned and kept as the
// calling host thread's last error. Streams execute synchronously; a kernel fault on a stream is
// kept until that stream (or the device) is synchronised.
#include "runtime_api.hpp"

#include "device.hpp"
#include "memory.hpp"

#include <cusim/host/launch.hpp>

#include <chrono>
#include <cstring>
#include <mutex>
#include <set>

struct CUstream_st {
  unsigned flags = 0;
  std::exception_ptr fault;
};
struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
};

namespace cusim::sim {

namespace {
thread_local cudaError_t last_error = cudaSuccess;
std::mutex handles_mutex;
std::set<cudaStream_t> streams;
std::set<cudaEvent_t> events;
std::exception_ptr default_stream_fault;  // faults kept for the legacy default stream

cudaError_t fail(cudaError_t code) noexcept {
  set_last_error(code);
  return code;
}
bool event_is_valid(cudaEvent_t e) {
  std::lock_guard lock(handles_mutex);
  return events.count(e) != 0;
}
}  // namespace

void set_last_error(cudaError_t code) noexcept {
  if (code != cudaSuccess) last_error = code;
}

bool stream_is_valid(cudaStream_t stream) noexcept {
  if (stream == nullptr) return true;
  std::lock_guard lock(handles_mutex);
  return streams.count(stream) != 0;
}

void keep_stream_fault(cudaStream_t stream, std::exception_ptr fault) {
  std::lock_guard lock(handles_mutex);
  std::exception_ptr& slot = stream ? stream->fault : default_stream_fault;
  if (!slot) slot = std::move(fault);
}

std::exception_ptr take_stream_fault(cudaStream_t stream) {
  std::lock_guard lock(handles_mutex);
  if (stream != nullptr) return streams.count(stream) ? std::exchange(stream->fault, nullptr) : nullptr;
  if (default_stream_fault) return std::exchange(default_stream_fault, nullptr);
  for (cudaStream_t s : streams)
    if (s->fault) return std::exchange(s->fault, nullptr);
  return nullptr;
}

}  // namespace cusim::sim

namespace cusim::detail {

void rethrow_stream_fault(cudaStream_t stream) {
  if (std::exception_ptr fault = sim::take_stream_fault(stream)) std::rethrow_exception(fault);
}

cudaError_t memcpy_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t bytes,
                          std::size_t offset, cudaMemcpyKind kind, bool to_symbol) {
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
cudaError_t allocate(void** ptr, std::size_t bytes, cusim::sim::allocation_kind kind) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  if (bytes > cusim::sim::device_properties().totalGlobalMem) return fail(cudaErrorMemoryAllocation);
  *ptr = cusim::sim::allocate(bytes, kind);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  return allocate(ptr, bytes, cusim::sim::allocation_kind::device);
}
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return fail(cudaErrorInvalidValue);
  return allocate(ptr, bytes, cusim::sim::allocation_kind::managed);
}
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  return allocate(ptr, bytes, cusim::sim::allocation_kind::host);
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }
cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  return cusim::sim::release(ptr, true, false) ? cudaSuccess : fail(cudaErrorInvalidValue);
}
cudaError_t cudaFreeHost(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  return cusim::sim::release(ptr, false, true) ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return fail(cudaErrorInvalidValue);
  using cusim::sim::is_device_range;
  switch (kind) {
    case cudaMemcpyHostToHost: break;
    case cudaMemcpyHostToDevice:
      if (!is_device_range(dst, bytes)) return fail(cudaErrorInvalidValue);
      break;
    case cudaMemcpyDeviceToHost:
      if (!is_device_range(src, bytes)) return fail(cudaErrorInvalidValue);
      break;
    case cudaMemcpyDeviceToDevice:
      if (!is_device_range(dst, bytes) || !is_device_range(src, bytes)) return fail(cudaErrorInvalidValue);
      break;
    case cudaMemcpyDefault: break;
    default: return fail(cudaErrorInvalidMemcpyDirection);
  }
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (!cusim::sim::is_device_range(ptr, bytes)) return fail(cudaErrorInvalidValue);
  std::memset(ptr, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  return cudaMemset(ptr, value, bytes);
}
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return fail(cudaErrorInvalidValue);
  *total_bytes = cusim::sim::device_properties().totalGlobalMem;
  const std::size_t used = cusim::sim::device_bytes_in_use();
  *free_bytes = used < *total_bytes ? *total_bytes - used : 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  if (cusim::sim::take_stream_fault(nullptr)) return fail(cudaErrorLaunchFailure);
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  cusim::sim::take_stream_fault(nullptr);
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
  auto* s = new CUstream_st{flags, nullptr};
  std::lock_guard lock(cusim::sim::handles_mutex);
  cusim::sim::streams.insert(s);
  *stream = s;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  std::lock_guard lock(cusim::sim::handles_mutex);
  if (stream == nullptr || cusim::sim::streams.erase(stream) == 0) return fail(cudaErrorInvalidResourceHandle);
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!cusim::sim::stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (cusim::sim::take_stream_fault(stream)) return fail(cudaErrorLaunchFailure);
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return cusim::sim::stream_is_valid(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
  if (!cusim::sim::stream_is_valid(stream) || !cusim::sim::event_is_valid(event))
    return fail(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (event == nullptr || flags > (cudaEventBlockingSync | cudaEventDisableTiming)) return fail(cudaErrorInvalidValue);
  auto* e = new CUevent_st{flags, false, {}};
  std::lock_guard lock(cusim::sim::handles_mutex);
  cusim::sim::events.insert(e);
  *event = e;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard lock(cusim::sim::handles_mutex);
  if (event == nullptr || cusim::sim::events.erase(event) == 0) return fail(cudaErrorInvalidResourceHandle);
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!cusim::sim::event_is_valid(event) || !cusim::sim::stream_is_valid(stream))
    return fail(cudaErrorInvalidResourceHandle);
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return cusim::sim::event_is_valid(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  return cusim::sim::event_is_valid(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return fail(cudaErrorInvalidValue);
  if (!cusim::sim::event_is_valid(start) || !cusim::sim::event_is_valid(end) || !start->recorded || !end->recorded ||
      ((start->flags | end->flags) & cudaEventDisableTiming))
    return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}
