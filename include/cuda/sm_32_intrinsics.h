// SPDX-License-Identifier: MIT
// cusim's <sm_32_intrinsics.h>: __ldg and the cache-hinted loads and stores, with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_SM_32_INTRINSICS_H_
#define CUSIM_CUDA_SM_32_INTRINSICS_H_

#include "cuda_runtime.h"
#endif
