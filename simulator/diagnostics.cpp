// SPDX-License-Identifier: MIT
// Formats every message of the simulator: tagged faults, launch rejections and checker reports.
#include "diagnostics.hpp"

#include <cusim/backend/sim/libcudacxx_sync.hpp>

#include <fmt/format.h>

#include <signal.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace cusim::sim {

std::string format_site(const detail::source_location& site) { return detail::format_site(site.file, site.line); }

namespace {
kernel_error::details base_details(fault_kind kind, uint3 tid, uint3 ctaid, const detail::source_location& site) {
  kernel_error::details d;
  d.kind = kind;
  d.thread_idx = tid;
  d.block_idx = ctaid;
  d.file = site.file ? site.file : "";
  d.line = site.line;
  return d;
}

// Under CUSIM_CHECK=sync a __syncwarp waits for exited lanes too: the message says why.
const char* strict_sync_note(bool strict_sync) {
  return strict_sync ? " (CUSIM_CHECK=sync: every lane of a __syncwarp mask must reach it)" : "";
}

const char* collective_name(detail::warp_op op) {
  using detail::warp_op;
  switch (op) {
    case warp_op::sync: return "__syncwarp";
    case warp_op::shfl_idx: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::ballot: return "__ballot_sync";
    case warp_op::all: return "__all_sync";
    case warp_op::any: return "__any_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::match_all: return "__match_all_sync";
    case warp_op::reduce_add: return "__reduce_add_sync";
    case warp_op::reduce_min_signed:
    case warp_op::reduce_min_unsigned: return "__reduce_min_sync";
    case warp_op::reduce_max_signed:
    case warp_op::reduce_max_unsigned: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
  }
  return "a warp collective";
}

const char* memory_name(memory_space space) { return is_shared(space) ? "shared memory" : "global memory"; }

std::string plural(std::uint64_t n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); }

// Which access of a hazard is which: RAW is a write, then a read (`second`).
const char* hazard_access(const std::string& hazard, bool second) {
  return hazard[second ? 0 : 2] == 'R' ? "read" : "write";
}

std::string format_line(const char* file, unsigned line) {
  return format_site(detail::source_location{file, line, 0});
}
}  // namespace

kernel_error out_of_bounds_error(uint3 tid, uint3 ctaid, std::int64_t index, std::int64_t extent, int axis,
                                 memory_space space, const detail::source_location& site) {
  return detail::out_of_bounds_error(tid, ctaid, index, extent, axis, space, site.file, site.line);
}

kernel_error fault_error(fault_kind kind, uint3 tid, uint3 ctaid, std::string_view message,
                         const detail::source_location& site) {
  std::string where = format_site(site);
  std::string msg = where.empty() ? fmt::format("{}: {}", format_tag(tid, ctaid), message)
                                  : fmt::format("{}: {} ({})", format_tag(tid, ctaid), message, where);
  return kernel_error(msg, base_details(kind, tid, ctaid, site));
}

kernel_error signal_fault_error(uint3 tid, uint3 ctaid, const signal_fault& f, const code_place& place,
                                std::size_t stack_bytes) {
  if (f.stack_overflow)
    return fault_error(fault_kind::stack_overflow, tid, ctaid,
                       fmt::format("stack overflow: the thread needs more than its {} KiB fiber stack (deep recursion "
                                   "or large local arrays); raise CUSIM_STACK (KiB)",
                                   stack_bytes / 1024),
                       {});
  fault_kind kind = fault_kind::illegal_address;
  std::string what;
  switch (f.signo) {
    case SIGFPE:
      kind = fault_kind::arithmetic;
      what = f.code == FPE_INTDIV   ? "division by zero"
             : f.code == FPE_INTOVF ? "integer overflow"
                                    : "floating-point exception";
      break;
    case SIGILL:
      kind = fault_kind::trap;
      what = "illegal instruction (a trap, such as __builtin_trap())";
      break;
    case SIGBUS: what = fmt::format("misaligned or unmapped memory access at address {}", f.address); break;
    default:
      what = f.code == SI_KERNEL ? std::string("illegal memory access at a non-canonical address (a wild raw pointer)")
                                 : fmt::format("illegal memory access: {} at address {} (a null or wild raw pointer)",
                                               f.write ? "write" : "read", f.address);
  }
  if (place.file.empty()) {  // no debug information: name the code at least
    what += place.function.empty()
                ? fmt::format(" (at pc {:#x}; build with -g for its source line)", f.pc)
                : fmt::format(" (in {}+{:#x}; build with -g for its source line)", place.function, place.offset);
  }
  return fault_error(kind, tid, ctaid, what, detail::source_location{place.file.c_str(), place.line, 0});
}

kernel_error uncaught_exception_error(uint3 tid, uint3 ctaid, std::string_view type, std::string_view what) {
  std::string message = what.empty() ? fmt::format("uncaught exception of type {} in kernel", type)
                                     : fmt::format("uncaught exception of type {} in kernel: {}", type, what);
  return fault_error(fault_kind::exception, tid, ctaid, message, {});
}

kernel_error fiber_stacks_exhausted_error(uint3 tid, uint3 ctaid, std::size_t fibers, std::size_t stack_bytes) {
  return fault_error(fault_kind::exception, tid, ctaid,
                     fmt::format("out of memory for fiber stacks: {} fibers of {} KiB exist on this worker; "
                                 "lower CUSIM_STACK or keep fewer threads resident",
                                 fibers, stack_bytes / 1024),
                     {});
}

kernel_error spin_deadlock_error(uint3 tid, uint3 ctaid, std::size_t barrier_waiters) {
  return fault_error(fault_kind::deadlock, tid, ctaid,
                     fmt::format("deadlock: no thread of the block can make progress: this thread spins on "
                                 "atomics that never change ({} threads wait at a barrier)",
                                 barrier_waiters),
                     {});
}

kernel_error strict_barrier_error(uint3 tid, uint3 ctaid, std::size_t waiting, std::size_t block_threads,
                                  uint3 exited_tid, const detail::source_location& site) {
  return fault_error(
      fault_kind::barrier_divergence, tid, ctaid,
      fmt::format("barrier divergence (CUSIM_CHECK=sync): {} of {} threads wait at this __syncthreads, but thread "
                  "{} has exited without reaching it (a GPU counts exited threads as arrived; strict checking "
                  "does not)",
                  waiting, block_threads, format_tag(exited_tid, ctaid)),
      site);
}

kernel_error barrier_divergence_error(uint3 tid, uint3 ctaid, uint3 first_tid,
                                      const detail::source_location& first_site,
                                      std::span<const detail::source_location> waiting_sites,
                                      const detail::source_location& site) {
  // Counted per printed site, in the order of each site's first waiter.
  std::vector<std::pair<std::string, unsigned>> per_site;
  for (const detail::source_location& s : waiting_sites) {
    std::string where = format_site(s);
    auto it = std::find_if(per_site.begin(), per_site.end(), [&](const auto& p) { return p.first == where; });
    if (it == per_site.end()) per_site.emplace_back(std::move(where), 1);
    else ++it->second;
  }
  std::string sites;
  for (const auto& [where, n] : per_site) sites += fmt::format("{}{} at {}", sites.empty() ? "" : ", ", n, where);
  return fault_error(fault_kind::barrier_divergence, tid, ctaid,
                     fmt::format("barrier divergence: threads of the block wait at different __syncthreads ({}); "
                                 "thread {} waits at {}",
                                 sites, format_tag(first_tid, ctaid), format_site(first_site)),
                     site);
}

kernel_error phase_divergence_error(uint3 tid, uint3 ctaid, uint3 first_tid, bool first_stays, unsigned stay,
                                    unsigned live, const detail::source_location& site) {
  return fault_error(fault_kind::barrier_divergence, tid, ctaid,
                     fmt::format("barrier divergence: threads of the block disagree on the condition of a loop "
                                 "holding __syncthreads ({} of {} stay in it); thread {} {} it",
                                 stay, live, format_tag(first_tid, ctaid), first_stays ? "stays in" : "leaves"),
                     site);
}

kernel_error wait_in_phases_error(uint3 tid, uint3 ctaid, std::string_view what, const detail::source_location& site) {
  return fault_error(fault_kind::barrier_divergence, tid, ctaid,
                     fmt::format("{} in a block run as loops between its barriers, from code the nvcc driver did "
                                 "not see when it chose that form (a constructor, an operator, another file's "
                                 "code); CUSIM_PHASES=0 runs every thread on a fiber of its own",
                                 what),
                     site);
}

kernel_error shared_memory_exceeded_error(uint3 tid, uint3 ctaid, std::size_t requested, std::size_t limit,
                                          const detail::source_location& site) {
  return fault_error(fault_kind::shared_memory, tid, ctaid,
                     fmt::format("too much shared memory: the block's __shared__ arrays and dynamic shared "
                                 "memory need {} bytes, the simulated device has {} per block",
                                 requested, limit),
                     site);
}

kernel_error grid_sync_outside_cooperative_error(uint3 tid, uint3 ctaid, const detail::source_location& site) {
  return fault_error(fault_kind::grid_sync, tid, ctaid,
                     "this_grid().sync() outside a cooperative launch: launch the kernel with "
                     "cusim::launch_cooperative or cudaLaunchCooperativeKernel",
                     site);
}

kernel_error grid_sync_deadlock_error(uint3 tid, uint3 ctaid, uint3 exited_block, std::uint64_t waiting_blocks,
                                      std::uint64_t blocks, const detail::source_location& site) {
  return fault_error(fault_kind::grid_sync, tid, ctaid,
                     fmt::format("deadlock: this_grid().sync() can never complete: block [{}, {}, {}] has exited "
                                 "without reaching it ({} of {} blocks wait)",
                                 exited_block.x, exited_block.y, exited_block.z, waiting_blocks, blocks),
                     site);
}

std::string describe_collective(detail::warp_op op, unsigned mask) {
  return fmt::format("{}(0x{:08x})", collective_name(op), mask);
}

kernel_error lane_not_in_mask_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                    const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{} called by lane {}, which is not in the mask", collective, lane), site);
}

kernel_error invalid_width_error(uint3 tid, uint3 ctaid, std::string_view collective, int width,
                                 const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{}: width {} is not a power of two from 1 to 32", collective, width), site);
}

kernel_error shuffle_outside_mask_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                        unsigned source, const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{} in lane {} reads lane {}, which is not in the mask", collective, lane, source),
                     site);
}

cuda_error capture_failed_error(cudaError_t code) { return cuda_error(code, "the launch could not be captured"); }

kernel_error array_bounds_error(uint3 tid, uint3 ctaid, const array_bounds_fault& f) {
  return detail::out_of_bounds_error(tid, ctaid, f.index, f.extent, f.axis, f.space, f.file, f.line);
}

std::string host_array_bounds_message(std::string_view file, unsigned line, unsigned column, std::int64_t index,
                                      std::string_view type) {
  return fmt::format("{}:{}:{}: runtime error: index {} out of bounds for type {}\n", file, line, column, index, type);
}

namespace {
/// "x.cu:31", or the function and offset without line information, or "" when unknown; `pc` a
/// return address (the call before it is named).
std::string caller_place(std::uintptr_t pc) {
  if (pc == 0) return {};
  const code_place p = program_place_of(pc - 1);
  if (!p.file.empty()) return format_line(p.file.c_str(), p.line);
  return p.function.empty() ? std::string{} : fmt::format("{}+{:#x}", p.function, p.offset);
}

/// "invalid global read of 4 bytes at 0x...: 0 bytes past the end of a 400-byte allocation of
/// device memory (cudaMalloc) at 0x..., allocated at x.cu:31".
std::string raw_access_text(const raw_access_fault& f, const char* space) {
  const address_owner& o = f.owner;
  std::string what = fmt::format("invalid {} {} of {} at {:#x}: ", f.shared ? "shared" : space, f.write ? "write" : "read",
                                 plural(f.bytes, "byte"), f.address);
  if (f.shared)
    return what + (f.shared_offset >= f.dynamic_bytes
                       ? fmt::format("{} past the end of the block's {} of dynamic shared memory (extern __shared__), "
                                     "in no __shared__ variable",
                                     plural(f.shared_offset - f.dynamic_bytes, "byte"), plural(f.dynamic_bytes, "byte"))
                       : std::string("in no __shared__ variable"));
  using relation = address_owner::relation;
  const std::string allocation = fmt::format("a {}-byte allocation of {} at {:#x}", o.bytes, allocation_kind_name(o.kind), o.base);
  switch (o.where) {
    case relation::past_end: what += fmt::format("{} past the end of {}", plural(o.distance, "byte"), allocation); break;
    case relation::before_start: what += fmt::format("{} before the start of {}", plural(o.distance, "byte"), allocation); break;
    case relation::inside_freed:
      what += f.address == o.base ? fmt::format("the start of {}", allocation)
                                  : fmt::format("{} into {}", plural(f.address - o.base, "byte"), allocation);
      break;
    case relation::none: return what + "in no allocation (a wild raw pointer)";
  }
  std::string allocated = o.site.file != nullptr && o.site.file[0] != '\0' ? format_site(o.site) : caller_place(o.alloc_caller);
  if (o.freed) {
    const std::string freed = caller_place(o.free_caller);
    what += freed.empty() ? ", already freed" : fmt::format(", freed at {}", freed);
    if (!allocated.empty()) what += fmt::format(" (allocated at {})", allocated);
  } else if (!allocated.empty()) {
    what += fmt::format(", allocated at {}", allocated);
  }
  return what;
}
}  // namespace

kernel_error raw_access_error(uint3 tid, uint3 ctaid, const raw_access_fault& f) {
  const code_place at = program_place_of(f.pc - 1);
  std::string what = f.misaligned != 0
                         ? fmt::format("misaligned {} {} of {} at {:#x}: not a multiple of {} (misaligned address)",
                                       f.shared ? "shared" : "global", f.write ? "write" : "read",
                                       plural(f.bytes, "byte"), f.address, f.misaligned)
                         : raw_access_text(f, "global");
  if (at.file.empty())
    what += at.function.empty() ? fmt::format(" (at pc {:#x}; build with -g for its source line)", f.pc)
                                : fmt::format(" (in {}+{:#x}; build with -g for its source line)", at.function, at.offset);
  return fault_error(f.misaligned != 0 ? fault_kind::misaligned_address : fault_kind::illegal_address, tid, ctaid, what,
                     detail::source_location{at.file.c_str(), at.line, 0});
}

kernel_error instrumented_fault_error(uint3 tid, uint3 ctaid, const signal_fault& f) {
  return f.out_of_bounds ? array_bounds_error(tid, ctaid, f.bounds) : raw_access_error(tid, ctaid, f.access);
}

std::string host_raw_access_message(const raw_access_fault& f) {
  const std::string at = caller_place(f.pc);
  return fmt::format("cusim: {}{}{}\n", raw_access_text(f, "host"), at.empty() ? "" : " in host code at ", at);
}

kernel_error shuffle_reads_absent_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                                             unsigned source, std::size_t block_threads,
                                             const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{} in lane {} reads lane {}, which does not exist (the block has {} threads): "
                                 "its value is undefined",
                                 collective, lane, source, block_threads),
                     site);
}

kernel_error absent_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane,
                               std::size_t block_threads, bool strict_sync, const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{} can never complete: lane {} of the mask does not exist (the block has {} "
                                 "threads){}",
                                 collective, lane, block_threads, strict_sync_note(strict_sync)),
                     site);
}

kernel_error exited_lane_error(uint3 tid, uint3 ctaid, std::string_view collective, unsigned lane, bool strict_sync,
                               const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("{} can never complete: lane {} of the mask has exited{}", collective, lane,
                                 strict_sync_note(strict_sync)),
                     site);
}

kernel_error warp_waits_at_barrier_error(uint3 tid, uint3 ctaid, std::string_view collective,
                                         const detail::source_location& barrier_site,
                                         const detail::source_location& site) {
  return fault_error(fault_kind::deadlock, tid, ctaid,
                     fmt::format("deadlock: {} can never complete: lanes of its mask wait at __syncthreads ({})",
                                 collective, format_site(barrier_site)),
                     site);
}

kernel_error mismatched_collectives_error(uint3 tid, uint3 ctaid, unsigned lane, std::string_view collective,
                                          unsigned other_lane, std::string_view other_collective,
                                          const detail::source_location& other_site,
                                          const detail::source_location& site) {
  return fault_error(fault_kind::warp_collective, tid, ctaid,
                     fmt::format("lanes of one mask wait at different warp collectives: lane {} at {}, lane {} at {} "
                                 "({}); every lane of a mask must call the same collective with the same mask",
                                 lane, collective, other_lane, other_collective, format_site(other_site)),
                     site);
}

kernel_error stuck_warp_error(uint3 tid, uint3 ctaid, std::string_view collective,
                              const detail::source_location& site) {
  return fault_error(fault_kind::deadlock, tid, ctaid, fmt::format("deadlock: {} can never complete", collective),
                     site);
}

kernel_error bad_tile_error(uint3 tid, uint3 ctaid, unsigned size, const detail::source_location& site) {
  return fault_error(
      fault_kind::warp_collective, tid, ctaid,
      fmt::format("cg::tiled_partition(block, {}): the tile size must be a power of two from 1 to 32", size), site);
}

kernel_error local_array_too_large_error(uint3 tid, uint3 ctaid, std::size_t bytes, std::size_t stack_bytes,
                                         const detail::source_location& site) {
  return fault_error(fault_kind::stack_overflow, tid, ctaid,
                     fmt::format("local array of {} bytes does not fit in the thread's {} KiB fiber stack; "
                                 "raise CUSIM_STACK (KiB)",
                                 bytes, stack_bytes / 1024),
                     site);
}

kernel_error assertion_error(uint3 tid, uint3 ctaid, std::string_view expr, std::string_view function,
                             const detail::source_location& site) {
  return fault_error(fault_kind::assertion, tid, ctaid,
                     fmt::format("device-side assertion `{}` failed in {}", expr, function), site);
}

kernel_error trap_error(uint3 tid, uint3 ctaid, const detail::source_location& site) {
  return fault_error(fault_kind::trap, tid, ctaid, "__trap() was called", site);
}

kernel_error bad_texture_object_error(uint3 tid, uint3 ctaid, std::string_view call, std::string_view object,
                                      unsigned long long handle, bool destroyed, const detail::source_location& site) {
  const std::string_view creator = object == "surface object" ? "cudaCreateSurfaceObject" : "cudaCreateTextureObject";
  const std::string_view destroyer = object == "surface object" ? "cudaDestroySurfaceObject" : "cudaDestroyTextureObject";
  return fault_error(fault_kind::illegal_address, tid, ctaid,
                     destroyed ? fmt::format("{} through {} {}, which {} destroyed", call, object, handle, destroyer)
                               : fmt::format("{} through {} {}, which no {} created", call, object, handle, creator),
                     site);
}

kernel_error freed_array_fetch_error(uint3 tid, uint3 ctaid, std::string_view call, std::string_view object,
                                     unsigned long long handle, const detail::source_location& site) {
  return fault_error(fault_kind::illegal_address, tid, ctaid,
                     fmt::format("{} through {} {}, whose CUDA array cudaFreeArray freed", call, object, handle), site);
}

kernel_error surface_out_of_range_error(uint3 tid, uint3 ctaid, std::string_view call, unsigned long long handle,
                                        long long x, long long y, long long z, std::size_t bytes, std::size_t width,
                                        std::size_t height, std::size_t depth, std::size_t element,
                                        const detail::source_location& site) {
  return fault_error(fault_kind::illegal_address, tid, ctaid,
                     fmt::format("{} of {} bytes at x = {} bytes, y = {}, z = {} is outside surface object {} "
                                 "({} x {} x {} elements of {} bytes; cudaBoundaryModeTrap)",
                                 call, bytes, x, y, z, handle, width, height, depth, element),
                     site);
}

kernel_error host_function_in_kernel_error(uint3 tid, uint3 ctaid, std::string_view function) {
  return fault_error(fault_kind::exception, tid, ctaid,
                     fmt::format("{} was called in a kernel: it is a host function, not part of CUDA's device "
                                 "runtime (nvcc rejects it in device code; since CUDA 12 a kernel cannot wait for "
                                 "the grids it launched, which complete before it does)",
                                 function),
                     {});
}

kernel_error unsimulated_device_function_error(uint3 tid, uint3 ctaid, std::string_view function) {
  return fault_error(fault_kind::exception, tid, ctaid,
                     fmt::format("{} was called in a kernel: the simulator does not simulate the device runtime's "
                                 "events (docs/unmodified-cuda.md, \"Dynamic parallelism\")",
                                 function),
                     {});
}

std::logic_error outside_kernel_error(std::string_view what) {
  return std::logic_error(fmt::format("cusim: {} used outside a kernel", what));
}

std::out_of_range host_out_of_bounds_error(std::int64_t index, std::int64_t extent, int axis, memory_space space,
                                           const detail::source_location& site) {
  return std::out_of_range(fmt::format("index {} is out of bounds for axis {} with size {} ({}, {}, host code)", index,
                                       axis, extent, space_name(space), format_site(site)));
}

std::string host_assertion_message(std::string_view expr, std::string_view function,
                                   const detail::source_location& site) {
  return fmt::format("{}:{}: {}: Assertion `{}' failed.\n", site.file, site.line, function, expr);
}

namespace {
// "tag: what (file:line)", or for host code "cusim: host code: what (file:line)".
std::string undefined_report(uint3 tid, uint3 ctaid, bool in_kernel, const std::string& what, const std::string& where) {
  const std::string tag = in_kernel ? format_tag(tid, ctaid) : std::string("cusim: host code");
  return where.empty() ? fmt::format("{}: {}", tag, what) : fmt::format("{}: {} ({})", tag, what, where);
}

std::string integer_type_name(int bits, bool is_signed) {
  switch (bits) {
    case 8: return is_signed ? "signed char" : "unsigned char";
    case 16: return is_signed ? "short" : "unsigned short";
    case 32: return is_signed ? "int" : "unsigned int";
    default: return is_signed ? "long long" : "unsigned long long";
  }
}
}  // namespace

std::string conversion_report(uint3 tid, uint3 ctaid, bool in_kernel, double value, bool from_double, int bits,
                              bool is_signed, long long result, const detail::source_location& site) {
  const std::string to = integer_type_name(bits, is_signed);
  const std::string gpu = is_signed ? fmt::format("{}", result)
                                    : fmt::format("{}", static_cast<unsigned long long>(result) &
                                                            (bits == 64 ? ~0ull : (1ull << bits) - 1));
  return undefined_report(tid, ctaid, in_kernel,
                          fmt::format("conversion of {} {} to {} is undefined behaviour in C++ (NaN or out of "
                                      "range); continuing with the GPU's value {}",
                                      from_double ? "double" : "float", value, to, gpu),
                          format_site(site));
}

std::string shift_report(uint3 tid, uint3 ctaid, bool in_kernel, long long count, int bits, bool left,
                         const detail::source_location& site) {
  return undefined_report(tid, ctaid, in_kernel,
                          fmt::format("{} shift of a {}-bit value by {} is undefined behaviour in C++ (count "
                                      "negative or not below the width); continuing with the GPU's value, every "
                                      "bit shifted out",
                                      left ? "left" : "right", bits, count),
                          format_site(site));
}

std::string division_report(uint3 tid, uint3 ctaid, bool in_kernel, bool overflow, const code_place& place,
                            std::uintptr_t pc) {
  std::string text = !overflow
                         ? std::string("integer division by zero is undefined behaviour in C++; continuing with "
                                       "the GPU's result (quotient and remainder with every bit set)")
                         : std::string("integer division overflow (the most negative value divided by -1) is "
                                       "undefined behaviour in C++; continuing with the GPU's result (quotient the "
                                       "dividend, remainder 0)");
  if (place.file.empty()) {
    text += place.function.empty() ? fmt::format(" (at pc {:#x}; build with -g for its source line)", pc)
                                   : fmt::format(" (in {}+{:#x}; build with -g for its source line)", place.function,
                                                 place.offset);
  }
  return undefined_report(tid, ctaid, in_kernel, text, format_line(place.file.c_str(), place.line));
}

std::string host_trap_message(const detail::source_location& site) {
  return fmt::format("{}:{}: __trap() called in host code\n", site.file, site.line);
}

// The C++ API reports by exception; the words are cudaGetErrorString's and cudaGetErrorName's.
cuda_error launch_rejection(cudaError_t code, std::string_view reason) {
  return cuda_error(code, fmt::format("cusim::launch: {} ({}): {}", error_string(code), error_name(code),
                                      reason));
}

std::string zero_dimension_reason(std::string_view what, dim3 dims) {
  return fmt::format("{} dimensions [{}, {}, {}] contain a zero", what, dims.x, dims.y, dims.z);
}

std::string block_axis_limit_reason(dim3 block, const int (&limits)[3]) {
  return fmt::format("block dimensions [{}, {}, {}] exceed the per-axis limits [{}, {}, {}]", block.x, block.y,
                     block.z, limits[0], limits[1], limits[2]);
}

std::string block_thread_limit_reason(dim3 block, unsigned long long threads, int limit) {
  return fmt::format("block dimensions [{}, {}, {}] make {} threads, more than the {} threads per block of the "
                     "simulated device",
                     block.x, block.y, block.z, threads, limit);
}

std::string grid_limit_reason(dim3 grid, const int (&limits)[3]) {
  return fmt::format("grid dimensions [{}, {}, {}] exceed the limits [{}, {}, {}]", grid.x, grid.y, grid.z, limits[0],
                     limits[1], limits[2]);
}

std::string dynamic_shared_limit_reason(std::size_t dynamic, std::size_t limit) {
  return fmt::format("{} bytes of dynamic shared memory exceed the {} bytes per block", dynamic, limit);
}

std::string shared_limit_reason(std::size_t fixed, std::size_t dynamic, std::size_t limit) {
  return fmt::format("the kernel's {} bytes of __shared__ arrays and {} bytes of dynamic shared memory exceed the {} "
                     "bytes per block",
                     fixed, dynamic, limit);
}

std::string dead_stream_reason() { return "the stream is not a live cudaStream_t"; }

std::string device_stream_reason() {
  return "a kernel launches into its block's implicit stream, cudaStreamTailLaunch, cudaStreamFireAndForget or "
         "a live stream its own block created with cudaStreamCreateWithFlags(..., cudaStreamNonBlocking)";
}

std::string launch_depth_reason(unsigned depth) {
  return fmt::format("the launching grid is nested {} deep, CUDA's deepest: it may not launch a child grid", depth);
}

std::string pending_launches_reason(std::size_t limit) {
  return fmt::format("{} launches from kernels are pending already (cudaLimitDevRuntimePendingLaunchCount; raise it "
                     "with cudaDeviceSetLimit before the host launch)",
                     limit);
}

std::string cooperative_residency_reason(unsigned long long blocks, unsigned threads, unsigned long long resident,
                                         int per_multiprocessor, int multiprocessors) {
  return fmt::format("a cooperative launch needs every block resident at once: {} blocks of {} threads exceed the "
                     "{} ({} per multiprocessor x {} multiprocessors) the simulated device holds",
                     blocks, threads, resident, per_multiprocessor, multiprocessors);
}

kernel_error memory_check_report(std::span<const memory_finding> findings) {
  const memory_finding& f = findings.front();
  std::string first;
  if (f.kind == fault_kind::data_race) {
    first = fmt::format("data race on {} ({} hazard): {} at {} races with the {} by {} at {}, with no barrier between "
                        "({})",
                        memory_name(f.space), f.hazard, hazard_access(f.hazard, true), format_site(f.site),
                        hazard_access(f.hazard, false), format_tag(f.other_tid, f.other_ctaid),
                        format_line(f.other_file, f.other_line), plural(f.count, "hazard"));
  } else {
    first = fmt::format("uninitialized read of {}: the bytes read were never written {} ({})", memory_name(f.space),
                        is_shared(f.space) ? "in this block" : "since the allocation", plural(f.count, "read"));
  }
  std::string text = fmt::format("{}: {}\n========= cusim memory check: {}", format_tag(f.tid, f.ctaid), first,
                                 plural(findings.size(), "record"));
  for (const memory_finding& r : findings) {
    if (r.kind == fault_kind::data_race)
      text += fmt::format("\n=========     {} hazard on {} ({}): {} by {} at {}, then {} by {} at {}", r.hazard,
                          memory_name(r.space), plural(r.count, "hazard"), hazard_access(r.hazard, false),
                          format_tag(r.other_tid, r.other_ctaid), format_line(r.other_file, r.other_line),
                          hazard_access(r.hazard, true), format_tag(r.tid, r.ctaid), format_site(r.site));
    else
      text += fmt::format("\n=========     Uninitialized read of {} ({}): first by {} at {}", memory_name(r.space),
                          plural(r.count, "read"), format_tag(r.tid, r.ctaid), format_site(r.site));
  }
  kernel_error::details d;
  d.kind = f.kind;
  d.thread_idx = f.tid;
  d.block_idx = f.ctaid;
  d.space = f.space;
  d.file = f.site.file ? f.site.file : "";
  d.line = f.site.line;
  d.hazard = f.hazard;
  d.other_thread_idx = f.other_tid;
  d.other_block_idx = f.other_ctaid;
  d.other_file = f.other_file ? f.other_file : "";
  d.other_line = f.other_line;
  d.count = f.count;
  d.records = findings.size();
  return kernel_error(text, std::move(d));
}

std::string leak_check_report(std::span<const leaked_allocation> live) {
  std::size_t bytes = 0;
  for (const leaked_allocation& a : live) bytes += a.bytes;
  std::string out = fmt::format("========= cusim leak check: {} allocation{} never freed ({} bytes)\n", live.size(),
                                live.size() == 1 ? " was" : "s were", bytes);
  for (const leaked_allocation& a : live) {
    const std::string where = format_site(a.site);
    out += fmt::format("=========     Leaked {} bytes of {} at {:#x}, allocation #{}{}{}\n", a.bytes, a.kind, a.address,
                       a.serial, where.empty() ? "" : " made at ", where);
  }
  return out;
}

// CUSIM_REPORT's summary: "cusim report: transpose_tiled (1 launch): global ld 4.00 / st 4.00
// sectors per request, 1015808 bank conflicts, 32.00 active lanes, occupancy 100% (threads)".
std::string report_summary_line(const report_summary_figures& f) {
  std::string out = fmt::format("cusim report: {} ({} launch{}):", f.name, f.launches, f.launches == 1 ? "" : "es");
  if (f.global_loads || f.global_stores) {
    out += " global";
    if (f.global_loads) out += fmt::format(" ld {:.2f}", f.load_sectors_per_request);
    if (f.global_stores) out += fmt::format("{} st {:.2f}", f.global_loads ? " /" : "", f.store_sectors_per_request);
    out += " sectors per request,";
  }
  if (f.shared) out += fmt::format(" {} shared bank conflict{},", f.bank_conflicts, f.bank_conflicts == 1 ? "" : "s");
  out += fmt::format(" {:.2f} active lanes per warp instruction, theoretical occupancy {:.0f}% (limited by {})\n",
                     f.active_lanes, f.occupancy_pct, f.limiter);
  return out;
}
std::string report_written_line(std::string_view html_path) {
  return fmt::format("cusim report: the pictures are in {} (open it in a browser)\n", html_path);
}
std::string report_unwritable_message(std::string_view path, std::string_view reason) {
  return fmt::format("cusim report: cannot write {}: {} (CUSIM_REPORT names the directory for it)\n", path, reason);
}

// cudaGetErrorString's and cudaGetErrorName's words, CUDA 13's.
const char* error_string(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorLaunchMaxDepthExceeded: return "launch would exceed maximum depth of nested launches";
    case cudaErrorSyncDepthExceeded:
      return "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth";
    case cudaErrorLaunchPendingCountExceeded:
      return "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidHostPointer: return "invalid host pointer";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorUnsupportedLimit: return "unsupported limit";
    case cudaErrorPeerAccessUnsupported: return "peer access is not supported between these two devices";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorSetOnActiveProcess: return "cannot set while device is active in this process";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    case cudaErrorNotPermitted: return "operation not permitted";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureMerge: return "operation would result in a merge of separate capture sequences";
    case cudaErrorStreamCaptureUnmatched: return "capture was not ended in the same stream as it began";
    case cudaErrorStreamCaptureUnjoined: return "capturing stream has unjoined work";
    case cudaErrorStreamCaptureIsolation: return "dependency created on uncaptured work in another stream";
    case cudaErrorStreamCaptureImplicit:
      return "operation would make the legacy stream depend on a capturing blocking stream";
    case cudaErrorCapturedEvent: return "operation not permitted on an event last recorded in a capturing stream";
    case cudaErrorStreamCaptureWrongThread:
      return "attempt to terminate a thread-local capture sequence from another thread";
    case cudaErrorGraphExecUpdateFailure:
      return "the graph update was not performed because it included changes which violated constraints specific "
             "to instantiated graph update";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}

const char* error_name(cudaError_t error) {
  switch (error) {
#define CUSIM_NAME(e) \
  case e: return #e;
    CUSIM_NAME(cudaSuccess)
    CUSIM_NAME(cudaErrorInvalidValue)
    CUSIM_NAME(cudaErrorMemoryAllocation)
    CUSIM_NAME(cudaErrorInitializationError)
    CUSIM_NAME(cudaErrorInvalidConfiguration)
    CUSIM_NAME(cudaErrorInvalidSymbol)
    CUSIM_NAME(cudaErrorInvalidDevicePointer)
    CUSIM_NAME(cudaErrorInvalidMemcpyDirection)
    CUSIM_NAME(cudaErrorLaunchMaxDepthExceeded)
    CUSIM_NAME(cudaErrorSyncDepthExceeded)
    CUSIM_NAME(cudaErrorLaunchPendingCountExceeded)
    CUSIM_NAME(cudaErrorNoDevice)
    CUSIM_NAME(cudaErrorInvalidDevice)
    CUSIM_NAME(cudaErrorInvalidResourceHandle)
    CUSIM_NAME(cudaErrorNotReady)
    CUSIM_NAME(cudaErrorIllegalAddress)
    CUSIM_NAME(cudaErrorLaunchOutOfResources)
    CUSIM_NAME(cudaErrorAssert)
    CUSIM_NAME(cudaErrorMisalignedAddress)
    CUSIM_NAME(cudaErrorLaunchFailure)
    CUSIM_NAME(cudaErrorCooperativeLaunchTooLarge)
    CUSIM_NAME(cudaErrorNotSupported)
    CUSIM_NAME(cudaErrorInvalidPitchValue)
    CUSIM_NAME(cudaErrorInvalidHostPointer)
    CUSIM_NAME(cudaErrorInvalidDeviceFunction)
    CUSIM_NAME(cudaErrorUnsupportedLimit)
    CUSIM_NAME(cudaErrorPeerAccessUnsupported)
    CUSIM_NAME(cudaErrorIllegalState)
    CUSIM_NAME(cudaErrorPeerAccessAlreadyEnabled)
    CUSIM_NAME(cudaErrorPeerAccessNotEnabled)
    CUSIM_NAME(cudaErrorSetOnActiveProcess)
    CUSIM_NAME(cudaErrorHostMemoryAlreadyRegistered)
    CUSIM_NAME(cudaErrorHostMemoryNotRegistered)
    CUSIM_NAME(cudaErrorNotPermitted)
    CUSIM_NAME(cudaErrorStreamCaptureUnsupported)
    CUSIM_NAME(cudaErrorStreamCaptureInvalidated)
    CUSIM_NAME(cudaErrorStreamCaptureMerge)
    CUSIM_NAME(cudaErrorStreamCaptureUnmatched)
    CUSIM_NAME(cudaErrorStreamCaptureUnjoined)
    CUSIM_NAME(cudaErrorStreamCaptureIsolation)
    CUSIM_NAME(cudaErrorStreamCaptureImplicit)
    CUSIM_NAME(cudaErrorCapturedEvent)
    CUSIM_NAME(cudaErrorStreamCaptureWrongThread)
    CUSIM_NAME(cudaErrorGraphExecUpdateFailure)
    CUSIM_NAME(cudaErrorUnknown)
#undef CUSIM_NAME
  }
  return "cudaErrorUnknown";
}

}  // namespace cusim::sim

namespace cusim::detail {

// Declared by the kernel-facing header (device_runtime.hpp); here, below every part that uses them.
void fail_outside_kernel(const char* what) { throw sim::outside_kernel_error(what); }

void fail_internal(const char* what) { throw std::logic_error(std::string("cusim: internal error: ") + what); }

}  // namespace cusim::detail

namespace cusim::sim {

std::string sync_misuse_message(int what, std::int64_t a, std::int64_t b) {
  using detail::sync_misuse;
  switch (static_cast<sync_misuse>(what)) {
    case sync_misuse::barrier_not_initialised:
      return "cuda::barrier used before init: neither init(&bar, count) nor a constructor set it up (a __shared__ "
             "barrier needs init by one thread, then __syncthreads(), before any thread uses it)";
    case sync_misuse::barrier_bad_expected:
      return fmt::format("cuda::barrier initialised for {} arrivals a phase: the count must be from 0 to {}", a, b);
    case sync_misuse::barrier_bad_update:
      return fmt::format("cuda::barrier::arrive({}): the update must be at least 1", a);
    case sync_misuse::barrier_overarrival:
      return fmt::format("cuda::barrier::arrive({}): {} arrival{} when the phase expects only {} more: more "
                         "threads arrive than the barrier was initialised for",
                         a, a, a == 1 ? "" : "s", b);
    case sync_misuse::barrier_foreign_token:
      return "cuda::barrier::wait: the arrival token was not given by this barrier (another barrier's, or a "
             "default-constructed one)";
    case sync_misuse::barrier_stale_token:
      return fmt::format("cuda::barrier::wait: the arrival token is of phase {}, but the barrier is in phase {}: a "
                         "token may be waited on only in its own phase or the next",
                         a, b);
    case sync_misuse::copy_misaligned:
      return fmt::format("memcpy_async with cuda::aligned_size_t<{}>: {:#x} (an address or the size) is not a "
                         "multiple of {}",
                         b, a, b);
    case sync_misuse::latch_overcount:
      return fmt::format("cuda::latch: a count down by {} when the count is {}: more arrivals than the latch was "
                         "made for",
                         a, b);
    case sync_misuse::semaphore_overflow:
      return fmt::format("cuda::counting_semaphore::release({}): the count would pass max() = {}", a, b);
    case sync_misuse::pipeline_wrong_role:
      return a != 0 ? "cuda::pipeline: producer_acquire or producer_commit by a thread that joined the pipeline as a "
                      "consumer"
                    : "cuda::pipeline: consumer_wait or consumer_release by a thread that joined the pipeline as a "
                      "producer";
  }
  return "cuda synchronisation object misused";
}

kernel_error sync_misuse_error(uint3 tid, uint3 ctaid, int what, std::int64_t a, std::int64_t b,
                               const detail::source_location& site) {
  const fault_kind kind = static_cast<detail::sync_misuse>(what) == detail::sync_misuse::copy_misaligned
                              ? fault_kind::misaligned_address
                              : fault_kind::barrier_divergence;
  return fault_error(kind, tid, ctaid, sync_misuse_message(what, a, b), site);
}

}  // namespace cusim::sim
