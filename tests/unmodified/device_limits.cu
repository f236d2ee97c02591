// SPDX-License-Identifier: MIT
// The simulated device's limits as a GPU enforces them (docs/fidelity.md): dynamic shared memory
// past 48 KiB only for a kernel opted in with cudaFuncSetAttribute, up to sharedMemPerBlockOptin;
// the device heap of cudaLimitMallocHeapSize bytes behind malloc in kernels; sticky errors after a
// fault until cudaDeviceReset. Plain CUDA: the same program runs on a GPU.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

// Writes and reads back every byte of its dynamic shared memory.
__global__ void fill_shared(unsigned bytes, int* ok) {
  extern __shared__ unsigned char buffer[];
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) buffer[i] = static_cast<unsigned char>(i * 7);
  __syncthreads();
  int good = 1;
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) good &= buffer[i] == static_cast<unsigned char>(i * 7);
  if (!good) atomicExch(ok, 0);
}

__global__ void plain_dynamic(int* ok) {
  extern __shared__ int words[];
  words[threadIdx.x] = 1;
  *ok = words[0];
}

__global__ void allocate(size_t bytes, int* got) {
  void* p = malloc(bytes);
  *got = p != nullptr;
  if (p != nullptr) {
    static_cast<char*>(p)[bytes - 1] = 1;  // the whole block is usable
    free(p);
  }
}

__global__ void allocate_many(int count, size_t bytes, void** out) {
  for (int i = 0; i < count; ++i) out[i] = malloc(bytes);
}

__global__ void release_many(int count, void** in) {
  for (int i = 0; i < count; ++i) free(in[i]);
}

__global__ void write_null() { *static_cast<volatile int*>(nullptr) = 1; }
__global__ void noop() {}

int main() {
  cudaDeviceProp prop;
  CHECK_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  CHECK_EQ(prop.sharedMemPerBlock, size_t{48 * 1024});
  CHECK(prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock);
  int optin_attribute = 0;
  CHECK_EQ(cudaDeviceGetAttribute(&optin_attribute, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
  CHECK_EQ(static_cast<size_t>(optin_attribute), prop.sharedMemPerBlockOptin);

  int* ok = nullptr;
  CHECK_EQ(cudaMallocManaged(&ok, sizeof(int)), cudaSuccess);

  // Past 48 KiB without opting in: refused.
  const unsigned big = 64 * 1024;
  fill_shared<<<2, 128, big>>>(big, ok);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  // Opted in: 64 KiB runs, every byte usable; the attribute reads back.
  CHECK_EQ(cudaFuncSetAttribute(fill_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, big), cudaSuccess);
  cudaFuncAttributes attributes;
  CHECK_EQ(cudaFuncGetAttributes(&attributes, fill_shared), cudaSuccess);
  CHECK_EQ(attributes.maxDynamicSharedSizeBytes, static_cast<int>(big));
  *ok = 1;
  fill_shared<<<2, 128, big>>>(big, ok);
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*ok, 1);
  // Beyond what it opted into, and beyond the device's opt-in maximum: refused.
  fill_shared<<<1, 128, big + 1>>>(big + 1, ok);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(cudaFuncSetAttribute(fill_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(prop.sharedMemPerBlockOptin) + 1),
           cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  // The whole opt-in maximum.
  const unsigned most = static_cast<unsigned>(prop.sharedMemPerBlockOptin);
  CHECK_EQ(cudaFuncSetAttribute(fill_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(most)),
           cudaSuccess);
  fill_shared<<<1, 256, most>>>(most, ok);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*ok, 1);
  // Another kernel keeps the default.
  plain_dynamic<<<1, 32, 48 * 1024>>>(ok);
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  plain_dynamic<<<1, 32, 48 * 1024 + 4>>>(ok);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  // Something that is not a kernel.
  int host_int = 0;
  CHECK_EQ(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&host_int)),
           cudaErrorInvalidResourceHandle);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

  // The device heap: 8 MiB by default, settable before a kernel uses it.
  size_t heap = 0;
  CHECK_EQ(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
  CHECK_EQ(heap, size_t{8} << 20);
  CHECK_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{1} << 20), cudaSuccess);
  CHECK_EQ(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
  CHECK_EQ(heap, size_t{1} << 20);
  allocate<<<1, 1>>>(size_t{512} << 10, ok);  // half the heap
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*ok, 1);
  allocate<<<1, 1>>>(size_t{2} << 20, ok);  // past it: null, no fault
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*ok, 0);
  // Live blocks count: 3 of 400 KiB fit 1 MiB twice, not three times.
  void** blocks = nullptr;
  CHECK_EQ(cudaMallocManaged(&blocks, 3 * sizeof(void*)), cudaSuccess);
  allocate_many<<<1, 1>>>(3, size_t{400} << 10, blocks);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(blocks[0] != nullptr && blocks[1] != nullptr && blocks[2] == nullptr);
  release_many<<<1, 1>>>(3, blocks);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  allocate<<<1, 1>>>(size_t{900} << 10, ok);  // freed: room again
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*ok, 1);
  // A kernel has used the heap: its size is fixed.
  CHECK_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{16} << 20), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
  CHECK_EQ(heap, size_t{1} << 20);

  // Sticky errors: after a fault every call that uses the device answers its code, until reset.
  {
    stderr_capture capture;
    write_null<<<1, 1>>>();
    CHECK_EQ(cudaGetLastError(), cudaSuccess);  // not known before a synchronisation
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
    CHECK_EQ(cudaGetLastError(), cudaErrorIllegalAddress);  // not cleared
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorIllegalAddress);
    void* p = nullptr;
    CHECK_EQ(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    CHECK_EQ(cudaMemset(ok, 0, sizeof(int)), cudaErrorIllegalAddress);
    CHECK_EQ(cudaMemcpy(&host_int, ok, sizeof(int), cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    noop<<<1, 1>>>();
    CHECK_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
    CHECK_EQ(cudaStreamSynchronize(nullptr), cudaErrorIllegalAddress);
    CHECK(capture.text().find("illegal memory access") != std::string::npos);
  }
  CHECK_EQ(cudaDeviceReset(), cudaSuccess);
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  void* p = nullptr;
  CHECK_EQ(cudaMalloc(&p, 16), cudaSuccess);
  noop<<<1, 1>>>();
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  // The reset made the heap settable again.
  CHECK_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{16} << 20), cudaSuccess);
  CHECK_EQ(cudaFree(p), cudaSuccess);

  if (failures == 0) std::printf("all checks passed\n");
  return failures;
}
