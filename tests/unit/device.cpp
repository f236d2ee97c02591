// SPDX-License-Identifier: MIT
// device: the simulated device profiles (the real GPUs' figures) and the launch limits.
#include "device.hpp"

#include <doctest/doctest.h>

#include <string>

using cusim::sim::device_profile;
using cusim::sim::properties_of;

TEST_CASE("each profile has its GPU's compute capability, multiprocessors and shared memory per SM") {
  const cudaDeviceProp a100 = properties_of(device_profile::a100);
  CHECK(std::string(a100.name) == "cusim simulated NVIDIA A100-SXM4-40GB (sm_80)");
  CHECK((a100.major == 8 && a100.minor == 0 && a100.multiProcessorCount == 108));
  CHECK(a100.sharedMemPerMultiprocessor == 164 * 1024);
  const cudaDeviceProp h100 = properties_of(device_profile::h100);
  CHECK((h100.major == 9 && h100.multiProcessorCount == 132));
  const cudaDeviceProp t4 = properties_of(device_profile::t4);
  CHECK((t4.major == 7 && t4.minor == 5 && t4.maxThreadsPerMultiProcessor == 1024 && t4.maxBlocksPerMultiProcessor == 16));
  for (device_profile p : {device_profile::a100, device_profile::h100, device_profile::v100, device_profile::t4}) {
    const cudaDeviceProp d = properties_of(p);
    CHECK(d.warpSize == 32);
    CHECK(d.maxThreadsPerBlock == 1024);
    CHECK(d.sharedMemPerBlock == 48 * 1024);
  }
}

TEST_CASE("occupancy per multiprocessor is limited by threads, blocks and shared memory") {
  // The default profile (A100): 2048 threads and 32 blocks per SM, 164 KiB of shared memory.
  CHECK(cusim::sim::max_blocks_per_multiprocessor(1024, 0) == 2);
  CHECK(cusim::sim::max_blocks_per_multiprocessor(32, 0) == 32);
  CHECK(cusim::sim::max_blocks_per_multiprocessor(128, 48 * 1024) == 3);
  CHECK(cusim::sim::max_blocks_per_multiprocessor(100, 0) == 16);  // 4 warps of 32 lanes each
}

TEST_CASE("a launch is validated against the limits and the kernel's known static shared memory") {
  cusim::sim::kernel_info k;
  CHECK_NOTHROW(cusim::sim::validate_launch({dim3(1), dim3(1024)}, k));
  CHECK_THROWS_AS(cusim::sim::validate_launch({dim3(1), dim3(33, 32)}, k), cusim::cuda_error);
  CHECK_NOTHROW(cusim::sim::validate_launch({dim3(1), dim3(1), 40 * 1024}, k));
  k.note_static_shared(10 * 1024);
  k.note_static_shared(4 * 1024);  // the most any block bound is kept
  CHECK(k.static_shared_bytes == 10 * 1024);
  try {
    cusim::sim::validate_launch({dim3(1), dim3(1), 40 * 1024}, k);
    FAIL("expected a rejection");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorInvalidValue);
  }
}
