// SPDX-License-Identifier: MIT
// cusim's <sm_20_atomic_functions.h>: the atomic functions, with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_SM_20_ATOMIC_FUNCTIONS_H_
#define CUSIM_CUDA_SM_20_ATOMIC_FUNCTIONS_H_

#include "cuda_runtime.h"
#endif
