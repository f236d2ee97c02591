// SPDX-License-Identifier: MIT
// The runtime of unmodified CUDA programs' launches: GPU semantics for kernel<<<...>>> (faults are
// sticky errors at the next synchronisation), the once-only fault report, the reports of what C++
// leaves undefined and the GPU defines (gpu_defined.cpp), CUSIM_ERROR_EXITCODE.
#include "last_error.hpp"
#include "streams.hpp"

#include <cusim/backend/sim/unmodified.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace cusim::detail {

namespace {
std::mutex reported_mutex;
std::vector<std::exception_ptr> reported;  // a fault reaches the report from several paths
std::atomic<bool> any_fault_reported{false};
std::atomic<bool> unmodified_program{false};

// Runs after the program's static destructors (the executable's .fini_array is run last), so
// that N replaces the status the program exits with, whatever it was.
[[gnu::destructor]] void exit_with_error_code() {
  if (!any_fault_reported.load()) return;
  const char* value = std::getenv("CUSIM_ERROR_EXITCODE");
  if (value == nullptr || *value == '\0') return;
  char* end = nullptr;
  errno = 0;
  const long code = std::strtol(value, &end, 10);
  if (*end != '\0' || errno != 0 || code < 0 || code > 255) {
    std::fprintf(stderr, "cusim: CUSIM_ERROR_EXITCODE=%s is not an exit status (0 to 255); ignored\n", value);
    return;
  }
  std::fflush(nullptr);
  std::_Exit(static_cast<int>(code));
}
}  // namespace

void report_kernel_fault(const std::exception_ptr& fault) {
  if (!fault) return;
  try {
    std::rethrow_exception(fault);
  } catch (const kernel_error& e) {
    std::lock_guard lock(reported_mutex);
    if (std::find(reported.begin(), reported.end(), fault) != reported.end()) return;
    reported.push_back(fault);
    std::fprintf(stderr, "%s\n", e.what());
    std::fflush(stderr);
    any_fault_reported.store(true);
  } catch (...) {
  }
}

void report_gpu_defined_behaviour(const std::string& text) {
  {
    std::lock_guard lock(reported_mutex);
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
  }
  any_fault_reported.store(true);
}

bool mark_unmodified_program() noexcept {
  unmodified_program.store(true);
  return true;
}

void report_c_api_kernel_fault(const std::exception_ptr& fault) {
  if (unmodified_program.load()) report_kernel_fault(fault);
}

void chevron_launch(const launch_config& config, void (*launch)(const launch_config&, void*), void* args) {
  // From a kernel thread, a child grid of its launch (dynamic parallelism): a failure is the
  // thread's last error, and the grid runs with its parent's launch, on no host stream.
  const bool from_kernel = current_thread_ != nullptr;
  // After a kernel fault the context is unusable on a GPU: later launches fail with its code.
  if (std::exception_ptr kept = from_kernel ? nullptr : sim::stream_fault(nullptr)) {
    sim::set_last_error(sim::error_code(kept));
    return;
  }
  try {
    launch(config, args);
  } catch (...) {
    // The default stream ran the kernel at once; its fault is kept for the next synchronisation.
    const std::exception_ptr failure = std::current_exception();
    report_kernel_fault(failure);
    c_api_launch_failed(failure, config.stream);
    return;
  }
  // On a stream the kernel runs later, on the stream's thread: report its fault when it has run.
  if (config.stream != nullptr && !from_kernel)
    sim::enqueue(config.stream, [stream = config.stream] { report_kernel_fault(sim::stream_fault(stream)); });
}

}  // namespace cusim::detail
