// SPDX-License-Identifier: MIT
// Per-block shared memory, one allocation per __shared__ variable.
#include "shared_memory.hpp"

#include "diagnostics.hpp"

#include <cstring>

namespace cusim::sim {

namespace {
std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
}  // namespace

void shared_memory::reset(std::size_t dynamic_bytes, std::byte fill) {
  if (fill != fill_) {
    fill_ = fill;
    used_ = limit_bytes;
  }
  if (used_ != 0) std::memset(arena_.get(), static_cast<int>(fill), used_);
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
  if (requested_ > limit_bytes) return nullptr;
  bindings_.push_back({key, site, bytes, offset});
  used_ = requested_;
  return arena_.get() + offset;
}

}  // namespace cusim::sim
