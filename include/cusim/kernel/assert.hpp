// SPDX-License-Identifier: MIT
// Device-side assert, __trap and printf (built into nvcc; on the simulator a failed assert or a
// __trap() is a tagged kernel_error: cusim/backend/sim/assert.hpp).
#pragma once

#include <cusim/cuda_runtime.hpp>
