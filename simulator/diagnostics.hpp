// SPDX-License-Identifier: MIT
// The one place that formats the simulator's messages: every kernel_error, cuda_error and report
// text, `tid=[x, y, z] ctaid=[x, y, z]: ...` (the pieces both backends share are in
// cusim/detail/fault_text.hpp). The runners decide when to report and pass the facts here.
#pragma once

#include "signal_fault.hpp"
#include "symbolizer.hpp"

#include <cusim/cuda_runtime.hpp>
#include <cusim/detail/fault_text.hpp>
#include <cusim/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cusim::sim {

/// Whether two call sites are the same call: the same file pointer, line and column.
inline bool same_call(const detail::source_location& a, const detail::source_location& b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

/// Whether two call sites are the same place in the source: the same file text and line, and
/// the same column where both have one (0: unknown, or a caller that groups by line).
inline bool same_site(const detail::source_location& a, const detail::source_location& b) {
  if (same_call(a, b)) [[likely]] return true;
  return a.line == b.line && (a.column == 0 || b.column == 0 || a.column == b.column) &&
         (a.file == b.file || (a.file != nullptr && b.file != nullptr && std::strcmp(a.file, b.file) == 0));
}

/// Whether `space` is the block's shared memory, static or dynamic.
inline bool is_shared(memory_space space) {
  return space == memory_space::shared || space == memory_space::dynamic_shared;
}

/// "matmul.cu:12" for a full path and line ("" when unknown).
std::string format_site(const detail::source_location& site);
using detail::format_tag;
using detail::space_name;

/// A checked array indexed outside its extent in a kernel thread.
kernel_error out_of_bounds_error(uint3 tid, uint3 ctaid, std::int64_t index, std::int64_t extent, int axis,
                                 memory_space space, const detail::source_location& site);
/// Any other fault: "<tag>: <message> (<file:line>)", the site omitted when unknown.
kernel_error fault_error(fault_kind kind, uint3 tid, uint3 ctaid, std::string_view message,
                         const detail::source_location& site);
/// A fault the CPU raised as a signal in a kernel thread, at `place` (the faulting instruction's
/// source line); `stack_bytes` is the fiber stack size a stack overflow outgrew.
kernel_error signal_fault_error(uint3 tid, uint3 ctaid, const signal_fault& fault, const code_place& place,
                                std::size_t stack_bytes);

/// A C++ exception of (demangled) `type` escaped the kernel; `what` is its what(), "" if none.
kernel_error uncaught_exception_error(uint3 tid, uint3 ctaid, std::string_view type, std::string_view what);
/// A new fiber could not be allocated: `fibers` of `stack_bytes` each exist on this worker.
kernel_error fiber_stacks_exhausted_error(uint3 tid, uint3 ctaid, std::size_t fibers, std::size_t stack_bytes);
/// A thread spins on atomics while nothing in the block changes; `barrier_waiters` wait at a barrier.
kernel_error spin_deadlock_error(uint3 tid, uint3 ctaid, std::size_t barrier_waiters);
/// CUSIM_CHECK=sync: `waiting` of `block_threads` threads wait at the __syncthreads at `site`,
/// which `exited_tid` (of the same block) left without reaching.
kernel_error strict_barrier_error(uint3 tid, uint3 ctaid, std::size_t waiting, std::size_t block_threads,
                                  uint3 exited_tid, const detail::source_location& site);
/// Threads of one block wait at different __syncthreads: reported for `tid` at `site`, the first
/// waiter away from the first thread `first_tid` at `first_site`; `waiting_sites` are every
/// waiter's site in thread order (counted per printed site).
kernel_error barrier_divergence_error(uint3 tid, uint3 ctaid, uint3 first_tid,
                                      const detail::source_location& first_site,
                                      std::span<const detail::source_location> waiting_sites,
                                      const detail::source_location& site);
/// A block run as loops between barriers (phases): its live threads disagree on the condition of
/// a loop holding a __syncthreads at `site`; `stay` of `live` stay in it, and `tid` does not do
/// what the first live thread `first_tid` does (`first_stays`: stay).
kernel_error phase_divergence_error(uint3 tid, uint3 ctaid, uint3 first_tid, bool first_stays, unsigned stay,
                                    unsigned live, const detail::source_location& site);
/// A block run as loops between barriers reached `what` (a barrier, a warp collective, a spin
/// on an atomic) in code the nvcc driver did not see when it chose that form.
kernel_error wait_in_phases_error(uint3 tid, uint3 ctaid, std::string_view what, const detail::source_location& site);
/// The block's __shared__ arrays and dynamic shared memory need `requested` bytes, over `limit`.
kernel_error shared_memory_exceeded_error(uint3 tid, uint3 ctaid, std::size_t requested, std::size_t limit,
                                          const detail::source_location& site);
/// this_grid().sync() called in a launch that is not cooperative.
kernel_error grid_sync_outside_cooperative_error(uint3 tid, uint3 ctaid, const detail::source_location& site);
/// this_grid().sync() at `site` can never complete: block `exited_block` has exited while
/// `waiting_blocks` of `blocks` wait.
kernel_error grid_sync_deadlock_error(uint3 tid, uint3 ctaid, uint3 exited_block, std::uint64_t waiting_blocks,
                                      std::uint64_t blocks, const detail::source_location& site);

/// "__shfl_down_sync(0xffffffff)": how a message names a collective.
std::string describe_collective(detail::warp_op op, unsigned mask);
/// `collective` called by `lane`, which its mask leaves out.
kernel_error lane_not_in_mask_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                    const detail::source_location& site);
/// A shuffle `width` that is not a power of two from 1 to 32.
kernel_error invalid_width_error(uint3 tid, uint3 ctaid, std::string_view collective, int width,
                                 const detail::source_location& site);
/// A shuffle in `lane` whose source lane `source` is outside the mask.
kernel_error shuffle_outside_mask_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                        unsigned source, const detail::source_location& site);
/// A kernel launch on a capturing stream that the capture refused with `code`.
cuda_error capture_failed_error(cudaError_t code);
/// An index out of a fixed-size array's bounds, found by the compiler's bounds instrumentation:
/// the usual out-of-bounds text, with the axis when the source line told it.
kernel_error array_bounds_error(uint3 tid, uint3 ctaid, const array_bounds_fault& f);
/// The same in host code (an unmodified program's main): UBSan's wording, file:line:column first.
std::string host_array_bounds_message(std::string_view file, unsigned line, unsigned column, std::int64_t index,
                                      std::string_view type);
/// A raw pointer access that missed every allocation, found by the address instrumentation: what
/// was accessed, and the allocation nearest to it (its size, where it was allocated and freed).
kernel_error raw_access_error(uint3 tid, uint3 ctaid, const raw_access_fault& f);
/// The report of a fault the compiler's instrumentation found (`f.out_of_bounds` or
/// `f.raw_access`): array_bounds_error or raw_access_error.
kernel_error instrumented_fault_error(uint3 tid, uint3 ctaid, const signal_fault& f);
/// The same in host code, untagged, for stderr.
std::string host_raw_access_message(const raw_access_fault& f);
/// A shuffle in `lane` whose source lane `source` does not exist in a block of `block_threads`
/// threads (the last warp of the block is partial): the value would be undefined on a GPU.
kernel_error shuffle_reads_absent_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                             unsigned source, std::size_t block_threads,
                                             const detail::source_location& site);
/// `collective` waits for `lane`, which does not exist in a block of `block_threads` threads;
/// `strict_sync` adds why under CUSIM_CHECK=sync (a __syncwarp waits for every lane).
kernel_error absent_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                               std::size_t block_threads, bool strict_sync, const detail::source_location& site);
/// `collective` waits for `lane`, which has exited; `strict_sync` as for absent_lane_error.
kernel_error exited_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane, bool strict_sync,
                               const detail::source_location& site);
/// `collective` waits for lanes that wait at the __syncthreads at `barrier_site`.
kernel_error warp_waits_at_barrier_error(uint3 tid, uint3 ctaid, std::string_view collective,
                                         const detail::source_location& barrier_site,
                                         const detail::source_location& site);
/// Lanes of one mask at different collectives: `lane` at `collective`, `other_lane` at
/// `other_collective` (at `other_site`).
kernel_error mismatched_collectives_error(uint3 tid, uint3 ctaid, unsigned lane, std::string_view collective,
                                          unsigned other_lane, std::string_view other_collective,
                                          const detail::source_location& other_site,
                                          const detail::source_location& site);
/// `collective` can never complete, with no lane to blame.
kernel_error stuck_warp_error(uint3 tid, uint3 ctaid, std::string_view collective, const detail::source_location& site);

/// cg::tiled_partition with a tile `size` that is not a power of two from 1 to 32.
kernel_error bad_tile_error(uint3 tid, uint3 ctaid, unsigned size, const detail::source_location& site);
/// A cusim::local_array of `bytes` larger than the thread's fiber stack of `stack_bytes`.
kernel_error local_array_too_large_error(uint3 tid, uint3 ctaid, std::size_t bytes, std::size_t stack_bytes,
                                         const detail::source_location& site);
/// A device-side assert(`expr`) failed in `function`.
kernel_error assertion_error(uint3 tid, uint3 ctaid, std::string_view expr, std::string_view function,
                             const detail::source_location& site);
/// __trap() in a kernel thread.
kernel_error trap_error(uint3 tid, uint3 ctaid, const detail::source_location& site);
/// A texture or surface fetch (`call`, "tex2D" or "surf2Dwrite") through `object` ("texture
/// object" or "surface object") `handle`, which no create call made (`destroyed` false) or which
/// was destroyed.
kernel_error bad_texture_object_error(uint3 tid, uint3 ctaid, std::string_view call, std::string_view object,
                                      unsigned long long handle, bool destroyed, const detail::source_location& site);
/// `call` through `object` `handle` whose CUDA array cudaFreeArray freed.
kernel_error freed_array_fetch_error(uint3 tid, uint3 ctaid, std::string_view call, std::string_view object,
                                     unsigned long long handle, const detail::source_location& site);
/// A surface access of `bytes` at byte column `x`, row `y`, slice or layer `z` outside surface
/// object `handle` of `width` x `height` x `depth` elements of `element` bytes, with
/// cudaBoundaryModeTrap (the GPU traps).
kernel_error surface_out_of_range_error(uint3 tid, uint3 ctaid, std::string_view call, unsigned long long handle,
                                        long long x, long long y, long long z, std::size_t bytes, std::size_t width,
                                        std::size_t height, std::size_t depth, std::size_t element,
                                        const detail::source_location& site);
/// A kernel thread called `function`, a host-only runtime function (the device runtime has no
/// such entry; nvcc rejects the call in device code).
kernel_error host_function_in_kernel_error(uint3 tid, uint3 ctaid, std::string_view function);
/// A kernel thread called `function`, part of CUDA's device runtime that the simulator does not
/// simulate (device-side events).
kernel_error unsimulated_device_function_error(uint3 tid, uint3 ctaid, std::string_view function);

/// Reports of what C++ leaves undefined and the GPU defines (gpu_defined.cpp), each one line
/// naming the operation, the GPU's value the program goes on with, and the place; `in_kernel`
/// false: a __host__ __device__ function called by the host (no tid/ctaid tag).
std::string conversion_report(uint3 tid, uint3 ctaid, bool in_kernel, double value, bool from_double, int bits,
                              bool is_signed, long long result, const detail::source_location& site);
std::string shift_report(uint3 tid, uint3 ctaid, bool in_kernel, long long count, int bits, bool left,
                         const detail::source_location& site);
std::string division_report(uint3 tid, uint3 ctaid, bool in_kernel, bool overflow, const code_place& place,
                            std::uintptr_t pc);
/// A kernel-only facility (`what`) called from host code.
/// CUDA's words for `code`: cudaGetErrorString's and cudaGetErrorName's.
const char* error_string(cudaError_t code);
const char* error_name(cudaError_t code);
std::logic_error outside_kernel_error(std::string_view what);
/// A checked array indexed outside its extent in host code.
std::out_of_range host_out_of_bounds_error(std::int64_t index, std::int64_t extent, int axis, memory_space space,
                                           const detail::source_location& site);
/// The C library's line for a failed assert in host code (the full path, as assert prints it).
std::string host_assertion_message(std::string_view expr, std::string_view function,
                                   const detail::source_location& site);
/// The line printed before __trap() in host code ends the process.
std::string host_trap_message(const detail::source_location& site);

/// A launch refused before any thread runs: "cusim::launch: <string> (<name>): <reason>".
cuda_error launch_rejection(cudaError_t code, std::string_view reason);
/// Launch rejection reasons: `what` ("block" or "grid") dimensions with a zero.
std::string zero_dimension_reason(std::string_view what, dim3 dims);
/// Block dimensions over the per-axis `limits` (maxThreadsDim).
std::string block_axis_limit_reason(dim3 block, const int (&limits)[3]);
/// Block dimensions making `threads` threads, over `limit` (maxThreadsPerBlock).
std::string block_thread_limit_reason(dim3 block, unsigned long long threads, int limit);
/// Grid dimensions over `limits` (maxGridSize).
std::string grid_limit_reason(dim3 grid, const int (&limits)[3]);
/// `dynamic` bytes of dynamic shared memory over `limit` per block.
std::string dynamic_shared_limit_reason(std::size_t dynamic, std::size_t limit);
/// The kernel's `fixed` bytes of __shared__ arrays plus `dynamic` bytes over `limit` per block.
std::string shared_limit_reason(std::size_t fixed, std::size_t dynamic, std::size_t limit);
/// A stream that is not (or no longer) a live cudaStream_t.
std::string dead_stream_reason();
/// A launch from a kernel thread into a stream that is not its block's: neither null, a named
/// stream (cudaStreamTailLaunch, cudaStreamFireAndForget) nor a live stream its block created.
std::string device_stream_reason();
/// A launch from a kernel thread of a grid nested `depth` deep, CUDA's deepest.
std::string launch_depth_reason(unsigned depth);
/// A launch from a kernel thread while `limit` (cudaLimitDevRuntimePendingLaunchCount) device
/// launches are pending.
std::string pending_launches_reason(std::size_t limit);
/// A cooperative launch of `blocks` blocks of `threads` threads over the `resident` the device
/// holds at once (`per_multiprocessor` on each of `multiprocessors`).
std::string cooperative_residency_reason(unsigned long long blocks, unsigned threads, unsigned long long resident,
                                         int per_multiprocessor, int multiprocessors);

/// One record of CUSIM_CHECK=race or init: a pair of source sites (one site for init) and how
/// often it was seen.
struct memory_finding {
  fault_kind kind;     ///< data_race or uninitialized_read
  std::string hazard;  ///< RAW, WAR, WAW; "" for init
  uint3 tid, ctaid;    ///< the second access (the read, for init)
  detail::source_location site;
  uint3 other_tid, other_ctaid;  ///< data_race: the first access
  const char* other_file;
  unsigned other_line;
  memory_space space;
  std::uint64_t count;
};
/// The launch's race and init findings (at least one) as one kernel_error: the first one tagged,
/// then a "========= cusim memory check" line per record.
kernel_error memory_check_report(std::span<const memory_finding> findings);

/// One allocation still live at exit, for CUSIM_CHECK=leaks.
struct leaked_allocation {
  std::uintptr_t address;
  std::size_t bytes;
  std::string_view kind;  ///< "device memory (cudaMalloc)"
  std::uint64_t serial;   ///< 1 for the process's first allocation
  detail::source_location site;
};
/// The CUSIM_CHECK=leaks report of `live` (at least one, in allocation order), one line each.
std::string leak_check_report(std::span<const leaked_allocation> live);

/// libcu++'s synchronisation objects misused (include/cusim/backend/sim/libcudacxx_sync.hpp): the
/// text for `what` with its facts `a` and `b` (as detail::sync_misuse describes them).
std::string sync_misuse_message(int what, std::int64_t a, std::int64_t b);
/// The same as a tagged fault of a kernel thread.
kernel_error sync_misuse_error(uint3 tid, uint3 ctaid, int what, std::int64_t a, std::int64_t b,
                               const detail::source_location& site);

/// CUSIM_REPORT: a kernel's line of the summary on stderr, and the last line naming the page.
struct report_summary_figures {
  std::string_view name;
  std::uint64_t launches;
  bool global_loads, global_stores, shared;
  double load_sectors_per_request, store_sectors_per_request;
  std::uint64_t bank_conflicts;
  double active_lanes, occupancy_pct;
  std::string_view limiter;
};
std::string report_summary_line(const report_summary_figures& f);
std::string report_written_line(std::string_view html_path);
/// CUSIM_REPORT: `path` could not be written (`reason`: the system's words).
std::string report_unwritable_message(std::string_view path, std::string_view reason);

}  // namespace cusim::sim
