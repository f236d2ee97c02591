// SPDX-License-Identifier: MIT
// cusim's <vector_types.h>: CUDA's vector types (dim3, float4, ...), with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_VECTOR_TYPES_H_
#define CUSIM_CUDA_VECTOR_TYPES_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else
#  include "cuda_runtime_api.h"
#endif
#endif
