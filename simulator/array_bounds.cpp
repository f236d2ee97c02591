// SPDX-License-Identifier: MIT
// Raw fixed-size arrays of unmodified programs, checked per axis: the nvcc driver compiles .cu
// files with the compiler's bounds instrumentation (-fsanitize=bounds, GCC and Clang alike), which
// calls __ubsan_handle_out_of_bounds with the array's type, the index and the source position of
// the subscript; the arrays stay real arrays (templates deduce T* from them, sizeof, decay). Here
// that call becomes the simulator's tagged out-of-bounds fault: the axis is read from the source
// line (how many subscripts precede the faulting one), the memory space from the names the driver
// registers (__shared__, __constant__ and __device__ arrays; any other is a local array).
#include "debugger.hpp"
#include "diagnostics.hpp"
#include "fault_signals.hpp"
#include "symbolizer.hpp"

#include <cusim/backend/sim/device_runtime.hpp>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#ifndef CUSIM_UBSAN_RUNTIME
#  define CUSIM_UBSAN_RUNTIME 0
#endif

namespace cusim::sim {

namespace {

// The instrumentation's records (the layout GCC and Clang share with their UBSan runtime).
struct ubsan_location {
  const char* file;
  std::uint32_t line;
  std::uint32_t column;
};
struct ubsan_type {
  std::uint16_t kind;  ///< 0: an integer type
  std::uint16_t info;  ///< integers: log2(bit width) << 1 | signed
  char name[1];
};
struct ubsan_out_of_bounds {
  ubsan_location location;
  const ubsan_type* array_type;
  const ubsan_type* index_type;
};

std::mutex names_mutex;
std::map<std::string, memory_space, std::less<>>& array_names() {
  static std::map<std::string, memory_space, std::less<>> names;
  return names;
}

/// The index as the program computed it: the handle holds integers of up to 64 bits itself.
std::int64_t index_value(const ubsan_type& type, const void* handle) {
  const auto raw = reinterpret_cast<std::uintptr_t>(handle);
  const unsigned bits = type.kind == 0 ? 1u << (type.info >> 1) : 64u;
  const bool is_signed = type.kind == 0 && (type.info & 1) != 0;
  if (bits >= 64) return static_cast<std::int64_t>(raw);
  const std::uint64_t value = raw & ((std::uint64_t{1} << bits) - 1);
  if (is_signed && (value >> (bits - 1)) != 0) return static_cast<std::int64_t>(value | ~((std::uint64_t{1} << bits) - 1));
  return static_cast<std::int64_t>(value);
}

/// The checked axis's size: the first bound of the type's name ("float [16][17]" -> 16).
std::int64_t extent_of(const char* type_name) {
  const char* open = std::strchr(type_name, '[');
  return open != nullptr ? std::strtoll(open + 1, nullptr, 10) : 0;
}

/// Line `line` of `file`, or empty. A relative name is the compiler's, from the directory it ran
/// in: the line tables name the file in full (`pc`: an address in the faulting code).
std::string source_line(const char* file, unsigned line, std::uintptr_t pc) {
  std::ifstream in(file);
  if (!in && file[0] != '/') {
    const code_place p = program_place_of(pc);
    const std::size_t n = std::strlen(file);
    if (p.file.size() > n && p.file.compare(p.file.size() - n, n, file) == 0 && p.file[p.file.size() - n - 1] == '/')
      in.open(p.file);
  }
  std::string text;
  for (unsigned n = 1; n <= line && std::getline(in, text); ++n)
    if (n == line) return text;
  return {};
}

/// The number of bounds in an array type's name ("float [16][17]" -> 2).
int rank_of(const char* type_name) {
  int rank = 0;
  for (const char* p = type_name; *p != '\0'; ++p) rank += *p == '[';
  return rank;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The first index from `i` on that is not a space.
std::size_t skip_spaces(const std::string& text, std::size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

/// The `]` closing the `[` at `open`, or npos.
std::size_t closing_bracket(const std::string& text, std::size_t open) {
  int depth = 0;
  for (std::size_t k = open; k < text.size(); ++k) {
    if (text[k] == '[') ++depth;
    else if (text[k] == ']' && --depth == 0) return k;
  }
  return std::string::npos;
}

/// The `[` opened by the `]` at `close`, or -1.
std::ptrdiff_t opening_bracket(const std::string& text, std::size_t close) {
  int depth = 0;
  for (auto k = static_cast<std::ptrdiff_t>(close); k >= 0; --k) {
    if (text[k] == ']') ++depth;
    else if (text[k] == '[' && --depth == 0) return k;
  }
  return -1;
}

/// The subscript of the access at `column` of `text`, for an array whose checked sub-array has
/// `rank` bounds: how many subscripts of the same array precede it (its axis), and the array's
/// name; axis -1 when the text does not tell. g++ points at the subscript's `]`; clang++ at the
/// start of the array's name, and then the axis is the number of subscripts written after the
/// name less the checked rank (exact for an access to an element).
std::pair<int, std::string> subscript_of(const std::string& text, unsigned column, int rank) {
  if (column == 0 || column > text.size()) return {-1, {}};
  std::size_t i = column - 1;
  if (is_name_char(text[i]) && (i == 0 || !is_name_char(text[i - 1]))) {
    std::size_t end = i;
    while (end < text.size() && is_name_char(text[end])) ++end;
    std::string name = text.substr(i, end - i);
    // A member array (`p.rows[i][j]`, `q->v[i]`): the name is the member's.
    for (;;) {
      const std::size_t k = skip_spaces(text, end);
      std::size_t after = k < text.size() && text[k] == '.' ? k + 1
                          : text.compare(k, 2, "->") == 0 ? k + 2 : std::string::npos;
      if (after == std::string::npos) break;
      after = skip_spaces(text, after);
      std::size_t stop = after;
      while (stop < text.size() && is_name_char(text[stop])) ++stop;
      if (stop == after) break;
      name = text.substr(after, stop - after);
      end = stop;
    }
    int subscripts = 0;
    for (std::size_t k = skip_spaces(text, end); k < text.size() && text[k] == '['; k = skip_spaces(text, k + 1)) {
      k = closing_bracket(text, k);
      if (k == std::string::npos) break;
      ++subscripts;
    }
    if (subscripts == 0) return {-1, name};
    return {subscripts - rank > 0 ? subscripts - rank : 0, name};
  }
  if (text[i] == '[') {  // a compiler that points at the opening bracket: take its ]
    i = closing_bracket(text, i);
    if (i == std::string::npos) return {-1, {}};
  }
  if (text[i] != ']') return {-1, {}};
  std::ptrdiff_t open = opening_bracket(text, i);
  for (int axis = 0;; ++axis) {
    if (open < 0) return {-1, {}};
    std::ptrdiff_t j = open - 1;
    while (j >= 0 && std::isspace(static_cast<unsigned char>(text[j]))) --j;
    if (j >= 0 && text[j] == ']') {
      open = opening_bracket(text, static_cast<std::size_t>(j));
      continue;
    }
    const std::ptrdiff_t end = j;
    while (j >= 0 && is_name_char(text[j])) --j;
    if (end == j) return {-1, {}};  // not a name: a call's result, a cast
    return {axis, text.substr(static_cast<std::size_t>(j + 1), static_cast<std::size_t>(end - j))};
  }
}

memory_space space_of(const std::string& name) {
  std::lock_guard lock(names_mutex);
  auto it = array_names().find(name);
  return it != array_names().end() ? it->second : memory_space::local;
}

// Unused in a build of cusim under UBSan (CUSIM_UBSAN_RUNTIME), whose runtime answers the handlers.
[[maybe_unused]] void out_of_bounds(const void* data, const void* index_handle, bool abort_on_host, std::uintptr_t pc) {
  const auto& d = *static_cast<const ubsan_out_of_bounds*>(data);
  const std::int64_t index = index_value(*d.index_type, index_handle);
  const char* file = d.location.file != nullptr ? d.location.file : "";
  array_bounds_fault f;
  f.index = index;
  f.extent = extent_of(d.array_type->name);
  f.file = file;
  f.line = d.location.line;
  if (detail::current_thread_ != nullptr) {
    const auto [axis, name] =
        subscript_of(source_line(file, d.location.line, pc), d.location.column, rank_of(d.array_type->name));
    f.axis = axis;
    f.space = name.empty() ? memory_space::local : space_of(name);
    signal_fault fault;
    fault.out_of_bounds = true;
    fault.bounds = f;
    break_on_instrumented_fault(fault);  // CUSIM_BREAK: stop here, in the faulting thread, at its line
    abandon_current_thread(fault);  // no return from a kernel thread
  }
  const std::string msg = host_array_bounds_message(file, d.location.line, d.location.column, index, d.array_type->name);
  std::fputs(msg.c_str(), stderr);
  if (abort_on_host) std::abort();
}

}  // namespace

}  // namespace cusim::sim

namespace cusim::detail {
bool name_array(const char* name, memory_space space) noexcept {
  try {
    std::lock_guard lock(sim::names_mutex);
    sim::array_names().emplace(name, space);
  } catch (...) {
  }
  return true;
}
}  // namespace cusim::detail

// What the instrumentation calls (recoverable, and with -fno-sanitize-recover). Not in a build of
// cusim under UBSan itself, whose runtime defines them.
#if !CUSIM_UBSAN_RUNTIME
extern "C" void __ubsan_handle_out_of_bounds(void* data, void* index) {
  cusim::sim::out_of_bounds(data, index, false, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)) - 1);
}
extern "C" void __ubsan_handle_out_of_bounds_abort(void* data, void* index) {
  cusim::sim::out_of_bounds(data, index, true, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)) - 1);
  std::abort();  // not reached: GCC declares this handler noreturn whenever a sanitizer is on
}
#endif
