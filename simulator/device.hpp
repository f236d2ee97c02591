// SPDX-License-Identifier: MIT
// The simulated device: its properties (what cudaGetDeviceProperties reports) and the launch
// limits checked against them.
#pragma once

#include "kernels.hpp"
#include "settings.hpp"

#include <cusim/host/launch.hpp>

namespace cusim::sim {

/// The properties of the simulated device (CUSIM_DEVICE's profile, read once).
const cudaDeviceProp& device_properties();
/// The properties of the profile `which`: the real GPU's figures, cusim's limits.
cudaDeviceProp properties_of(device_profile which);

/// Checks a launch of `kernel` with `config` against the device's limits (its static shared
/// memory as far as earlier launches showed it); throws cuda_error with CUDA's code. A cooperative
/// launch must also fit on the device at once (cudaErrorCooperativeLaunchTooLarge).
void validate_launch(const launch_config& config, const kernel_info& kernel, bool cooperative = false);
/// The shared memory a block of `kernel` may use in all: 48 KiB, or the device's opt-in maximum
/// (sharedMemPerBlockOptin) once cudaFuncSetAttribute gave it more dynamic shared memory.
std::size_t block_shared_limit(const kernel_info& kernel);

/// How many blocks of `threads` threads using `shared_bytes` of dynamic shared memory one
/// multiprocessor holds at once (limited by blocks, threads and shared memory per SM).
int max_blocks_per_multiprocessor(unsigned threads, std::size_t shared_bytes);

}  // namespace cusim::sim
