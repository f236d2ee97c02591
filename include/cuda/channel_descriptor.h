// SPDX-License-Identifier: MIT
// cusim's <channel_descriptor.h>: cudaCreateChannelDesc<T>() and the half-precision channel descriptors, with the rest of <cuda_runtime.h> (cusim/backend/sim/textures.hpp).
#pragma GCC system_header
#ifndef CUSIM_CUDA_CHANNEL_DESCRIPTOR_H_
#define CUSIM_CUDA_CHANNEL_DESCRIPTOR_H_

#include "cuda_runtime.h"
#endif
