// SPDX-License-Identifier: MIT
// Per-block shared memory, one allocation per __shared__ variable.
#include "shared_memory.hpp"

#include "address_space.hpp"
#include "diagnostics.hpp"

#include <cstring>

namespace cusim::sim {

namespace {
std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
}  // namespace

std::byte* shared_memory::new_storage() {
  if (void* p = arena_allocate(capacity_bytes)) {
    arena_mark(p, capacity_bytes, false);  // addressable as the blocks bind it
    return static_cast<std::byte*>(p);
  }
  return new (std::align_val_t{64}) std::byte[capacity_bytes];
}

void shared_memory::storage_delete::operator()(std::byte* p) const noexcept {
  if (in_arena(p)) arena_release(p, capacity_bytes);
  else ::operator delete[](p, std::align_val_t{64});
}

void shared_memory::mark(std::size_t offset, std::size_t bytes, bool on) noexcept {
  if (in_arena(arena_.get())) arena_mark(arena_.get() + offset, bytes, on);
}

void shared_memory::reset(std::size_t dynamic_bytes, std::byte fill, std::size_t block_limit) {
  if (fill != fill_) {
    fill_ = fill;
    used_ = capacity_bytes;
  }
  limit_ = block_limit < capacity_bytes ? block_limit : capacity_bytes;
  if (used_ != 0) std::memset(arena_.get(), static_cast<int>(fill), used_);
  mark(0, used_, false);
  mark(0, dynamic_bytes, true);
  bindings_.clear();
  dynamic_bytes_ = dynamic_bytes;
  used_ = align_up(dynamic_bytes, 16);
  requested_ = static_base_ = used_;
}

void* shared_memory::bind(const void* key, const detail::source_location& site, std::size_t bytes, std::size_t align) {
  for (const binding& b : bindings_)
    if (b.bytes == bytes && b.key == key && (key != nullptr || same_site(b.site, site))) return arena_.get() + b.offset;
  std::size_t offset = align_up(used_, align < 16 ? 16 : align);
  requested_ = offset + bytes;
  if (requested_ > limit_) return nullptr;
  bindings_.push_back({key, site, bytes, offset});
  used_ = requested_;
  mark(offset, bytes, true);
  return arena_.get() + offset;
}

}  // namespace cusim::sim
