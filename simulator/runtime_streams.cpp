// SPDX-License-Identifier: MIT
// Stream and event management. Work on the default stream runs at once, after the work of every
// blocking stream; work on other streams runs on their threads (streams.cpp).
#include "runtime_streams.hpp"

#include "capture.hpp"
#include "device.hpp"
#include "dynamic_parallelism.hpp"
#include "runtime_errors.hpp"
#include "streams.hpp"

#include <cusim/host/launch.hpp>

#include <algorithm>

namespace cusim::detail {

void rethrow_stream_fault(cudaStream_t stream) {
  if (stream == nullptr) sim::wait_for(nullptr);
  else if (sim::stream_is_valid(stream)) sim::wait_for(stream);
  if (std::exception_ptr fault = sim::stream_fault(stream)) std::rethrow_exception(fault);
}

}  // namespace cusim::detail

using cusim::sim::fail;
using cusim::sim::enqueue_or_capture;
using cusim::sim::greatest_priority;
using cusim::sim::least_priority;

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaStreamCreate");
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (cusim::sim::in_kernel()) {  // the device runtime's: a stream of the calling block
    const cudaError_t e = cusim::sim::create_device_stream(stream, flags);
    return e == cudaSuccess ? e : fail(e);
  }
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
  if (cusim::sim::in_kernel()) {
    const cudaError_t e = cusim::sim::destroy_device_stream(stream);
    return e == cudaSuccess ? e : fail(e);
  }
  if (stream != nullptr && cusim::sim::stream_is_valid(stream)) cusim::sim::forget_captured_stream(stream);
  return cusim::sim::destroy_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaStreamSynchronize");
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
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaStreamWaitEvent", true);
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
  if (cusim::sim::stream_is_capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported);  // as in CUDA: cudaLaunchHostFunc is the capturable one
  if (stream == nullptr)
    if (cudaError_t e = cusim::sim::legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::run_on(stream, [stream, callback, user_data] {
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
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaEventCreateWithFlags", true);
  if (event == nullptr || flags > (cudaEventBlockingSync | cudaEventDisableTiming)) return fail(cudaErrorInvalidValue);
  *event = cusim::sim::create_event(flags);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaEventDestroy", true);
  if (cusim::sim::event_is_valid(event)) cusim::sim::forget_captured_event(event);
  return cusim::sim::destroy_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaEventRecord", true);
  if (!cusim::sim::event_is_valid(event) || !cusim::sim::stream_is_valid(stream))
    return fail(cudaErrorInvalidResourceHandle);
  if (flags != cudaEventRecordDefault && flags != cudaEventRecordExternal) return fail(cudaErrorInvalidValue);
  if (cusim::sim::stream_is_capturing(stream)) {  // marks a point of the capture
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
