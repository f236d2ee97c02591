// SPDX-License-Identifier: MIT
// What kernel code on the simulator reaches: the current simulated thread and the entry points
// of the compiled simulator (barriers, shared memory, fault reports).
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/vector_types.hpp>
#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cusim::detail {

struct sim_thread;

/// What the threads of a block share: blockIdx, blockDim, gridDim, a progress counter the
/// deadlock detection reads, and the cursor over the threads not started yet, which the kernel's
/// own thread loop advances inline (next_thread). The simulator's block context derives from it.
struct block_info {
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  std::uint64_t progress;  ///< memory-modifying atomics, barrier arrivals and exits (with next_unstarted)
  unsigned nthreads;        ///< threads per block
  unsigned next_unstarted;  ///< the linear index of the next thread to start
  // The threadIdx of thread `cursor_linear`, which start_next_thread takes when that thread is
  // next_unstarted (else it divides): x and y in one word (x in the low half), always read and
  // written whole, since a narrower store before a wider load would defeat store-to-load
  // forwarding; z apart. The thread loop of run_threads keeps its own cursor in registers.
  std::uint64_t cursor_xy;
  unsigned cursor_z;
  unsigned cursor_linear;
  bool fast_next;           ///< no checker, no random schedule, no fault: next_thread may start it inline
  bool observed;            ///< the launch records element accesses (CUSIM_CHECK=race/init, CUSIM_SCHEDULE=random)
  bool phases;              ///< the launch allows a block to run as loops between barriers (phases.hpp)
  bool phased;              ///< this block runs so: one fiber steps through its threads phase by phase
  /// Every started thread's record by linear index, nthreads of them; null for a thread that
  /// run_threads started: the record in inline_lanes, which runs it until it exits or enters the
  /// simulator (which then stores its lane: sim::current_record).
  sim_thread** lanes;
  sim_thread* inline_lanes;  ///< the record whose run_threads loop last started threads (its lanes: null)
  void* dynamic_shared;      ///< the block's dynamic shared memory (`extern __shared__`), 16-byte aligned
};

/// The part of a simulated thread's state that inline kernel code reads and writes. The
/// simulator's thread record derives from it; one is current on each OS thread while a kernel
/// runs. Small on purpose: with the scheduler's fields it fits one cache line.
struct sim_thread {
  uint3 thread_idx;
  std::uint16_t linear;  ///< threadIdx as one index, x fastest (at most 1,024 threads a block)
  std::uint16_t polls;   ///< consecutive atomics of this thread that changed nothing
  block_info* block;     ///< the block the thread belongs to
  const char* stack_lo;  ///< lowest usable address of the fiber stack
};

extern __thread sim_thread* current_thread_;

/// Copies of what kernel code reads as threadIdx, blockIdx, blockDim and gridDim: those of
/// current_thread_'s record and its block, on each OS thread, equal to them whenever kernel code
/// runs (enter_thread at each switch to a thread, make_current and run_threads where a thread
/// takes the next index). Kernel code compiled with the raw-pointer checks reads these rather than
/// the records: the address instrumentation leaves a thread-local variable alone (GCC; where
/// Clang checks one, its shadow is addressable), and the compiler, which sees the thread
/// loop's store just before the kernel's load, forwards it: threadIdx.x is the loop's counter.
struct builtin_values {
  uint3 thread_idx;
  uint3 block_idx;
  uint3 block_dim;
  uint3 grid_dim;
};
extern __thread builtin_values builtins_;

[[noreturn]] void fail_outside_kernel(const char* what);
/// A broken invariant of the simulator itself: throws std::logic_error naming it.
[[noreturn]] void fail_internal(const char* what);

// The simulator's own records, read and written by kernel code compiled with the nvcc driver's
// raw-pointer checks, which instrument every access the compiler sees (its address, alignment
// and bounds checks): through inline asm, which they do not see, so that a thread's start and its
// threadIdx, blockIdx and blockDim cost what they cost unchecked. The records are the
// simulator's, never the program's memory. Elsewhere plain accesses.
// The functions that touch them are compiled without the front end's checks (UBSan's alignment
// and bounds: the address checks come after inlining, and the asm keeps the accesses from them);
// always_inline, which both compilers inline into a function with other sanitizer settings.
#define CUSIM_RUNTIME_INLINE [[gnu::always_inline]] __attribute__((no_sanitize("alignment", "bounds")))
#define CUSIM_RUNTIME_LAMBDA __attribute__((always_inline, no_sanitize("alignment", "bounds")))
#if defined(CUSIM_RAW_ADDRESS_CHECKS) && defined(__x86_64__)
/// The unsigned integer type of T's size, which a general register holds (T of 1, 2, 4 or 8 bytes).
template <class T>
using register_bits = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
// Integers, bool and pointers in their own type, with no std::bit_cast (even an identity bit_cast
// changed GCC's register allocation: the checked vectorAdd's thread loop spilled a register per
// thread, 49 -> 57 ms); other trivially copyable values (a float, a small struct: the phases'
// slots) through the integer of their size, the memory operand keeping its type.
template <class T>
[[gnu::always_inline]] inline T runtime_read(const T& field) noexcept {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_integral_v<T> || std::is_pointer_v<T>) {
    T v;
    if constexpr (sizeof(T) == 1) asm("movb %1, %0" : "=q"(v) : "m"(field));
    else asm("mov %1, %0" : "=r"(v) : "m"(field));
    return v;
  } else {  // the memory operand keeps T's type (the compiler's view of what the asm reads)
    register_bits<T> v;
    if constexpr (sizeof(T) == 1) asm("movb %1, %0" : "=q"(v) : "m"(field));
    else asm("mov %1, %0" : "=r"(v) : "m"(field));
    return std::bit_cast<T>(v);
  }
}
template <class T>
[[gnu::always_inline]] inline void runtime_write(T& field, T v) noexcept {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_integral_v<T> || std::is_pointer_v<T>) {
    if constexpr (sizeof(T) == 1) asm("movb %1, %0" : "=m"(field) : "q"(v));
    else asm("mov %1, %0" : "=m"(field) : "r"(v));
  } else {
    const auto bits = std::bit_cast<register_bits<T>>(v);
    if constexpr (sizeof(T) == 1) asm("movb %1, %0" : "=m"(field) : "q"(bits));
    else asm("mov %1, %0" : "=m"(field) : "r"(bits));
  }
}
#else
template <class T>
[[gnu::always_inline]] inline T runtime_read(const T& field) noexcept {
  return field;
}
template <class T>
[[gnu::always_inline]] inline void runtime_write(T& field, T v) noexcept {
  field = v;
}
#endif
CUSIM_RUNTIME_INLINE inline uint3 runtime_read(const uint3& v) noexcept {
  return {runtime_read(v.x), runtime_read(v.y), runtime_read(v.z)};
}
CUSIM_RUNTIME_INLINE inline dim3 runtime_read(const dim3& v) noexcept {
  return dim3(runtime_read(v.x), runtime_read(v.y), runtime_read(v.z));
}

CUSIM_RUNTIME_INLINE inline sim_thread& this_thread() {
  sim_thread* t = current_thread_;
  if (t == nullptr) [[unlikely]] fail_outside_kernel("a CUDA built-in (threadIdx, blockIdx, ...)");
  return *t;
}

/// Makes the record `t` thread `idx` of its block (linear index `linear`), with no atomic polls
/// counted yet: what a thread started inline (start_next_thread) or a thread's turn in a block run
/// in phases (phases.hpp) writes.
CUSIM_RUNTIME_INLINE inline void make_current(sim_thread& t, unsigned linear, uint3 idx) noexcept {
  t.linear = static_cast<std::uint16_t>(linear);
  t.polls = 0;
  t.thread_idx = idx;
  builtins_.thread_idx = idx;
}

/// Makes `t` the thread that runs on this OS thread (a switch to it, or its start on a fiber).
CUSIM_RUNTIME_INLINE inline void enter_thread(sim_thread& t) noexcept {
  current_thread_ = &t;
  const block_info& b = *t.block;
  builtins_ = {t.thread_idx, b.block_idx, {b.block_dim.x, b.block_dim.y, b.block_dim.z},
               {b.grid_dim.x, b.grid_dim.y, b.grid_dim.z}};
}

/// The index of element `linear` of `shape`, x fastest: threadIdx of a thread in its block, or
/// blockIdx of a block in the grid.
inline uint3 index_of(const dim3& shape, std::uint64_t linear) noexcept {
  return {static_cast<unsigned>(linear % shape.x), static_cast<unsigned>(linear / shape.x % shape.y),
          static_cast<unsigned>(linear / (std::uint64_t{shape.x} * shape.y))};
}

/// Makes `t` the block's next unstarted thread, in CUDA's order (x fastest).
CUSIM_RUNTIME_INLINE inline void start_next_thread(sim_thread& t, block_info& b) noexcept {
  const unsigned linear = b.next_unstarted++;
  const std::uint64_t xy = b.cursor_xy;
  uint3 idx{static_cast<unsigned>(xy), static_cast<unsigned>(xy >> 32), b.cursor_z};
  if (b.cursor_linear != linear) [[unlikely]] idx = index_of(b.block_dim, linear);
  make_current(t, linear, idx);
  b.cursor_linear = linear + 1;
  if (idx.x + 1 != b.block_dim.x) {
    b.cursor_xy = (std::uint64_t{idx.y} << 32) | (idx.x + 1);
    b.cursor_z = idx.z;
  } else if (idx.y + 1 != b.block_dim.y) {
    b.cursor_xy = std::uint64_t{idx.y + 1} << 32;
    b.cursor_z = idx.z;
  } else {
    b.cursor_xy = 0;
    b.cursor_z = idx.z + 1;
  }
  b.lanes[linear] = &t;
}

/// The simulator's next_thread: finishes the current thread (it flushes what the checkers
/// gathered, counts the exit) and, while its block has threads not started yet, makes the next
/// one current on the same fiber (true).
bool finish_thread();

/// The current thread has returned from the kernel: the next thread of its block, if any, runs
/// on the same fiber (true). Inline while nothing needs the simulator (no checker, no random
/// schedule, no fault, threads left): a barrier-free kernel runs a block as a plain loop.
CUSIM_RUNTIME_INLINE inline bool next_thread() {
  sim_thread& t = *current_thread_;
  block_info& b = *t.block;
  if (b.fast_next && b.next_unstarted < b.nthreads) [[likely]] {
    start_next_thread(t, b);  // the exit counts as progress through next_unstarted (no store here)
    return true;
  }
  return finish_thread();
}

/// Runs `call` for the current thread, then, on the same fiber, for the block's next threads
/// while nothing needs the simulator (next_thread's inline case): a barrier-free block is one
/// loop. The loop holds the cursor in registers and derives each threadIdx from the last, storing
/// only what the simulator and the debugger read (next_unstarted and the thread record); it
/// checks that nothing else moved the cursor (a thread that waited at a barrier let other fibers
/// start threads), and otherwise leaves the next start to next_thread.
template <class Call>
CUSIM_RUNTIME_INLINE inline void run_threads(Call&& call) {
  sim_thread& t = *current_thread_;  // this fiber's record, whichever thread it runs
  block_info& b = *runtime_read(t.block);
  const unsigned n = runtime_read(b.nthreads), dx = runtime_read(b.block_dim.x);
  do {
    // The lanes of the threads this loop starts stay 0, standing for this record: no store a
    // thread (a store waits in the store buffer behind the kernel's stores that miss the cache).
    runtime_write(b.inline_lanes, &t);
    unsigned linear = runtime_read(t.linear), x = runtime_read(t.thread_idx.x);
    for (;;) {
      // What the kernel's threadIdx.x and its test of current_thread_ read first (builtins_),
      // stored here from registers, so that the compiler forwards them into the inlined kernel.
      current_thread_ = &t;
      builtins_.thread_idx.x = x;
      call();
      if (!runtime_read(b.fast_next) || ++linear == n || runtime_read(b.next_unstarted) != linear) break;
      runtime_write(b.next_unstarted, linear + 1);  // the exit counts as progress through next_unstarted
      runtime_write(t.linear, static_cast<std::uint16_t>(linear));
      runtime_write(t.polls, std::uint16_t{0});
      if (++x != dx) [[likely]] {
        runtime_write(t.thread_idx.x, x);  // y and z stay
      } else {
        x = 0;
        unsigned y = runtime_read(t.thread_idx.y) + 1, z = runtime_read(t.thread_idx.z);
        if (y == runtime_read(b.block_dim.y)) {
          y = 0;
          ++z;
        }
        runtime_write(t.thread_idx.x, 0u);
        runtime_write(t.thread_idx.y, y);
        runtime_write(t.thread_idx.z, z);
        builtins_.thread_idx.y = y;
        builtins_.thread_idx.z = z;
      }
    }
  } while (next_thread());
}

enum class sync_op : std::uint8_t { plain, count, all, any, grid };

/// __syncthreads and its predicate forms; returns the reduced predicate.
int sync_block(sync_op op, int predicate, const source_location& site);
/// this_grid().sync(): every thread of every block of a cooperative launch.
void sync_grid(const source_location& site);
/// Whether the current launch is cooperative (this_grid().is_valid()).
bool in_cooperative_launch();

/// The warp collectives. Every lane named in the mask must call the same one with the same mask.
enum class warp_op : std::uint8_t {
  sync,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  all,
  any,
  match_any,
  match_all,
  reduce_add,
  reduce_min_signed,
  reduce_min_unsigned,
  reduce_max_signed,
  reduce_max_unsigned,
  reduce_and,
  reduce_or,
  reduce_xor,
};

/// One lane's part in a warp collective: its value (zero-extended bits), and for shuffles the
/// source lane, delta or lane mask in `arg` and the segment width.
struct warp_request {
  warp_op op;
  unsigned mask;
  std::uint64_t value = 0;
  int arg = 0;
  int width = 32;
};
struct warp_result {
  std::uint64_t value;
  int predicate;  ///< __match_all_sync's *pred
};

/// Waits until every lane of `req.mask` has joined the same collective, then returns this lane's
/// result. Misuse (the caller not in the mask, lanes at different collectives, a lane of the
/// mask that has exited) throws a tagged kernel_error.
warp_result warp_collective(const warp_request& req, const source_location& site);
/// __activemask: the lanes of the calling warp that reach this same call together.
unsigned active_mask(const source_location& site);
/// The calling thread's linear index in its block (x fastest).
inline unsigned linear_thread_index() {
  const sim_thread& t = this_thread();
  return t.thread_idx.x + t.block->block_dim.x * (t.thread_idx.y + t.block->block_dim.y * t.thread_idx.z);
}
/// Called after a run of atomics that changed nothing: lets other threads of the block run.
void poll_yield();
/// The key of the __shared__ declaration being executed (see __shared__ in qualifiers.hpp):
/// set by the declaration, taken by the shared_array handle it constructs.
extern __thread const void* shared_key;
/// Records that arrays named `name` live in `space` (what the nvcc driver emits beside raw
/// __shared__, __constant__ and __device__ array declarations), so that a bounds fault on one
/// names its memory space. Returns true.
bool name_array(const char* name, memory_space space) noexcept;
/// Binds a __shared__ array to the current block's shared memory: the variable `key` (null:
/// the declaration at `site`), `bytes` in size.
void* bind_shared(const void* key, const source_location& site, std::size_t bytes, std::size_t align);
/// The launch's dynamic shared memory of the current block.
void* dynamic_shared_memory(std::size_t* bytes);
/// Throws the tagged out-of-bounds kernel_error for the current thread.
[[noreturn]] void fail_out_of_bounds(std::int64_t index, std::int64_t extent, int axis,
                                     memory_space space, source_location site);
[[noreturn]] void fail_bad_tile(unsigned size, const source_location& site);
[[noreturn]] void fail_local_array(std::size_t bytes, const source_location& site);
[[noreturn]] void fail_assert(const char* expr, const char* function, const source_location& site);
[[noreturn]] void fail_trap(const source_location& site);

/// Whether the thread running on this OS thread has its accesses recorded: the `observed` of the
/// block its runner runs, set when the runner starts or resumes a block and cleared when it leaves
/// it (false in host code). What every checked access and the raw-pointer checks (raw_access.cpp)
/// test. Code that reads it sees it const: while a block's code runs the flag never changes (the
/// runner sets it again before that code resumes from a barrier or any other switch), so the
/// compiler may keep one load of it in a register across the calls and loops of a kernel, and
/// after kernel_closure::run_calls's one test the inlined kernel's accesses test nothing. The
/// simulator writes it under another name, the same symbol (sim::accesses_observed_flag).
extern __thread const bool accesses_observed_ __asm__("cusim_accesses_observed");
[[gnu::always_inline]] inline bool accesses_observed() noexcept { return accesses_observed_; }
/// The current thread is about to access `bytes` at `p` through a checked array (or a raw pointer
/// of an unmodified program; `store`: the instrumentation knows the access writes).
[[gnu::cold]] void note_access(void* p, std::size_t bytes, memory_space space, source_location site, bool store = false);
/// An atomic function is applied to `p`.
void note_atomic_access(const void* p);
/// The same in code compiled with address instrumentation (an unmodified program's .cu): checks
/// `bytes` at `p` against the allocations, as the instrumentation would, and records the access
/// as atomic for the checkers (raw_access.cpp).
void check_atomic_address(void* p, std::size_t bytes);

/// Spin-waits poll with atomics; after this many in a row that changed nothing, the thread
/// yields so that the thread it waits for can run.
inline constexpr unsigned poll_yield_threshold = 16;

inline void note_atomic(bool modified) {
  sim_thread* t = current_thread_;
  if (t == nullptr) return;  // an atomic on the host
  if (modified) {
    t->polls = 0;
    ++t->block->progress;
  } else if (++t->polls >= poll_yield_threshold) {
    t->polls = 0;
    poll_yield();
  }
}

/// malloc and free in kernel code (the nvcc driver's rewrite of them in device functions): the
/// device heap of cudaLimitMallocHeapSize bytes (8 MiB by default); null past it, as on a GPU.
void* device_malloc(std::size_t bytes) noexcept;
void device_free(void* p) noexcept;

}  // namespace cusim::detail

// The device runtime's named streams (dynamic parallelism, CDP2), CUDA's values: a launch into
// cudaStreamTailLaunch runs after the launching grid and all its other work; one into
// cudaStreamFireAndForget runs independently of the grid's other work.
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)

#if defined(CUSIM_RAW_ADDRESS_CHECKS) && defined(__x86_64__)
// Values (a built-in variable's address cannot be taken in CUDA), read past the instrumentation.
namespace cusim::detail {
// The copies in builtins_, after this_thread's test that a kernel runs.
CUSIM_RUNTIME_INLINE inline uint3 thread_index() noexcept {
  (void)this_thread();
  return builtins_.thread_idx;
}
CUSIM_RUNTIME_INLINE inline uint3 block_index() noexcept {
  (void)this_thread();
  return builtins_.block_idx;
}
}  // namespace cusim::detail
#  define threadIdx (::cusim::detail::thread_index())
#  define blockIdx (::cusim::detail::block_index())
CUSIM_RUNTIME_INLINE inline dim3 cusim_block_dim_() {
  using namespace ::cusim::detail;
  (void)this_thread();
  return dim3(builtins_.block_dim.x, builtins_.block_dim.y, builtins_.block_dim.z);
}
CUSIM_RUNTIME_INLINE inline dim3 cusim_grid_dim_() {
  using namespace ::cusim::detail;
  (void)this_thread();
  return dim3(builtins_.grid_dim.x, builtins_.grid_dim.y, builtins_.grid_dim.z);
}
#else
#  define threadIdx (::cusim::detail::this_thread().thread_idx)
#  define blockIdx (::cusim::detail::this_thread().block->block_idx)
// blockDim and gridDim are also member names of CUDA structs (cudaKernelNodeParams,
// cudaLaunchConfig_t): each expands to a call, so that `params.gridDim` names the struct's member
// function of that name (runtime_types.hpp), which returns the data member.
inline const dim3& cusim_block_dim_() { return ::cusim::detail::this_thread().block->block_dim; }
inline const dim3& cusim_grid_dim_() { return ::cusim::detail::this_thread().block->grid_dim; }
#endif
#define blockDim cusim_block_dim_()
#define gridDim cusim_grid_dim_()
inline constexpr int warpSize = 32;
