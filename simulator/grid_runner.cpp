// SPDX-License-Identifier: MIT
// Blocks in parallel on TBB workers, inside an isolated arena.
#include "grid_runner.hpp"

#include "gpu_defined.hpp"

#include "block_runner.hpp"
#include "debugger.hpp"
#include "device.hpp"
#include "diagnostics.hpp"
#include "checker.hpp"
#include "fault_signals.hpp"
#include "gpu_defined.hpp"
#include "sanitizers.hpp"
#include "settings.hpp"
#include "streams.hpp"
#include "tbb_workers.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace cusim::sim {

launch_state::launch_state() = default;
launch_state::~launch_state() = default;

void launch_state::report_fault(std::uint64_t block, std::exception_ptr e) {
  std::lock_guard lock(mutex);
  if (block < lowest_fault.load(std::memory_order_relaxed)) {
    lowest_fault.store(block, std::memory_order_relaxed);
    fault = std::move(e);
  }
}

namespace {

/// The idle fibers a runner keeps after a cooperative launch, once an ordinary launch follows:
/// what one ordinary block needs.
constexpr std::size_t kept_fibers = 1024;

void run_blocks(launch_state& launch, std::uint64_t begin, std::uint64_t end) {
  block_runner& runner = block_runner::for_this_thread();
  for (std::uint64_t b = begin; b < end && !launch.cancelled(b); ++b) runner.run(launch, b);
}

// The grid barrier of a cooperative launch. Each worker runs blocks until they finish or all
// their live threads wait at this_grid().sync(); once every unfinished block waits, the barrier
// opens and each worker resumes its own suspended blocks (a block never leaves its worker: its
// fibers live on that worker's stacks). Idle workers sleep on the condition variable.
class grid_barrier {
 public:
  explicit grid_barrier(launch_state& launch) : launch_(launch) {}

  void work() {
    block_runner& runner = block_runner::for_this_thread();
    std::vector<block_context*> mine;
    std::uint64_t generation = 0;
    for (;;) {
      const std::uint64_t b = next_.fetch_add(1);
      if (b < launch_.blocks) {
        block_context* suspended = runner.start(launch_, b);
        if (suspended) mine.push_back(suspended);
        done(suspended, b);
        continue;
      }
      if (mine.empty()) return;
      bool abort;
      {
        std::unique_lock lock(mutex_);
        opened_.wait(lock, [&] { return generation_ != generation; });
        generation = generation_;
        abort = abort_;
      }
      std::vector<block_context*> still;
      for (block_context* block : mine) {
        const std::uint64_t linear = block->linear;
        block_context* suspended = runner.resume(*block, abort);
        if (suspended) still.push_back(suspended);
        done(suspended, linear);
      }
      mine.swap(still);
    }
  }

 private:
  // Block `linear` finished (suspended == null) or waits at the barrier.
  void done(block_context* suspended, std::uint64_t linear) {
    std::lock_guard lock(mutex_);
    if (suspended) {
      ++arrived_;
      if (!first_waiter_ || linear < first_waiter_->linear) {
        const thread_record& t = *suspended->barrier_waiters.front();
        first_waiter_ = waiter{linear, t.thread_idx, suspended->block_idx, suspended->barrier_site};
      }
    } else {
      ++finished_;
      first_finished_ = std::min(first_finished_, linear);
    }
    if (arrived_ == 0 || arrived_ + finished_ != launch_.blocks) return;
    // Every block waits or has finished: open the barrier, or abort after a fault. A block that
    // finished while others wait would hang a GPU: that is a deadlock.
    if (launch_.lowest_fault.load() == UINT64_MAX && finished_ > 0) {
      launch_.report_fault(first_waiter_->linear,
                           std::make_exception_ptr(grid_sync_deadlock_error(
                               first_waiter_->tid, first_waiter_->ctaid, index_of(launch_.config.grid, first_finished_),
                               arrived_, launch_.blocks, first_waiter_->site)));
    }
    abort_ = launch_.lowest_fault.load() != UINT64_MAX;
    if (launch_.checkers) launch_.checkers->grid_synchronised();
    arrived_ = 0;
    first_waiter_.reset();
    ++generation_;
    opened_.notify_all();
  }

  struct waiter {
    std::uint64_t linear;
    uint3 tid, ctaid;
    detail::source_location site;
  };
  launch_state& launch_;
  std::atomic<std::uint64_t> next_{0};
  std::mutex mutex_;
  std::condition_variable opened_;
  std::uint64_t arrived_ = 0, finished_ = 0, generation_ = 0;
  std::uint64_t first_finished_ = UINT64_MAX;
  std::optional<waiter> first_waiter_;
  bool abort_ = false;
};

// The OS threads that help the caller run a cooperative launch, kept from one launch to the next
// so that their block runners keep their fibers and stacks. A launch of 264 blocks of 1,024
// threads needs 270,336 co-resident fibers: mapping their stacks, faulting their pages in and
// unmapping them again took most of each launch's time when every launch made new threads. A
// helper with no launch for `helper_idle` ends, and its runner releases what it kept. One
// cooperative launch at a time uses them; one that finds them busy (another stream's cooperative
// launch at the same time) starts threads of its own, as before.
class cooperative_helpers {
 public:
  static constexpr std::chrono::seconds helper_idle{2};

  static cooperative_helpers& instance() {
    static cooperative_helpers* helpers = new cooperative_helpers;  // never destroyed: helpers may outlive main
    // Destroyed before what the runners' destructors use (made earlier): from then on no helper
    // ends, so none destroys its runner while the process exits.
    static struct exit_guard {
      ~exit_guard() {
        std::lock_guard lock(helpers->mutex_);
        helpers->exiting_ = true;
      }
    } guard;
    return *helpers;
  }

  // barrier.work() on `count` helpers and on the calling thread; returns when all are done.
  void run(grid_barrier& barrier, unsigned count) {
    std::unique_lock lock(mutex_);
    job_ = &barrier;
    tickets_ = active_ = count;
    for (unsigned idle = threads_; idle < count; ++idle) {  // no job runs: every thread is idle
      ++threads_;
      std::thread([this] { serve(); }).detach();
    }
    wake_.notify_all();
    lock.unlock();
    barrier.work();  // the calling thread is worker 0: with CUSIM_WORKERS=1 it runs every block
    lock.lock();
    finished_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
  }

  std::mutex launch_mutex;  // held by the launch that uses the helpers

 private:
  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!wake_.wait_for(lock, helper_idle, [&] { return tickets_ > 0; })) {
        if (exiting_) continue;
        --threads_;
        return;  // the thread's runner, fibers and stacks end with it
      }
      --tickets_;
      grid_barrier& barrier = *job_;
      lock.unlock();
      barrier.work();
      lock.lock();
      if (--active_ == 0) finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  grid_barrier* job_ = nullptr;
  unsigned tickets_ = 0, active_ = 0, threads_ = 0;
  bool exiting_ = false;
};

void run_cooperative(launch_state& launch, unsigned workers) {
  grid_barrier barrier(launch);
  const auto helpers = static_cast<unsigned>(std::min<std::uint64_t>(workers, launch.blocks)) - 1;
  cooperative_helpers& pool = cooperative_helpers::instance();
  if (std::unique_lock busy(pool.launch_mutex, std::try_to_lock); busy) {
    // The caller's runner keeps its fibers too, for the next cooperative launch; the next
    // ordinary launch on this thread trims them (run_grid).
    pool.run(barrier, helpers);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(helpers);
  for (unsigned i = 0; i < helpers; ++i) threads.emplace_back([&] { barrier.work(); });
  barrier.work();
  for (auto& t : threads) t.join();  // their runners, fibers and stacks end with them
  block_runner::for_this_thread().trim(kept_fibers);
}

std::exception_ptr finish_grid(launch_state& launch) {
  flush_division_reports(launch);
  if (!launch.fault && launch.checkers) return launch.checkers->launch_ended();
  return launch.fault;
}

}  // namespace

std::exception_ptr run_grid(launch_state& launch) {
  ensure_fault_handlers(block_runner::abandon_current);
  // The memory checkers run the blocks one at a time, in order: what they find must not depend
  // on the worker count, and a cross-block race is a race in whatever order blocks run.
  const unsigned workers = launch.checkers && launch.checkers->observes_accesses() ? 1 : worker_count();
  if (launch.checkers) launch.checkers->launch_started(launch);
  if (launch.cooperative) {
    run_cooperative(launch, workers);
    return finish_grid(launch);
  }
  block_runner::for_this_thread().trim(kept_fibers);  // what a cooperative launch left beyond that
  if (workers == 1 || launch.blocks == 1) {
    run_blocks(launch, 0, launch.blocks);  // one OS thread, blocks in order: the gdb mode
  } else {
    // TSan cannot see TBB's handoffs (tbb_workers.cpp): the launch's setup happens before every
    // block, and every block before the return. Two sync addresses, so that the blocks on one
    // worker are not ordered after those on another.
    happens_before(&launch.config);
    parallel_ranges(workers, launch.blocks, [](void* l, std::uint64_t begin, std::uint64_t end) {
      launch_state& launch = *static_cast<launch_state*>(l);
      happens_after(&launch.config);
      run_blocks(launch, begin, end);
      happens_before(&launch.blocks);
    }, &launch);
    happens_after(&launch.blocks);
  }
  return finish_grid(launch);
}

}  // namespace cusim::sim
