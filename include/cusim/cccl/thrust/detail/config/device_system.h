// SPDX-License-Identifier: MIT
// cusim's Thrust configuration (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"): this file takes
// the place of Thrust's own thrust/detail/config/device_system.h in the toolkit layout's thrust/
// (cmake/cusim_cccl.cmake lays it out). Thrust's device system is its CPP one: the algorithms run
// on the calling host thread, on memory that device_vector gets from cudaMalloc
// (thrust/system/cpp/memory_resource.h beside this file), so that kernels, cudaMemcpy and the
// simulator's checks see device_vector's elements as device memory. Thrust's CUDA system (CUB's
// kernels, launched with <<<>>> inside Thrust's own headers) is not compiled for the simulator: a
// program that asks for it by name gets the CPP system, as one that names none; TBB and OMP are
// kept when asked for.
#pragma once

// The values Thrust gives its systems (0 means none).
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_DEVICE_SYSTEM_OMP 2
#define THRUST_DEVICE_SYSTEM_TBB 3
#define THRUST_DEVICE_SYSTEM_CPP 4

#if defined(THRUST_DEVICE_BACKEND) && !defined(THRUST_DEVICE_SYSTEM)
#  define THRUST_DEVICE_SYSTEM THRUST_DEVICE_BACKEND
#endif
#if !defined(THRUST_DEVICE_SYSTEM) || THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#  undef THRUST_DEVICE_SYSTEM
#  define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif

#define THRUST_DEVICE_BACKEND_CUDA THRUST_DEVICE_SYSTEM_CUDA
#define THRUST_DEVICE_BACKEND_OMP THRUST_DEVICE_SYSTEM_OMP
#define THRUST_DEVICE_BACKEND_TBB THRUST_DEVICE_SYSTEM_TBB

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
#  define __THRUST_DEVICE_SYSTEM_NAMESPACE omp
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_TBB
#  define __THRUST_DEVICE_SYSTEM_NAMESPACE tbb
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CPP
#  define __THRUST_DEVICE_SYSTEM_NAMESPACE cpp
#else
#  error "cusim: THRUST_DEVICE_SYSTEM must be THRUST_DEVICE_SYSTEM_CPP (the default), _TBB or _OMP"
#endif

#define __THRUST_DEVICE_SYSTEM_ROOT thrust/system/__THRUST_DEVICE_SYSTEM_NAMESPACE
