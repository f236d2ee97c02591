// SPDX-License-Identifier: MIT
// cusim's <cuda_surface_types.h>: the surface types, with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_CUDA_SURFACE_TYPES_H_
#define CUSIM_CUDA_CUDA_SURFACE_TYPES_H_

#include "cuda_runtime.h"
#endif
