// SPDX-License-Identifier: MIT
// Pooled, guarded fiber stacks.
#include "fiber_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>
#include <vector>

namespace cusim::sim {

std::size_t fiber_stack_bytes() {
  std::size_t kib = 256;
  if (const char* env = std::getenv("CUSIM_STACK")) {
    char* end = nullptr;
    unsigned long v = std::strtoul(env, &end, 10);
    if (end != env && v >= 16 && v <= 1024 * 1024) kib = v;
  }
  return kib * 1024;
}

namespace {

// One pool per OS thread: a block's fibers start and finish on one thread, so a stack always
// returns to the pool it came from, without locks.
struct stack_cache {
  std::size_t bytes = 0;
  std::vector<boost::context::stack_context> free;

  ~stack_cache() {
    for (auto& s : free) unmap(s);
  }
  static void unmap(const boost::context::stack_context& s) noexcept {
    char* top = static_cast<char*>(s.sp);
    ::munmap(top - s.size - fiber_guard_bytes, s.size + fiber_guard_bytes);
  }
};
thread_local stack_cache cache;

}  // namespace

boost::context::stack_context pooled_stack::allocate() {
  const std::size_t bytes = fiber_stack_bytes();
  if (bytes != cache.bytes) {  // CUSIM_STACK changed between launches
    for (auto& s : cache.free) stack_cache::unmap(s);
    cache.free.clear();
    cache.bytes = bytes;
  }
  boost::context::stack_context sctx;
  if (!cache.free.empty()) {
    sctx = cache.free.back();
    cache.free.pop_back();
  } else {
    const std::size_t total = bytes + fiber_guard_bytes;
    void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                        -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    if (::mprotect(base, fiber_guard_bytes, PROT_NONE) != 0) {
      ::munmap(base, total);
      throw std::bad_alloc();
    }
    sctx.size = bytes;
    sctx.sp = static_cast<char*>(base) + total;
  }
  if (last_ != nullptr) *last_ = sctx;
  return sctx;
}

void pooled_stack::deallocate(boost::context::stack_context& sctx) noexcept { recycle_stack(sctx); }

void recycle_stack(boost::context::stack_context& sctx) noexcept {
  if (sctx.size != cache.bytes) {
    stack_cache::unmap(sctx);
    return;
  }
  try {
    cache.free.push_back(sctx);
  } catch (...) {
    stack_cache::unmap(sctx);
  }
}

}  // namespace cusim::sim
