// SPDX-License-Identifier: MIT
// Pooled, guarded fiber stacks.
#include "fiber_pool.hpp"

#include <sys/mman.h>

#include <new>

namespace cusim::sim {

stack_pool::~stack_pool() {
  for (const auto& [base, length] : lengths_) ::munmap(base, length);  // free and in-use stacks
}

void stack_pool::unmap(const boost::context::stack_context& s) noexcept {
  char* base = static_cast<char*>(s.sp) - s.size - fiber_guard_bytes;
  auto it = lengths_.find(base);
  if (it == lengths_.end()) return;
  ::munmap(base, it->second);
  lengths_.erase(it);
}

void stack_pool::set_stack_bytes(std::size_t bytes) noexcept {
  if (bytes == bytes_) return;
  for (auto& s : free_) unmap(s);
  free_.clear();
  bytes_ = bytes;
}

boost::context::stack_context stack_pool::allocate() {
  if (!free_.empty()) {
    boost::context::stack_context s = free_.back();
    free_.pop_back();
    return s;
  }
  const std::size_t total = bytes_ + fiber_guard_bytes;
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                      -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  if (::mprotect(base, fiber_guard_bytes, PROT_NONE) != 0) {
    ::munmap(base, total);
    throw std::bad_alloc();
  }
  // Lowering the top by the colour and shrinking the size by as much keeps `sp - size` at the
  // start of the usable region, which is what unmap() and the guard check rely on.
  const std::size_t colour = (mapped_++ * 11 * 64) % fiber_colour_span;
  try {
    lengths_.emplace(static_cast<char*>(base), total);
  } catch (...) {
    ::munmap(base, total);
    throw;
  }
  boost::context::stack_context s;
  s.size = bytes_ - colour;
  s.sp = static_cast<char*>(base) + total - colour;
  return s;
}

void stack_pool::deallocate(boost::context::stack_context& sctx) noexcept {
  if (sctx.size > bytes_ || sctx.size + fiber_colour_span <= bytes_) {  // mapped before a size change
    unmap(sctx);
    return;
  }
  try {
    free_.push_back(sctx);
  } catch (...) {
    unmap(sctx);
  }
}

}  // namespace cusim::sim
