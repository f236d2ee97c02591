// SPDX-License-Identifier: MIT
// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and memory pools. The memory comes
// from the allocation registry at once, so it is usable earlier than CUDA promises; frees happen
// when the stream reaches them. A pool keeps its attributes and counts the bytes it handed out;
// freed memory is returned at once (reserved memory is the memory in use).
#include "capture.hpp"
#include "device.hpp"
#include "graphs.hpp"
#include "last_error.hpp"
#include "memory.hpp"
#include "runtime_streams.hpp"
#include "streams.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>

struct CUmemPoolHandle_st {
  cudaMemPoolProps props{};
  std::uint64_t release_threshold = 0;
  int reuse_follow_event_dependencies = 1;
  int reuse_allow_opportunistic = 1;
  int reuse_allow_internal_dependencies = 1;
  std::uint64_t used = 0;
  std::uint64_t used_high = 0;
  std::uint64_t reserved_high = 0;
};

namespace cusim::sim {
namespace {

std::mutex mutex;
CUmemPoolHandle_st default_pool = [] {
  CUmemPoolHandle_st p;
  p.props.allocType = cudaMemAllocationTypePinned;
  p.props.location = {cudaMemLocationTypeDevice, 0};
  return p;
}();
std::set<cudaMemPool_t> pools{&default_pool};
cudaMemPool_t current_pool = &default_pool;
std::map<void*, std::pair<cudaMemPool_t, std::size_t>> handed_out;  // what each pool allocation came from

bool pool_is_valid(cudaMemPool_t pool) {
  std::lock_guard lock(mutex);
  return pools.count(pool) != 0;
}

void note_allocated(void* p, std::size_t bytes, cudaMemPool_t pool) {
  std::lock_guard lock(mutex);
  handed_out[p] = {pool, bytes};
  pool->used += bytes;
  pool->used_high = std::max(pool->used_high, pool->used);
  pool->reserved_high = std::max(pool->reserved_high, pool->used);
}

void note_freed(void* p) {
  std::lock_guard lock(mutex);
  auto it = handed_out.find(p);
  if (it == handed_out.end()) return;
  if (pools.count(it->second.first) != 0) it->second.first->used -= it->second.second;
  handed_out.erase(it);
}

cudaError_t allocate_async(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  if (bytes > device_properties().totalGlobalMem) return fail(cudaErrorMemoryAllocation);
  if (stream_is_capturing(stream)) {  // an allocation node
    auto allocation = std::make_shared<graph_allocation>(bytes);
    if (allocation->ptr() == nullptr) return fail(cudaErrorMemoryAllocation);
    cudaMemAllocNodeParams params{};
    params.poolProps = pool->props;
    params.bytesize = bytes;
    params.dptr = allocation->ptr();
    void* p = allocation->ptr();
    if (cudaError_t e = capture_work(stream, alloc_work{std::move(allocation), params}); e != cudaSuccess) return fail(e);
    *ptr = p;
    return cudaSuccess;
  }
  if (stream == nullptr)
    if (cudaError_t e = legacy_stream_during_capture(); e != cudaSuccess) return fail(e);
  *ptr = allocate(bytes, allocation_kind::device);
  if (*ptr == nullptr) return fail(cudaErrorMemoryAllocation);
  note_allocated(*ptr, bytes, pool);
  return cudaSuccess;
}

}  // namespace
}  // namespace cusim::sim

using namespace cusim::sim;

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
  cudaMemPool_t pool;
  {
    std::lock_guard lock(cusim::sim::mutex);
    pool = cusim::sim::current_pool;
  }
  return allocate_async(ptr, bytes, pool, stream);
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  if (!pool_is_valid(pool)) return fail(cudaErrorInvalidValue);
  return allocate_async(ptr, bytes, pool, stream);
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (!graph_allocation::freeable_in_order(ptr)) return fail(cudaErrorInvalidValue);
  const auto caller = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  return enqueue_or_capture(stream, free_work{ptr}, [ptr, caller] {
    note_freed(ptr);
    release(ptr, true, false, caller);
  });
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  *pool = &cusim::sim::default_pool;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::lock_guard lock(cusim::sim::mutex);
  *pool = cusim::sim::current_pool;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return fail(cudaErrorInvalidDevice);
  if (!pool_is_valid(pool)) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(cusim::sim::mutex);
  cusim::sim::current_pool = pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (pool == nullptr || props == nullptr || props->allocType != cudaMemAllocationTypePinned ||
      props->location.type != cudaMemLocationTypeDevice)
    return fail(cudaErrorInvalidValue);
  if (props->location.id != 0) return fail(cudaErrorInvalidDevice);
  auto* p = new CUmemPoolHandle_st;
  p->props = *props;
  std::lock_guard lock(cusim::sim::mutex);
  cusim::sim::pools.insert(p);
  *pool = p;
  return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  if (pool == &cusim::sim::default_pool) return fail(cudaErrorInvalidValue);  // the device's own
  {
    std::lock_guard lock(cusim::sim::mutex);
    if (cusim::sim::pools.erase(pool) == 0) return fail(cudaErrorInvalidValue);
    if (cusim::sim::current_pool == pool) cusim::sim::current_pool = &cusim::sim::default_pool;
  }
  delete pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (value == nullptr || !pool_is_valid(pool)) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(cusim::sim::mutex);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: pool->reuse_follow_event_dependencies = *static_cast<int*>(value); return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: pool->reuse_allow_opportunistic = *static_cast<int*>(value); return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: pool->reuse_allow_internal_dependencies = *static_cast<int*>(value); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: pool->release_threshold = *static_cast<std::uint64_t*>(value); return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:  // only a reset to the current value
    case cudaMemPoolAttrUsedMemHigh:
      if (*static_cast<std::uint64_t*>(value) != 0) break;
      (attr == cudaMemPoolAttrUsedMemHigh ? pool->used_high : pool->reserved_high) = pool->used;
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: break;
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (value == nullptr || !pool_is_valid(pool)) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(cusim::sim::mutex);
  auto* u64 = static_cast<std::uint64_t*>(value);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: *static_cast<int*>(value) = pool->reuse_follow_event_dependencies; return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: *static_cast<int*>(value) = pool->reuse_allow_opportunistic; return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: *static_cast<int*>(value) = pool->reuse_allow_internal_dependencies; return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *u64 = pool->release_threshold; return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *u64 = pool->used; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh: *u64 = pool->reserved_high; return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh: *u64 = pool->used_high; return cudaSuccess;
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
  return pool_is_valid(pool) ? cudaSuccess : fail(cudaErrorInvalidValue);
}
