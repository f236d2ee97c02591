// SPDX-License-Identifier: MIT
// Error handling: the calling host thread's (or kernel thread's) last error, the sticky fault a kernel leaves behind,
// and the error names and strings (diagnostics.cpp words them). The runtime API (runtime_*.cpp)
// never throws: a failure is returned and kept as the last error.
#include "runtime_errors.hpp"

#include "diagnostics.hpp"
#include "dynamic_parallelism.hpp"
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
  if (in_kernel()) return set_device_last_error(code);  // each kernel thread keeps its own
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
  if (cusim::sim::in_kernel()) return cusim::sim::device_last_error(true);
  const cudaError_t last = std::exchange(cusim::sim::last_error, cudaSuccess);
  const cudaError_t sticky = cusim::sim::observed_fault.load(std::memory_order_relaxed);
  return sticky != cudaSuccess ? sticky : last;
}
cudaError_t cudaPeekAtLastError() {
  if (cusim::sim::in_kernel()) return cusim::sim::device_last_error(false);
  const cudaError_t sticky = cusim::sim::observed_fault.load(std::memory_order_relaxed);
  return sticky != cudaSuccess ? sticky : cusim::sim::last_error;
}

const char* cudaGetErrorString(cudaError_t error) { return cusim::sim::error_string(error); }
const char* cudaGetErrorName(cudaError_t error) { return cusim::sim::error_name(error); }
