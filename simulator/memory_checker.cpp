// SPDX-License-Identifier: MIT
// CUSIM_CHECK=race and init: shadow memory of shared and global arrays.
#include "memory_checker.hpp"

#include "address_space.hpp"
#include "block_state.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "memory.hpp"
#include "settings.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace cusim::sim {

namespace {

std::atomic<std::uint64_t> clock_{1};

/// The bytes of an element, or for large elements a digest of them; zeros once the thread freed
/// it (the arena's freed pages cannot be read).
void snapshot(const void* p, std::uint32_t bytes, std::uint64_t out[2]) {
  out[0] = out[1] = 0;
  if (in_arena(p) && !arena_addressable(reinterpret_cast<std::uintptr_t>(p), bytes)) return;
  if (bytes <= 16) {
    std::memcpy(out, p, bytes);
    return;
  }
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (std::uint32_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  out[0] = h;
}

// Findings are counted per source line: the column is left out of the comparison.
detail::source_location line_of(const char* file, unsigned line) { return {file, line, 0}; }

void free_granules(race_granule* g) { std::free(g); }

/// Zeroed granules (empty sides) that take memory only where touched.
std::unique_ptr<race_granule[], void (*)(race_granule*)> new_granules(std::size_t n) {
  auto* g = static_cast<race_granule*>(std::calloc(n, sizeof(race_granule)));
  if (g == nullptr) throw std::bad_alloc();
  return {g, free_granules};
}

}  // namespace

memory_checker::memory_checker(const check_settings& settings)
    : race_(settings.race), init_(settings.init), start_clock_(tick()) {}

std::uint64_t memory_checker::tick() noexcept { return clock_.fetch_add(1, std::memory_order_relaxed) + 1; }

void memory_checker::block_barrier_released(block_context& b) noexcept { b.check_shadow.barrier_clock = tick(); }

void memory_checker::block_started(block_context& b) {
  shared_shadow& s = b.check_shadow;
  if (race_ && !s.race) s.race.reset(new race_granule[shared_memory::capacity_bytes / 4]());
  if (init_ && !s.written) s.written = std::make_unique<std::uint32_t[]>(shared_memory::capacity_bytes);
  if (s.lane_sync.size() < 1024) s.lane_sync.assign(1024, 0);
  if (++s.generation == 0) {  // wrapped: forget every generation
    std::fill_n(s.written.get(), init_ ? shared_memory::capacity_bytes : 0, 0u);
    s.generation = 1;
  }
  s.start_clock = tick();
  s.barrier_clock = 0;
}

void memory_checker::accessed(thread_record& t, block_context& b, const access_event& a) {
  void* const p = a.address;
  access_window& w = t.window;
  for (unsigned i = 0; i < w.count; ++i) {
    if (w.entries[i].addr != p) continue;
    classify(t, b, w.entries[i]);  // its value predates this access
    std::copy(w.entries + i + 1, w.entries + w.count, w.entries + i);
    --w.count;
    break;
  }
  if (w.count == access_window::capacity) {
    classify(t, b, w.entries[0]);
    std::copy(w.entries + 1, w.entries + w.count, w.entries);
    --w.count;
  }
  pending_access& e = w.entries[w.count++];
  e = {p, static_cast<std::uint32_t>(a.bytes), a.space, a.kind == access_kind::atomic, a.kind == access_kind::store,
       a.site, {}};
  snapshot(p, e.bytes, e.before);
}

void memory_checker::atomic_applied(thread_record& t, const void* p) noexcept {
  for (unsigned i = 0; i < t.window.count; ++i)
    if (t.window.entries[i].addr == p) t.window.entries[i].atomic = true;
}

void memory_checker::thread_paused(thread_record& t, block_context& b) {
  access_window& w = t.window;
  for (unsigned i = 0; i < w.count; ++i) classify(t, b, w.entries[i]);
  w.count = 0;
}

void memory_checker::warp_synchronised(block_context& b, unsigned base, unsigned mask) noexcept {
  const std::uint64_t now = tick();
  for (unsigned m = mask; m != 0; m &= m - 1) {
    const unsigned i = base + static_cast<unsigned>(__builtin_ctz(m));
    if (i < b.check_shadow.lane_sync.size()) b.check_shadow.lane_sync[i] = now;
  }
}

void memory_checker::classify(thread_record& t, block_context& b, const pending_access& e) {
  std::uint64_t now[2];
  snapshot(e.addr, e.bytes, now);
  const bool write = e.atomic || e.store || now[0] != e.before[0] || now[1] != e.before[1];
  place where{};
  if (is_shared(e.space)) {
    where.offset = static_cast<std::size_t>(static_cast<std::byte*>(e.addr) - b.shared.base());
  } else {
    where.device = shadow_of(e.addr);
    if (where.device == nullptr) return;  // not device memory (a view of host memory)
    where.offset = reinterpret_cast<std::uintptr_t>(e.addr) - where.device->base;
  }
  if (init_) check_init(t, b, e, where, write);
  if (race_) check_race(t, b, e, where, write);
}

device_shadow* memory_checker::shadow_of(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (const std::uint64_t now = releases(); now != recent_releases_) {  // a free() may have taken one
    std::fill(std::begin(recent_), std::end(recent_), nullptr);
    recent_releases_ = now;
  }
  for (device_shadow* d : recent_)
    if (d != nullptr && addr - d->base < d->bytes) return d;
  device_shadow* d = find_shadow(p);
  if (d != nullptr) recent_[next_recent_++ % 4] = d;
  return d;
}

void memory_checker::check_init(thread_record& t, block_context& b, const pending_access& e, const place& where,
                                bool write) {
  std::uint8_t* written8 = nullptr;
  std::uint32_t* written32 = nullptr;
  if (where.device == nullptr) {
    written32 = b.check_shadow.written.get() + where.offset;
  } else {
    if (!where.device->written) return;  // not tracked: every byte counts as written
    written8 = where.device->written.get() + where.offset;
  }
  const std::uint32_t gen = b.check_shadow.generation;
  if (!write || e.atomic) {  // atomics read too
    bool all = true;
    for (std::uint32_t i = 0; i < e.bytes && all; ++i) all = written32 ? written32[i] == gen : written8[i] != 0;
    if (!all) add(fault_kind::uninitialized_read, "", t, b, e, nullptr);
  }
  if (write) {
    if (written32) std::fill_n(written32, e.bytes, gen);
    else std::fill_n(written8, e.bytes, std::uint8_t{1});
  }
}

bool memory_checker::ordered(const access_side& a, const thread_record& t, block_context& b) const noexcept {
  if (grid_clock_ > a.clock) return true;                  // this_grid().sync() since
  if (a.block != static_cast<std::uint32_t>(b.linear)) return false;  // blocks are concurrent
  const shared_shadow& s = b.check_shadow;
  if (s.barrier_clock > a.clock) return true;              // __syncthreads since
  return a.thread / 32 == t.linear / 32 && s.lane_sync[a.thread] > a.clock && s.lane_sync[t.linear] > a.clock;
}

void memory_checker::check_race(thread_record& t, block_context& b, const pending_access& e, const place& where,
                                bool write) {
  race_granule* granules;
  std::uint64_t floor;
  if (device_shadow* d = where.device) {
    if (!d->race) d->race = new_granules((d->bytes + 3) / 4);
    granules = d->race.get();
    floor = start_clock_;
  } else {
    granules = b.check_shadow.race.get();
    floor = b.check_shadow.start_clock;
  }
  const std::size_t offset = where.offset;
  access_side me{clock_.load(std::memory_order_relaxed), e.site.file, e.site.line,
                 static_cast<std::uint32_t>(b.linear), static_cast<std::uint16_t>(t.linear), 0, e.atomic};
  auto conflicts = [&](const access_side& s) {
    return s.clock >= floor && (s.bytes & me.bytes) != 0 && !(s.atomic && me.atomic) &&
           !(s.block == me.block && s.thread == me.thread) && !ordered(s, t, b);
  };
  bool reported = false;
  auto report = [&](const char* hazard, const access_side& other) {
    if (!reported) add(fault_kind::data_race, hazard, t, b, e, &other);
    reported = true;
  };
  const std::size_t end = offset + e.bytes;
  for (std::size_t g = offset / 4; g * 4 < end; ++g) {
    const std::size_t lo = std::max(offset, g * 4) - g * 4, hi = std::min(end, g * 4 + 4) - g * 4;
    me.bytes = static_cast<std::uint8_t>(((1u << hi) - 1) & ~((1u << lo) - 1));
    race_granule& r = granules[g];
    if (write) {
      if (conflicts(r.write)) report("WAW", r.write);
      else if (conflicts(r.read)) report("WAR", r.read);
      else if (conflicts(r.other_read)) report("WAR", r.other_read);
      r.write = me;
      r.read = r.other_read = access_side{};
    } else {
      if (conflicts(r.write)) report("RAW", r.write);
      if (r.read.clock < floor || r.read.block != me.block || r.read.thread != me.thread) r.other_read = r.read;
      r.read = me;
    }
  }
}

void memory_checker::add(fault_kind kind, const char* hazard, const thread_record& t, const block_context& b,
                         const pending_access& e, const access_side* other) {
  std::lock_guard lock(mutex_);
  for (memory_finding& f : findings_) {
    if (f.kind == kind && f.hazard == hazard &&
        same_site(line_of(f.site.file, f.site.line), line_of(e.site.file, e.site.line)) &&
        is_shared(f.space) == is_shared(e.space) &&
        (other == nullptr || same_site(line_of(f.other_file, f.other_line), line_of(other->file, other->line)))) {
      ++f.count;
      return;
    }
  }
  memory_finding f{kind, hazard, t.thread_idx, b.block_idx, e.site, {}, {}, nullptr, 0, e.space, 1};
  if (other != nullptr) {
    f.other_tid = index_of(b.block_dim, other->thread);
    f.other_ctaid = index_of(b.grid_dim, other->block);
    f.other_file = other->file;
    f.other_line = other->line;
  }
  findings_.push_back(std::move(f));
}

std::exception_ptr memory_checker::launch_ended() {
  std::lock_guard lock(mutex_);
  if (findings_.empty()) return nullptr;
  return std::make_exception_ptr(memory_check_report(findings_));
}

void note_host_write(const void* p, std::size_t bytes) {
  device_shadow* d = find_shadow(p);
  if (d == nullptr || !d->written) return;
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - d->base;
  std::fill_n(d->written.get() + offset, std::min(bytes, d->bytes - offset), std::uint8_t{1});
}

}  // namespace cusim::sim
