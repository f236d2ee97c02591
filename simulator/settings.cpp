// SPDX-License-Identifier: MIT
// Environment variables behind the simulator's controls.
#include "settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>

namespace cusim::sim {

namespace {

/// Prints `message` on stderr once per distinct `key` (a variable and its value).
void warn_once(const std::string& key, const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  std::lock_guard lock(mutex);
  if (warned.insert(key).second) std::fprintf(stderr, "cusim: %s\n", message.c_str());
}

/// The value of `name` if it is an integer in [lo, hi]; `fallback` (with a warning, once per
/// variable and value) otherwise, and when it is not set.
unsigned long from_env(const char* name, unsigned long lo, unsigned long hi, unsigned long fallback,
                       const char* fallback_text) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (end != text && *end == '\0' && v >= lo && v <= hi) return v;
  warn_once(std::string(name) + "=" + text, std::string(name) + "=" + text + " is not an integer from " +
                                                std::to_string(lo) + " to " + std::to_string(hi) + "; using " +
                                                fallback_text);
  return fallback;
}

}  // namespace

unsigned worker_count() {
  // Once: glibc reads /sys/devices/system/cpu/online for it, which was most of an empty launch.
  static const unsigned cores = std::thread::hardware_concurrency();
  return static_cast<unsigned>(from_env("CUSIM_WORKERS", 1, 4096, cores == 0 ? 1 : cores, "all cores"));
}

std::size_t fiber_stack_bytes() { return from_env("CUSIM_STACK", 16, 1024 * 1024, 256, "256 KiB") * 1024; }

check_settings checks() {
  check_settings s;
  const char* text = std::getenv("CUSIM_CHECK");
  if (text == nullptr) return s;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (name == "race") s.race = true;
    else if (name == "init") s.init = true;
    else if (name == "sync") s.sync = true;
    else if (name == "leak" || name == "leaks") s.leaks = true;
    else if (name == "all") s.race = s.init = s.sync = s.leaks = true;
    else if (!name.empty() && name != "none")
      warn_once("CUSIM_CHECK=" + std::string(name),
                "CUSIM_CHECK: unknown checker '" + std::string(name) + "' ignored (known: race, init, sync, leaks, all)");
  }
  return s;
}

device_profile simulated_device() {
  const char* text = std::getenv("CUSIM_DEVICE");
  if (text == nullptr || *text == '\0') return device_profile::a100;
  const std::string_view name = text;
  if (name == "a100") return device_profile::a100;
  if (name == "h100") return device_profile::h100;
  if (name == "v100") return device_profile::v100;
  if (name == "t4") return device_profile::t4;
  warn_once(std::string("CUSIM_DEVICE=") + text,
            std::string("CUSIM_DEVICE=") + text + " is not a known profile (a100, h100, v100, t4); using a100");
  return device_profile::a100;
}

bool break_on_fault() {
  const char* text = std::getenv("CUSIM_BREAK");
  return text != nullptr && *text != '\0' && std::strcmp(text, "0") != 0;
}

bool phases_enabled() {
  const char* text = std::getenv("CUSIM_PHASES");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "1") == 0) return true;
  if (std::strcmp(text, "0") == 0) return false;
  warn_once(std::string("CUSIM_PHASES=") + text,
            std::string("CUSIM_PHASES=") + text + " is not 0 or 1; kernels run as loops between barriers where they can");
  return true;
}

std::optional<std::uint64_t> schedule_seed() {
  const char* text = std::getenv("CUSIM_SCHEDULE");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "default") == 0) return std::nullopt;
  constexpr std::string_view prefix = "random:";
  if (std::strncmp(text, prefix.data(), prefix.size()) == 0) {
    const char* digits = text + prefix.size();
    char* end = nullptr;
    const unsigned long long seed = std::strtoull(digits, &end, 10);
    if (end != digits && *end == '\0') return seed;
  }
  warn_once(std::string("CUSIM_SCHEDULE=") + text,
            std::string("CUSIM_SCHEDULE=") + text + " is not 'default' or 'random:SEED' (SEED an integer); using "
                                                    "the default schedule");
  return std::nullopt;
}

}  // namespace cusim::sim
