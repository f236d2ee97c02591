// SPDX-License-Identifier: MIT
// cusim's <cuda_runtime_api.h>: the CUDA runtime's functions. C++ gets all of <cuda_runtime.h>;
// C gets the C view below: the vector types, the runtime's core types and the prototypes of the
// functions that libcudart (the simulator) defines with C linkage, with CUDA's names, values and
// signatures.
#pragma GCC system_header
#ifndef CUSIM_CUDA_RUNTIME_API_H_
#define CUSIM_CUDA_RUNTIME_API_H_

#ifdef __cplusplus
#  include "cuda_runtime.h"
#else

#include <stddef.h>

#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#ifndef CUDART_VERSION
#  define CUDART_VERSION 13000
#endif

// CUDA's vector types with the sizes and alignments of cusim/backend/sim/vector_types.hpp.
#define CUSIM_C_VECTOR_TYPES_(name, T)                                                                    \
  typedef struct name##1 { T x; } name##1;                                                                \
  typedef struct __attribute__((aligned(2 * sizeof(T)))) name##2 { T x, y; } name##2;                     \
  typedef struct name##3 { T x, y, z; } name##3;                                                          \
  typedef struct __attribute__((aligned(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16))) name##4 { T x, y, z, w; } name##4;
CUSIM_C_VECTOR_TYPES_(char, signed char)
CUSIM_C_VECTOR_TYPES_(uchar, unsigned char)
CUSIM_C_VECTOR_TYPES_(short, short)
CUSIM_C_VECTOR_TYPES_(ushort, unsigned short)
CUSIM_C_VECTOR_TYPES_(int, int)
CUSIM_C_VECTOR_TYPES_(uint, unsigned int)
CUSIM_C_VECTOR_TYPES_(long, long)
CUSIM_C_VECTOR_TYPES_(ulong, unsigned long)
CUSIM_C_VECTOR_TYPES_(longlong, long long)
CUSIM_C_VECTOR_TYPES_(ulonglong, unsigned long long)
CUSIM_C_VECTOR_TYPES_(float, float)
CUSIM_C_VECTOR_TYPES_(double, double)
#undef CUSIM_C_VECTOR_TYPES_
typedef struct dim3 {
  unsigned int x, y, z;
} dim3;

// The values are those of cusim/backend/sim/runtime_types.hpp (CUDA's).
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorAssert = 710,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef void (*cudaHostFn_t)(void* user_data);
#define CUDART_CB

#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2
#define cudaMemAttachGlobal 0x1
#define cudaMemAttachHost 0x2
#define cudaHostAllocDefault 0x0

cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);

cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
// CUDA 12's deprecated spellings (simulator/runtime_device.cpp), warning as CUDA 12's headers did.
#if defined(CUDA_ENABLE_DEPRECATED)
#  define CUSIM_C_DEPRECATED_
#else
#  define CUSIM_C_DEPRECATED_ __attribute__((deprecated))
#endif
CUSIM_C_DEPRECATED_ cudaError_t cudaThreadExit(void);
CUSIM_C_DEPRECATED_ cudaError_t cudaThreadSynchronize(void);
#undef CUSIM_C_DEPRECATED_

cudaError_t cudaStreamCreate(cudaStream_t* pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

#endif  // __cplusplus
#endif  // CUSIM_CUDA_RUNTIME_API_H_
