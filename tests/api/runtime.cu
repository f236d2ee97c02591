// SPDX-License-Identifier: MIT
// The CUDA runtime subset: return codes, the last error, memory, symbols, streams, events.
#include "test_support.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

TEST_CASE("cudaMalloc, cudaMemcpy, cudaMemset and cudaFree round-trip data") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  REQUIRE(d != nullptr);
  CHECK(cudaMemset(d, 0, 64 * sizeof(int)) == cudaSuccess);
  std::vector<int> h(64, 7);
  CHECK(cudaMemcpy(h.data(), d, 64 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int v : h) CHECK(v == 0);
  for (int i = 0; i < 64; ++i) h[i] = i;
  CHECK(cudaMemcpy(d, h.data(), 64 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  int* d2 = nullptr;
  REQUIRE(cudaMalloc(&d2, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(d2, d, 64 * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
  std::vector<int> back(64);
  CHECK(cudaMemcpy(back.data(), d2, 64 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == h);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(d2) == cudaSuccess);
  CHECK(cudaFree(nullptr) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("bad runtime arguments return CUDA's codes and set the last error") {
  CHECK(cudaMalloc(static_cast<void**>(nullptr), 16) == cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaSetDevice(5) == cudaErrorInvalidDevice);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 3) == cudaErrorInvalidDevice);
  CHECK(cudaStreamDestroy(nullptr) == cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
}

TEST_CASE("copies that overrun or miss a simulator allocation are rejected" * doctest::skip(!on_simulator)) {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16 * sizeof(int)) == cudaSuccess);
  std::vector<int> h(32);
  CHECK(cudaMemcpy(d, h.data(), 32 * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(h.data(), h.data() + 16, 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaMemset(h.data(), 0, 4) == cudaErrorInvalidValue);
  CHECK(cudaFree(h.data()) == cudaErrorInvalidValue);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(d) == cudaErrorInvalidValue);  // double free
  CHECK(cudaGetErrorString(cudaErrorInvalidValue) == std::string("invalid argument"));
  CHECK(cudaGetErrorName(cudaErrorInvalidValue) == std::string("cudaErrorInvalidValue"));
  (void)cudaGetLastError();
}

TEST_CASE("the simulated device reports sm_80 limits" * doctest::skip(!on_simulator)) {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.maxThreadsPerBlock == 1024);
  CHECK(prop.warpSize == 32);
  CHECK(prop.sharedMemPerBlock == 48 * 1024);
  CHECK(prop.maxGridSize[1] == 65535);
  if (std::getenv("CUSIM_DEVICE") == nullptr) {
    CHECK(prop.major == 8);
    CHECK(std::string(prop.name) == "cusim simulated NVIDIA A100-SXM4-40GB (sm_80)");
  }
}

__global__ void resident() {}

// Run by its own CTest entry with CUSIM_DEVICE=x100, which also checks the one-line warning.
TEST_CASE("an unknown CUSIM_DEVICE is reported and the A100 profile used" *
          doctest::skip(!on_simulator || std::getenv("CUSIM_DEVICE") == nullptr ||
                        std::string(std::getenv("CUSIM_DEVICE")) != "x100")) {
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(std::string(prop.name) == "cusim simulated NVIDIA A100-SXM4-40GB (sm_80)");
  CHECK(prop.multiProcessorCount == 108);
}

// Run by its own CTest entry with CUSIM_DEVICE=t4 (the profile is read once per process).
TEST_CASE("CUSIM_DEVICE=t4 gives a T4's properties and cooperative limits" *
          doctest::skip(!on_simulator || std::getenv("CUSIM_DEVICE") == nullptr ||
                        std::string(std::getenv("CUSIM_DEVICE")) != "t4")) {
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(std::string(prop.name) == "cusim simulated Tesla T4 (sm_75)");
  CHECK(prop.major == 7);
  CHECK(prop.minor == 5);
  CHECK(prop.multiProcessorCount == 40);
  CHECK(prop.maxThreadsPerMultiProcessor == 1024);
  cusim::launch_cooperative(resident, cusim::launch_config{40, 1024});  // one 1024-thread block per SM
  try {
    cusim::launch_cooperative(resident, cusim::launch_config{41, 1024});
    FAIL("a T4 holds 40 blocks of 1024 threads");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(std::string(e.what()).find("exceed the 40 (1 per multiprocessor x 40 multiprocessors)") != std::string::npos);
  }
}

__device__ int device_counter;
__constant__ float coefficients[4];

__global__ void use_symbols(cusim::span<float> out) {
  out[threadIdx.x] = coefficients[threadIdx.x] * 2;
  if (threadIdx.x == 0) device_counter += 5;
}

TEST_CASE("cudaMemcpyToSymbol and cudaMemcpyFromSymbol reach __constant__ and __device__ variables") {
  const float c[4] = {1, 2, 3, 4};
  REQUIRE(cudaMemcpyToSymbol(coefficients, c, sizeof c) == cudaSuccess);
  const int zero = 10;
  REQUIRE(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero) == cudaSuccess);
  cusim::device_array<float> out(4);
  cusim::launch(use_symbols, 1, 4, out);
  CHECK(out.copy_to_host() == std::vector<float>{2, 4, 6, 8});
  int counter = 0;
  REQUIRE(cudaMemcpyFromSymbol(&counter, device_counter, sizeof counter) == cudaSuccess);
  CHECK(counter == 15);
  CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c, 8) == cudaErrorInvalidValue);  // past the end
  (void)cudaGetLastError();
}

__global__ void triple(cusim::span<float> s) { s[threadIdx.x] *= 3; }
__global__ void add_one(cusim::span<int> v) { v[cusim::grid<1>()] += 1; }

TEST_CASE("managed and pinned memory are usable from host and kernels") {
  float* m = nullptr;
  float* p = nullptr;
  REQUIRE(cudaMallocManaged(&m, 8 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMallocHost(&p, 8 * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < 8; ++i) m[i] = static_cast<float>(i);
  cusim::launch(triple, 1, 8, cusim::span<float>(m, 8));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(p, m, 8 * sizeof(float), cudaMemcpyDefault) == cudaSuccess);
  for (int i = 0; i < 8; ++i) CHECK(p[i] == 3.0f * i);
  CHECK(cudaMemcpy(m, p, 16 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // past m's end
  CHECK(cudaFree(p) == cudaErrorInvalidValue);      // pinned memory is freed with cudaFreeHost
  CHECK(cudaFreeHost(m) == cudaErrorInvalidValue);  // managed memory with cudaFree
  (void)cudaGetLastError();
  CHECK(cudaFree(m) == cudaSuccess);
  CHECK(cudaFreeHost(p) == cudaSuccess);
}

TEST_CASE("streams and events keep CUDA's API: ordering, elapsed time, bad handles") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  cudaEvent_t start, stop;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // never recorded
  (void)cudaGetLastError();
  std::vector<int> h(1000, 1);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, h.size() * sizeof(int)) == cudaSuccess);
  CHECK(cudaEventRecord(start, s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice, s) == cudaSuccess);
  cusim::launch(add_one, cusim::launch_config{dim3(4), dim3(250), 0, s},
                cusim::span<int>(d, h.size()));
  CHECK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaEventRecord(stop, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 0.0f);
  for (int v : h) CHECK(v == 2);
  CHECK(cudaStreamWaitEvent(s, stop, 0) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("launching on a destroyed stream is rejected" * doctest::skip(!on_simulator)) {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
  cusim::device_array<int> out(1);
  try {
    cusim::launch(add_one, cusim::launch_config{dim3(1), dim3(1), 0, s}, out);
    FAIL("no cuda_error");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorInvalidResourceHandle);
  }
  (void)cudaGetLastError();
}

TEST_CASE("device_array owns, shapes and copies") {
  cusim::device_array<double, 2> a(3, 4);
  CHECK(a.size() == 12);
  CHECK(a.extent(0) == 3);
  CHECK(a.extent(1) == 4);
  std::vector<double> h(12);
  for (int i = 0; i < 12; ++i) h[i] = i * 0.5;
  a.copy_from_host(h);
  auto b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(b.copy_to_host() == h);
  auto like = cusim::device_array_like(b);
  CHECK(like.shape() == b.shape());
  std::vector<double> wrong(5);
  CHECK_THROWS_WITH_AS(b.copy_to_host(wrong),
                       "cusim::device_array::copy_to_host: host range has 5 elements, the array has 12",
                       cusim::cuda_error);
  auto empty = cusim::to_device(std::vector<int>{});
  CHECK(empty.size() == 0);
  CHECK(empty.copy_to_host().empty());
}
