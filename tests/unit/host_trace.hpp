// SPDX-License-Identifier: MIT
// What host work ran, in the order it ran: the streams' and graphs' unit tests record their host
// functions (cudaLaunchHostFunc, host nodes) into a trace.
#pragma once

#include <cusim/cusim.hpp>

#include <mutex>
#include <string>
#include <vector>

struct trace {
  std::mutex mutex;
  std::vector<std::string> steps;
  void add(const std::string& s) {
    std::lock_guard lock(mutex);
    steps.push_back(s);
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mutex);
    return steps;
  }
};

/// A host function's step: `record(&step)` adds its name to its trace.
struct host_step {
  trace* t;
  std::string name;
};
inline void CUDART_CB record(void* p) {
  auto* s = static_cast<host_step*>(p);
  s->t->add(s->name);
}
