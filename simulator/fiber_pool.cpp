// SPDX-License-Identifier: MIT
// Pooled, guarded fiber stacks.
#include "fiber_pool.hpp"

#include <sys/mman.h>

#include <new>

namespace cusim::sim {

namespace {
constexpr int madv_guard_install = 102;  // MADV_GUARD_INSTALL, newer than Debian 12's headers
constexpr std::size_t page_bytes = 4096, line_bytes = 64;
}  // namespace

void stack_pool::trim(std::size_t keep) noexcept {
  while (free_.size() > keep) {
    unmap(free_.back());
    free_.pop_back();
  }
}

stack_pool::~stack_pool() {
  for (const auto& [guard, mapping] : lengths_) ::munmap(mapping.first, mapping.second);  // free and in-use stacks
}

void stack_pool::unmap(const boost::context::stack_context& s) noexcept {
  char* guard = static_cast<char*>(s.sp) - s.size - fiber_guard_bytes;
  auto it = lengths_.find(guard);
  if (it == lengths_.end()) return;
  ::munmap(it->second.first, it->second.second);
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
  // The colour: the top's cache line within fiber_colour_span, as whole pages below the guard
  // (unused) and lines above the usable bytes, so that the guard stays right below them and
  // every stack has the bytes asked for, and less than a page more.
  constexpr std::size_t lines_per_page = page_bytes / line_bytes;
  const std::size_t slot = mapped_++ * 11 % (fiber_colour_span / line_bytes);
  const std::size_t lead = slot / lines_per_page * page_bytes, lines = slot % lines_per_page * line_bytes;
  const std::size_t total = fiber_colour_span + fiber_guard_bytes + bytes_;
  char* base = static_cast<char*>(
      ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0));
  if (base == MAP_FAILED) throw std::bad_alloc();
  char* guard = base + lead;
  // A guard region (Linux 6.13+) keeps the stack in the same VMA as its neighbours, so the
  // number of stacks is not limited by vm.max_map_count (65530: about 32k mprotect'ed stacks,
  // fewer than a large cooperative launch keeps resident). Older kernels get a PROT_NONE page.
  if (::madvise(guard, fiber_guard_bytes, madv_guard_install) != 0 && ::mprotect(guard, fiber_guard_bytes, PROT_NONE) != 0) {
    ::munmap(base, total);
    throw std::bad_alloc();
  }
  try {
    lengths_.emplace(guard, std::pair{base, total});
  } catch (...) {
    ::munmap(base, total);
    throw;
  }
  boost::context::stack_context s;
  s.size = bytes_ + lines;
  s.sp = guard + fiber_guard_bytes + s.size;
  return s;
}

void stack_pool::deallocate(boost::context::stack_context& sctx) noexcept {
  if (sctx.size < bytes_ || sctx.size >= bytes_ + page_bytes) {  // mapped before a size change
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
