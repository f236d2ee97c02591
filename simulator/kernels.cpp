// SPDX-License-Identifier: MIT
// The per-kernel records, by kernel address.
#include "kernels.hpp"

#include <memory>
#include <mutex>
#include <unordered_map>

namespace cusim::sim {

kernel_info& kernel_info_of(const void* kernel) {
  static std::mutex mutex;
  static std::unordered_map<const void*, std::unique_ptr<kernel_info>> kernels;
  std::lock_guard lock(mutex);
  std::unique_ptr<kernel_info>& info = kernels[kernel];
  if (!info) {
    info = std::make_unique<kernel_info>();
    info->address = kernel;
  }
  return *info;
}

}  // namespace cusim::sim
