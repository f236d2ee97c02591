// SPDX-License-Identifier: MIT
// cusim's <texture_indirect_functions.h>: the texture object fetches (tex1D<T>, tex2DLayered<T>, texCubemap<T>, ...), with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_TEXTURE_INDIRECT_FUNCTIONS_H_
#define CUSIM_CUDA_TEXTURE_INDIRECT_FUNCTIONS_H_

#include "cuda_runtime.h"
#endif
