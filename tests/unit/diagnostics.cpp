// SPDX-License-Identifier: MIT
// diagnostics: the texts of the simulator's messages, built from facts alone (no kernel runs).
#include "diagnostics.hpp"

#include <cusim/backend/sim/libcudacxx_sync.hpp>

#include <doctest/doctest.h>

#include <signal.h>

#include <string>
#include <vector>

namespace sim = cusim::sim;
using cusim::fault_kind;
using cusim::detail::source_location;
using cusim::detail::warp_op;

namespace {
const source_location site{"/src/kernel.cu", 12, 5};
const source_location other_site{"/src/kernel.cu", 20, 5};
const uint3 tid{1, 0, 0}, ctaid{2, 0, 0};
}  // namespace

TEST_CASE("messages use numba's tag and the file's base name") {
  CHECK(sim::format_tag({1, 2, 3}, {4, 5, 6}) == "tid=[1, 2, 3] ctaid=[4, 5, 6]");
  CHECK(sim::format_site({"/a/b/matmul.cu", 12, 3}) == "matmul.cu:12");
  CHECK(sim::format_site({"", 0, 0}).empty());
  auto e = sim::out_of_bounds_error({16, 0, 0}, {1, 0, 0}, 16, 16, 0, cusim::memory_space::shared,
                                    {"/x/matmul.cu", 12, 7});
  CHECK(std::string(e.what()) ==
        "tid=[16, 0, 0] ctaid=[1, 0, 0]: index 16 is out of bounds for axis 0 with size 16 (shared array, matmul.cu:12)");
  auto f = sim::fault_error(fault_kind::deadlock, {0, 0, 0}, {0, 0, 0}, "stuck", {});
  CHECK(std::string(f.what()) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: stuck");
}

TEST_CASE("a site is the same when file text and line match, and the column where both have one") {
  const char a[] = "/src/kernel.cu";
  const char b[] = "/src/kernel.cu";  // the same text at another address
  CHECK(sim::same_site({a, 12, 5}, {b, 12, 5}));
  CHECK_FALSE(sim::same_site({a, 12, 5}, {b, 12, 6}));
  CHECK_FALSE(sim::same_site({a, 12, 5}, {b, 13, 5}));
  CHECK_FALSE(sim::same_site({a, 12, 5}, {"/src/other.cu", 12, 5}));
  CHECK(sim::same_site({a, 12, 0}, {b, 12, 9}));  // a line-only site matches any column
  CHECK(sim::same_site({nullptr, 3, 0}, {nullptr, 3, 0}));
  CHECK_FALSE(sim::same_site({nullptr, 3, 0}, {a, 3, 0}));
}

TEST_CASE("a signal in a kernel thread names what the CPU caught and where") {
  sim::signal_fault f{};
  f.signo = SIGFPE;
  f.code = FPE_INTDIV;
  auto e = sim::signal_fault_error(tid, ctaid, f, {"/src/kernel.cu", 7, "", 0}, 0);
  CHECK(std::string(e.what()) == "tid=[1, 0, 0] ctaid=[2, 0, 0]: division by zero (kernel.cu:7)");
  CHECK(e.kind() == fault_kind::arithmetic);
  sim::signal_fault overflow{};
  overflow.stack_overflow = true;
  CHECK(std::string(sim::signal_fault_error(tid, ctaid, overflow, {}, 64 * 1024).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: stack overflow: the thread needs more than its 64 KiB fiber stack (deep "
        "recursion or large local arrays); raise CUSIM_STACK (KiB)");
}

TEST_CASE("an exception escaping a kernel names its type and its what()") {
  CHECK(std::string(sim::uncaught_exception_error(tid, ctaid, "std::runtime_error", "boom").what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: uncaught exception of type std::runtime_error in kernel: boom");
  auto e = sim::uncaught_exception_error(tid, ctaid, "int", "");
  CHECK(std::string(e.what()) == "tid=[1, 0, 0] ctaid=[2, 0, 0]: uncaught exception of type int in kernel");
  CHECK(e.kind() == fault_kind::exception);
}

TEST_CASE("running out of fiber stacks names the fibers and their size") {
  CHECK(std::string(sim::fiber_stacks_exhausted_error(tid, ctaid, 4096, 256 * 1024).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: out of memory for fiber stacks: 4096 fibers of 256 KiB exist on this "
        "worker; lower CUSIM_STACK or keep fewer threads resident");
}

TEST_CASE("a thread spinning on atomics that never change is a deadlock") {
  auto e = sim::spin_deadlock_error(tid, ctaid, 63);
  CHECK(std::string(e.what()) == "tid=[1, 0, 0] ctaid=[2, 0, 0]: deadlock: no thread of the block can make progress: "
                                 "this thread spins on atomics that never change (63 threads wait at a barrier)");
  CHECK(e.kind() == fault_kind::deadlock);
}

TEST_CASE("strict sync checking names the thread that exited before the barrier") {
  auto e = sim::strict_barrier_error({0, 0, 0}, ctaid, 16, 32, {16, 0, 0}, site);
  CHECK(std::string(e.what()) ==
        "tid=[0, 0, 0] ctaid=[2, 0, 0]: barrier divergence (CUSIM_CHECK=sync): 16 of 32 threads wait at this "
        "__syncthreads, but thread tid=[16, 0, 0] ctaid=[2, 0, 0] has exited without reaching it (a GPU counts "
        "exited threads as arrived; strict checking does not) (kernel.cu:12)");
  CHECK(e.kind() == fault_kind::barrier_divergence);
}

TEST_CASE("barrier divergence counts the waiters per site in the order of each site's first waiter") {
  const std::vector<source_location> waiting{site, site, other_site, site, other_site};
  auto e = sim::barrier_divergence_error({2, 0, 0}, ctaid, {0, 0, 0}, site, waiting, other_site);
  CHECK(std::string(e.what()) ==
        "tid=[2, 0, 0] ctaid=[2, 0, 0]: barrier divergence: threads of the block wait at different __syncthreads "
        "(3 at kernel.cu:12, 2 at kernel.cu:20); thread tid=[0, 0, 0] ctaid=[2, 0, 0] waits at kernel.cu:12 "
        "(kernel.cu:20)");
  CHECK(e.kind() == fault_kind::barrier_divergence);
  CHECK(e.line() == 20);
}

TEST_CASE("too much shared memory names the bytes needed and the limit") {
  auto e = sim::shared_memory_exceeded_error(tid, ctaid, 65536, 49152, site);
  CHECK(std::string(e.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: too much shared memory: the block's __shared__ arrays and dynamic shared "
        "memory need 65536 bytes, the simulated device has 49152 per block (kernel.cu:12)");
  CHECK(e.kind() == fault_kind::shared_memory);
}

TEST_CASE("a grid sync outside a cooperative launch says how to launch cooperatively") {
  CHECK(std::string(sim::grid_sync_outside_cooperative_error(tid, ctaid, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: this_grid().sync() outside a cooperative launch: launch the kernel with "
        "cusim::launch_cooperative or cudaLaunchCooperativeKernel (kernel.cu:12)");
}

TEST_CASE("a grid sync deadlock names the block that exited and how many wait") {
  auto e = sim::grid_sync_deadlock_error({0, 0, 0}, {0, 0, 0}, {1, 0, 0}, 3, 4, site);
  CHECK(std::string(e.what()) ==
        "tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: this_grid().sync() can never complete: block [1, 0, 0] has "
        "exited without reaching it (3 of 4 blocks wait) (kernel.cu:12)");
  CHECK(e.kind() == fault_kind::grid_sync);
}

TEST_CASE("a collective is named with its mask in eight hex digits") {
  CHECK(sim::describe_collective(warp_op::shfl_down, 0xffffffffu) == "__shfl_down_sync(0xffffffff)");
  CHECK(sim::describe_collective(warp_op::sync, 0xffu) == "__syncwarp(0x000000ff)");
  CHECK(sim::describe_collective(warp_op::reduce_min_unsigned, 1u) == "__reduce_min_sync(0x00000001)");
}

TEST_CASE("a collective called by a lane outside its mask names the lane") {
  auto e = sim::lane_not_in_mask_error(tid, ctaid, "__ballot_sync(0x0000ffff)", 17, site);
  CHECK(std::string(e.what()) == "tid=[1, 0, 0] ctaid=[2, 0, 0]: __ballot_sync(0x0000ffff) called by lane 17, "
                                 "which is not in the mask (kernel.cu:12)");
  CHECK(e.kind() == fault_kind::warp_collective);
}

TEST_CASE("an invalid shuffle width is named") {
  CHECK(std::string(sim::invalid_width_error(tid, ctaid, "__shfl_sync(0xffffffff)", 12, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: __shfl_sync(0xffffffff): width 12 is not a power of two from 1 to 32 "
        "(kernel.cu:12)");
}

TEST_CASE("a shuffle reading a lane outside the mask names both lanes") {
  CHECK(std::string(sim::shuffle_outside_mask_error(tid, ctaid, "__shfl_xor_sync(0x0000ffff)", 3, 19, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: __shfl_xor_sync(0x0000ffff) in lane 3 reads lane 19, which is not in the "
        "mask (kernel.cu:12)");
}

TEST_CASE("a stuck warp names the lane that keeps it from completing") {
  const std::string what = "__any_sync(0xffffffff)";
  auto absent = sim::absent_lane_error({32, 0, 0}, {0, 0, 0}, what, 16, 48, false, site);
  CHECK(std::string(absent.what()) ==
        "tid=[32, 0, 0] ctaid=[0, 0, 0]: __any_sync(0xffffffff) can never complete: lane 16 of the mask does not "
        "exist (the block has 48 threads) (kernel.cu:12)");
  CHECK(absent.kind() == fault_kind::warp_collective);
  CHECK(std::string(sim::exited_lane_error(tid, ctaid, "__syncwarp(0xffffffff)", 16, true, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: __syncwarp(0xffffffff) can never complete: lane 16 of the mask has exited "
        "(CUSIM_CHECK=sync: every lane of a __syncwarp mask must reach it) (kernel.cu:12)");
  CHECK(std::string(sim::exited_lane_error(tid, ctaid, what, 5, false, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: __any_sync(0xffffffff) can never complete: lane 5 of the mask has exited "
        "(kernel.cu:12)");
  auto barrier = sim::warp_waits_at_barrier_error(tid, ctaid, what, other_site, site);
  CHECK(std::string(barrier.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: deadlock: __any_sync(0xffffffff) can never complete: lanes of its mask "
        "wait at __syncthreads (kernel.cu:20) (kernel.cu:12)");
  CHECK(barrier.kind() == fault_kind::deadlock);
  CHECK(std::string(sim::mismatched_collectives_error(tid, ctaid, 0, what, 4, "__all_sync(0xffffffff)", other_site,
                                                      site)
                        .what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: lanes of one mask wait at different warp collectives: lane 0 at "
        "__any_sync(0xffffffff), lane 4 at __all_sync(0xffffffff) (kernel.cu:20); every lane of a mask must call "
        "the same collective with the same mask (kernel.cu:12)");
}

TEST_CASE("a stuck warp with no lane to blame is a deadlock") {
  auto e = sim::stuck_warp_error(tid, ctaid, "__syncwarp(0x00000003)", site);
  CHECK(std::string(e.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: deadlock: __syncwarp(0x00000003) can never complete (kernel.cu:12)");
  CHECK(e.kind() == fault_kind::deadlock);
}

TEST_CASE("device-side faults of the kernel API name the call") {
  CHECK(std::string(sim::bad_tile_error(tid, ctaid, 24, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cg::tiled_partition(block, 24): the tile size must be a power of two from 1 "
        "to 32 (kernel.cu:12)");
  auto local = sim::local_array_too_large_error(tid, ctaid, 1 << 20, 256 * 1024, site);
  CHECK(std::string(local.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: local array of 1048576 bytes does not fit in the thread's 256 KiB fiber "
        "stack; raise CUSIM_STACK (KiB) (kernel.cu:12)");
  CHECK(local.kind() == fault_kind::stack_overflow);
  auto assertion = sim::assertion_error(tid, ctaid, "x > 0", "void k(int)", site);
  CHECK(std::string(assertion.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: device-side assertion `x > 0` failed in void k(int) (kernel.cu:12)");
  CHECK(assertion.kind() == fault_kind::assertion);
  auto trap = sim::trap_error(tid, ctaid, site);
  CHECK(std::string(trap.what()) == "tid=[1, 0, 0] ctaid=[2, 0, 0]: __trap() was called (kernel.cu:12)");
  CHECK(trap.kind() == fault_kind::trap);
  auto host_only = sim::host_function_in_kernel_error(tid, ctaid, "cudaDeviceSynchronize");
  CHECK(std::string(host_only.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cudaDeviceSynchronize was called in a kernel: it is a host function, not part "
        "of CUDA's device runtime (nvcc rejects it in device code; since CUDA 12 a kernel cannot wait for the grids "
        "it launched, which complete before it does)");
  CHECK(host_only.code() == cudaErrorLaunchFailure);
  auto events = sim::unsimulated_device_function_error(tid, ctaid, "cudaEventRecord");
  CHECK(std::string(events.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cudaEventRecord was called in a kernel: the simulator does not simulate the "
        "device runtime's events (docs/unmodified-cuda.md, \"Dynamic parallelism\")");
}

TEST_CASE("kernel facilities misused in host code say so") {
  CHECK(std::string(sim::outside_kernel_error("__syncthreads").what()) ==
        "cusim: __syncthreads used outside a kernel");
  CHECK(std::string(sim::host_out_of_bounds_error(8, 8, 1, cusim::memory_space::global, site).what()) ==
        "index 8 is out of bounds for axis 1 with size 8 (global array, kernel.cu:12, host code)");
  CHECK(sim::host_assertion_message("n == 3", "int main()", site) ==
        "/src/kernel.cu:12: int main(): Assertion `n == 3' failed.\n");
  CHECK(sim::host_trap_message(site) == "/src/kernel.cu:12: __trap() called in host code\n");
}

TEST_CASE("a launch rejection carries CUDA's code, its string and name, and the reason") {
  auto e = sim::launch_rejection(cudaErrorInvalidConfiguration, sim::zero_dimension_reason("block", dim3(0, 1, 1)));
  CHECK(e.code() == cudaErrorInvalidConfiguration);
  CHECK(std::string(e.what()) == "cusim::launch: invalid configuration argument (cudaErrorInvalidConfiguration): "
                                 "block dimensions [0, 1, 1] contain a zero");
}

TEST_CASE("launch rejection reasons name the configuration and the device's limit") {
  const int threads_dim[3] = {1024, 1024, 64};
  const int grid_size[3] = {0x7fffffff, 65535, 65535};
  CHECK(sim::zero_dimension_reason("grid", dim3(4, 0, 1)) == "grid dimensions [4, 0, 1] contain a zero");
  CHECK(sim::block_axis_limit_reason(dim3(1, 1, 65), threads_dim) ==
        "block dimensions [1, 1, 65] exceed the per-axis limits [1024, 1024, 64]");
  CHECK(sim::block_thread_limit_reason(dim3(64, 32, 1), 2048, 1024) ==
        "block dimensions [64, 32, 1] make 2048 threads, more than the 1024 threads per block of the simulated "
        "device");
  CHECK(sim::grid_limit_reason(dim3(1, 65536, 1), grid_size) ==
        "grid dimensions [1, 65536, 1] exceed the limits [2147483647, 65535, 65535]");
  CHECK(sim::dynamic_shared_limit_reason(65536, 49152) ==
        "65536 bytes of dynamic shared memory exceed the 49152 bytes per block");
  CHECK(sim::shared_limit_reason(40960, 16384, 49152) ==
        "the kernel's 40960 bytes of __shared__ arrays and 16384 bytes of dynamic shared memory exceed the 49152 "
        "bytes per block");
  CHECK(sim::dead_stream_reason() == "the stream is not a live cudaStream_t");
  CHECK(sim::device_stream_reason() ==
        "a kernel launches into its block's implicit stream, cudaStreamTailLaunch, cudaStreamFireAndForget or a live "
        "stream its own block created with cudaStreamCreateWithFlags(..., cudaStreamNonBlocking)");
  CHECK(sim::launch_depth_reason(24) ==
        "the launching grid is nested 24 deep, CUDA's deepest: it may not launch a child grid");
  CHECK(sim::pending_launches_reason(2048) ==
        "2048 launches from kernels are pending already (cudaLimitDevRuntimePendingLaunchCount; raise it with "
        "cudaDeviceSetLimit before the host launch)");
  CHECK(std::string(sim::launch_rejection(cudaErrorLaunchMaxDepthExceeded, "r").what()) ==
        "cusim::launch: launch would exceed maximum depth of nested launches (cudaErrorLaunchMaxDepthExceeded): r");
  CHECK(std::string(sim::launch_rejection(cudaErrorLaunchPendingCountExceeded, "r").what()) ==
        "cusim::launch: launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount "
        "(cudaErrorLaunchPendingCountExceeded): r");
  CHECK(sim::cooperative_residency_reason(2000, 1024, 216, 2, 108) ==
        "a cooperative launch needs every block resident at once: 2000 blocks of 1024 threads exceed the 216 (2 per "
        "multiprocessor x 108 multiprocessors) the simulated device holds");
}

TEST_CASE("the memory check report tags its first finding and lists every record") {
  const std::vector<sim::memory_finding> findings{
      {fault_kind::data_race, "WAR", {1, 0, 0}, {0, 0, 0}, {"/src/corpus.cu", 112, 9}, {0, 0, 0}, {0, 0, 0},
       "/src/corpus.cu", 113, cusim::memory_space::shared, 63},
      {fault_kind::uninitialized_read, "", {32, 0, 0}, {1, 0, 0}, {"/src/corpus.cu", 140, 3}, {}, {}, nullptr, 0,
       cusim::memory_space::global, 1},
  };
  auto e = sim::memory_check_report(findings);
  CHECK(std::string(e.what()) ==
        "tid=[1, 0, 0] ctaid=[0, 0, 0]: data race on shared memory (WAR hazard): write at corpus.cu:112 races with "
        "the read by tid=[0, 0, 0] ctaid=[0, 0, 0] at corpus.cu:113, with no barrier between (63 hazards)\n"
        "========= cusim memory check: 2 records\n"
        "=========     WAR hazard on shared memory (63 hazards): read by tid=[0, 0, 0] ctaid=[0, 0, 0] at "
        "corpus.cu:113, then write by tid=[1, 0, 0] ctaid=[0, 0, 0] at corpus.cu:112\n"
        "=========     Uninitialized read of global memory (1 read): first by tid=[32, 0, 0] ctaid=[1, 0, 0] at "
        "corpus.cu:140");
  CHECK(e.kind() == fault_kind::data_race);
  CHECK(e.info().hazard == "WAR");
  CHECK(e.info().other_line == 113);
  CHECK(e.info().count == 63);
  CHECK(e.info().records == 2);
}

TEST_CASE("an init finding first is worded as an uninitialized read") {
  const std::vector<sim::memory_finding> findings{
      {fault_kind::uninitialized_read, "", {32, 0, 0}, {0, 0, 0}, {"/src/corpus.cu", 140, 3}, {}, {}, nullptr, 0,
       cusim::memory_space::dynamic_shared, 2},
  };
  auto e = sim::memory_check_report(findings);
  CHECK(std::string(e.what()) ==
        "tid=[32, 0, 0] ctaid=[0, 0, 0]: uninitialized read of shared memory: the bytes read were never written in "
        "this block (2 reads)\n"
        "========= cusim memory check: 1 record\n"
        "=========     Uninitialized read of shared memory (2 reads): first by tid=[32, 0, 0] ctaid=[0, 0, 0] at "
        "corpus.cu:140");
  CHECK(e.kind() == fault_kind::uninitialized_read);
}

TEST_CASE("the leak report lists each live allocation with its kind, address and site") {
  const std::vector<sim::leaked_allocation> one{
      {0x1000, 256, "device memory (cudaMalloc)", 2, {"/src/leak.cu", 13, 3}}};
  CHECK(sim::leak_check_report(one) ==
        "========= cusim leak check: 1 allocation was never freed (256 bytes)\n"
        "=========     Leaked 256 bytes of device memory (cudaMalloc) at 0x1000, allocation #2 made at leak.cu:13\n");
  const std::vector<sim::leaked_allocation> two{
      {0x1000, 256, "device memory (cudaMalloc)", 2, {"/src/leak.cu", 13, 3}},
      {0x2000, 64, "pinned host memory (cudaMallocHost)", 5, {}},
  };
  CHECK(sim::leak_check_report(two) ==
        "========= cusim leak check: 2 allocations were never freed (320 bytes)\n"
        "=========     Leaked 256 bytes of device memory (cudaMalloc) at 0x1000, allocation #2 made at leak.cu:13\n"
        "=========     Leaked 64 bytes of pinned host memory (cudaMallocHost) at 0x2000, allocation #5\n");
}

TEST_CASE("a raw array's bounds fault names its axis and space, or says the axis is not known") {
  sim::array_bounds_fault f;
  f.index = 16;
  f.extent = 16;
  f.axis = 1;
  f.space = cusim::memory_space::shared;
  f.file = "/src/tile.cu";
  f.line = 21;
  auto e = sim::array_bounds_error({15, 3, 0}, {0, 0, 0}, f);
  CHECK(std::string(e.what()) ==
        "tid=[15, 3, 0] ctaid=[0, 0, 0]: index 16 is out of bounds for axis 1 with size 16 (shared array, tile.cu:21)");
  CHECK(e.kind() == fault_kind::out_of_bounds);
  CHECK(e.code() == cudaErrorIllegalAddress);
  f.axis = -1;
  f.space = cusim::memory_space::local;
  CHECK(std::string(sim::array_bounds_error({0, 0, 0}, {1, 0, 0}, f).what()) ==
        "tid=[0, 0, 0] ctaid=[1, 0, 0]: index 16 is out of bounds for an axis with size 16 (local array, tile.cu:21)");
  CHECK(sim::host_array_bounds_message("a.cu", 7, 9, -1, "'int [3]'") ==
        "a.cu:7:9: runtime error: index -1 out of bounds for type 'int [3]'\n");
}

TEST_CASE("libcu++'s synchronisation objects misused: each report names the object, the facts and the line") {
  using cusim::detail::sync_misuse;
  const auto text = [](sync_misuse what, std::int64_t a, std::int64_t b) {
    return std::string(sim::sync_misuse_error(tid, ctaid, static_cast<int>(what), a, b, site).what());
  };
  CHECK(text(sync_misuse::barrier_not_initialised, 0, 0) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier used before init: neither init(&bar, count) nor a constructor "
        "set it up (a __shared__ barrier needs init by one thread, then __syncthreads(), before any thread uses it) "
        "(kernel.cu:12)");
  CHECK(text(sync_misuse::barrier_bad_expected, -1, 1048575) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier initialised for -1 arrivals a phase: the count must be from 0 "
        "to 1048575 (kernel.cu:12)");
  CHECK(text(sync_misuse::barrier_bad_update, 0, 0) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier::arrive(0): the update must be at least 1 (kernel.cu:12)");
  CHECK(text(sync_misuse::barrier_overarrival, 1, 0) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier::arrive(1): 1 arrival when the phase expects only 0 more: "
        "more threads arrive than the barrier was initialised for (kernel.cu:12)");
  CHECK(text(sync_misuse::barrier_foreign_token, 0, 0) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier::wait: the arrival token was not given by this barrier "
        "(another barrier's, or a default-constructed one) (kernel.cu:12)");
  CHECK(text(sync_misuse::barrier_stale_token, 2, 5) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::barrier::wait: the arrival token is of phase 2, but the barrier is in "
        "phase 5: a token may be waited on only in its own phase or the next (kernel.cu:12)");
  CHECK(text(sync_misuse::copy_misaligned, 0x1004, 16) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: memcpy_async with cuda::aligned_size_t<16>: 0x1004 (an address or the "
        "size) is not a multiple of 16 (kernel.cu:12)");
  CHECK(text(sync_misuse::pipeline_wrong_role, 0, 0) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::pipeline: consumer_wait or consumer_release by a thread that joined "
        "the pipeline as a producer (kernel.cu:12)");
  CHECK(text(sync_misuse::latch_overcount, 5, 4) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::latch: a count down by 5 when the count is 4: more arrivals than the "
        "latch was made for (kernel.cu:12)");
  CHECK(text(sync_misuse::semaphore_overflow, 2, 1) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: cuda::counting_semaphore::release(2): the count would pass max() = 1 "
        "(kernel.cu:12)");
  CHECK(sim::sync_misuse_error(tid, ctaid, static_cast<int>(sync_misuse::barrier_overarrival), 1, 0, site).kind() ==
        fault_kind::barrier_divergence);
  CHECK(sim::sync_misuse_error(tid, ctaid, static_cast<int>(sync_misuse::copy_misaligned), 4, 16, site).code() ==
        cudaErrorMisalignedAddress);
}

TEST_CASE("texture and surface faults name the call, the object and what is wrong with it") {
  auto destroyed = sim::bad_texture_object_error(tid, ctaid, "tex2D", "texture object", 3, true, site);
  CHECK(std::string(destroyed.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: tex2D through texture object 3, which cudaDestroyTextureObject destroyed "
        "(kernel.cu:12)");
  CHECK(destroyed.code() == cudaErrorIllegalAddress);
  CHECK(std::string(sim::bad_texture_object_error(tid, ctaid, "surf2Dread", "surface object", 0, false, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: surf2Dread through surface object 0, which no cudaCreateSurfaceObject "
        "created (kernel.cu:12)");
  CHECK(std::string(sim::freed_array_fetch_error(tid, ctaid, "tex1D", "texture object", 7, site).what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: tex1D through texture object 7, whose CUDA array cudaFreeArray freed "
        "(kernel.cu:12)");
  auto outside = sim::surface_out_of_range_error(tid, ctaid, "surf3Dwrite", 2, 64, -1, 3, 8, 16, 4, 3, 8, site);
  CHECK(std::string(outside.what()) ==
        "tid=[1, 0, 0] ctaid=[2, 0, 0]: surf3Dwrite of 8 bytes at x = 64 bytes, y = -1, z = 3 is outside surface "
        "object 2 (16 x 4 x 3 elements of 8 bytes; cudaBoundaryModeTrap) (kernel.cu:12)");
  CHECK(outside.code() == cudaErrorIllegalAddress);
}
