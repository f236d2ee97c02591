// SPDX-License-Identifier: MIT
// cusim's <host_defines.h>: the declaration qualifiers (__global__, __device__, ...), with the rest of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_HOST_DEFINES_H_
#define CUSIM_CUDA_HOST_DEFINES_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else
#  include "cuda_runtime_api.h"
#endif
#endif
