// SPDX-License-Identifier: MIT
// Raw pointers of unmodified programs checked against their allocations. The nvcc driver compiles
// .cu files with the compiler's address instrumentation in its kernel flavour
// (-fsanitize=kernel-address, GCC and Clang alike: no stack or global redzones, no runtime of its
// own), its checks inline against the arena's shadow at AddressSanitizer's offset
// (address_space.hpp): a shadow load and a branch per access, and a call here only when the shadow
// is not zero, __asan_report_load4_noabort(addr) & co. Here that call decides: an address in the
// arena that no allocation makes addressable is a tagged fault of the kernel thread, naming the
// allocation it missed; in host code, a report on stderr (once per place) and the program goes
// on. Under CUSIM_CHECK=race and init, and CUSIM_SCHEDULE=random, the arena's addressable shadow
// is made to take this path too (arena_observe_all), and the call records the access of raw
// shared and global memory, as a checked array's element access does. Misaligned accesses, which
// a GPU faults on, come from the compiler's alignment instrumentation (-fsanitize=alignment,
// __ubsan_handle_type_mismatch_v1). The outline calls (__asan_load4_noabort & co.: memcpy and
// accesses of unusual sizes, and any build with the call threshold) check the same shadow.
#include "address_space.hpp"
#include "block_state.hpp"
#include "debugger.hpp"
#include "diagnostics.hpp"
#include "fault_signals.hpp"
#include "memory.hpp"
#include "sanitizers.hpp"
#include "symbolizer.hpp"

#include <cusim/backend/sim/atomics.hpp>
#include <cusim/backend/sim/device_runtime.hpp>
#include <cusim/backend/sim/libcudacxx_sync.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace cusim::sim {

namespace {

void note(std::uintptr_t addr, std::size_t bytes, bool write, std::uintptr_t pc);

/// The block of the kernel thread running here; null in host code.
block_context* current_block() {
  auto* t = static_cast<thread_record*>(detail::current_thread_);
  return t != nullptr ? static_cast<block_context*>(t->block) : nullptr;
}

bool in_shared(block_context& b, std::uintptr_t addr) {
  return addr - reinterpret_cast<std::uintptr_t>(b.shared.base()) < shared_memory::capacity_bytes;
}

/// A fault of the access in the current kernel thread, reported after CUSIM_BREAK has stopped
/// there; no return. Host code: returns.
void fault_in_kernel(signal_fault& fault) {
  block_context* b = current_block();
  if (b == nullptr) return;
  raw_access_fault& f = fault.access;
  f.shared = in_shared(*b, f.address);
  if (f.shared) {
    f.shared_offset = f.address - reinterpret_cast<std::uintptr_t>(b->shared.base());
    f.dynamic_bytes = b->shared.dynamic_bytes();
  }
  break_on_instrumented_fault(fault);  // CUSIM_BREAK: stop here, in the faulting thread, at its line
  abandon_current_thread(fault);
}

signal_fault access_fault(std::uintptr_t addr, std::size_t bytes, bool write, std::uintptr_t pc) {
  signal_fault fault;
  fault.raw_access = true;
  fault.access = {addr, static_cast<std::uint32_t>(bytes), write, pc, {}};
  return fault;
}

/// An access the shadow says is not addressable (both callers asked it first).
[[gnu::noinline, gnu::cold]] void bad_access(std::uintptr_t addr, std::size_t bytes, bool write, std::uintptr_t pc) {
  signal_fault fault = access_fault(addr, bytes, write, pc);
  block_context* b = current_block();
  if (b == nullptr || !in_shared(*b, addr)) fault.access.owner = owner_near(addr);
  fault_in_kernel(fault);
  static std::mutex mutex;  // host code: reported once per place, not followed by the checkers
  static std::unordered_set<std::uintptr_t> reported;
  std::lock_guard lock(mutex);
  if (reported.insert(pc).second) std::fputs(host_raw_access_message(fault.access).c_str(), stderr);
}

/// The source line of the access before `pc`, symbolised once per place.
detail::source_location site_of(std::uintptr_t pc) {
  static std::mutex mutex;
  static std::unordered_map<std::uintptr_t, detail::source_location> sites;
  static std::deque<std::string> files;  // the names the sites point into
  std::lock_guard lock(mutex);
  auto [it, fresh] = sites.try_emplace(pc);
  if (fresh) {
    const code_place p = program_place_of(pc - 1);
    if (!p.file.empty()) it->second = {files.emplace_back(p.file).c_str(), p.line, 0};
  }
  return it->second;
}

/// CUSIM_CHECK=race and init, CUSIM_SCHEDULE=random: the access is a kernel thread's of the
/// block's shared memory or of an allocation's (anything else, its stack say, is not followed).
[[gnu::noinline]] void note(std::uintptr_t addr, std::size_t bytes, bool write, std::uintptr_t pc) {
  block_context* b = current_block();
  if (b == nullptr) return;
  memory_space space;
  if (in_shared(*b, addr)) space = memory_space::shared;
  else if (in_arena(reinterpret_cast<void*>(addr))) space = memory_space::global;
  else return;
  note_access_unwinding_later(reinterpret_cast<void*>(addr), bytes, space, site_of(pc), write);
}

/// The slow path of every check: the shadow of [addr, addr + bytes) is not plainly addressable.
[[gnu::noinline]] void check_slowly(std::uintptr_t addr, std::size_t bytes, bool write, std::uintptr_t pc) {
  if (!arena_addressable(addr, bytes)) return bad_access(addr, bytes, write, pc);
  if (detail::accesses_observed()) note(addr, bytes, write, pc);
}

/// An access whose address is not a multiple of `alignment` (what its type, or for the sized calls
/// its size, needs: 8 for 16 bytes) in a kernel thread: a GPU faults on it. Host code, which x86
/// lets do so, goes on to the usual check.
[[gnu::noinline, gnu::cold]] void misaligned(std::uintptr_t addr, std::size_t bytes, bool write, std::size_t alignment,
                                              std::uintptr_t pc) {
  signal_fault fault = access_fault(addr, bytes, write, pc);
  fault.access.misaligned = static_cast<std::uint32_t>(alignment);
  fault_in_kernel(fault);
  if (in_arena(reinterpret_cast<void*>(addr))) return check_slowly(addr, bytes, write, pc);
  if (detail::accesses_observed()) note(addr, bytes, write, pc);
}

// Both slow paths are tail calls: the fast path needs no stack frame. `alignment`: 1 for the
// unsized calls (loadN), whose accesses the compiler knew to be less aligned than their size.
inline void check(std::uintptr_t addr, std::size_t bytes, bool write, void* return_address, std::size_t alignment = 1) {
  if (alignment > 1 && (addr & (alignment - 1)) != 0) [[unlikely]]
    return misaligned(addr, bytes, write, alignment, reinterpret_cast<std::uintptr_t>(return_address));
  const std::uintptr_t off = addr - arena.base.load(std::memory_order_relaxed);
  if (off < arena.bytes.load(std::memory_order_relaxed) && (*shadow_of(addr) != 0 || (addr & 7) + bytes > 8)) [[unlikely]]
    return check_slowly(addr, bytes, write, reinterpret_cast<std::uintptr_t>(return_address));
  if (detail::accesses_observed()) [[unlikely]]
    return note(addr, bytes, write, reinterpret_cast<std::uintptr_t>(return_address));
}

/// An inline check found the shadow of `addr` not zero. Outside the arena nothing is poisoned:
/// nothing to say. Unused in a build of cusim under AddressSanitizer (its runtime checks instead).
[[maybe_unused]] void report(std::uintptr_t addr, std::size_t bytes, bool write, void* return_address) {
  if (addr - arena.base.load(std::memory_order_relaxed) < arena.bytes.load(std::memory_order_relaxed))
    check_slowly(addr, bytes, write, reinterpret_cast<std::uintptr_t>(return_address));
}

}  // namespace

}  // namespace cusim::sim

namespace cusim::detail {
// The atomics' inline test (atomics.hpp) reads the same shadow; an address it does not plainly
// allow (or a block the checkers observe) comes here.
static_assert(atomic_shadow_offset == sim::shadow_offset);
void check_atomic_address(void* p, std::size_t bytes) {
  sim::check(reinterpret_cast<std::uintptr_t>(p), bytes, true, __builtin_return_address(0), bytes);
  if (accesses_observed()) [[unlikely]]
    note_atomic_access(p);
}
// A range of the arena that is not addressable is reported from its first byte that is not: the
// part of the copy past its allocation, named after the allocation it overran.
void check_async_copy(void* dst, const void* src, std::size_t bytes) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  for (auto [p, write] : {std::pair{reinterpret_cast<std::uintptr_t>(src), false},
                          std::pair{reinterpret_cast<std::uintptr_t>(dst), true}}) {
    if (!sim::in_arena(reinterpret_cast<void*>(p)) || sim::arena_addressable(p, bytes)) {
      sim::check(p, bytes, write, reinterpret_cast<void*>(pc));
      continue;
    }
    std::uintptr_t bad = p;
    while (bad < p + bytes - 1 && sim::arena_addressable(bad, 1)) ++bad;
    sim::check(bad, p + bytes - bad, write, reinterpret_cast<void*>(pc));
  }
}
}  // namespace cusim::detail

// What the instrumentation calls: recoverable (the default of kernel-address) and not, with the
// parameter types of the compiler's own declarations (GCC declares them as built-ins whenever a
// sanitizer is on). Not in a build of cusim under AddressSanitizer, whose runtime defines them and
// checks its own shadow.
#if !CUSIM_SIM_ASAN
namespace {
std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
}  // namespace
#  define CUSIM_RAW_ACCESS(size)                                                                     \
    extern "C" void __asan_load##size##_noabort(void* a) {                                           \
      cusim::sim::check(address(a), size, false, __builtin_return_address(0), size < 8 ? size : 8);  \
    }                                                                                                \
    extern "C" void __asan_store##size##_noabort(void* a) {                                          \
      cusim::sim::check(address(a), size, true, __builtin_return_address(0), size < 8 ? size : 8);   \
    }                                                                                                \
    extern "C" void __asan_load##size(void* a) {                                                     \
      cusim::sim::check(address(a), size, false, __builtin_return_address(0), size < 8 ? size : 8);  \
    }                                                                                                \
    extern "C" void __asan_store##size(void* a) {                                                    \
      cusim::sim::check(address(a), size, true, __builtin_return_address(0), size < 8 ? size : 8);   \
    }
// The inline checks' slow path: the shadow of the access was not zero. Only the recoverable forms
// (the driver's -fsanitize-recover=kernel-address, Clang's default for it): the others are
// noreturn to the compilers.
#  define CUSIM_RAW_REPORT(size)                                                                 \
    extern "C" void __asan_report_load##size##_noabort(void* a) {                                \
      cusim::sim::report(address(a), size, false, __builtin_return_address(0));                  \
    }                                                                                            \
    extern "C" void __asan_report_store##size##_noabort(void* a) {                               \
      cusim::sim::report(address(a), size, true, __builtin_return_address(0));                   \
    }
CUSIM_RAW_REPORT(1)
CUSIM_RAW_REPORT(2)
CUSIM_RAW_REPORT(4)
CUSIM_RAW_REPORT(8)
CUSIM_RAW_REPORT(16)
#  undef CUSIM_RAW_REPORT
extern "C" void __asan_report_load_n_noabort(void* a, long n) {
  cusim::sim::report(address(a), static_cast<std::size_t>(n), false, __builtin_return_address(0));
}
extern "C" void __asan_report_store_n_noabort(void* a, long n) {
  cusim::sim::report(address(a), static_cast<std::size_t>(n), true, __builtin_return_address(0));
}
CUSIM_RAW_ACCESS(1)
CUSIM_RAW_ACCESS(2)
CUSIM_RAW_ACCESS(4)
CUSIM_RAW_ACCESS(8)
CUSIM_RAW_ACCESS(16)
#  undef CUSIM_RAW_ACCESS
extern "C" void __asan_loadN_noabort(void* a, long n) {
  cusim::sim::check(address(a), static_cast<std::size_t>(n), false, __builtin_return_address(0));
}
extern "C" void __asan_storeN_noabort(void* a, long n) {
  cusim::sim::check(address(a), static_cast<std::size_t>(n), true, __builtin_return_address(0));
}
extern "C" void __asan_loadN(void* a, long n) {
  cusim::sim::check(address(a), static_cast<std::size_t>(n), false, __builtin_return_address(0));
}
extern "C" void __asan_storeN(void* a, long n) {
  cusim::sim::check(address(a), static_cast<std::size_t>(n), true, __builtin_return_address(0));
}
// -fsanitize=alignment: a load or store through a pointer not aligned for its type, which the GPU
// faults on (its loads and stores need their size's alignment: a float4's 16 bytes, a double's 8;
// the type's alignment is the same but for over-aligned types, which the GPU loads as vectors).
// A member access (p->m) counts as a load of the member with the struct's alignment (GCC checks
// it rather than the load); reference bindings, calls and casts load nothing: not faults.
namespace {
struct ubsan_type_descriptor {
  std::uint16_t kind;  ///< 0: integer, 1: floating point
  std::uint16_t info;  ///< integers: log2(bit width) << 1 | signed; floating point: bit width
};
struct ubsan_type_mismatch {
  struct {
    const char* file;
    std::uint32_t line, column;
  } location;
  const ubsan_type_descriptor* type;
  unsigned char log_alignment;
  unsigned char check_kind;  ///< 0: load, 1: store, 2: reference binding, 3: member access, 4 and up: calls, casts
};
void type_mismatch(const ubsan_type_mismatch* d, std::uintptr_t p, void* return_address) {
  const std::size_t alignment = std::size_t{1} << d->log_alignment;
  if ((d->check_kind > 1 && d->check_kind != 3) || (p & (alignment - 1)) == 0) return;
  std::size_t bytes = alignment;
  if (d->type->kind == 0) bytes = (std::size_t{1} << (d->type->info >> 1)) / 8;
  else if (d->type->kind == 1) bytes = d->type->info / 8u;
  cusim::sim::check(p, bytes, d->check_kind == 1, return_address, alignment);
}
}  // namespace
extern "C" void __ubsan_handle_type_mismatch_v1(void* data, void* pointer) {
  type_mismatch(static_cast<const ubsan_type_mismatch*>(data), address(pointer), __builtin_return_address(0));
}
extern "C" void __ubsan_handle_type_mismatch_v1_abort(void* data, void* pointer) {
  type_mismatch(static_cast<const ubsan_type_mismatch*>(data), address(pointer), __builtin_return_address(0));
  std::abort();  // -fno-sanitize-recover: GCC declares this handler noreturn whenever a sanitizer is on
}
// Before a call that does not return (a throw, abort): nothing to unpoison, there are no stack redzones.
extern "C" void __asan_handle_no_return() {}
// Around a file's dynamic initialisers (initialisation-order checking: not done).
extern "C" void __asan_before_dynamic_init(const void*) {}
extern "C" void __asan_after_dynamic_init() {}
// Clang's user-space form of the instrumentation (the driver's -asan-kernel=0) calls these from each
// instrumented file's constructor: nothing to set up, the shadow is reserved (address_space.cpp).
extern "C" void __asan_init() {}
extern "C" void __asan_version_mismatch_check_v8() {}
// Clang's instrumentation calls these for memcpy, memmove and memset.
extern "C" void* __asan_memcpy(void* dst, const void* src, std::size_t n) {
  cusim::sim::check(address(src), n, false, __builtin_return_address(0));
  cusim::sim::check(address(dst), n, true, __builtin_return_address(0));
  return std::memcpy(dst, src, n);
}
extern "C" void* __asan_memmove(void* dst, const void* src, std::size_t n) {
  cusim::sim::check(address(src), n, false, __builtin_return_address(0));
  cusim::sim::check(address(dst), n, true, __builtin_return_address(0));
  return std::memmove(dst, src, n);
}
extern "C" void* __asan_memset(void* dst, int c, std::size_t n) {
  cusim::sim::check(address(dst), n, true, __builtin_return_address(0));
  return std::memset(dst, c, n);
}
#endif
