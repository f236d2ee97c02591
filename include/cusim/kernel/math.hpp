// SPDX-License-Identifier: MIT
// CUDA's math functions and intrinsics (built into nvcc; the simulator's, with the GPU's semantics
// where C++'s differ, are in cusim/backend/sim/math.hpp).
#pragma once

#include <cusim/cuda_runtime.hpp>
