// SPDX-License-Identifier: MIT
// cusim's <cuda_profiler_api.h>: cudaProfilerStart and cudaProfilerStop: nothing to start on the simulator.
#pragma GCC system_header
#ifndef CUSIM_CUDA_CUDA_PROFILER_API_H_
#define CUSIM_CUDA_CUDA_PROFILER_API_H_

#include "cuda_runtime.h"
// cudaProfilerStart and cudaProfilerStop are part of the runtime (cusim/backend/sim/runtime.hpp).
#endif
