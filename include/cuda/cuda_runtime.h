// SPDX-License-Identifier: MIT
// cusim's <cuda_runtime.h>: what an unmodified CUDA program gets from nvcc and the CUDA runtime,
// on the CPU simulator. cusim's nvcc driver includes it first in every .cu file it compiles
// (docs/unmodified-cuda.md); the other CUDA headers of this directory build on it.
#pragma GCC system_header
#ifndef CUSIM_CUDA_RUNTIME_H_
#define CUSIM_CUDA_RUNTIME_H_

#ifndef __cplusplus
// C sees the runtime API's C view only.
#  include "cuda_runtime_api.h"
#else

// The names CUDA's headers define and programs test (helper_cuda.h picks its checks with them).
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#ifndef CUDART_VERSION
#  define CUDART_VERSION 13000
#endif
#ifndef __CUDART_API_VERSION
#  define __CUDART_API_VERSION CUDART_VERSION
#endif

// cusim's headers, on the simulator backend, with __CUDACC__ allowed (cusim/config.hpp).
#ifndef CUSIM_UNMODIFIED_CUDA
#  define CUSIM_UNMODIFIED_CUDA 1
#endif
#if !defined(CUSIM_BACKEND_SIM) && !defined(CUSIM_BACKEND_CUDA)
#  define CUSIM_BACKEND_SIM 1
#endif
#include <cusim/config.hpp>
#if !CUSIM_BACKEND_IS_SIM()
#  error "cusim's <cuda_runtime.h> is the CPU simulator's: CUSIM_BACKEND_SIM must be 1"
#endif
#include <cusim/error.hpp>
#if defined(__CUDACC__)
#  include <cusim/backend/sim/cuda_runtime.hpp>
#  include <cusim/backend/sim/unmodified.hpp>
#else
// A host source (.cpp) compiled by the host compiler itself, as CUDA's header allows outside nvcc:
// the qualifiers, vector types and runtime API only, which need C++14 rather than C++20.
#  include <cusim/backend/sim/qualifiers.hpp>
#  include <cusim/backend/sim/runtime_types.hpp>
#  include <cusim/backend/sim/vector_types.hpp>
#  include <cusim/backend/sim/runtime.hpp>
#  include <cusim/backend/sim/textures.hpp>
#endif

// What a .cu file may use without including it: printf and the C library, in kernels too.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

#if defined(__CUDACC__)
#  include "device_functions.h"

namespace cusim::detail {
// Kernel faults that the C API keeps are reported on stderr in such a program (unmodified.hpp).
inline const bool unmodified_program_marked = mark_unmodified_program();
}  // namespace cusim::detail
#endif

// Declaration qualifiers nvcc knows and qualifiers.hpp does not define.
#define __grid_constant__
#define __cudart_builtin__
#define __device_builtin__
#define __nv_pure__ __attribute__((pure))
// libstdc++ and glibc spell an attribute __noinline__ (__attribute__((__noinline__))): the macro
// is defined after every standard header cusim's headers need, as CUDA's own headers do.
#define __noinline__ __attribute__((noinline))

#endif  // __cplusplus
#endif  // CUSIM_CUDA_RUNTIME_H_
