// SPDX-License-Identifier: MIT
// Error handling: the calling host thread's last error, the sticky fault a kernel leaves behind,
// and the error names and strings. The runtime API (runtime_*.cpp) never throws: a failure is
// returned and kept as the last error.
#include "runtime_errors.hpp"

#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <atomic>
#include <utility>

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
}  // namespace

cudaError_t fault_code(cudaStream_t stream) { return observe(error_code(stream_fault(stream))); }

cudaError_t sticky_fault() { return fault_code(nullptr); }

void set_last_error(cudaError_t code) noexcept {
  if (code != cudaSuccess) last_error = code;
}

void reset_errors() noexcept {
  observed_fault.store(cudaSuccess, std::memory_order_relaxed);
  last_error = cudaSuccess;
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

}  // namespace cusim::detail

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
