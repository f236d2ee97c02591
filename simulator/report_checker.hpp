// SPDX-License-Identifier: MIT
// CUSIM_REPORT=DIR: the checker that counts what a GPU's memory pipeline would do with a
// launch's accesses (report_model.hpp), for the teaching report (report_writer.hpp). It observes
// every access, so the launch's blocks run one at a time, thread by thread. A warp instruction is
// the accesses of the lanes of one real warp (lanes 0-31 of the block's linear thread index) at
// one site, matched as each lane's n-th execution of that site; a block's warp instructions are
// settled at its barriers and at its end.
#pragma once

#include "checker.hpp"
#include "report_writer.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace cusim::sim {

struct kernel_info;

class report_checker final : public checker {
 public:
  report_checker();
  ~report_checker() override;

  bool observes_accesses() const noexcept override { return true; }
  void launch_started(const launch_state& l) override;
  void block_started(block_context& b) override;
  void accessed(thread_record& t, block_context& b, const access_event& e) override;
  void atomic_applied(thread_record& t, const void* p) noexcept override;
  void thread_paused(thread_record& t, block_context& b) override;
  void block_barrier_released(block_context& b) noexcept override;
  std::exception_ptr launch_ended() override;

  /// A site as the accesses name it: an API access's file, line and column; a raw access's
  /// place (raw_access.cpp gives each code address a file name of its own, so two accesses of
  /// one line stay apart).
  struct site_key {
    const char* file;
    unsigned line, column;
    bool shared;
    bool operator==(const site_key&) const = default;
  };
  struct site_hash {
    std::size_t operator()(const site_key& k) const noexcept;
  };
  struct lane_record {
    std::uintptr_t address;  ///< global: the address; shared: the offset in the block's shared memory
    std::uint32_t bytes;
    std::uint8_t lane;
    access_kind kind;
  };
  struct warp_instruction {
    warp_instruction() noexcept {}  // the lanes are written as they come, not zeroed first
    std::uint32_t site = 0;
    std::uint32_t warp = 0;
    std::uint32_t n = 0;  ///< the execution of its site
    std::uint32_t count = 0;
    std::array<lane_record, 32> lanes;
  };
  struct instruction_key {
    std::uint32_t warp, site, n;
    bool operator==(const instruction_key&) const = default;
  };
  struct instruction_hash {
    std::size_t operator()(const instruction_key& k) const noexcept;
  };
  /// A block's warp instructions by key: open addressing, emptied by what was used.
  class instruction_index {
   public:
    /// The index stored for `k`, or `fresh` stored for it now (and `inserted` set).
    std::uint32_t find_or_add(const instruction_key& k, std::uint32_t fresh, bool& inserted);
    void clear() noexcept;

   private:
    struct slot {
      instruction_key key;
      std::uint32_t value;
    };
    static constexpr std::uint32_t empty = UINT32_MAX;
    void grow();
    std::vector<slot> slots_;
    std::vector<std::uint32_t> used_;
  };
  /// An access whose effect is not known yet: an API element access is a store if the element
  /// changed; a raw load whose element changed was followed by a store the compiler's
  /// instrumentation left unchecked (a read-modify-write, `s[i] += x`, is checked once, as a load).
  struct pending_access {
    std::int64_t record;  ///< instruction << 5 | lane slot
    const void* address;
    std::uint32_t bytes;
    std::uint32_t n;  ///< the execution of its site
    bool raw_load;
    std::uint64_t before[2];
  };
  /// A thread's executions of each site so far, its latest access, and its recent accesses not
  /// told yet, decided when the thread accesses the same element again, when they leave the window
  /// and when the thread pauses.
  struct thread_track {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> executions;
    std::int64_t last = -1;  ///< its latest access: instruction << 5 | lane slot
    std::array<pending_access, 8> window;
    unsigned pending = 0;
  };
  struct block_track {
    const block_context* context = nullptr;
    std::uint64_t linear = 0;
    uint3 block_idx{};
    dim3 block_dim{};
    unsigned threads = 0;
    std::vector<thread_track> thread;
    std::vector<warp_instruction> instructions;
    instruction_index index;
  };
  struct site_info {
    site_key key;
    report_space space;
    std::int64_t store_after = -1;  ///< the site of the unchecked stores after its loads
  };

 private:
  block_track& track_of(const block_context& b);
  void resolve(block_track& bt, thread_track& tt, const pending_access& p) noexcept;
  void resolve_all(block_track& bt, thread_track& tt) noexcept;
  void add_lane(block_track& bt, thread_track& tt, std::uint32_t warp, std::uint32_t site, std::uint32_t n,
                const lane_record& r);
  void settle(block_track& bt) noexcept;
  void settle_finished_blocks(const block_context* starting) noexcept;
  void settle_instruction(const block_track& bt, const warp_instruction& w) noexcept;
  report_example example_of(const block_track& bt, const warp_instruction& w, unsigned figure) const;
  void hand_over() noexcept;

  report_kernel kernel_;
  const kernel_info* kernel_static_ = nullptr;
  unsigned threads_per_block_ = 0;
  bool handed_over_ = false;
  std::unordered_map<site_key, std::uint32_t, site_hash> site_ids_;
  /// In front of site_ids_: the last site seen in each of a few slots.
  struct cached_site {
    site_key key{nullptr, 0, 0, false};
    std::uint32_t id = UINT32_MAX;
  };
  std::array<cached_site, 256> site_cache_{};
  std::vector<site_info> sites_;
  /// Per site id and kind: the index in kernel_.sites, or -1.
  std::vector<std::array<std::int32_t, 3>> report_site_of_;
  std::vector<std::unique_ptr<block_track>> blocks_, spare_;
  /// Sites whose example a settle just took (report site, site id, execution): the same
  /// execution by the next warps of the block is added to it (report_site::more).
  std::vector<std::array<std::uint32_t, 3>> fresh_examples_;
};

}  // namespace cusim::sim
