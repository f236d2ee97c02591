// SPDX-License-Identifier: MIT
// Device management (the one simulated device, its attributes, limits and settings), peer access,
// and the version and profiler calls.
#include "capture.hpp"
#include "device.hpp"
#include "device_heap.hpp"
#include "dynamic_parallelism.hpp"
#include "report_writer.hpp"
#include "runtime_errors.hpp"
#include "runtime_streams.hpp"
#include "streams.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

using cusim::sim::fail;
using cusim::sim::greatest_priority;
using cusim::sim::least_priority;

namespace {
/// What cudaSetDeviceFlags, cudaDeviceSetLimit and cudaDeviceSet*Config keep.
struct device_settings {
  std::mutex mutex;
  unsigned flags = cudaDeviceMapHost;  // mapped pinned memory is always on with unified addressing
  // Indexed by cudaLimit; cudaLimitMallocHeapSize's is the device heap's (device_heap.cpp).
  std::size_t limits[7] = {1024, 1 << 20, 0, 2, 2048, 64, 0};
  cudaFuncCache cache = cudaFuncCachePreferNone;
  cudaSharedMemConfig shared = cudaSharedMemBankSizeFourByte;
};
device_settings& settings() {
  static device_settings s;
  return s;
}
}  // namespace

cudaError_t cudaDeviceSynchronize() {
  if (cusim::sim::in_kernel()) cusim::sim::refuse_in_kernel("cudaDeviceSynchronize");  // removed in CUDA 12
  if (cudaError_t e = cusim::sim::unsafe_call_during_capture(); e != cudaSuccess) return fail(e);
  cusim::sim::wait_for(nullptr);
  return cusim::sim::fault_code(nullptr);
}
cudaError_t cudaDeviceReset() {
  cusim::sim::wait_for(nullptr);
  cusim::sim::write_report();  // CUSIM_REPORT: what ran until now
  cusim::sim::clear_stream_faults();
  cusim::sim::reset_device_heap();
  cusim::sim::reset_errors();
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  *prop = cusim::sim::device_properties();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  const auto i = [](std::size_t v) { return static_cast<int>(std::min<std::size_t>(v, 0x7fffffff)); };
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = i(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = i(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = i(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrTextureAlignment: *value = i(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrSurfaceAlignment: *value = i(p.surfaceAlignment); break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrTexturePitchAlignment: *value = i(p.texturePitchAlignment); break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = i(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = i(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCanFlushRemoteWrites: *value = 0; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = p.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = i(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSparseCudaArraySupported: *value = p.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *value = p.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *value = p.gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *value = static_cast<int>(p.gpuDirectRDMAFlushWritesOptions); break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = p.gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *value = static_cast<int>(p.memoryPoolSupportedHandleTypes); break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *value = p.deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: *value = p.ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: *value = 1; break;
    case cudaDevAttrNumaConfig: *value = p.deviceNumaConfig; break;
    case cudaDevAttrNumaId: *value = p.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: *value = p.mpsEnabled; break;
    case cudaDevAttrHostNumaId: *value = p.hostNumaId; break;
    case cudaDevAttrGpuPciDeviceId: *value = static_cast<int>(p.gpuPciDeviceID); break;
    case cudaDevAttrGpuPciSubsystemId: *value = static_cast<int>(p.gpuPciSubsystemID); break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *value = p.hostNumaMultinodeIpcSupported; break;
    case cudaDevAttrMaxTexture1DWidth:
    case cudaDevAttrMaxTexture2DWidth:
    case cudaDevAttrMaxTexture2DHeight:
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth:
    case cudaDevAttrMaxTexture2DLayeredWidth:
    case cudaDevAttrMaxTexture2DLayeredHeight:
    case cudaDevAttrMaxTexture2DLayeredLayers:
    case cudaDevAttrMaxTexture1DLayeredWidth:
    case cudaDevAttrMaxTexture1DLayeredLayers:
    case cudaDevAttrMaxTexture2DGatherWidth:
    case cudaDevAttrMaxTexture2DGatherHeight:
    case cudaDevAttrMaxTexture3DWidthAlt:
    case cudaDevAttrMaxTexture3DHeightAlt:
    case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrMaxTextureCubemapWidth:
    case cudaDevAttrMaxTextureCubemapLayeredWidth:
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
    case cudaDevAttrMaxSurface1DWidth:
    case cudaDevAttrMaxSurface2DWidth:
    case cudaDevAttrMaxSurface2DHeight:
    case cudaDevAttrMaxSurface3DWidth:
    case cudaDevAttrMaxSurface3DHeight:
    case cudaDevAttrMaxSurface3DDepth:
    case cudaDevAttrMaxSurface1DLayeredWidth:
    case cudaDevAttrMaxSurface1DLayeredLayers:
    case cudaDevAttrMaxSurface2DLayeredWidth:
    case cudaDevAttrMaxSurface2DLayeredHeight:
    case cudaDevAttrMaxSurface2DLayeredLayers:
    case cudaDevAttrMaxSurfaceCubemapWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    case cudaDevAttrMaxTexture1DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearHeight:
    case cudaDevAttrMaxTexture2DLinearPitch:
    case cudaDevAttrMaxTexture2DMipmappedWidth:
    case cudaDevAttrMaxTexture2DMipmappedHeight:
    case cudaDevAttrMaxTexture1DMipmappedWidth:
      *value = 0;  // textures and surfaces are not simulated
      break;
    case cudaDevAttrReserved92:
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
    case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrHostNumaMemoryPoolsSupported:
    case cudaDevAttrHostMemoryPoolsSupported:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *value = 0; break;
    default: return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return fail(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

cudaError_t cudaSetDeviceFlags(unsigned flags) {
  const unsigned schedule = flags & cudaDeviceScheduleMask;
  if ((flags & ~cudaDeviceMask) != 0 ||
      (schedule != cudaDeviceScheduleAuto && schedule != cudaDeviceScheduleSpin && schedule != cudaDeviceScheduleYield &&
       schedule != cudaDeviceScheduleBlockingSync))
    return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().flags = flags | cudaDeviceMapHost;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (flags == nullptr) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  *flags = settings().flags;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return fail(cudaErrorInvalidValue);
  *device = 0;  // the only one
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  if (limit == cudaLimitMallocHeapSize)
    return cusim::sim::set_device_heap_limit(value) ? cudaSuccess : fail(cudaErrorInvalidValue);
  if (limit == cudaLimitMaxL2FetchGranularity && (value > 128 || (value & (value - 1)) != 0))
    return fail(cudaErrorInvalidValue);
  if (limit == cudaLimitPersistingL2CacheSize) value = std::min<std::size_t>(value, p.persistingL2CacheMaxSize);
  if (limit == cudaLimitDevRuntimePendingLaunchCount) cusim::sim::set_pending_launch_limit(value);
  std::lock_guard lock(settings().mutex);
  settings().limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
  if (limit == cudaLimitMallocHeapSize) {
    *value = cusim::sim::device_heap_limit();
    return cudaSuccess;
  }
  std::lock_guard lock(settings().mutex);
  *value = settings().limits[limit];
  return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (can_access == nullptr) return fail(cudaErrorInvalidValue);
  if (device != 0 || peer_device != 0) return fail(cudaErrorInvalidDevice);
  *can_access = 0;  // a device is not its own peer
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned flags) {
  if (flags != 0) return fail(cudaErrorInvalidValue);
  return fail(cudaErrorInvalidDevice);  // device 0 cannot be its own peer; there is no other
}
cudaError_t cudaDeviceDisablePeerAccess(int) { return fail(cudaErrorInvalidDevice); }
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src_device, int dst_device) {
  if (value == nullptr || attr < cudaDevP2PAttrPerformanceRank || attr > cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
    return fail(cudaErrorInvalidValue);
  (void)src_device, (void)dst_device;
  return fail(cudaErrorInvalidDevice);  // a link needs two devices: device 0 with itself is none
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = least_priority;
  if (greatest != nullptr) *greatest = greatest_priority;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().cache = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  *config = settings().cache;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) return fail(cudaErrorInvalidValue);
  std::lock_guard lock(settings().mutex);
  settings().shared = config;  // banks stay 4 bytes wide, as on every current GPU
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return fail(cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int length, int device) {
  if (bus_id == nullptr || length <= 0) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  std::snprintf(bus_id, static_cast<std::size_t>(length), "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }
cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }

// CUDA 12's deprecated spellings (defining them does not warn; calling them does).
cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value) { return cudaDeviceSetLimit(limit, value); }
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit) { return cudaDeviceGetLimit(value, limit); }
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config) { return cudaDeviceGetCacheConfig(config); }
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config) { return cudaDeviceSetCacheConfig(config); }
cudaError_t cudaSetDoubleForDevice(double*) { return cudaSuccess; }
cudaError_t cudaSetDoubleForHost(double*) { return cudaSuccess; }
