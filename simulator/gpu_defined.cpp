// SPDX-License-Identifier: MIT
// Behaviour C++ leaves undefined and the GPU defines, in kernel code (gpu_defined.hpp): the reports
// of the driver's rewritten conversions and shifts, once per source line, and integer division,
// whose CPU trap (SIGFPE) is given the GPU's result here: the handler decodes the faulting div or
// idiv, writes the GPU's quotient and remainder into the registers the instruction writes, steps
// over it and lets the thread go on. Its report waits in a fixed table (the handler only stores)
// until the launch's end (flush_division_reports).
#include "gpu_defined.hpp"

#include "block_state.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "symbolizer.hpp"

#include <cusim/backend/sim/unmodified.hpp>

#include <signal.h>
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace cusim::sim {

namespace {

std::mutex reported_mutex;
std::set<std::tuple<std::string, unsigned, int>> reported_sites;  // file, line, what

// The tag of the calling thread: a kernel thread's tid and ctaid; host code (a __host__
// __device__ function called by the host) has none.
bool current_tag(uint3& tid, uint3& ctaid) {
  if (detail::current_thread_ == nullptr) return false;
  const auto& t = *static_cast<const thread_record*>(detail::current_thread_);
  tid = t.thread_idx;
  ctaid = t.block->block_idx;
  return true;
}

enum site_kind : int { conversion = 0, shift = 1, division = 2 };

bool first_at(const char* file, unsigned line, site_kind kind) {
  std::lock_guard lock(reported_mutex);
  return reported_sites.emplace(file != nullptr ? file : "", line, kind).second;
}

void print(const std::string& text) { detail::report_gpu_defined_behaviour(text); }

// Pending division reports, by launch and instruction: stored by the signal handler (atomics
// only), read when the launch's grid has run. Each keeps the lowest block and thread that trapped
// there (block linear index * 1024 + thread linear index), so the report names the same thread
// whatever the workers' timing. Past the table's size a report is dropped.
struct pending_division {
  std::atomic<std::uintptr_t> pc{0};
  std::atomic<const void*> launch{nullptr};
  std::atomic<std::uint64_t> lowest{~std::uint64_t{0}};
  std::atomic<bool> overflow{false};
};
constexpr unsigned pending_capacity = 64;
pending_division pending[pending_capacity];
std::atomic<bool> any_pending{false};

void keep_division(const void* launch, std::uintptr_t pc, std::uint64_t key, bool overflow) noexcept {
  for (pending_division& p : pending) {
    std::uintptr_t seen = p.pc.load(std::memory_order_acquire);
    if (seen == 0 && p.pc.compare_exchange_strong(seen, pc, std::memory_order_acq_rel)) {
      p.launch.store(launch, std::memory_order_release);
      p.overflow.store(overflow, std::memory_order_relaxed);
      seen = pc;
    } else if (seen != pc || p.launch.load(std::memory_order_acquire) != launch) {
      continue;
    }
    std::uint64_t low = p.lowest.load(std::memory_order_relaxed);
    while (key < low && !p.lowest.compare_exchange_weak(low, key, std::memory_order_relaxed)) {
    }
    any_pending.store(true, std::memory_order_release);
    return;
  }
}

// The index `linear` of a grid or block of extent `d` as x, y, z.
uint3 unflatten(std::uint64_t linear, dim3 d) {
  return uint3{static_cast<unsigned>(linear % d.x), static_cast<unsigned>(linear / d.x % d.y),
               static_cast<unsigned>(linear / (std::uint64_t{d.x} * d.y))};
}

#if defined(__x86_64__)
// The general registers in ModRM/SIB order (REX extends to 8-15).
constexpr int register_of[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                 REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

// Sign-extends or zero-extends the low `bits` of v.
std::uint64_t low_bits(std::uint64_t v, int bits) { return bits == 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }
std::int64_t signed_low(std::uint64_t v, int bits) {
  return bits == 64 ? static_cast<std::int64_t>(v)
                    : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
}

/// The div or idiv at pc, decoded: operand width, signedness, the divisor's value, and the
/// instruction's length. False for anything else.
bool decode_division(const unsigned char* code, greg_t* regs, int& bits, bool& is_signed, std::uint64_t& divisor,
                     int& length) {
  const unsigned char* p = code;
  bool operand16 = false;
  unsigned rex = 0;
  for (int i = 0; i < 4; ++i) {  // legacy prefixes
    if (*p == 0x66) operand16 = true;
    else if (*p == 0x2e || *p == 0x3e || *p == 0x26 || *p == 0x36 || *p == 0x64 || *p == 0x65 || *p == 0x67) {
      if (*p == 0x64 || *p == 0x65 || *p == 0x67) return false;  // segment bases, 32-bit addressing: not compiled code's
    } else break;
    ++p;
  }
  if ((*p & 0xf0) == 0x40) rex = *p++;
  const unsigned char opcode = *p++;
  if (opcode != 0xf6 && opcode != 0xf7) return false;
  const unsigned char modrm = *p++;
  const unsigned reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
  if (reg != 6 && reg != 7) return false;
  is_signed = reg == 7;
  bits = opcode == 0xf6 ? 8 : (rex & 8) ? 64 : operand16 ? 16 : 32;
  std::uint64_t value = 0;
  if (mod == 3) {
    const unsigned r = rm | ((rex & 1) << 3);
    value = static_cast<std::uint64_t>(regs[register_of[r]]);
  } else {
    std::uint64_t address = 0;
    if (rm == 4) {  // SIB
      const unsigned char sib = *p++;
      const unsigned scale = sib >> 6, index = ((sib >> 3) & 7) | ((rex & 2) << 2), base = (sib & 7) | ((rex & 1) << 3);
      if (index != 4) address += static_cast<std::uint64_t>(regs[register_of[index]]) << scale;
      if ((base & 7) == 5 && mod == 0) {
        std::int32_t d;
        std::memcpy(&d, p, 4);
        p += 4;
        address += static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
      } else {
        address += static_cast<std::uint64_t>(regs[register_of[base]]);
      }
    } else if (rm == 5 && mod == 0) {  // RIP-relative: from the next instruction, computed below
      std::int32_t d;
      std::memcpy(&d, p, 4);
      p += 4;
      address = static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
      address += reinterpret_cast<std::uint64_t>(p);  // no immediate follows a div's ModRM
    } else {
      address += static_cast<std::uint64_t>(regs[register_of[rm | ((rex & 1) << 3)]]);
    }
    if (mod == 1) {
      address += static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(*p)));
      p += 1;
    } else if (mod == 2) {
      std::int32_t d;
      std::memcpy(&d, p, 4);
      p += 4;
      address += static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
    }
    std::memcpy(&value, reinterpret_cast<const void*>(address), static_cast<std::size_t>(bits / 8));
  }
  divisor = low_bits(value, bits);
  length = static_cast<int>(p - code);
  return true;
}

// Writes a width-`bits` result into register `r` the way the instruction does: a 32-bit write
// zeroes the upper half, a 16-bit one keeps the rest.
void write_register(greg_t* regs, int r, int bits, std::uint64_t v) {
  auto reg = static_cast<std::uint64_t>(regs[r]);
  if (bits == 16) reg = (reg & ~std::uint64_t{0xffff}) | low_bits(v, 16);
  else reg = low_bits(v, bits);
  regs[r] = static_cast<greg_t>(reg);
}
#endif

}  // namespace

/// The GPU's quotient and remainder of a division C++ leaves undefined (see docs/fidelity.md):
/// by zero, every bit set (unsigned, 32-bit: what the H100 answered for 7 / 0, 7 % 0, 7u / 0u,
/// 7u % 0u); a 64-bit division by zero whose dividend fits 32 bits gives 2^32 - 1 (the H100's
/// 7ll / 0), and every bit set otherwise; MIN / -1 gives MIN and remainder 0.
division_result gpu_division(std::uint64_t dividend, std::uint64_t divisor, int bits, bool is_signed) {
  const std::uint64_t all = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t a = dividend & all;
  if ((divisor & all) == 0) {
    if (bits == 64) {
      const bool fits32 = is_signed ? (static_cast<std::int64_t>(a) >= INT32_MIN && static_cast<std::int64_t>(a) <= INT32_MAX)
                                    : a <= 0xffffffffu;
      const std::uint64_t q = fits32 ? 0xffffffffu : all;
      return {q, q, division_case::by_zero};
    }
    return {all, all, division_case::by_zero};
  }
  // MIN / -1: the quotient wraps to MIN, the remainder is 0.
  return {a, 0, division_case::overflow};
}

#if defined(__x86_64__)
bool give_division_gpu_result(void* context, std::uintptr_t pc) noexcept {
  auto* uc = static_cast<ucontext_t*>(context);
  greg_t* regs = uc->uc_mcontext.gregs;
  int bits = 0, length = 0;
  bool is_signed = false;
  std::uint64_t divisor = 0;
  if (!decode_division(reinterpret_cast<const unsigned char*>(pc), regs, bits, is_signed, divisor, length)) return false;
  if (bits == 8) return false;  // compiled C++ divides promoted operands: 16 bits and up
  const auto rax = static_cast<std::uint64_t>(regs[REG_RAX]);
  const auto rdx = static_cast<std::uint64_t>(regs[REG_RDX]);
  if (divisor != 0) {
    // Not by zero: an overflow, and only MIN / -1 comes from C++ (the high half holds the low
    // half's sign). An unsigned quotient too large is no compiled C++'s.
    if (!is_signed || signed_low(divisor, bits) != -1) return false;
    if (signed_low(rdx, bits) != (signed_low(rax, bits) < 0 ? -1 : 0)) return false;
  }
  const division_result r = gpu_division(rax, divisor, bits, is_signed);
  write_register(regs, REG_RAX, bits, r.quotient);
  write_register(regs, REG_RDX, bits, r.remainder);
  regs[REG_RIP] = static_cast<greg_t>(pc + static_cast<std::uintptr_t>(length));

  // Keep the report for the launch's end (atomics only).
  const auto& t = *static_cast<const thread_record*>(detail::current_thread_);
  const auto& block = *static_cast<const block_context*>(t.block);
  keep_division(block.launch, pc, block.linear * 1024 + t.linear, r.what == division_case::overflow);
  return true;
}
#else
bool give_division_gpu_result(void*, std::uintptr_t) noexcept { return false; }
#endif

void flush_division_reports(const launch_state& launch) {
  if (!any_pending.load(std::memory_order_acquire)) return;
  static std::mutex flush_mutex;
  std::lock_guard lock(flush_mutex);
  // This launch's entries, merged by instruction (two workers may claim two entries for one).
  for (pending_division& p : pending) {
    const std::uintptr_t pc = p.pc.load(std::memory_order_acquire);
    if (pc == 0 || p.launch.load(std::memory_order_acquire) != &launch) continue;
    std::uint64_t lowest = ~std::uint64_t{0};
    bool overflow = false;
    for (pending_division& q : pending) {
      if (q.pc.load(std::memory_order_acquire) != pc || q.launch.load(std::memory_order_acquire) != &launch) continue;
      lowest = std::min(lowest, q.lowest.load(std::memory_order_relaxed));
      overflow = overflow || q.overflow.load(std::memory_order_relaxed);
      q.launch.store(nullptr, std::memory_order_relaxed);
      q.lowest.store(~std::uint64_t{0}, std::memory_order_relaxed);
      q.pc.store(0, std::memory_order_release);
    }
    const code_place place = program_place_of(pc);
    if (!first_at(place.file.c_str(), place.line, division)) continue;
    const uint3 ctaid = unflatten(lowest / 1024, launch.config.grid);
    const uint3 tid = unflatten(lowest % 1024, launch.config.block);
    print(division_report(tid, ctaid, true, overflow, place, pc));
  }
}

}  // namespace cusim::sim

namespace cusim::detail {

void report_gpu_conversion(double value, bool from_double, int bits, bool is_signed, long long result,
                           const source_location& at) noexcept {
  try {
    if (!sim::first_at(at.file, at.line, sim::conversion)) return;
    uint3 tid{}, ctaid{};
    const bool in_kernel = sim::current_tag(tid, ctaid);
    sim::print(sim::conversion_report(tid, ctaid, in_kernel, value, from_double, bits, is_signed, result, at));
  } catch (...) {
  }
}

void report_gpu_shift(long long count, int bits, bool left, const source_location& at) noexcept {
  try {
    if (!sim::first_at(at.file, at.line, sim::shift)) return;
    uint3 tid{}, ctaid{};
    const bool in_kernel = sim::current_tag(tid, ctaid);
    sim::print(sim::shift_report(tid, ctaid, in_kernel, count, bits, left, at));
  } catch (...) {
  }
}

}  // namespace cusim::detail
