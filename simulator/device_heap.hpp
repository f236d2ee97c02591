// SPDX-License-Identifier: MIT
// The device heap's limit, for cudaDeviceSetLimit / cudaDeviceGetLimit (cudaLimitMallocHeapSize)
// and cudaDeviceReset; the kernel side is cusim::detail::device_malloc / device_free.
#pragma once

#include <cstddef>

namespace cusim::sim {

std::size_t device_heap_limit();
/// False (nothing changed) once a kernel has called malloc or free, as on a GPU.
bool set_device_heap_limit(std::size_t bytes);
/// cudaDeviceReset: frees every block, and the limit may be set again (8 MiB until then).
void reset_device_heap();

}  // namespace cusim::sim
