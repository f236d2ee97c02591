// SPDX-License-Identifier: MIT
// Backend predicates and the qualifiers every other cusim header builds on.
#pragma once

// CUSIM_BACKEND_SIM / CUSIM_BACKEND_CUDA come from the cusim::cusim CMake target, so every
// translation unit of a program agrees on the backend. A bare nvcc compile selects cuda.
// CUSIM_UNMODIFIED_CUDA: the simulator's <cuda_runtime.h> compiles an unmodified CUDA program,
// which cusim's nvcc driver (docs/unmodified-cuda.md) compiles with the host compiler and
// __CUDACC__ defined: the sim backend.
#if !defined(CUSIM_BACKEND_SIM) && !defined(CUSIM_BACKEND_CUDA)
#  if defined(__CUDACC__) && !defined(CUSIM_UNMODIFIED_CUDA)
#    define CUSIM_BACKEND_CUDA 1
#  else
#    define CUSIM_BACKEND_SIM 1
#  endif
#endif
#ifndef CUSIM_BACKEND_SIM
#  define CUSIM_BACKEND_SIM 0
#endif
#ifndef CUSIM_BACKEND_CUDA
#  define CUSIM_BACKEND_CUDA 0
#endif
#if CUSIM_BACKEND_SIM == CUSIM_BACKEND_CUDA
#  error "cusim: exactly one of CUSIM_BACKEND_SIM and CUSIM_BACKEND_CUDA must be 1"
#endif

/// True when kernels run on the CPU simulator. Function-like so that a typo fails to compile.
#define CUSIM_BACKEND_IS_SIM() (CUSIM_BACKEND_SIM)
/// True when kernels are compiled by nvcc for a real GPU.
#define CUSIM_BACKEND_IS_CUDA() (CUSIM_BACKEND_CUDA)

#if CUSIM_BACKEND_IS_SIM() && defined(__CUDACC__) && !defined(CUSIM_UNMODIFIED_CUDA)
#  error "cusim: the sim backend compiles .cu files with the host C++ compiler, not nvcc"
#endif

// What cusim's private headers check: they are reached through its public headers only.
#define CUSIM_CONFIG_INCLUDED_ 1

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/qualifiers.hpp>
#  define CUSIM_HD
#  define CUSIM_DEVICE
#else
#  include <cuda_runtime.h>
#  define CUSIM_HD __host__ __device__
#  define CUSIM_DEVICE __device__
#endif
