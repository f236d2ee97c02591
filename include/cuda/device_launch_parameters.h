// SPDX-License-Identifier: MIT
// cusim's <device_launch_parameters.h>: threadIdx, blockIdx, blockDim, gridDim and warpSize, with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_DEVICE_LAUNCH_PARAMETERS_H_
#define CUSIM_CUDA_DEVICE_LAUNCH_PARAMETERS_H_

#include "cuda_runtime.h"
#endif
