// SPDX-License-Identifier: MIT
// cusim's <driver_types.h>: the runtime's types and enums (cudaError_t, cudaMemcpyKind, cudaDeviceProp, ...), with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_DRIVER_TYPES_H_
#define CUSIM_CUDA_DRIVER_TYPES_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else
#  include "cuda_runtime_api.h"
#endif
#endif
