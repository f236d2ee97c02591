// SPDX-License-Identifier: MIT
// Environment variables behind the simulator's controls.
#include "settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace cusim::sim {

namespace {

/// The value of `name` if it is an integer in [lo, hi]; `fallback` (with a warning, once per
/// variable and value) otherwise, and when it is not set.
unsigned long from_env(const char* name, unsigned long lo, unsigned long hi, unsigned long fallback,
                       const char* fallback_text) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (end != text && *end == '\0' && v >= lo && v <= hi) return v;
  static std::mutex mutex;
  static std::set<std::string> warned;
  std::lock_guard lock(mutex);
  if (warned.insert(std::string(name) + "=" + text).second)
    std::fprintf(stderr, "cusim: %s=%s is not an integer from %lu to %lu; using %s\n", name, text, lo, hi,
                 fallback_text);
  return fallback;
}

}  // namespace

unsigned worker_count() {
  const unsigned cores = std::thread::hardware_concurrency();
  return static_cast<unsigned>(from_env("CUSIM_WORKERS", 1, 4096, cores == 0 ? 1 : cores, "all cores"));
}

std::size_t fiber_stack_bytes() { return from_env("CUSIM_STACK", 16, 1024 * 1024, 256, "256 KiB") * 1024; }

void warn_unsupported_settings() {
  static std::mutex mutex;
  static std::set<std::string> warned;
  for (const char* name : {"CUSIM_CHECK", "CUSIM_BREAK", "CUSIM_SCHEDULE"}) {
    if (std::getenv(name) == nullptr) continue;
    std::lock_guard lock(mutex);
    if (warned.insert(name).second)
      std::fprintf(stderr, "cusim: %s is not supported by this version of cusim and is ignored\n", name);
  }
}

}  // namespace cusim::sim
