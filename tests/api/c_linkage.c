/* SPDX-License-Identifier: MIT */
/* A C program linked with the simulator: the runtime's functions have C linkage. It declares
   what it calls itself, as a C program built against any CUDA header would see them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef int cudaError_t;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, int kind);
cudaError_t cudaMemset(void* ptr, int value, size_t bytes);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaThreadSynchronize(void); /* CUDA 12's spelling, deprecated */
cudaError_t cudaGetLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventDestroy(cudaEvent_t event);

static int failures = 0;
#define EXPECT(condition)                                         \
  do {                                                            \
    if (!(condition)) {                                           \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                 \
    }                                                             \
  } while (0)

int main(void) {
  int count = 0, warp = 0, i;
  int host[16], back[16];
  void* device = NULL;
  void* managed = NULL;
  cudaStream_t stream;
  cudaEvent_t event;
  EXPECT(cudaGetDeviceCount(&count) == 0 && count == 1);
  EXPECT(cudaDeviceGetAttribute(&warp, 10 /* cudaDevAttrWarpSize */, 0) == 0 && warp == 32);
  EXPECT(cudaMalloc(&device, sizeof host) == 0 && device != NULL);
  EXPECT(cudaMallocManaged(&managed, 64, 1 /* cudaMemAttachGlobal */) == 0);
  for (i = 0; i < 16; ++i) host[i] = i * 3;
  EXPECT(cudaMemset(device, 0, sizeof host) == 0);
  EXPECT(cudaMemcpy(device, host, sizeof host, 1 /* cudaMemcpyHostToDevice */) == 0);
  EXPECT(cudaStreamCreate(&stream) == 0);
  EXPECT(cudaEventCreate(&event) == 0);
  EXPECT(cudaMemcpyAsync(back, device, sizeof back, 2 /* cudaMemcpyDeviceToHost */, stream) == 0);
  EXPECT(cudaEventRecord(event, stream) == 0);
  EXPECT(cudaEventSynchronize(event) == 0);
  EXPECT(memcmp(host, back, sizeof host) == 0);
  EXPECT(cudaStreamSynchronize(stream) == 0);
  EXPECT(cudaEventDestroy(event) == 0);
  EXPECT(cudaStreamDestroy(stream) == 0);
  EXPECT(cudaDeviceSynchronize() == 0);
  EXPECT(cudaThreadSynchronize() == 0);
  EXPECT(cudaFree(managed) == 0);
  EXPECT(cudaFree(device) == 0);
  EXPECT(cudaFree(device) == 1 /* cudaErrorInvalidValue: freed already */);
  EXPECT(cudaGetLastError() == 1);
  EXPECT(strcmp(cudaGetErrorName(1), "cudaErrorInvalidValue") == 0);
  EXPECT(strcmp(cudaGetErrorString(1), "invalid argument") == 0);
  if (failures == 0) printf("c linkage: ok\n");
  return failures != 0;
}
