// SPDX-License-Identifier: MIT
// cusim's <builtin_types.h>: CUDA's built-in types, with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_BUILTIN_TYPES_H_
#define CUSIM_CUDA_BUILTIN_TYPES_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else
#  include "cuda_runtime_api.h"
#endif
#endif
