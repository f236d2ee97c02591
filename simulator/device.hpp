// SPDX-License-Identifier: MIT
// The simulated device: its properties (what cudaGetDeviceProperties reports) and the launch
// limits checked against them.
#pragma once

#include <cusim/host/launch.hpp>

namespace cusim::sim {

/// The properties of the simulated device (an sm_80 A100-class GPU's limits).
const cudaDeviceProp& device_properties();

/// Checks `config` against the device's limits; throws cuda_error with CUDA's code.
void validate_launch(const launch_config& config);

}  // namespace cusim::sim
