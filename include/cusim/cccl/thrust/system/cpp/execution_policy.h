// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's thrust/system/cpp/execution_policy.h in the toolkit layout's thrust/. It is
// Thrust's own (linked beside, under cusim-cccl-original/), followed by the CUDA system's policy
// names as the simulator has them (thrust/system/cuda/execution_policy.h), so that
// `#include <thrust/execution_policy.h>` declares thrust::cuda::par as it does with nvcc.
#pragma once

#include <cusim-cccl-original/thrust/system/cpp/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>
