// SPDX-License-Identifier: MIT
// The device heap behind malloc and free in kernel code (the nvcc driver rewrites them in device
// functions to device_malloc / device_free): as on a GPU it holds cudaLimitMallocHeapSize bytes,
// 8 MiB unless set, an allocation past it returns null, and the limit is fixed once a kernel has
// used the heap (cudaDeviceSetLimit then answers cudaErrorInvalidValue). Its blocks are device
// allocations of the simulator's registry, so raw-pointer checks see their bounds.
#include "device_heap.hpp"

#include "memory.hpp"

#include <cusim/backend/sim/device_runtime.hpp>

#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace cusim::sim {

namespace {
constexpr std::size_t default_limit = std::size_t{8} << 20;  // CUDA's cudaLimitMallocHeapSize

struct device_heap {
  std::mutex mutex;
  std::size_t limit = default_limit;
  std::size_t used = 0;
  bool touched = false;  // a kernel called malloc or free
  std::unordered_map<void*, std::size_t> blocks;
};
device_heap& heap() {
  static auto* h = new device_heap;  // kernels may run from static destructors
  return *h;
}
}  // namespace

std::size_t device_heap_limit() {
  std::lock_guard lock(heap().mutex);
  return heap().limit;
}

bool set_device_heap_limit(std::size_t bytes) {
  std::lock_guard lock(heap().mutex);
  if (heap().touched) return false;
  heap().limit = bytes;
  return true;
}

void reset_device_heap() {
  std::lock_guard lock(heap().mutex);
  for (auto& [p, bytes] : heap().blocks) release(p, true, false);
  heap().blocks.clear();
  heap().used = 0;
  heap().touched = false;
  heap().limit = default_limit;
}

}  // namespace cusim::sim

namespace cusim::detail {

void* device_malloc(std::size_t bytes) noexcept {
  if (current_thread_ == nullptr) return std::malloc(bytes);  // a __host__ __device__ function on the host
  auto& h = sim::heap();
  std::lock_guard lock(h.mutex);
  h.touched = true;
  if (bytes == 0 || bytes > h.limit - h.used) return nullptr;
  void* p = nullptr;
  try {
    p = sim::allocate(bytes, sim::allocation_kind::device);
    if (p != nullptr) h.blocks.emplace(p, bytes);
  } catch (...) {
    return nullptr;
  }
  if (p != nullptr) h.used += bytes;
  return p;
}

void device_free(void* p) noexcept {
  auto& h = sim::heap();
  std::lock_guard lock(h.mutex);
  if (current_thread_ != nullptr) h.touched = true;
  if (p == nullptr) return;
  auto it = h.blocks.find(p);
  if (it == h.blocks.end()) {
    if (current_thread_ == nullptr) std::free(p);  // the host's, freed by a __host__ __device__ function
    return;  // in a kernel, not the heap's: a GPU's free is undefined there (left alone)
  }
  h.used -= it->second;
  h.blocks.erase(it);
  sim::release(p, true, false);
}

}  // namespace cusim::detail
