// SPDX-License-Identifier: MIT
// Kernels by address: argument binders (registered by every typed launch), launches through a
// `const void*` (and those whose kernel the nvcc driver names: launch_named), cudaFuncGetAttributes
// / cudaFuncSetAttribute, and the occupancy calculator.
#include "functions.hpp"

#include "device.hpp"
#include "kernels.hpp"
#include "last_error.hpp"
#include "streams.hpp"

#include <cusim/backend/sim/unmodified.hpp>
#include <cusim/host/launch.hpp>

#include <mutex>
#include <unordered_map>

namespace cusim::sim {

namespace {
/// What cudaFuncSetAttribute and cudaFuncSetCacheConfig kept for one kernel (its dynamic shared
/// memory maximum is kernel_info's, which the launch validation reads).
struct function_settings {
  int carveout = cudaSharedmemCarveoutDefault;
  cudaFuncCache cache = cudaFuncCachePreferNone;
};

struct function_registry {
  std::mutex mutex;
  std::unordered_map<const void*, detail::kernel_binder> binders;
  std::unordered_map<const void*, function_settings> settings;
};
function_registry& registry() {
  static auto* r = new function_registry;  // kernels launch from static destructors too
  return *r;
}

/// cudaLaunchKernel's launch of `kernel`, whose closure `bind()` makes: the launch's errors are
/// returned, a kernel fault reported once in an unmodified program.
template <class Bind>
cudaError_t launch_c_api(const void* kernel, const launch_config& config, bool cooperative, Bind bind) {
  const cudaStream_t stream = config.stream;
  // After a kernel fault the context is unusable on a GPU: a launch fails with the fault's code.
  if (detail::current_thread_ == nullptr)
    if (const std::exception_ptr kept = stream_fault(nullptr)) return fail(error_code(kept));
  try {
    detail::submit(kernel, config, bind(), cooperative);
  } catch (...) {
    // The default stream ran the kernel at once: in an unmodified program its fault is reported
    // once on stderr, as a <<<>>> launch's is, and kept for the next synchronisation.
    const std::exception_ptr failure = std::current_exception();
    detail::report_c_api_kernel_fault(failure);
    return detail::c_api_launch_failed(failure, stream);
  }
  // On a stream the kernel runs later, on the stream's thread: its fault is reported when it has run.
  if (stream != nullptr && detail::current_thread_ == nullptr && !stream_is_capturing(stream))
    run_on(stream, [stream] { detail::report_c_api_kernel_fault(stream_fault(stream)); });
  return cudaSuccess;
}

cudaError_t launch_by_address(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                              cudaStream_t stream, bool cooperative) {
  if (kernel == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  const detail::kernel_binder bind = binder_for(kernel);
  if (bind == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  return launch_c_api(kernel, launch_config{grid, block, shared_bytes, stream}, cooperative,
                      [&] { return bind(kernel, args); });
}

bool valid_block_size(int block_size) { return block_size > 0 && block_size <= device_properties().maxThreadsPerBlock; }
}  // namespace

detail::kernel_binder binder_for(const void* kernel) {
  std::lock_guard lock(registry().mutex);
  auto it = registry().binders.find(kernel);
  return it != registry().binders.end() ? it->second : nullptr;
}

}  // namespace cusim::sim

namespace cusim::detail {
void note_kernel_binder(const void* kernel, kernel_binder binder) {
  std::lock_guard lock(sim::registry().mutex);
  sim::registry().binders.emplace(kernel, binder);
}
cudaError_t launch_named(const void* kernel, const launch_config& config, bool cooperative,
                         bound_kernel (*bind)(void* data), void* data) {
  return sim::launch_c_api(kernel, config, cooperative, [&] { return bind(data); });
}
}  // namespace cusim::detail

using cusim::sim::fail;

cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                             cudaStream_t stream) {
  return cusim::sim::launch_by_address(kernel, grid, block, args, shared_bytes, stream, false);
}
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                                        cudaStream_t stream) {
  return cusim::sim::launch_by_address(kernel, grid, block, args, shared_bytes, stream, true);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel) {
  if (attributes == nullptr) return fail(cudaErrorInvalidValue);
  if (kernel == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  // Not a kernel the program registered (CUDA 13 on an H100: gpu-truth/semantics.h100.txt).
  if (cusim::sim::binder_for(kernel) == nullptr) return fail(cudaErrorInvalidResourceHandle);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  const cusim::sim::kernel_info& info = cusim::sim::kernel_info_of(kernel);
  const std::size_t fixed = info.static_shared_bytes.load(std::memory_order_relaxed);
  const long long opted = info.max_dynamic_shared.load(std::memory_order_relaxed);
  cusim::sim::function_settings settings;
  {
    std::lock_guard lock(cusim::sim::registry().mutex);
    if (auto it = cusim::sim::registry().settings.find(kernel); it != cusim::sim::registry().settings.end())
      settings = it->second;
  }
  *attributes = cudaFuncAttributes{};
  attributes->sharedSizeBytes = fixed;
  attributes->maxThreadsPerBlock = p.maxThreadsPerBlock;
  attributes->numRegs = 0;
  attributes->ptxVersion = attributes->binaryVersion = p.major * 10 + p.minor;
  attributes->maxDynamicSharedSizeBytes =
      opted >= 0 ? static_cast<int>(opted) : static_cast<int>(p.sharedMemPerBlock - fixed);
  attributes->preferredShmemCarveout = settings.carveout;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value) {
  if (kernel == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  if (cusim::sim::binder_for(kernel) == nullptr) return fail(cudaErrorInvalidResourceHandle);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  std::lock_guard lock(cusim::sim::registry().mutex);
  cusim::sim::function_settings& settings = cusim::sim::registry().settings[kernel];
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      const std::size_t fixed = cusim::sim::kernel_info_of(kernel).static_shared_bytes.load(std::memory_order_relaxed);
      if (value < 0 || static_cast<std::size_t>(value) + fixed > p.sharedMemPerBlockOptin) return fail(cudaErrorInvalidValue);
      cusim::sim::kernel_info_of(kernel).max_dynamic_shared.store(value, std::memory_order_relaxed);
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < cudaSharedmemCarveoutDefault || value > cudaSharedmemCarveoutMaxShared) return fail(cudaErrorInvalidValue);
      settings.carveout = value;
      return cudaSuccess;
    case cudaFuncAttributeClusterDimMustBeSet:
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
      return fail(cudaErrorNotSupported);  // thread block clusters are not simulated
    case cudaFuncAttributeMax: break;
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaFuncSetCacheConfig(const void* kernel, cudaFuncCache config) {
  if (kernel == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(cusim::sim::registry().mutex);
  cusim::sim::registry().settings[kernel].cache = config;
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* kernel, int block_size,
                                                                  std::size_t shared_bytes, unsigned flags) {
  if (blocks == nullptr || block_size <= 0 || flags > cudaOccupancyDisableCachingOverride)
    return fail(cudaErrorInvalidValue);
  // A block larger than the device allows never fits: 0 blocks, and success (as on an H100).
  if (!cusim::sim::valid_block_size(block_size)) {
    *blocks = 0;
    return cudaSuccess;
  }
  // What the kernel's launches showed of its static shared memory counts too, as on a GPU.
  const std::size_t fixed =
      kernel ? cusim::sim::kernel_info_of(kernel).static_shared_bytes.load(std::memory_order_relaxed) : 0;
  if (fixed + shared_bytes > cusim::sim::device_properties().sharedMemPerBlockOptin) {
    *blocks = 0;
    return cudaSuccess;
  }
  *blocks = cusim::sim::max_blocks_per_multiprocessor(static_cast<unsigned>(block_size), fixed + shared_bytes);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                         std::size_t shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, kernel, block_size, shared_bytes,
                                                                cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* shared_bytes, const void* kernel, int blocks,
                                                      int block_size) {
  if (shared_bytes == nullptr || blocks <= 0 || !cusim::sim::valid_block_size(block_size))
    return fail(cudaErrorInvalidValue);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  const std::size_t fixed =
      kernel ? cusim::sim::kernel_info_of(kernel).static_shared_bytes.load(std::memory_order_relaxed) : 0;
  // As many blocks fit per multiprocessor as threads and blocks allow; shared memory is split
  // between them, up to the per-block limit.
  if (blocks > cusim::sim::max_blocks_per_multiprocessor(static_cast<unsigned>(block_size), 0)) {
    *shared_bytes = 0;
    return cudaSuccess;
  }
  std::size_t each = p.sharedMemPerMultiprocessor / static_cast<std::size_t>(blocks);
  if (each > p.sharedMemPerBlockOptin) each = p.sharedMemPerBlockOptin;
  *shared_bytes = each > fixed ? each - fixed : 0;
  return cudaSuccess;
}
