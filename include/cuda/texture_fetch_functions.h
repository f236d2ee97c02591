// SPDX-License-Identifier: MIT
// cusim's <texture_fetch_functions.h>: the texture fetches (tex1D, tex2D, tex3D, tex1Dfetch, ...), with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_TEXTURE_FETCH_FUNCTIONS_H_
#define CUSIM_CUDA_TEXTURE_FETCH_FUNCTIONS_H_

#include "cuda_runtime.h"
#endif
