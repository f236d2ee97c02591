// SPDX-License-Identifier: MIT
// cusim's <vector_functions.h>: the make_* functions of CUDA's vector types, with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_VECTOR_FUNCTIONS_H_
#define CUSIM_CUDA_VECTOR_FUNCTIONS_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else
#  include "cuda_runtime_api.h"
#endif
#endif
