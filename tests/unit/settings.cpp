// SPDX-License-Identifier: MIT
// settings: parsing of the CUSIM_* variables, and the one-time warning for a value that cannot be
// used.
#include "settings.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

/// What `f` prints on stderr.
template <class F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  char path[] = "/tmp/cusim-unit-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(fd, STDERR_FILENO);
  f();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  ::close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path);
  return text.str();
}

struct env {
  env(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~env() { ::unsetenv(name_); }
  const char* name_;
};

}  // namespace

TEST_CASE("CUSIM_CHECK parses a comma-separated list of checkers, 'all' and 'none'") {
  {
    env e("CUSIM_CHECK", "race,sync");
    const auto s = cusim::sim::checks();
    CHECK(s.race);
    CHECK(s.sync);
    CHECK_FALSE(s.init);
    CHECK(s.memory());
  }
  {
    env e("CUSIM_CHECK", "all");
    const auto s = cusim::sim::checks();
    CHECK((s.race && s.init && s.sync && s.leaks));
  }
  {
    env e("CUSIM_CHECK", "none");
    CHECK_FALSE(cusim::sim::checks().memory());
  }
}

TEST_CASE("an unknown checker is reported once and the others still apply") {
  env e("CUSIM_CHECK", "init,racy");
  const std::string first = stderr_of([] { CHECK(cusim::sim::checks().init); });
  CHECK(first == "cusim: CUSIM_CHECK: unknown checker 'racy' ignored (known: race, init, sync, leaks, all)\n");
  CHECK(stderr_of([] { cusim::sim::checks(); }).empty());  // once
}

TEST_CASE("CUSIM_WORKERS and CUSIM_STACK take integers in range, else the default with a warning") {
  {
    env e("CUSIM_WORKERS", "3");
    CHECK(cusim::sim::worker_count() == 3);
  }
  {
    env e("CUSIM_STACK", "64");
    CHECK(cusim::sim::fiber_stack_bytes() == 64 * 1024);
  }
  env e("CUSIM_STACK", "8");
  const std::string text = stderr_of([] { CHECK(cusim::sim::fiber_stack_bytes() == 256 * 1024); });
  CHECK(text == "cusim: CUSIM_STACK=8 is not an integer from 16 to 1048576; using 256 KiB\n");
  env w("CUSIM_WORKERS", "two");
  CHECK(stderr_of([] { CHECK(cusim::sim::worker_count() >= 1); }) ==
        "cusim: CUSIM_WORKERS=two is not an integer from 1 to 4096; using all cores\n");
}

TEST_CASE("CUSIM_SCHEDULE is 'default' or 'random:SEED'") {
  CHECK_FALSE(cusim::sim::schedule_seed().has_value());
  {
    env e("CUSIM_SCHEDULE", "random:42");
    CHECK(cusim::sim::schedule_seed() == 42u);
  }
  {
    env e("CUSIM_SCHEDULE", "default");
    CHECK_FALSE(cusim::sim::schedule_seed().has_value());
  }
  env e("CUSIM_SCHEDULE", "random:");
  CHECK(stderr_of([] { CHECK_FALSE(cusim::sim::schedule_seed().has_value()); }) ==
        "cusim: CUSIM_SCHEDULE=random: is not 'default' or 'random:SEED' (SEED an integer); using the default "
        "schedule\n");
}

TEST_CASE("CUSIM_DEVICE names a profile; CUSIM_BREAK is on unless empty or 0") {
  {
    env e("CUSIM_DEVICE", "h100");
    CHECK(cusim::sim::simulated_device() == cusim::sim::device_profile::h100);
  }
  {
    env e("CUSIM_DEVICE", "k80");
    CHECK(stderr_of([] { CHECK(cusim::sim::simulated_device() == cusim::sim::device_profile::a100); }) ==
          "cusim: CUSIM_DEVICE=k80 is not a known profile (a100, h100, v100, t4); using a100\n");
  }
  {
    env e("CUSIM_BREAK", "0");
    CHECK_FALSE(cusim::sim::break_on_fault());
  }
  env e("CUSIM_BREAK", "1");
  CHECK(cusim::sim::break_on_fault());
}
