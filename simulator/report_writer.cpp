// SPDX-License-Identifier: MIT
// CUSIM_REPORT=DIR: the program's report, kept by kernel name and written as report.json,
// report.html and a summary on stderr (report_writer.hpp).
#include "report_writer.hpp"

#include "device.hpp"
#include "diagnostics.hpp"
#include "report_html.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string_view>
#include <system_error>
#include <tuple>

namespace cusim::sim {

namespace {

struct program_report {
  std::mutex mutex;
  std::vector<report_kernel> kernels;  // in the order of their first launch
  bool at_exit = false;                // write_report registered with atexit
};

/// Never destroyed: launches still end while static objects go away at exit.
program_report& the_report() {
  static auto* r = new program_report;
  return *r;
}

void merge_site(std::vector<report_site>& into, report_site&& s) {
  for (report_site& t : into) {
    if (t.line != s.line || t.space != s.space || t.kind != s.kind || t.file != s.file) continue;
    t.requests += s.requests;
    t.sectors += s.sectors;
    t.wavefronts += s.wavefronts;
    t.conflicts += s.conflicts;
    t.lanes += s.lanes;
    t.split_requests += s.split_requests;
    t.split_lanes += s.split_lanes;
    if (s.has_example && (!t.has_example || s.worst > t.worst)) {
      t.has_example = true;
      t.worst = s.worst;
      t.example = std::move(s.example);
      t.more = std::move(s.more);
    }
    return;
  }
  into.push_back(std::move(s));
}

void add_counts(report_counts& a, const report_counts& b) {
  a.requests += b.requests;
  a.sectors += b.sectors;
  a.wavefronts += b.wavefronts;
  a.conflicts += b.conflicts;
}

bool same_dim(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// JSON text.
void put_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string s = buf;  // trailing zeros off, one decimal kept: 32.0, 31.75
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

std::string dims(const dim3& d) {
  return "[" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + "]";
}

const char* kind_name(report_kind k) {
  return k == report_kind::load ? "load" : k == report_kind::store ? "store" : "atomic";
}

double ratio(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

/// The kernel's source lines: from its signature (at or shortly before `line`, where the debug
/// information places the function) to the brace that closes its body, at most 400 lines.
bool read_source(const std::string& file, unsigned line, const std::string& name, unsigned& first,
                 std::vector<std::string>& lines) {
  if (file.empty() || line == 0) return false;
  std::ifstream in(file);
  if (!in) return false;
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  if (line > all.size()) return false;
  const std::string base = name.substr(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2);
  std::size_t start = line - 1;
  for (std::size_t i = start + 1; i-- > 0 && i + 10 > start;) {
    if (all[i].find(base) != std::string::npos) {
      start = i;
      break;
    }
  }
  int depth = 0;
  bool opened = false;
  std::size_t end = start;
  for (; end < all.size() && end < start + 400; ++end) {
    for (char c : all[end]) {
      if (c == '{') {
        ++depth;
        opened = true;
      } else if (c == '}') {
        --depth;
      }
    }
    if (opened && depth <= 0) break;
  }
  end = std::min(end, all.size() - 1);
  first = static_cast<unsigned>(start + 1);
  lines.assign(all.begin() + static_cast<std::ptrdiff_t>(start), all.begin() + static_cast<std::ptrdiff_t>(end) + 1);
  return true;
}

void put_counts_metrics(std::string& out, const report_kernel& k) {
  auto metric = [&](const char* name, const std::string& value, bool last = false) {
    out += "      ";
    put_string(out, name);
    out += ": " + value + (last ? "\n" : ",\n");
  };
  auto n = [](std::uint64_t v) { return std::to_string(v); };
  metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", n(k.global_ld.requests));
  metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", n(k.global_ld.sectors));
  metric("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", n(k.global_st.requests));
  metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", n(k.global_st.sectors));
  metric("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", n(k.global_atom.requests));
  metric("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", n(k.global_atom.sectors));
  metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", n(k.shared_ld.conflicts));
  metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", n(k.shared_ld.wavefronts));
  metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", n(k.shared_st.conflicts));
  metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", n(k.shared_st.wavefronts));
  metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", n(k.shared_atom.conflicts));
  metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", n(k.shared_atom.wavefronts));
  metric("smsp__sass_inst_executed_op_shared_ld.sum", n(k.shared_ld.requests));
  metric("smsp__sass_inst_executed_op_shared_st.sum", n(k.shared_st.requests));
  metric("smsp__sass_inst_executed_op_shared_atom.sum", n(k.shared_atom.requests));
  metric("smsp__thread_inst_executed_per_inst_executed.ratio",
         k.instructions + k.barriers == 0 ? "null"
                                          : number(ratio(k.thread_instructions + k.barrier_lanes, k.instructions + k.barriers)));
  metric("sm__maximum_warps_per_active_cycle_pct", number(k.occ.percent));
  metric("launch__occupancy_limit_blocks", n(static_cast<std::uint64_t>(k.occ.limit_blocks)));
  metric("launch__occupancy_limit_warps", n(static_cast<std::uint64_t>(k.occ.limit_warps)));
  metric("launch__occupancy_limit_shared_mem", n(static_cast<std::uint64_t>(k.occ.limit_shared_memory)));
  metric("launch__occupancy_limit_registers", "null", true);
}

std::string example_json(const report_example& e, bool shared) {
  std::string out = "{\"block\": [" + std::to_string(e.block.x) + ", " + std::to_string(e.block.y) + ", " +
                    std::to_string(e.block.z) + "], \"warp\": " + std::to_string(e.warp) + ", \"bytes\": " +
                    std::to_string(e.bytes) + ", \"base_mod_32\": " + std::to_string(e.base_mod_128 % 32) +
                    ", \"base_mod_128\": " + std::to_string(e.base_mod_128) + ", \"sectors\": " +
                    std::to_string(shared ? 0 : e.figure) + ", \"wavefronts\": " + std::to_string(shared ? e.figure : 0) +
                    ",\n        \"lanes\": [";
  for (std::size_t i = 0; i < e.lanes.size(); ++i) {
    const report_example_lane& l = e.lanes[i];
    out += (i ? ", " : "") + std::string("{\"lane\": ") + std::to_string(l.lane) + ", \"offset\": " + std::to_string(l.offset) +
           ", \"thread\": [" + std::to_string(l.thread.x) + ", " + std::to_string(l.thread.y) + ", " +
           std::to_string(l.thread.z) + "]}";
  }
  return out + "]}";
}

void put_site(std::string& out, const report_site& s, bool last) {
  const bool shared = s.space == report_space::shared;
  out += "      {\"file\": ";
  put_string(out, s.file);
  out += ", \"line\": " + std::to_string(s.line) + ", \"space\": \"" + (shared ? "shared" : "global") +
         "\", \"kind\": \"" + kind_name(s.kind) + "\",\n       \"requests\": " + std::to_string(s.requests);
  out += shared ? ", \"wavefronts\": " + std::to_string(s.wavefronts) : ", \"sectors\": " + std::to_string(s.sectors);
  if (shared) out += ", \"bank_conflicts\": " + std::to_string(s.conflicts);
  else out += ", \"wavefronts\": 0, \"bank_conflicts\": 0";
  out += ", \"active_lanes_mean\": " + number(ratio(s.lanes, s.requests));
  if (s.has_example) {
    out += ",\n       \"example\": " + example_json(s.example, shared);
    if (!s.more.empty()) {
      out += ",\n       \"examples\": [" + example_json(s.example, shared);
      for (const report_example& e : s.more) out += ",\n        " + example_json(e, shared);
      out += "]";
    }
  }
  out += last ? "}\n" : "},\n";
}

void put_kernel(std::string& out, const report_kernel& k, bool last) {
  out += "  {\n    \"name\": ";
  put_string(out, k.name);
  out += ",\n    \"launches\": " + std::to_string(k.launches);
  out += ", \"grid\": " + dims(k.grids.front()) + ", \"block\": " + dims(k.blocks.front());
  if (k.grids.size() > 1 || k.blocks.size() > 1) {
    out += ",\n    \"grids\": [";
    for (std::size_t i = 0; i < k.grids.size(); ++i) out += (i ? ", " : "") + dims(k.grids[i]);
    out += "], \"blocks\": [";
    for (std::size_t i = 0; i < k.blocks.size(); ++i) out += (i ? ", " : "") + dims(k.blocks[i]);
    out += "]";
  }
  out += ",\n    \"shared_bytes_per_block\": " + std::to_string(k.shared_bytes_per_block);
  out += ",\n    \"barriers\": " + std::to_string(k.barriers);
  out += ",\n    \"metrics\": {\n";
  put_counts_metrics(out, k);
  out += "    },\n    \"occupancy\": {\"theoretical_pct\": " + number(k.occ.percent) +
         ", \"active_blocks_per_multiprocessor\": " + std::to_string(k.occ.active_blocks) +
         ", \"active_warps_per_multiprocessor\": " + std::to_string(k.occ.active_warps) + ", \"limiter\": \"" +
         limiter_name(k.occ.limiter) + "\", \"registers\": \"unknown\"},\n    \"sites\": [\n";
  std::vector<const report_site*> sites;
  for (const report_site& s : k.sites) sites.push_back(&s);
  std::stable_sort(sites.begin(), sites.end(), [](const report_site* a, const report_site* b) {
    return std::tie(a->file, a->line, a->space, a->kind) < std::tie(b->file, b->line, b->space, b->kind);
  });
  for (std::size_t i = 0; i < sites.size(); ++i) put_site(out, *sites[i], i + 1 == sites.size());
  out += "    ],\n    \"divergence\": [";
  // A line is split when any of its sites ran with part of a warp: one entry a line.
  std::vector<std::pair<std::pair<std::string, unsigned>, std::pair<std::uint64_t, std::uint64_t>>> split;
  for (const report_site* s : sites) {
    if (s->split_requests == 0) continue;
    if (!split.empty() && split.back().first == std::pair{s->file, s->line}) {
      split.back().second.first += s->split_requests;
      split.back().second.second += s->split_lanes;
    } else {
      split.push_back({{s->file, s->line}, {s->split_requests, s->split_lanes}});
    }
  }
  for (std::size_t i = 0; i < split.size(); ++i) {
    out += i ? ",\n      {\"file\": " : "\n      {\"file\": ";
    put_string(out, split[i].first.first);
    out += ", \"line\": " + std::to_string(split[i].first.second) + ", \"split_requests\": " +
           std::to_string(split[i].second.first) +
           ", \"active_lanes_mean\": " + number(ratio(split[i].second.second, split[i].second.first)) + "}";
  }
  out += split.empty() ? "]" : "\n    ]";
  unsigned first = 0;
  std::vector<std::string> lines;
  if (read_source(k.source_file, k.source_line, k.name, first, lines)) {
    out += ",\n    \"source\": {\"file\": ";
    put_string(out, k.source_file);
    out += ", \"first_line\": " + std::to_string(first) + ", \"lines\": [";
    for (std::size_t i = 0; i < lines.size(); ++i) {
      out += i ? ",\n      " : "\n      ";
      put_string(out, lines[i]);
    }
    out += "]}";
  }
  out += last ? "\n  }\n" : "\n  },\n";
}

bool write_file(const std::string& path, const std::string& text, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    error = std::strerror(errno);
    return false;
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (!ok) error = std::strerror(errno);
  if (std::fclose(f) != 0 && ok) {
    error = std::strerror(errno);
    return false;
  }
  return ok;
}

void write_at_exit() { write_report(); }

}  // namespace

const std::string& report_directory() {
  static const std::string dir = [] {
    const char* d = std::getenv("CUSIM_REPORT");
    return std::string(d != nullptr ? d : "");
  }();
  return dir;
}

void add_to_report(report_kernel&& launch) {
  program_report& r = the_report();
  std::lock_guard lock(r.mutex);
  if (!r.at_exit) {
    r.at_exit = true;
    std::atexit(write_at_exit);
  }
  for (report_kernel& k : r.kernels) {
    if (k.name != launch.name) continue;
    k.launches += launch.launches;
    for (const dim3& g : launch.grids)
      if (k.grids.size() < 16 && std::none_of(k.grids.begin(), k.grids.end(), [&](const dim3& x) { return same_dim(x, g); }))
        k.grids.push_back(g);
    for (const dim3& b : launch.blocks)
      if (k.blocks.size() < 16 && std::none_of(k.blocks.begin(), k.blocks.end(), [&](const dim3& x) { return same_dim(x, b); }))
        k.blocks.push_back(b);
    k.barriers += launch.barriers;
    k.barrier_lanes += launch.barrier_lanes;
    add_counts(k.global_ld, launch.global_ld);
    add_counts(k.global_st, launch.global_st);
    add_counts(k.global_atom, launch.global_atom);
    add_counts(k.shared_ld, launch.shared_ld);
    add_counts(k.shared_st, launch.shared_st);
    add_counts(k.shared_atom, launch.shared_atom);
    k.instructions += launch.instructions;
    k.thread_instructions += launch.thread_instructions;
    for (report_site& s : launch.sites) merge_site(k.sites, std::move(s));
    return;
  }
  r.kernels.push_back(std::move(launch));
}

std::string report_json(const std::vector<report_kernel>& kernels) {
  const cudaDeviceProp& p = device_properties();
  std::string out = "{\n  \"tool\": \"cusim\", \"version\": 1,\n  \"device\": {\"name\": ";
  put_string(out, p.name);
  out += ", \"compute_capability\": [" + std::to_string(p.major) + ", " + std::to_string(p.minor) +
         "], \"multiprocessors\": " + std::to_string(p.multiProcessorCount) + ", \"warp_size\": " + std::to_string(p.warpSize) +
         ",\n             \"max_threads_per_multiprocessor\": " + std::to_string(p.maxThreadsPerMultiProcessor) +
         ", \"max_blocks_per_multiprocessor\": " + std::to_string(p.maxBlocksPerMultiProcessor) +
         ",\n             \"shared_memory_per_multiprocessor\": " + std::to_string(p.sharedMemPerMultiprocessor) +
         ", \"max_shared_memory_per_block\": " + std::to_string(p.sharedMemPerBlock) +
         ", \"registers_per_multiprocessor\": " + std::to_string(p.regsPerMultiprocessor) + "},\n  \"kernels\": [\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) put_kernel(out, kernels[i], i + 1 == kernels.size());
  out += "  ]\n}\n";
  return out;
}

void write_report() noexcept try {
  const std::string& dir = report_directory();
  if (dir.empty()) return;
  std::vector<report_kernel> kernels;
  {
    program_report& r = the_report();
    std::lock_guard lock(r.mutex);
    if (r.kernels.empty()) return;
    kernels.swap(r.kernels);  // cudaDeviceReset: what ran since is the next report
  }
  const std::string json = report_json(kernels);
  std::string error;
  std::error_code made;
  std::filesystem::create_directories(dir, made);  // a failure shows when the file is written
  const std::string json_path = dir + "/report.json", html_path = dir + "/report.html";
  if (!write_file(json_path, json, error)) {
    std::fputs(report_unwritable_message(json_path, error).c_str(), stderr);
    return;
  }
  if (!write_file(html_path, render_report_html(json), error)) {
    std::fputs(report_unwritable_message(html_path, error).c_str(), stderr);
    return;
  }
  std::string summary;
  for (const report_kernel& k : kernels) {
    report_summary_figures f;
    f.name = k.name;
    f.launches = k.launches;
    f.load_sectors_per_request = ratio(k.global_ld.sectors, k.global_ld.requests);
    f.store_sectors_per_request = ratio(k.global_st.sectors, k.global_st.requests);
    f.global_loads = k.global_ld.requests != 0;
    f.global_stores = k.global_st.requests != 0;
    f.bank_conflicts = k.shared_ld.conflicts + k.shared_st.conflicts + k.shared_atom.conflicts;
    f.shared = k.shared_ld.requests + k.shared_st.requests + k.shared_atom.requests != 0;
    f.active_lanes = ratio(k.thread_instructions + k.barrier_lanes, k.instructions + k.barriers);
    f.occupancy_pct = k.occ.percent;
    f.limiter = limiter_name(k.occ.limiter);
    summary += report_summary_line(f);
  }
  summary += report_written_line(html_path);
  std::fputs(summary.c_str(), stderr);
} catch (...) {  // no memory at exit: no report, and no crash
}

}  // namespace cusim::sim
