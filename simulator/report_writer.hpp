// SPDX-License-Identifier: MIT
// CUSIM_REPORT=DIR: the program's teaching report, kernel by kernel (what report_checker counted
// in each launch, summed by kernel name), written at exit and at cudaDeviceReset as
// DIR/report.json (Nsight Compute's metric names), DIR/report.html (report_html.hpp's page) and a
// summary on stderr.
#pragma once

#include "report_model.hpp"

#include <cusim/cuda_runtime.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cusim::sim {

/// CUSIM_REPORT's directory, read once; empty when the report is off.
const std::string& report_directory();

/// One lane of a site's example request: its byte offset from the start of the allocation
/// (global) or of the block's shared memory (shared).
struct report_example_lane {
  unsigned lane = 0;
  std::uint64_t offset = 0;
  uint3 thread{};
};
struct report_example {
  uint3 block{};
  unsigned warp = 0;
  unsigned bytes = 0;
  unsigned base_mod_128 = 0;  ///< the allocation's base address % 128 (0 for shared memory)
  unsigned figure = 0;        ///< its sectors (global) or wavefronts (shared)
  std::vector<report_example_lane> lanes;
};

enum class report_space : std::uint8_t { global, shared };
enum class report_kind : std::uint8_t { load, store, atomic };

/// One source access site (file, line, space, kind): its warp instructions summed.
struct report_site {
  std::string file;
  unsigned line = 0;
  report_space space = report_space::global;
  report_kind kind = report_kind::load;
  std::uint64_t requests = 0;    ///< warp instructions
  std::uint64_t sectors = 0;     ///< global
  std::uint64_t wavefronts = 0;  ///< shared
  std::uint64_t conflicts = 0;   ///< shared
  std::uint64_t lanes = 0;       ///< active lanes, summed over its requests
  std::uint64_t split_requests = 0;  ///< requests run by part of the warp
  std::uint64_t split_lanes = 0;
  unsigned worst = 0;  ///< the most sectors or wavefronts of one request: the example's
  bool has_example = false;
  report_example example;
  std::vector<report_example> more;  ///< the next warps' requests of the example's block at the same execution
};

/// The counts of one space and kind, in Nsight Compute's sense.
struct report_counts {
  std::uint64_t requests = 0, sectors = 0, wavefronts = 0, conflicts = 0;
};

/// One kernel: its launches summed.
struct report_kernel {
  std::string name;
  std::uint64_t launches = 0;
  std::vector<dim3> grids, blocks;  ///< each launch's, up to a few distinct ones
  std::size_t shared_bytes_per_block = 0;  ///< static + dynamic, of the first launch
  std::uint64_t barriers = 0;              ///< __syncthreads executed, per warp
  std::uint64_t barrier_lanes = 0;
  report_counts global_ld, global_st, global_atom, shared_ld, shared_st, shared_atom;
  std::uint64_t instructions = 0, thread_instructions = 0;  ///< memory operations and barriers, per warp / per lane
  occupancy occ;
  std::vector<report_site> sites;
  std::string source_file;  ///< where the kernel is defined ("" when unknown)
  unsigned source_line = 0;
};

/// Adds one launch's counts to the program's report (by kernel name).
void add_to_report(report_kernel&& launch);
/// Writes DIR/report.json, DIR/report.html and the summary on stderr, if any kernel ran since the
/// last time: at exit (registered at the first launch) and at cudaDeviceReset.
void write_report() noexcept;

/// The JSON of `kernels` on the simulated device (what report.json holds).
std::string report_json(const std::vector<report_kernel>& kernels);

}  // namespace cusim::sim
