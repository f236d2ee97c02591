// SPDX-License-Identifier: MIT
// Simulated device properties and launch validation.
#include "device.hpp"

#include "diagnostics.hpp"
#include "settings.hpp"
#include "shared_memory.hpp"
#include "streams.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cusim::sim {

namespace {

/// What differs between the profiles: the real GPU's figures (CUDA's deviceQuery for each).
struct profile {
  const char* name;
  int major, minor;
  int multiprocessors;
  std::size_t global_gib;
  int shared_per_multiprocessor_kib;
  int shared_per_block_optin_kib;  // cudaFuncAttributeMaxDynamicSharedMemorySize's ceiling
  int threads_per_multiprocessor;
  int blocks_per_multiprocessor;
  int clock_khz, memory_clock_khz, bus_width;
  int l2_mib;
};

profile profile_of(device_profile p) {
  switch (p) {
    case device_profile::h100: return {"NVIDIA H100 80GB HBM3", 9, 0, 132, 80, 228, 227, 2048, 32, 1980000, 2619000, 5120, 50};
    case device_profile::v100: return {"Tesla V100-SXM2-16GB", 7, 0, 80, 16, 96, 96, 2048, 32, 1530000, 877000, 4096, 6};
    case device_profile::t4: return {"Tesla T4", 7, 5, 40, 16, 64, 64, 1024, 16, 1590000, 5001000, 256, 4};
    case device_profile::a100: break;
  }
  return {"NVIDIA A100-SXM4-40GB", 8, 0, 108, 40, 164, 163, 2048, 32, 1410000, 1215000, 5120, 40};
}

}  // namespace

const cudaDeviceProp& device_properties() {
  static const cudaDeviceProp prop = properties_of(simulated_device());
  return prop;
}

cudaDeviceProp properties_of(device_profile which) {
  const profile f = profile_of(which);
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "cusim simulated %s (sm_%d%d)", f.name, f.major, f.minor);
  p.totalGlobalMem = f.global_gib << 30;
  // 48 KiB per block, more for a kernel given it with cudaFuncAttributeMaxDynamicSharedMemorySize.
  p.sharedMemPerBlock = shared_memory::limit_bytes;
  p.sharedMemPerBlockOptin = static_cast<std::size_t>(f.shared_per_block_optin_kib) * 1024;
  p.sharedMemPerMultiprocessor = static_cast<std::size_t>(f.shared_per_multiprocessor_kib) * 1024;
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
  p.clockRate = f.clock_khz;
  p.totalConstMem = 64 * 1024;
  p.major = f.major;
  p.minor = f.minor;
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = f.multiprocessors;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 2;
  p.unifiedAddressing = 1;
  p.memoryClockRate = f.memory_clock_khz;
  p.memoryBusWidth = f.bus_width;
  p.l2CacheSize = f.l2_mib * 1024 * 1024;
  p.maxThreadsPerMultiProcessor = f.threads_per_multiprocessor;
  p.managedMemory = 1;
  p.cooperativeLaunch = 1;
  p.maxBlocksPerMultiProcessor = f.blocks_per_multiprocessor;
  // What the rest of CUDA 13's properties say of the real GPU, where the simulator has it too.
  std::snprintf(p.uuid.bytes, sizeof p.uuid.bytes, "cusim-sm_%d%d", f.major, f.minor);
  p.texturePitchAlignment = 32;
  p.surfaceAlignment = 512;
  p.persistingL2CacheMaxSize = f.major >= 8 ? p.l2CacheSize * 3 / 4 : 0;
  p.accessPolicyMaxWindowSize = f.major >= 8 ? 128 * 1024 * 1024 : 0;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.hostNativeAtomicSupported = 0;
  p.concurrentManagedAccess = 1;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.directManagedMemAccessFromHost = 0;
  p.hostRegisterSupported = 1;
  p.hostRegisterReadOnlySupported = 1;
  p.memoryPoolsSupported = 1;
  p.memoryPoolSupportedHandleTypes = 0;
  p.clusterLaunch = 0;  // no thread block clusters on the simulator
  p.deviceNumaId = -1;
  p.hostNumaId = -1;
  p.gpuPciDeviceID = 0;
  p.computeMode = 0;  // cudaComputeModeDefault
  p.maxTexture1DLinear = 0;  // as cudaDevAttrMaxTexture1DLinearWidth answers, with the other texture limits
  p.singleToDoublePrecisionPerfRatio = 2;  // what cudaDevAttrSingleToDoublePrecisionPerfRatio says
  p.cooperativeMultiDeviceLaunch = 0;      // cudaLaunchCooperativeKernelMultiDevice is not simulated
  return p;
}

namespace {
/// A cooperative launch must fit on the device at once.
void validate_cooperative_launch(const launch_config& c) {
  const cudaDeviceProp& p = device_properties();
  const unsigned threads = c.block.x * c.block.y * c.block.z;
  const int per_sm = max_blocks_per_multiprocessor(threads, c.shared_bytes);
  const unsigned long long blocks = 1ull * c.grid.x * c.grid.y * c.grid.z;
  const unsigned long long fits = 1ull * per_sm * p.multiProcessorCount;
  if (blocks > fits)
    throw launch_rejection(cudaErrorCooperativeLaunchTooLarge,
                           cooperative_residency_reason(blocks, threads, fits, per_sm, p.multiProcessorCount));
}
}  // namespace

// The C++ API reports by exception and, like its CUDA backend (which consumes the launch
// error), leaves no last error behind. Every bad configuration is cudaErrorInvalidValue, as CUDA
// 13 answers on an H100 (gpu-truth/semantics.h100.txt, "launch configurations").
void validate_launch(const launch_config& c, const kernel_info& kernel, bool cooperative) {
  const cudaDeviceProp& p = device_properties();
  const dim3 b = c.block, g = c.grid;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (b.x == 0 || b.y == 0 || b.z == 0)
    throw launch_rejection(cudaErrorInvalidValue, zero_dimension_reason("block", b));
  if (b.x > unsigned(p.maxThreadsDim[0]) || b.y > unsigned(p.maxThreadsDim[1]) || b.z > unsigned(p.maxThreadsDim[2]))
    throw launch_rejection(cudaErrorInvalidValue, block_axis_limit_reason(b, p.maxThreadsDim));
  if (threads > unsigned(p.maxThreadsPerBlock))
    throw launch_rejection(cudaErrorInvalidValue, block_thread_limit_reason(b, threads, p.maxThreadsPerBlock));
  if (g.x == 0 || g.y == 0 || g.z == 0)
    throw launch_rejection(cudaErrorInvalidValue, zero_dimension_reason("grid", g));
  if (g.x > unsigned(p.maxGridSize[0]) || g.y > unsigned(p.maxGridSize[1]) || g.z > unsigned(p.maxGridSize[2]))
    throw launch_rejection(cudaErrorInvalidValue, grid_limit_reason(g, p.maxGridSize));
  const long long opted = kernel.max_dynamic_shared.load(std::memory_order_relaxed);
  const std::size_t dynamic_limit = opted >= 0 ? static_cast<std::size_t>(opted) : p.sharedMemPerBlock;
  if (c.shared_bytes > dynamic_limit)
    throw launch_rejection(cudaErrorInvalidValue, dynamic_shared_limit_reason(c.shared_bytes, dynamic_limit));
  if (const std::size_t fixed = kernel.static_shared_bytes.load(std::memory_order_relaxed),
      limit = block_shared_limit(kernel);
      fixed + c.shared_bytes > limit)
    throw launch_rejection(cudaErrorInvalidValue, shared_limit_reason(fixed, c.shared_bytes, limit));
  if (!stream_is_valid(c.stream)) throw launch_rejection(cudaErrorInvalidResourceHandle, dead_stream_reason());
  if (cooperative) validate_cooperative_launch(c);
}

std::size_t block_shared_limit(const kernel_info& kernel) {
  const cudaDeviceProp& p = device_properties();
  return kernel.max_dynamic_shared.load(std::memory_order_relaxed) > static_cast<long long>(p.sharedMemPerBlock)
             ? p.sharedMemPerBlockOptin
             : p.sharedMemPerBlock;
}

int max_blocks_per_multiprocessor(unsigned threads, std::size_t shared_bytes) {
  const cudaDeviceProp& p = device_properties();
  const unsigned warps = (threads + 31) / 32;
  int blocks = std::min(p.maxBlocksPerMultiProcessor, static_cast<int>(p.maxThreadsPerMultiProcessor / (warps * 32)));
  if (shared_bytes > 0) blocks = std::min(blocks, static_cast<int>(p.sharedMemPerMultiprocessor / shared_bytes));
  return blocks;
}

}  // namespace cusim::sim
