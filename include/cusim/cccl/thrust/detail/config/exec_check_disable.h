// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's thrust/detail/config/exec_check_disable.h in the toolkit layout's thrust/.
// The driver defines __CUDACC__, for which Thrust spells `#pragma nv_exec_check_disable` (nvcc's
// "call host code from __host__ __device__ code" switch); the host compiler would warn about it at
// every use (-Wunknown-pragmas, in -Wall) and the simulator has no such check to disable.
#pragma once

#include <thrust/detail/config.h>

#define __thrust_exec_check_disable__
