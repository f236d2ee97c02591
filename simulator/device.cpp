// SPDX-License-Identifier: MIT
// Simulated device properties and launch validation.
#include "device.hpp"

#include "shared_memory.hpp"
#include "streams.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace cusim::sim {

const cudaDeviceProp& device_properties() {
  static const cudaDeviceProp prop = [] {
    cudaDeviceProp p{};
    std::strncpy(p.name, "cusim simulated GPU (sm_80 limits)", sizeof p.name - 1);
    p.totalGlobalMem = std::size_t{40} << 30;
    p.sharedMemPerBlock = shared_memory::limit_bytes;
    p.sharedMemPerBlockOptin = shared_memory::limit_bytes;
    p.sharedMemPerMultiprocessor = 164 * 1024;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.memPitch = ~std::size_t{0} >> 1;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024;
    p.maxThreadsDim[1] = 1024;
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 0x7fffffff;
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = 65535;
    p.clockRate = 1410000;
    p.totalConstMem = 64 * 1024;
    p.major = 8;
    p.minor = 0;
    p.textureAlignment = 512;
    p.deviceOverlap = 1;
    p.multiProcessorCount = 108;
    p.canMapHostMemory = 1;
    p.concurrentKernels = 1;
    p.asyncEngineCount = 2;
    p.unifiedAddressing = 1;
    p.memoryClockRate = 1215000;
    p.memoryBusWidth = 5120;
    p.l2CacheSize = 40 * 1024 * 1024;
    p.maxThreadsPerMultiProcessor = 2048;
    p.managedMemory = 1;
    p.cooperativeLaunch = 1;
    p.maxBlocksPerMultiProcessor = 32;
    return p;
  }();
  return prop;
}

namespace {
// The C++ API reports by exception and, like its CUDA backend (which consumes the launch
// error), leaves no last error behind.
[[noreturn]] void reject(cudaError_t code, const std::string& detail) {
  throw cuda_error(code, fmt::format("cusim::launch: {} ({}): {}", cudaGetErrorString(code), cudaGetErrorName(code),
                                     detail));
}
}  // namespace

void validate_launch(const launch_config& c) {
  const cudaDeviceProp& p = device_properties();
  const dim3 b = c.block, g = c.grid;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (b.x == 0 || b.y == 0 || b.z == 0)
    reject(cudaErrorInvalidConfiguration, fmt::format("block dimensions [{}, {}, {}] contain a zero", b.x, b.y, b.z));
  if (b.x > unsigned(p.maxThreadsDim[0]) || b.y > unsigned(p.maxThreadsDim[1]) || b.z > unsigned(p.maxThreadsDim[2]))
    reject(cudaErrorInvalidConfiguration,
           fmt::format("block dimensions [{}, {}, {}] exceed the per-axis limits [{}, {}, {}]", b.x, b.y, b.z,
                       p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]));
  if (threads > unsigned(p.maxThreadsPerBlock))
    reject(cudaErrorInvalidConfiguration,
           fmt::format("block dimensions [{}, {}, {}] make {} threads, more than the {} threads per block of the "
                       "simulated device",
                       b.x, b.y, b.z, threads, p.maxThreadsPerBlock));
  if (g.x == 0 || g.y == 0 || g.z == 0)
    reject(cudaErrorInvalidConfiguration, fmt::format("grid dimensions [{}, {}, {}] contain a zero", g.x, g.y, g.z));
  if (g.x > unsigned(p.maxGridSize[0]) || g.y > unsigned(p.maxGridSize[1]) || g.z > unsigned(p.maxGridSize[2]))
    reject(cudaErrorInvalidConfiguration,
           fmt::format("grid dimensions [{}, {}, {}] exceed the limits [{}, {}, {}]", g.x, g.y, g.z, p.maxGridSize[0],
                       p.maxGridSize[1], p.maxGridSize[2]));
  if (c.shared_bytes > p.sharedMemPerBlock)
    reject(cudaErrorInvalidValue, fmt::format("{} bytes of dynamic shared memory exceed the {} bytes per block",
                                              c.shared_bytes, p.sharedMemPerBlock));
  if (!stream_is_valid(c.stream))
    reject(cudaErrorInvalidResourceHandle, "the stream is not a live cudaStream_t");
}

int max_blocks_per_multiprocessor(unsigned threads, std::size_t shared_bytes) {
  const cudaDeviceProp& p = device_properties();
  const unsigned warps = (threads + 31) / 32;
  int blocks = std::min(p.maxBlocksPerMultiProcessor, static_cast<int>(p.maxThreadsPerMultiProcessor / (warps * 32)));
  if (shared_bytes > 0) blocks = std::min(blocks, static_cast<int>(p.sharedMemPerMultiprocessor / shared_bytes));
  return blocks;
}

void validate_cooperative_launch(const launch_config& c) {
  const cudaDeviceProp& p = device_properties();
  const unsigned threads = c.block.x * c.block.y * c.block.z;
  const int per_sm = max_blocks_per_multiprocessor(threads, c.shared_bytes);
  const unsigned long long blocks = 1ull * c.grid.x * c.grid.y * c.grid.z;
  const unsigned long long fits = 1ull * per_sm * p.multiProcessorCount;
  if (blocks > fits)
    reject(cudaErrorCooperativeLaunchTooLarge,
           fmt::format("a cooperative launch needs every block resident at once: {} blocks of {} threads exceed the "
                       "{} ({} per multiprocessor x {} multiprocessors) the simulated device holds",
                       blocks, threads, fits, per_sm, p.multiProcessorCount));
}

}  // namespace cusim::sim
