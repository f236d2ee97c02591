// SPDX-License-Identifier: MIT
// The registry of CUDA arrays and the rewriting of array copies (cuda_arrays.hpp).
#include "cuda_arrays.hpp"

#include "memory.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_set>
#include <vector>

namespace cusim::sim {
namespace {
struct array_registry {
  std::shared_mutex mutex;
  std::vector<std::unique_ptr<cudaArray>> arrays;  // every array made, kept to recognise freed ones
  std::unordered_set<const cudaArray*> live;
};
array_registry& registry() {
  static array_registry* r = new array_registry;  // outlives kernels still running at exit
  return *r;
}
}  // namespace

cudaArray* keep_array(std::unique_ptr<cudaArray> array) {
  array_registry& r = registry();
  std::unique_lock lock(r.mutex);
  cudaArray* a = array.get();
  r.live.insert(a);
  r.arrays.push_back(std::move(array));
  return a;
}

bool live_array(const cudaArray* array) {
  array_registry& r = registry();
  std::shared_lock lock(r.mutex);
  return array != nullptr && r.live.count(array) != 0;
}

bool forget_array(cudaArray* array) {
  array_registry& r = registry();
  std::unique_lock lock(r.mutex);
  if (array == nullptr || r.live.erase(array) == 0) return false;
  array->freed.store(true, std::memory_order_release);
  release(array->data, true, false);
  return true;
}

cudaError_t resolve_array_copy(cudaMemcpy3DParms& c) {
  if (c.srcArray == nullptr && c.dstArray == nullptr) return cudaSuccess;
  std::size_t element = 0;
  auto resolve = [&](cudaArray* a, cudaPos& pos, cudaPitchedPtr& ptr) -> bool {
    if (a == nullptr) return true;
    if (!live_array(a) || ptr.ptr != nullptr) return false;
    if (pos.x > a->extent.width || c.extent.width > a->extent.width - pos.x || pos.y > a->rows ||
        c.extent.height > a->rows - pos.y || pos.z > a->slices || c.extent.depth > a->slices - pos.z)
      return false;
    if (element != 0 && element != a->element) return false;
    element = a->element;
    ptr = make_cudaPitchedPtr(a->data, a->row_bytes(), a->row_bytes(), a->rows);
    return true;
  };
  if (!resolve(c.srcArray, c.srcPos, c.srcPtr) || !resolve(c.dstArray, c.dstPos, c.dstPtr))
    return cudaErrorInvalidValue;
  if (c.srcArray != nullptr) c.srcPos.x *= element;
  if (c.dstArray != nullptr) c.dstPos.x *= element;
  c.extent.width *= element;
  c.srcArray = c.dstArray = nullptr;
  return cudaSuccess;
}

}  // namespace cusim::sim
