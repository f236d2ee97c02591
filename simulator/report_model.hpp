// SPDX-License-Identifier: MIT
// CUSIM_REPORT's counting model: what the memory pipeline of a GPU does with one warp
// instruction's addresses (32-byte sectors of global memory; wavefronts and bank conflicts of
// shared memory) and a launch's theoretical occupancy. Pure functions of their arguments, so that
// the rules can be tested alone (tests/unit/report_model.cpp); report_checker.cpp feeds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace cusim::sim {

/// One active lane's access of one warp instruction: `address` is the byte address (global
/// memory) or the byte offset in the block's shared memory (shared).
struct lane_access {
  std::uintptr_t address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t lane = 0;  ///< 0-31 within the warp
};

/// The 32-byte sectors a global (or local) memory instruction touches: distinct address / 32 over
/// every byte the active lanes access (l1tex__t_sectors_pipe_lsu_mem_global_op_*; each warp
/// instruction is one request, l1tex__t_requests_*).
unsigned global_sectors(std::span<const lane_access> lanes);

/// What one shared-memory warp instruction costs the shared-memory banks.
struct shared_cost {
  unsigned wavefronts = 0;  ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
  unsigned ideal = 0;       ///< the wavefronts with no conflict: 1, or the passes of a wide access
  unsigned conflicts = 0;   ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*: wavefronts - ideal
};

/// 32 banks of 4 bytes (bank = offset / 4 % 32). Accesses of up to 4 bytes are one pass of the
/// whole warp; 8-byte accesses two passes of a half-warp each (lanes 0-15, 16-31), 16-byte ones
/// four of a quarter-warp: each pass moves at most 128 bytes. In a pass, lanes that read the same
/// 4-byte word share it (broadcast, also for bytes of one word), and a bank that holds k distinct
/// words of the pass needs k wavefronts: the pass takes the most of any bank. A pass with no
/// active lane costs nothing.
shared_cost shared_wavefronts(std::span<const lane_access> lanes);

/// The figures of the simulated device that occupancy depends on.
struct occupancy_limits {
  int max_threads_per_multiprocessor = 2048;
  int max_blocks_per_multiprocessor = 32;
  std::size_t shared_memory_per_multiprocessor = 0;
  std::size_t reserved_shared_memory_per_block = 0;  ///< what the system takes of each block's (1 KiB from sm_80)
  int warp_size = 32;
};

enum class occupancy_limiter { blocks, warps, shared_memory };

/// A launch's theoretical occupancy: the blocks one multiprocessor holds at once by each limit
/// (Nsight Compute's launch__occupancy_limit_blocks, _warps, _shared_mem), the least of them, and
/// the warps they make against the multiprocessor's maximum. Registers are not known on a CPU and
/// not counted.
struct occupancy {
  int limit_blocks = 0;
  int limit_warps = 0;
  int limit_shared_memory = 0;  ///< limit_blocks' value when the block uses no shared memory
  int active_blocks = 0;
  int active_warps = 0;
  double percent = 0;  ///< active warps / maximum warps per multiprocessor, in percent
  occupancy_limiter limiter = occupancy_limiter::blocks;
};
occupancy theoretical_occupancy(const occupancy_limits& device, unsigned threads_per_block,
                                std::size_t shared_bytes_per_block);
const char* limiter_name(occupancy_limiter l) noexcept;

}  // namespace cusim::sim
