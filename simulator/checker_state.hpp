// SPDX-License-Identifier: MIT
// The shadow state of CUSIM_CHECK=race and init: what a thread has touched and not classified
// yet, and the per-granule record of the last accesses. Data only; memory_checker acts on it.
#pragma once

#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace cusim::sim {

/// One access in the shadow: who, where, and when (the checker's clock at classification).
struct access_side {
  std::uint64_t clock = 0;  ///< 0: none
  const char* file = nullptr;
  std::uint32_t line = 0;
  std::uint32_t block = 0;   ///< linear block index
  std::uint16_t thread = 0;  ///< linear thread index in the block
  std::uint8_t bytes = 0;    ///< which bytes of the 4-byte granule
  bool atomic = false;
};

/// The race shadow of 4 bytes: the last write and the last two readers.
struct race_granule {
  access_side write, read, other_read;
};

/// An element access not classified yet (at most 16 bytes are compared; larger ones by digest).
struct pending_access {
  void* addr;
  std::uint32_t bytes;
  memory_space space;
  bool atomic;
  bool store;  ///< the instrumentation says it writes (raw accesses of unmodified code)
  detail::source_location site;
  std::uint64_t before[2];
};

/// What a thread has touched since it last synchronised or touched four other elements.
struct access_window {
  static constexpr unsigned capacity = 4;
  pending_access entries[capacity];
  unsigned count = 0;
};

/// A block's shared-memory shadow, reused by the blocks that run on one block context.
struct shared_shadow {
  std::unique_ptr<race_granule[]> race;
  std::unique_ptr<std::uint32_t[]> written;  ///< per byte: the generation that wrote it
  std::uint32_t generation = 0;
  std::uint64_t start_clock = 0;     ///< sides older than this belong to earlier blocks
  std::uint64_t barrier_clock = 0;   ///< the block's last __syncthreads release
  std::vector<std::uint64_t> lane_sync;  ///< per thread: its last __syncwarp
};

}  // namespace cusim::sim
