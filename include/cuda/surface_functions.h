// SPDX-License-Identifier: MIT
// cusim's <surface_functions.h>: the surface accesses (surf1Dread, surf2Dwrite, ...), with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_SURFACE_FUNCTIONS_H_
#define CUSIM_CUDA_SURFACE_FUNCTIONS_H_

#include "cuda_runtime.h"
#endif
