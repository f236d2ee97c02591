// SPDX-License-Identifier: MIT
// A block's shared memory: the launch's dynamic bytes, then one allocation per __shared__
// variable, poisoned between blocks so no block sees another's data.
#pragma once

#include <cusim/detail/source_location.hpp>

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace cusim::sim {

class shared_memory {
 public:
  /// Shared memory per block of the simulated device without opt-in, as on CUDA GPUs.
  static constexpr std::size_t limit_bytes = 48 * 1024;
  /// The arena of every block: the largest opt-in of the simulated devices (an H100's 227 KiB).
  static constexpr std::size_t capacity_bytes = 227 * 1024;

  /// Poison of fresh shared memory: NaN as float, -1 as int, so uninitialised reads stand out.
  static constexpr std::byte poison{0xff};
  /// Under the memory checkers: a pattern kernels are unlikely to store, so that a store is told
  /// from a read by the change it makes.
  static constexpr std::byte checked_poison{0xa5};

  /// Starts a new block with `dynamic_bytes` of dynamic shared memory, poisoned with `fill`, that
  /// may use `block_limit` bytes in all (limit_bytes, or the device's opt-in maximum for a kernel
  /// given more dynamic memory with cudaFuncSetAttribute).
  void reset(std::size_t dynamic_bytes, std::byte fill = poison, std::size_t block_limit = limit_bytes);
  /// The storage of the __shared__ variable `key` (a declaration in one function specialization;
  /// null: the declaration at `site`); nullptr if it would exceed the block's limit.
  void* bind(const void* key, const detail::source_location& site, std::size_t bytes, std::size_t align);
  void* dynamic(std::size_t* bytes) noexcept {
    *bytes = dynamic_bytes_;
    return arena_.get();
  }
  std::byte* base() noexcept { return arena_.get(); }
  /// The dynamic bytes of the block now running.
  std::size_t dynamic_bytes() const noexcept { return dynamic_bytes_; }
  /// Bytes this block may use in all.
  std::size_t limit() const noexcept { return limit_; }
  /// Bytes this block has asked for so far (dynamic included).
  std::size_t requested() const noexcept { return requested_; }
  /// Bytes of __shared__ variables this block has asked for so far (dynamic excluded).
  std::size_t static_requested() const noexcept { return requested_ - static_base_; }

 private:
  struct binding {
    const void* key;
    detail::source_location site;
    std::size_t bytes;
    std::size_t offset;
  };
  // 64-byte aligned, so that offsets aligned to a type's alignment (32 for double4_32a) are
  // aligned addresses, as a GPU's shared window is.
  // In the checked arena when there is one (address_space.hpp): the dynamic bytes and each bound
  // variable addressable, the rest not, so that a raw pointer past the dynamic memory is caught.
  struct storage_delete {
    void operator()(std::byte* p) const noexcept;
  };
  static std::byte* new_storage();
  void mark(std::size_t offset, std::size_t bytes, bool on) noexcept;
  std::unique_ptr<std::byte[], storage_delete> arena_{new_storage()};
  std::vector<binding> bindings_;
  std::size_t dynamic_bytes_ = 0;
  std::size_t used_ = capacity_bytes;  // high-water offset of this block (all of the fresh arena)
  std::size_t limit_ = limit_bytes;
  std::size_t requested_ = 0;
  std::size_t static_base_ = 0;  // where the __shared__ variables start, after the dynamic bytes
  std::byte fill_ = poison;
};

}  // namespace cusim::sim
