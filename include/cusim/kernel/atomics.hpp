// SPDX-License-Identifier: MIT
// CUDA's atomic functions on global and shared memory (built into nvcc; the simulator's, with
// CUDA's semantics, are in cusim/backend/sim/atomics.hpp).
#pragma once

#include <cusim/cuda_runtime.hpp>
