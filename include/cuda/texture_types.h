// SPDX-License-Identifier: MIT
// cusim's <texture_types.h>: the texture object types and enums (cudaTextureDesc, cudaTextureAddressMode, ...), with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_TEXTURE_TYPES_H_
#define CUSIM_CUDA_TEXTURE_TYPES_H_

#include "cuda_runtime.h"
#endif
