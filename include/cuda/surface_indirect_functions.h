// SPDX-License-Identifier: MIT
// cusim's <surface_indirect_functions.h>: the surface object accesses (surf2Dread<T>, surf2Dwrite, ...), with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_SURFACE_INDIRECT_FUNCTIONS_H_
#define CUSIM_CUDA_SURFACE_INDIRECT_FUNCTIONS_H_

#include "cuda_runtime.h"
#endif
