// SPDX-License-Identifier: MIT
// CUDA's device runtime (CDP2) as kernel threads reach it (dynamic_parallelism.hpp): child
// launches and device-side copies queued on the parent launch, device streams, each thread's last
// error, the pending-launch limit and the nesting depth.
#include "dynamic_parallelism.hpp"

#include "block_state.hpp"
#include "copies.hpp"
#include "debugger.hpp"
#include "diagnostics.hpp"

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>
#include <mutex>
#include <string>

namespace cusim::sim {

namespace {

std::atomic<std::size_t> pending_limit{2048};  // CUDA's default cudaLimitDevRuntimePendingLaunchCount
std::atomic<std::size_t> pending{0};           // device launches queued and not completed

const block_context& calling_block() {
  return *static_cast<const block_context*>(detail::current_thread_->block);
}

/// Takes a slot for one more pending launch: false at the limit.
bool reserve_pending_launch() noexcept {
  std::size_t now = pending.load(std::memory_order_relaxed);
  do {
    if (now >= pending_limit.load(std::memory_order_relaxed)) return false;
  } while (!pending.compare_exchange_weak(now, now + 1, std::memory_order_relaxed));
  return true;
}

/// Whether a kernel thread of `block` may launch into `stream`: the block's implicit stream
/// (null, and the per-thread and legacy spellings of it), the named streams, or a stream the same
/// block created and has not destroyed.
bool may_launch_into(const launch_state& launch, std::uint64_t block, cudaStream_t stream) {
  const auto value = reinterpret_cast<std::uintptr_t>(stream);
  if (value <= 0x4) return true;  // null, cudaStreamLegacy, cudaStreamPerThread, tail launch, fire-and-forget
  auto it = launch.device_streams.find(stream);
  return it != launch.device_streams.end() && it->second->block == block && !it->second->destroyed;
}

bool is_tail_launch(cudaStream_t stream) { return stream == cudaStreamTailLaunch; }

}  // namespace

std::size_t pending_launch_limit() noexcept { return pending_limit.load(std::memory_order_relaxed); }
void set_pending_launch_limit(std::size_t count) noexcept { pending_limit.store(count, std::memory_order_relaxed); }
void release_pending_launches(std::size_t count) noexcept { pending.fetch_sub(count, std::memory_order_relaxed); }

void queue_child_launch(const void* kernel, const launch_config& config, detail::bound_kernel bound,
                        bool cooperative) {
  const block_context& block = calling_block();
  launch_state& parent = *block.launch;
  std::lock_guard lock(parent.mutex);
  if (!may_launch_into(parent, block.linear, config.stream))
    throw launch_rejection(cudaErrorInvalidResourceHandle, device_stream_reason());
  if (parent.depth >= max_launch_depth)
    throw launch_rejection(cudaErrorLaunchMaxDepthExceeded, launch_depth_reason(max_launch_depth));
  if (!reserve_pending_launch())
    throw launch_rejection(cudaErrorLaunchPendingCountExceeded, pending_launches_reason(pending_launch_limit()));
  child_launch child{block.linear, parent.children.size(), config, std::move(bound), cooperative, kernel,
                     is_tail_launch(config.stream), {}};
  try {
    parent.children.push_back(std::move(child));
  } catch (...) {
    release_pending_launches(1);
    throw;
  }
}

namespace {
/// A copy or memset queued as a child (child_launch::work).
cudaError_t queue_child_work(cudaStream_t stream, std::function<void()> work) {
  const block_context& block = calling_block();
  launch_state& parent = *block.launch;
  std::lock_guard lock(parent.mutex);
  if (!may_launch_into(parent, block.linear, stream)) return cudaErrorInvalidResourceHandle;
  if (!reserve_pending_launch()) return cudaErrorLaunchPendingCountExceeded;
  child_launch child;
  child.block = block.linear;
  child.order = parent.children.size();
  child.config.stream = stream;
  child.tail = is_tail_launch(stream);
  child.work = std::move(work);
  try {
    parent.children.push_back(std::move(child));
  } catch (...) {
    release_pending_launches(1);
    return cudaErrorMemoryAllocation;
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t queue_device_copy(const cudaMemcpy3DParms& copy, cudaStream_t stream) {
  // Kernel code reaches device memory only: no copy to or from the host's.
  if (copy.kind != cudaMemcpyDeviceToDevice && copy.kind != cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (cudaError_t e = check_copy(copy); e != cudaSuccess) return e;
  if (copy.extent.width == 0 || copy.extent.height == 0 || copy.extent.depth == 0) return cudaSuccess;
  return queue_child_work(stream, [copy] { run_copy(copy); });
}

cudaError_t queue_device_memset(const cudaMemsetParams& set, cudaStream_t stream) {
  if (cudaError_t e = check_memset(set); e != cudaSuccess) return e;
  if (set.width == 0 || set.height == 0) return cudaSuccess;
  return queue_child_work(stream, [set] { run_memset(set); });
}

cudaError_t create_device_stream(cudaStream_t* stream, unsigned flags) {
  if (stream == nullptr || flags != cudaStreamNonBlocking) return cudaErrorInvalidValue;
  const block_context& block = calling_block();
  launch_state& launch = *block.launch;
  auto s = std::make_unique<device_stream>();
  s->block = block.linear;
  const void* handle = s.get();
  std::lock_guard lock(launch.mutex);
  launch.device_streams.emplace(handle, std::move(s));
  *stream = static_cast<cudaStream_t>(const_cast<void*>(handle));
  return cudaSuccess;
}

cudaError_t destroy_device_stream(cudaStream_t stream) {
  const block_context& block = calling_block();
  launch_state& launch = *block.launch;
  std::lock_guard lock(launch.mutex);
  auto it = launch.device_streams.find(stream);
  if (it == launch.device_streams.end() || it->second->block != block.linear || it->second->destroyed)
    return cudaErrorInvalidResourceHandle;
  it->second->destroyed = true;  // what was queued on it still runs
  return cudaSuccess;
}

void set_device_last_error(cudaError_t code) noexcept {
  if (code == cudaSuccess) return;
  const block_context& block = calling_block();
  launch_state& launch = *block.launch;
  std::lock_guard lock(launch.mutex);
  try {
    launch.device_errors[{block.linear, detail::current_thread_->linear}] = code;
  } catch (...) {  // out of memory: the error is lost, as nothing else can be done here
  }
}

cudaError_t device_last_error(bool reset) noexcept {
  const block_context& block = calling_block();
  launch_state& launch = *block.launch;
  std::lock_guard lock(launch.mutex);
  auto it = launch.device_errors.find({block.linear, detail::current_thread_->linear});
  if (it == launch.device_errors.end()) return cudaSuccess;
  const cudaError_t code = it->second;
  if (reset) launch.device_errors.erase(it);
  return code;
}

void refuse_in_kernel(const char* function, bool device_runtime) {
  const detail::sim_thread& t = *detail::current_thread_;
  raise_fault(device_runtime ? unsimulated_device_function_error(t.thread_idx, t.block->block_idx, function)
                             : host_function_in_kernel_error(t.thread_idx, t.block->block_idx, function));
}

}  // namespace cusim::sim
