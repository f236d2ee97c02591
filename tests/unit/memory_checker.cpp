// SPDX-License-Identifier: MIT
// memory_checker: an access is classified as a write when its bytes changed by the thread's next
// access or sync point, as a read otherwise (atomics are both); the race and init checkers act on
// that classification.
#include "block_state.hpp"
#include "memory_checker.hpp"
#include "settings.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>

using cusim::memory_space;
using cusim::sim::block_context;
using cusim::sim::memory_checker;
using cusim::sim::thread_record;

namespace {

/// One block of two threads in shared memory, under the checkers `settings` asks for.
struct block_fixture {
  explicit block_fixture(cusim::sim::check_settings settings) : checker(settings) {
    b.block_dim = dim3(2);
    b.grid_dim = dim3(1);
    b.block_idx = {0, 0, 0};
    b.shared.reset(0, cusim::sim::shared_memory::checked_poison);
    checker.block_started(b);
    for (unsigned i = 0; i < 2; ++i) {
      thread[i] = std::make_unique<thread_record>();
      thread[i]->thread_idx = {i, 0, 0};
      thread[i]->linear = i;
      thread[i]->block = &b;
    }
    cell = static_cast<int*>(b.shared.bind(nullptr, {"k.cu", 1, 1}, 4 * sizeof(int), alignof(int)));
  }
  void access(unsigned i, int* p, unsigned line) {
    const cusim::detail::source_location site{"k.cu", line, 1};
    checker.accessed(*thread[i], b, {p, sizeof(int), memory_space::shared, cusim::sim::access_kind::unknown, site});
  }
  void flush(unsigned i) { checker.thread_paused(*thread[i], b); }
  std::string report() {
    try {
      if (std::exception_ptr e = checker.launch_ended()) std::rethrow_exception(e);
    } catch (const cusim::kernel_error& e) {
      return e.what();
    }
    return {};
  }

  block_context b;
  memory_checker checker;
  std::unique_ptr<thread_record> thread[2];
  int* cell = nullptr;
};

}  // namespace

TEST_CASE("a store is told from a load by the change it made: write then read is a RAW race") {
  block_fixture f({.race = true});
  f.access(0, f.cell, 10);
  *f.cell = 5;  // thread 0 writes
  f.flush(0);
  f.access(1, f.cell, 20);  // thread 1 reads
  f.flush(1);
  const std::string text = f.report();
  CHECK(text.rfind("tid=[1, 0, 0] ctaid=[0, 0, 0]: data race on shared memory (RAW hazard)", 0) == 0);
  CHECK(text.find("k.cu:20") != std::string::npos);
  CHECK(text.find("k.cu:10") != std::string::npos);
}

TEST_CASE("two loads never race, and a barrier orders a store before a load") {
  block_fixture reads({.race = true});
  reads.access(0, reads.cell, 10);
  reads.flush(0);
  reads.access(1, reads.cell, 20);
  reads.flush(1);
  CHECK(reads.report().empty());

  block_fixture ordered({.race = true});
  ordered.access(0, ordered.cell, 10);
  *ordered.cell = 5;
  ordered.flush(0);
  ordered.checker.block_barrier_released(ordered.b);
  ordered.access(1, ordered.cell, 20);
  ordered.flush(1);
  CHECK(ordered.report().empty());
}

TEST_CASE("atomics count as writes but do not race with atomics") {
  block_fixture f({.race = true});
  f.access(0, f.cell, 10);
  f.checker.atomic_applied(*f.thread[0], f.cell);  // unchanged bytes, but an atomic
  f.flush(0);
  f.access(1, f.cell, 20);
  f.checker.atomic_applied(*f.thread[1], f.cell);
  f.flush(1);
  CHECK(f.report().empty());
  f.access(1, f.cell + 1, 30);  // another cell: no conflict either
  f.flush(1);
  f.access(0, f.cell, 40);  // a plain load of the atomically updated cell
  f.flush(0);
  CHECK(f.report().rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: data race on shared memory (RAW hazard)", 0) == 0);
}

TEST_CASE("a load of shared memory this block never wrote is an uninitialised read") {
  block_fixture f({.init = true});
  f.access(0, f.cell + 2, 12);
  f.flush(0);
  CHECK(f.report().rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: uninitialized read of shared memory", 0) == 0);

  block_fixture g({.init = true});
  g.access(0, g.cell + 2, 12);
  g.cell[2] = 1;  // a store: classified as a write, then reads are fine
  g.flush(0);
  g.access(1, g.cell + 2, 13);
  g.flush(1);
  CHECK(g.report().empty());
}
