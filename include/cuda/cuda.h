// SPDX-License-Identifier: MIT
// cusim's <cuda.h>: the driver API's types and result codes that programs and helpers name
// (CUresult and its CUDA_ERROR_* values, CUdevice, CUdeviceptr, the handles), and the few driver
// functions that need no driver: initialisation, the device count and the names of the results.
// In C++ it comes with everything of <cuda_runtime.h>.
#pragma GCC system_header
#ifndef CUSIM_CUDA_H_
#define CUSIM_CUDA_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#endif

#define __cuda_cuda_h__
#define CUDA_VERSION 13000
#define CUDA_API_VERSION CUDA_VERSION

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  CUDA_ERROR_NOT_PERMITTED = 800,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
#ifdef __cplusplus
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
#else
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
#endif

#ifdef __cplusplus
#  define CUSIM_DRIVER_INLINE_ inline
#else
#  define CUSIM_DRIVER_INLINE_ static inline
#endif

/// The simulator needs no driver: initialisation always succeeds.
CUSIM_DRIVER_INLINE_ CUresult cuInit(unsigned int flags) { return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }
CUSIM_DRIVER_INLINE_ CUresult cuDriverGetVersion(int* version) {
  if (version == 0) return CUDA_ERROR_INVALID_VALUE;
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}
/// One simulated device, ordinal 0.
CUSIM_DRIVER_INLINE_ CUresult cuDeviceGetCount(int* count) {
  if (count == 0) return CUDA_ERROR_INVALID_VALUE;
  *count = 1;
  return CUDA_SUCCESS;
}
CUSIM_DRIVER_INLINE_ CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (device == 0) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

/// The enumerator's name of a result ("CUDA_ERROR_ILLEGAL_ADDRESS"), or CUDA_ERROR_INVALID_VALUE.
CUSIM_DRIVER_INLINE_ CUresult cuGetErrorName(CUresult error, const char** name) {
  const char* n = 0;
  switch (error) {
#define CUSIM_DRIVER_NAME_(e) \
  case e: n = #e; break;
    CUSIM_DRIVER_NAME_(CUDA_SUCCESS)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_VALUE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_OUT_OF_MEMORY)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NOT_INITIALIZED)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_DEINITIALIZED)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NO_DEVICE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_DEVICE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_IMAGE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_CONTEXT)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_FILE_NOT_FOUND)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_HANDLE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NOT_FOUND)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NOT_READY)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_ILLEGAL_ADDRESS)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_LAUNCH_TIMEOUT)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_ASSERT)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_HARDWARE_STACK_ERROR)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_MISALIGNED_ADDRESS)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_INVALID_PC)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_LAUNCH_FAILED)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NOT_PERMITTED)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_NOT_SUPPORTED)
    CUSIM_DRIVER_NAME_(CUDA_ERROR_UNKNOWN)
#undef CUSIM_DRIVER_NAME_
  }
  if (name != 0) *name = n;
  return n != 0 && name != 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
/// A description of a result; the runtime's text for the same code.
CUSIM_DRIVER_INLINE_ CUresult cuGetErrorString(CUresult error, const char** text) {
  const char* name = 0;
  if (text == 0 || cuGetErrorName(error, &name) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
#ifdef __cplusplus
  *text = cudaGetErrorString(static_cast<cudaError_t>(error));
#else
  *text = name;
#endif
  return CUDA_SUCCESS;
}
#undef CUSIM_DRIVER_INLINE_

#endif  // CUSIM_CUDA_H_
