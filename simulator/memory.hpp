// SPDX-License-Identifier: MIT
// Registry of the simulator's device, managed and pinned host allocations, so that frees and
// copies can be checked against what was really allocated.
#pragma once

#include <cstddef>

namespace cusim::sim {

enum class allocation_kind { device, managed, host };

void* allocate(std::size_t bytes, allocation_kind kind);
/// Frees `p` if it is the start of a live allocation of one of the accepted kinds.
bool release(void* p, bool accept_device, bool accept_host);
/// Whether [p, p + bytes) lies inside one live device or managed allocation.
bool is_device_range(const void* p, std::size_t bytes);
/// Bytes currently allocated as device or managed memory.
std::size_t device_bytes_in_use();

}  // namespace cusim::sim
