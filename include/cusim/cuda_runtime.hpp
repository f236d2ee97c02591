// SPDX-License-Identifier: MIT
// CUDA's runtime API and kernel built-ins (__syncthreads, atomics, math, warp primitives, assert)
// on the configured backend: CUDA's own <cuda_runtime.h> with nvcc, the simulator's stand-ins
// otherwise. cusim's headers include this where they need CUDA's names.
#pragma once

#include <cusim/config.hpp>

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/cuda_runtime.hpp>
#else
#  include <cuda_runtime.h>
#endif
