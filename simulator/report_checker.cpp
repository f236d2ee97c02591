// SPDX-License-Identifier: MIT
// CUSIM_REPORT=DIR: a launch's accesses counted as a GPU's memory pipeline counts them
// (report_checker.hpp).
#include "report_checker.hpp"

#include "address_space.hpp"
#include "block_state.hpp"
#include "device.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "memory.hpp"
#include "symbolizer.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace cusim::sim {

namespace {

/// The bytes of an element (up to 16), or zeros where the arena holds nothing addressable.
void snapshot(const void* p, std::uint32_t bytes, std::uint64_t out[2]) noexcept {
  out[0] = out[1] = 0;
  if (in_arena(p) && !arena_addressable(reinterpret_cast<std::uintptr_t>(p), bytes)) return;
  std::memcpy(out, p, std::min<std::uint32_t>(bytes, 16));
}

/// "copy_coalesced" for "copy_coalesced(float*, float const*)", "ns::reduce" for
/// "void ns::reduce<256u>(float*)": the function's name without its parameters, template
/// arguments or return type, as Nsight Compute's "function" names a kernel.
std::string base_name(std::string text) {
  std::string out;
  int angle = 0, paren = 0;
  for (char c : text) {
    if (c == '<') ++angle;
    else if (c == '>') angle = std::max(0, angle - 1);
    else if (c == '(' && angle == 0) {
      if (paren++ == 0 && !out.empty()) break;  // the parameter list
    } else if (c == ')') --paren;
    else if (angle == 0 && paren == 0) {
      if (c == ' ') out.clear();  // a return type before the name
      else out += c;
    }
  }
  return out.empty() ? text : out;
}

/// "/work/shared/k.cu" for "/work/main/../shared/k.cu": a file as the report names it.
std::string normal_path(const char* file) {
  if (file == nullptr || *file == '\0') return "";
  return std::filesystem::path(file).lexically_normal().string();
}

struct kernel_place {
  std::string name, file;
  unsigned line = 0;
};

/// The kernel at `address`: its name and where it is defined, symbolised once per kernel.
const kernel_place& place_of_kernel(const void* address) {
  static std::mutex mutex;
  static auto* places = new std::unordered_map<const void*, kernel_place>;  // never destroyed: used at exit
  std::lock_guard lock(mutex);
  auto [it, fresh] = places->try_emplace(address);
  if (fresh) {
    kernel_place& k = it->second;
    if (address != nullptr) {
      const code_place p = place_of(reinterpret_cast<std::uintptr_t>(address));
      k.file = normal_path(p.file.c_str());
      k.line = p.line;
      int status = 0;
      char* demangled = abi::__cxa_demangle(p.function.c_str(), nullptr, nullptr, &status);
      k.name = base_name(status == 0 && demangled != nullptr ? demangled : p.function);
      std::free(demangled);
    }
    if (k.name.empty()) k.name = "kernel";
  }
  return it->second;
}

}  // namespace

std::size_t report_checker::site_hash::operator()(const site_key& k) const noexcept {
  return std::hash<const void*>()(k.file) ^ (std::size_t{k.line} * 0x9e3779b97f4a7c15ull) ^
         (std::size_t{k.column} << 20) ^ std::size_t{k.shared};
}

std::size_t report_checker::instruction_hash::operator()(const instruction_key& k) const noexcept {
  std::uint64_t h = (std::uint64_t{k.site} << 32 | k.n) * 0x9e3779b97f4a7c15ull;
  return static_cast<std::size_t>(h ^ (h >> 29) ^ (std::uint64_t{k.warp} * 0xbf58476d1ce4e5b9ull));
}

std::uint32_t report_checker::instruction_index::find_or_add(const instruction_key& k, std::uint32_t fresh,
                                                            bool& inserted) {
  if ((used_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = instruction_hash()(k) & mask;; i = (i + 1) & mask) {
    slot& s = slots_[i];
    if (s.value == empty) {
      s = {k, fresh};
      used_.push_back(static_cast<std::uint32_t>(i));
      inserted = true;
      return fresh;
    }
    if (s.key == k) {
      inserted = false;
      return s.value;
    }
  }
}

void report_checker::instruction_index::grow() {
  std::vector<slot> old;
  old.swap(slots_);
  slots_.assign(std::max<std::size_t>(64, old.size() * 2), slot{{0, 0, 0}, empty});
  std::vector<std::uint32_t> was;
  was.swap(used_);
  for (std::uint32_t i : was) {
    bool inserted;
    find_or_add(old[i].key, old[i].value, inserted);
  }
}

void report_checker::instruction_index::clear() noexcept {
  for (std::uint32_t i : used_) slots_[i].value = empty;
  used_.clear();
}

report_checker::report_checker() = default;

report_checker::~report_checker() {
  if (handed_over_) return;
  settle_finished_blocks(nullptr);  // a launch that faulted: what it did until then
  hand_over();
}

void report_checker::launch_started(const launch_state& l) {
  const kernel_place& k = place_of_kernel(l.kernel != nullptr ? l.kernel->address : nullptr);
  kernel_.name = k.name;
  kernel_.source_file = k.file;
  kernel_.source_line = k.line;
  kernel_.launches = 1;
  kernel_.grids = {l.config.grid};
  kernel_.blocks = {l.config.block};
  kernel_.shared_bytes_per_block = l.config.shared_bytes;  // the static bytes are added at the end
  kernel_static_ = l.kernel;
  threads_per_block_ = l.threads_per_block;
}

report_checker::block_track& report_checker::track_of(const block_context& b) {
  if (!blocks_.empty() && blocks_.back()->context == &b) [[likely]] return *blocks_.back();
  for (auto& t : blocks_)
    if (t->context == &b) return *t;
  block_started(const_cast<block_context&>(b));  // not seen starting: track it from here
  return *blocks_.back();
}

void report_checker::block_started(block_context& b) {
  settle_finished_blocks(&b);
  std::unique_ptr<block_track> t;
  if (!spare_.empty()) {
    t = std::move(spare_.back());
    spare_.pop_back();
  } else {
    t = std::make_unique<block_track>();
  }
  t->context = &b;
  t->linear = b.linear;
  t->block_idx = b.block_idx;
  t->block_dim = b.block_dim;
  t->threads = b.nthreads;
  t->thread.resize(b.nthreads);
  for (thread_track& tt : t->thread) {
    tt.executions.clear();
    tt.last = -1;
    tt.pending = 0;
  }
  t->instructions.clear();
  t->index.clear();
  blocks_.push_back(std::move(t));
}

void report_checker::settle_finished_blocks(const block_context* starting) noexcept {
  for (std::size_t i = 0; i < blocks_.size();) {
    block_track& t = *blocks_[i];
    if (starting == nullptr || t.context == starting || !t.context->in_flight) {
      for (thread_track& tt : t.thread) resolve_all(t, tt);
      settle(t);
      spare_.push_back(std::move(blocks_[i]));
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

void report_checker::accessed(thread_record& t, block_context& b, const access_event& e) {
  block_track& bt = track_of(b);
  thread_track& tt = bt.thread[t.linear];
  for (unsigned i = 0; i < tt.pending; ++i) {  // the element again: what happened to it since is known
    if (tt.window[i].address != e.address) continue;
    resolve(bt, tt, tt.window[i]);
    std::copy(tt.window.begin() + i + 1, tt.window.begin() + tt.pending, tt.window.begin() + i);
    --tt.pending;
    break;
  }
  const bool shared = is_shared(e.space);
  const site_key key{e.site.file, e.site.line, e.site.column, shared};
  cached_site& cached = site_cache_[(reinterpret_cast<std::uintptr_t>(key.file) >> 3 ^ key.line * 31u ^ key.column * 7u ^
                                     static_cast<unsigned>(shared)) %
                                    site_cache_.size()];
  if (cached.id == UINT32_MAX || !(cached.key == key)) {
    auto [site_it, fresh_site] = site_ids_.try_emplace(key, static_cast<std::uint32_t>(sites_.size()));
    if (fresh_site) {
      sites_.push_back({site_it->first, shared ? report_space::shared : report_space::global});
      report_site_of_.push_back({-1, -1, -1});
    }
    cached = {key, site_it->second};
  }
  const std::uint32_t site = cached.id;
  std::uint32_t n = 0;
  auto exec = std::find_if(tt.executions.begin(), tt.executions.end(), [&](const auto& x) { return x.first == site; });
  if (exec == tt.executions.end()) tt.executions.emplace_back(site, 1);
  else n = exec->second++;
  const auto address = reinterpret_cast<std::uintptr_t>(e.address);
  const std::uintptr_t where = shared ? address - reinterpret_cast<std::uintptr_t>(b.shared.base()) : address;
  const access_kind kind = e.kind == access_kind::unknown ? access_kind::load : e.kind;
  add_lane(bt, tt, t.linear / 32, site, n,
           {where, static_cast<std::uint32_t>(e.bytes), static_cast<std::uint8_t>(t.linear % 32), kind});
  if (e.kind == access_kind::unknown || e.kind == access_kind::load) {  // told by the change it makes
    if (tt.pending == tt.window.size()) {
      resolve(bt, tt, tt.window[0]);
      std::copy(tt.window.begin() + 1, tt.window.end(), tt.window.begin());
      --tt.pending;
    }
    pending_access& p = tt.window[tt.pending++];
    p.record = tt.last;
    p.address = e.address;
    p.bytes = static_cast<std::uint32_t>(e.bytes);
    p.n = n;
    p.raw_load = e.kind == access_kind::load;
    snapshot(e.address, p.bytes, p.before);
  }
}

void report_checker::add_lane(block_track& bt, thread_track& tt, std::uint32_t warp, std::uint32_t site, std::uint32_t n,
                              const lane_record& r) {
  bool fresh = false;
  const std::uint32_t at =
      bt.index.find_or_add(instruction_key{warp, site, n}, static_cast<std::uint32_t>(bt.instructions.size()), fresh);
  if (fresh) {
    warp_instruction& w = bt.instructions.emplace_back();
    w.site = site;
    w.warp = warp;
    w.n = n;
  }
  warp_instruction& w = bt.instructions[at];
  if (w.count == w.lanes.size()) {  // cannot be: a lane's n-th execution comes once
    tt.last = -1;
    return;
  }
  w.lanes[w.count] = r;
  tt.last = std::int64_t{at} << 5 | w.count;
  ++w.count;
}

void report_checker::resolve_all(block_track& bt, thread_track& tt) noexcept {
  for (unsigned i = 0; i < tt.pending; ++i) resolve(bt, tt, tt.window[i]);
  tt.pending = 0;
}

void report_checker::resolve(block_track& bt, thread_track& tt, const pending_access& p) noexcept try {
  if (p.record < 0) return;
  std::uint64_t now[2];
  snapshot(p.address, p.bytes, now);
  if (now[0] == p.before[0] && now[1] == p.before[1]) return;  // a load (or a store of the same value)
  warp_instruction& w = bt.instructions[static_cast<std::size_t>(p.record >> 5)];
  lane_record& r = w.lanes[p.record & 31];
  if (!p.raw_load) {  // an API element access that changed its element: a store
    if (r.kind == access_kind::load) r.kind = access_kind::store;
    return;
  }
  // A raw load and a store the instrumentation did not check: the store is an instruction of its own.
  const std::uint32_t load_site = w.site, warp = w.warp;
  lane_record store = r;
  store.kind = access_kind::store;
  if (sites_[load_site].store_after < 0) {
    site_info after = sites_[load_site];
    after.store_after = -1;
    sites_[load_site].store_after = static_cast<std::int64_t>(sites_.size());
    sites_.push_back(after);
    report_site_of_.push_back({-1, -1, -1});
  }
  const std::int64_t last = tt.last;
  add_lane(bt, tt, warp, static_cast<std::uint32_t>(sites_[load_site].store_after), p.n, store);
  tt.last = last;  // still the thread's latest access (atomic_applied looks there)
} catch (...) {  // no memory: the store goes uncounted
}

void report_checker::atomic_applied(thread_record& t, const void* p) noexcept {
  auto& b = *static_cast<block_context*>(t.block);
  block_track* bt = nullptr;
  for (auto& x : blocks_)
    if (x->context == &b) bt = x.get();
  if (bt == nullptr || t.linear >= bt->thread.size()) return;
  thread_track& tt = bt->thread[t.linear];
  if (tt.last < 0) return;
  warp_instruction& w = bt->instructions[static_cast<std::size_t>(tt.last >> 5)];
  lane_record& r = w.lanes[tt.last & 31];
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  const bool shared = sites_[w.site].space == report_space::shared;
  if (r.address != (shared ? address - reinterpret_cast<std::uintptr_t>(b.shared.base()) : address)) return;
  r.kind = access_kind::atomic;
  if (tt.pending > 0 && tt.window[tt.pending - 1].record == tt.last) --tt.pending;  // told: an atomic
}

void report_checker::thread_paused(thread_record& t, block_context& b) {
  block_track& bt = track_of(b);
  if (t.linear < bt.thread.size()) resolve_all(bt, bt.thread[t.linear]);
}

void report_checker::block_barrier_released(block_context& b) noexcept {
  std::array<unsigned, 32> lanes_of_warp{};
  for (const thread_record* t : b.barrier_waiters) ++lanes_of_warp[(t->linear / 32) % 32];
  for (unsigned lanes : lanes_of_warp) {
    if (lanes == 0) continue;
    ++kernel_.barriers;
    kernel_.barrier_lanes += lanes;
  }
  try {
    block_track& bt = track_of(b);
    for (thread_track& tt : bt.thread) resolve_all(bt, tt);
    settle(bt);
  } catch (...) {  // no memory for a track: this block's counts are lost, not the program
  }
}

std::exception_ptr report_checker::launch_ended() {
  settle_finished_blocks(nullptr);
  hand_over();
  return nullptr;
}

void report_checker::settle(block_track& bt) noexcept {
  fresh_examples_.clear();
  for (const warp_instruction& w : bt.instructions) settle_instruction(bt, w);
  try {  // the examples taken here: the same execution of their site by the next warps (3 at most)
    for (const auto& [index, site, n] : fresh_examples_) {
      report_site& s = kernel_.sites[index];
      if (!s.has_example || !s.more.empty()) continue;
      std::vector<const warp_instruction*> next;
      for (const warp_instruction& w : bt.instructions)
        if (w.site == site && w.n == n && w.warp > s.example.warp) next.push_back(&w);
      std::sort(next.begin(), next.end(), [](const auto* a, const auto* b) { return a->warp < b->warp; });
      if (next.size() > 3) next.resize(3);
      for (const warp_instruction* w : next) {
        std::array<lane_access, 32> lanes;
        for (std::uint32_t i = 0; i < w->count; ++i) lanes[i] = {w->lanes[i].address, w->lanes[i].bytes, w->lanes[i].lane};
        const std::span<const lane_access> active(lanes.data(), w->count);
        const unsigned figure = s.space == report_space::shared ? shared_wavefronts(active).wavefronts : global_sectors(active);
        s.more.push_back(example_of(bt, *w, figure));
      }
    }
  } catch (...) {  // no memory: the example alone
  }
  fresh_examples_.clear();
  bt.instructions.clear();
  bt.index.clear();
  for (thread_track& tt : bt.thread) tt.last = -1;
}

void report_checker::settle_instruction(const block_track& bt, const warp_instruction& w) noexcept try {
  const site_info& info = sites_[w.site];
  bool store = false, atomic = false;
  std::array<lane_access, 32> lanes;
  for (std::uint32_t i = 0; i < w.count; ++i) {
    const lane_record& r = w.lanes[i];
    lanes[i] = {r.address, r.bytes, r.lane};
    store |= r.kind == access_kind::store;
    atomic |= r.kind == access_kind::atomic;
  }
  const std::span<const lane_access> active(lanes.data(), w.count);
  const report_kind kind = atomic ? report_kind::atomic : store ? report_kind::store : report_kind::load;
  const bool shared = info.space == report_space::shared;
  report_counts& counts = shared ? (kind == report_kind::load    ? kernel_.shared_ld
                                    : kind == report_kind::store ? kernel_.shared_st
                                                                 : kernel_.shared_atom)
                                 : (kind == report_kind::load    ? kernel_.global_ld
                                    : kind == report_kind::store ? kernel_.global_st
                                                                 : kernel_.global_atom);
  unsigned figure;
  shared_cost cost;
  if (shared) {
    cost = shared_wavefronts(active);
    figure = cost.wavefronts;
    counts.wavefronts += cost.wavefronts;
    counts.conflicts += cost.conflicts;
  } else {
    figure = global_sectors(active);
    counts.sectors += figure;
  }
  ++counts.requests;
  ++kernel_.instructions;
  kernel_.thread_instructions += w.count;

  std::int32_t& index = report_site_of_[w.site][static_cast<int>(kind)];
  if (index < 0) {
    // Several code addresses of one line (an unrolled loop, say) are one site of the report.
    const std::string file = normal_path(info.key.file);
    for (std::size_t i = 0; i < kernel_.sites.size() && index < 0; ++i) {
      const report_site& s = kernel_.sites[i];
      if (s.line == info.key.line && s.space == info.space && s.kind == kind && s.file == file)
        index = static_cast<std::int32_t>(i);
    }
    if (index < 0) {
      index = static_cast<std::int32_t>(kernel_.sites.size());
      report_site& s = kernel_.sites.emplace_back();
      s.file = file;
      s.line = info.key.line;
      s.space = info.space;
      s.kind = kind;
    }
  }
  report_site& s = kernel_.sites[static_cast<std::size_t>(index)];
  ++s.requests;
  s.sectors += shared ? 0 : figure;
  s.wavefronts += shared ? cost.wavefronts : 0;
  s.conflicts += shared ? cost.conflicts : 0;
  s.lanes += w.count;
  const unsigned warp_threads = std::min(32u, bt.threads - w.warp * 32);
  if (w.count < warp_threads) {
    ++s.split_requests;
    s.split_lanes += w.count;
  }
  if (!s.has_example || figure > s.worst) {
    s.has_example = true;
    s.worst = figure;
    s.example = example_of(bt, w, figure);
    s.more.clear();
    fresh_examples_.push_back({static_cast<std::uint32_t>(index), w.site, w.n});
  }
} catch (...) {  // no memory: the instruction goes uncounted
}

report_example report_checker::example_of(const block_track& bt, const warp_instruction& w, unsigned figure) const {
  const bool shared = sites_[w.site].space == report_space::shared;
  report_example ex;
  ex.block = bt.block_idx;
  ex.warp = w.warp;
  ex.figure = figure;
  std::uintptr_t base = 0;
  for (std::uint32_t i = 0; i < w.count; ++i) ex.bytes = std::max(ex.bytes, w.lanes[i].bytes);
  if (!shared && w.count > 0) {
    if (const device_shadow* d = find_shadow(reinterpret_cast<const void*>(w.lanes[0].address))) base = d->base;
    ex.base_mod_128 = static_cast<unsigned>(base % 128);
  }
  for (std::uint32_t i = 0; i < w.count; ++i) {
    const lane_record& r = w.lanes[i];
    ex.lanes.push_back({r.lane, r.address - base, index_of(bt.block_dim, std::uint64_t{w.warp} * 32 + r.lane)});
  }
  std::sort(ex.lanes.begin(), ex.lanes.end(), [](const auto& a, const auto& b) { return a.lane < b.lane; });
  return ex;
}

void report_checker::hand_over() noexcept {
  handed_over_ = true;
  try {
    if (kernel_static_ != nullptr)
      kernel_.shared_bytes_per_block += kernel_static_->static_shared_bytes.load(std::memory_order_relaxed);
    const cudaDeviceProp& p = device_properties();
    occupancy_limits limits;
    limits.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    limits.max_blocks_per_multiprocessor = p.maxBlocksPerMultiProcessor;
    limits.shared_memory_per_multiprocessor = p.sharedMemPerMultiprocessor;
    limits.reserved_shared_memory_per_block = p.reservedSharedMemPerBlock;
    limits.warp_size = p.warpSize;
    kernel_.occ = theoretical_occupancy(limits, threads_per_block_, kernel_.shared_bytes_per_block);
    add_to_report(std::move(kernel_));
  } catch (...) {  // no memory: this launch is left out of the report
  }
}

}  // namespace cusim::sim
