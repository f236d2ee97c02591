// SPDX-License-Identifier: MIT
// Block and warp barriers and fences: __syncthreads and its predicate forms, __syncwarp,
// __threadfence (built into nvcc; the simulator's are in cusim/backend/sim/sync.hpp).
#pragma once

#include <cusim/cuda_runtime.hpp>
