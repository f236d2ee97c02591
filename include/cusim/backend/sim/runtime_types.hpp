// SPDX-License-Identifier: MIT
// The CUDA runtime's types and enums, with CUDA's names and numeric values.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/vector_types.hpp>

#include <cstddef>

// What CUDA 12 declared deprecated and CUDA 13 removed is kept, with the warning CUDA 12's
// headers gave at the call (no message of their own), unless CUDA_ENABLE_DEPRECATED is defined.
#ifndef __CUDA_DEPRECATED
#  if defined(CUDA_ENABLE_DEPRECATED)
#    define __CUDA_DEPRECATED
#  else
#    define __CUDA_DEPRECATED __attribute__((deprecated))
#  endif
#endif

enum cudaError_t : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorSyncDepthExceeded = 68,
  cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorUnsupportedLimit = 215,
  cudaErrorPeerAccessUnsupported = 217,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708,
  cudaErrorAssert = 710,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureMerge = 902,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureUnjoined = 904,
  cudaErrorStreamCaptureIsolation = 905,
  cudaErrorStreamCaptureImplicit = 906,
  cudaErrorCapturedEvent = 907,
  cudaErrorStreamCaptureWrongThread = 908,
  cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
struct CUmemPoolHandle_st;
struct cudaArray;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;
using cudaGraph_t = CUgraph_st*;
using cudaGraphNode_t = CUgraphNode_st*;
using cudaGraphExec_t = CUgraphExec_st*;
using cudaMemPool_t = CUmemPoolHandle_st*;
/// A CUDA array (cudaMallocArray, cudaMalloc3DArray: textures.hpp), defined by the simulator.
using cudaArray_t = cudaArray*;
using cudaArray_const_t = const cudaArray*;

constexpr unsigned cudaStreamDefault = 0x0;
constexpr unsigned cudaStreamNonBlocking = 0x1;
using cudaHostFn_t = void (*)(void* user_data);
#define CUDART_CB
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* user_data);
constexpr unsigned cudaEventDefault = 0x0;
constexpr unsigned cudaEventBlockingSync = 0x1;
constexpr unsigned cudaEventDisableTiming = 0x2;
constexpr unsigned cudaEventInterprocess = 0x4;
constexpr unsigned cudaEventRecordDefault = 0x0;
constexpr unsigned cudaEventRecordExternal = 0x1;
constexpr unsigned cudaEventWaitDefault = 0x0;
constexpr unsigned cudaEventWaitExternal = 0x1;
constexpr unsigned cudaMemAttachGlobal = 0x1;
constexpr unsigned cudaMemAttachHost = 0x2;
constexpr unsigned cudaMemAttachSingle = 0x4;
constexpr unsigned cudaHostAllocDefault = 0x0;
constexpr unsigned cudaHostAllocPortable = 0x1;
constexpr unsigned cudaHostAllocMapped = 0x2;
constexpr unsigned cudaHostAllocWriteCombined = 0x4;
constexpr unsigned cudaHostRegisterDefault = 0x0;
constexpr unsigned cudaHostRegisterPortable = 0x1;
constexpr unsigned cudaHostRegisterMapped = 0x2;
constexpr unsigned cudaHostRegisterIoMemory = 0x4;
constexpr unsigned cudaHostRegisterReadOnly = 0x8;
constexpr unsigned cudaDeviceScheduleAuto = 0x0;
constexpr unsigned cudaDeviceScheduleSpin = 0x1;
constexpr unsigned cudaDeviceScheduleYield = 0x2;
constexpr unsigned cudaDeviceScheduleBlockingSync = 0x4;
constexpr unsigned cudaDeviceBlockingSync = 0x4;
constexpr unsigned cudaDeviceScheduleMask = 0x7;
constexpr unsigned cudaDeviceMapHost = 0x8;
constexpr unsigned cudaDeviceLmemResizeToMax = 0x10;
constexpr unsigned cudaDeviceSyncMemops = 0x80;
constexpr unsigned cudaDeviceMask = 0xff;
constexpr unsigned cudaOccupancyDefault = 0x0;
constexpr unsigned cudaOccupancyDisableCachingOverride = 0x1;
constexpr int cudaCpuDeviceId = -1;
constexpr int cudaInvalidDeviceId = -2;

/// What cudaDeviceGetAttribute asks about (CUDA's numbering; the simulator answers every one).
enum cudaDeviceAttr : int {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMaxTexture1DWidth = 21,
  cudaDevAttrMaxTexture2DWidth = 22,
  cudaDevAttrMaxTexture2DHeight = 23,
  cudaDevAttrMaxTexture3DWidth = 24,
  cudaDevAttrMaxTexture3DHeight = 25,
  cudaDevAttrMaxTexture3DDepth = 26,
  cudaDevAttrMaxTexture2DLayeredWidth = 27,
  cudaDevAttrMaxTexture2DLayeredHeight = 28,
  cudaDevAttrMaxTexture2DLayeredLayers = 29,
  cudaDevAttrSurfaceAlignment = 30,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrMaxTexture1DLayeredWidth = 42,
  cudaDevAttrMaxTexture1DLayeredLayers = 43,
  cudaDevAttrMaxTexture2DGatherWidth = 45,
  cudaDevAttrMaxTexture2DGatherHeight = 46,
  cudaDevAttrMaxTexture3DWidthAlt = 47,
  cudaDevAttrMaxTexture3DHeightAlt = 48,
  cudaDevAttrMaxTexture3DDepthAlt = 49,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrMaxTextureCubemapWidth = 52,
  cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
  cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
  cudaDevAttrMaxSurface1DWidth = 55,
  cudaDevAttrMaxSurface2DWidth = 56,
  cudaDevAttrMaxSurface2DHeight = 57,
  cudaDevAttrMaxSurface3DWidth = 58,
  cudaDevAttrMaxSurface3DHeight = 59,
  cudaDevAttrMaxSurface3DDepth = 60,
  cudaDevAttrMaxSurface1DLayeredWidth = 61,
  cudaDevAttrMaxSurface1DLayeredLayers = 62,
  cudaDevAttrMaxSurface2DLayeredWidth = 63,
  cudaDevAttrMaxSurface2DLayeredHeight = 64,
  cudaDevAttrMaxSurface2DLayeredLayers = 65,
  cudaDevAttrMaxSurfaceCubemapWidth = 66,
  cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
  cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
  cudaDevAttrMaxTexture1DLinearWidth = 69,
  cudaDevAttrMaxTexture2DLinearWidth = 70,
  cudaDevAttrMaxTexture2DLinearHeight = 71,
  cudaDevAttrMaxTexture2DLinearPitch = 72,
  cudaDevAttrMaxTexture2DMipmappedWidth = 73,
  cudaDevAttrMaxTexture2DMipmappedHeight = 74,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxTexture1DMipmappedWidth = 77,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrReserved92 = 92,
  cudaDevAttrReserved93 = 93,
  cudaDevAttrReserved94 = 94,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrReserved96 = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCanFlushRemoteWrites = 98,
  cudaDevAttrHostRegisterSupported = 99,
  cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrSparseCudaArraySupported = 112,
  cudaDevAttrHostRegisterReadOnlySupported = 113,
  cudaDevAttrTimelineSemaphoreInteropSupported = 114,
  cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrGPUDirectRDMASupported = 116,
  cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
  cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
  cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
  cudaDevAttrClusterLaunch = 120,
  cudaDevAttrDeferredMappingCudaArraySupported = 121,
  cudaDevAttrReserved122 = 122,
  cudaDevAttrReserved123 = 123,
  cudaDevAttrReserved124 = 124,
  cudaDevAttrIpcEventSupport = 125,
  cudaDevAttrMemSyncDomainCount = 126,
  cudaDevAttrReserved127 = 127,
  cudaDevAttrReserved128 = 128,
  cudaDevAttrReserved129 = 129,
  cudaDevAttrNumaConfig = 130,
  cudaDevAttrNumaId = 131,
  cudaDevAttrReserved132 = 132,
  cudaDevAttrMpsEnabled = 133,
  cudaDevAttrHostNumaId = 134,
  cudaDevAttrD3D12CigSupported = 135,
  cudaDevAttrVulkanCigSupported = 138,
  cudaDevAttrGpuPciDeviceId = 139,
  cudaDevAttrGpuPciSubsystemId = 140,
  cudaDevAttrReserved141 = 141,
  cudaDevAttrHostNumaMemoryPoolsSupported = 142,
  cudaDevAttrHostNumaMultinodeIpcSupported = 143,
  cudaDevAttrHostMemoryPoolsSupported = 144,
  cudaDevAttrReserved145 = 145,
  cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
  cudaDevAttrMax
};
/// CUDA 12's names of attributes CUDA 13 reserved or renamed.
constexpr cudaDeviceAttr cudaDevAttrCooperativeMultiDeviceLaunch = cudaDevAttrReserved96;
constexpr cudaDeviceAttr cudaDevAttrMaxTimelineSemaphoreInteropSupported = cudaDevAttrTimelineSemaphoreInteropSupported;

/// What cudaDeviceGetP2PAttribute asks about the link between two devices.
enum cudaDeviceP2PAttr : int {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5,
};
/// What cudaDeviceGetGraphMemAttribute reports of the memory of graph allocation nodes.
enum cudaGraphMemAttributeType : int {
  cudaGraphMemAttrUsedMemCurrent = 0x0,
  cudaGraphMemAttrUsedMemHigh = 0x1,
  cudaGraphMemAttrReservedMemCurrent = 0x2,
  cudaGraphMemAttrReservedMemHigh = 0x3,
};

enum cudaComputeMode : int {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};
enum cudaLimit : int {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06,
};
enum cudaFuncCache : int {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};
/// Gone from CUDA 13 (banks are 4 bytes on every current GPU); kept for older programs.
enum cudaSharedMemConfig : int {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2,
};
enum cudaSharedCarveout : int {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxL1 = 0,
  cudaSharedmemCarveoutMaxShared = 100,
};
enum cudaFuncAttribute : int {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};

/// What cudaFuncGetAttributes reports of a kernel.
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;  ///< static shared memory, as far as the kernel's launches showed it
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

enum cudaMemoryType : int {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

enum cudaMemoryAdvise : int {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};
enum cudaMemLocationType : int {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemAllocationType : int {
  cudaMemAllocationTypeInvalid = 0x0,
  cudaMemAllocationTypePinned = 0x1,
  cudaMemAllocationTypeManaged = 0x2,
  cudaMemAllocationTypeMax = 0x7FFFFFFF,
};
enum cudaMemAllocationHandleType : int {
  cudaMemHandleTypeNone = 0x0,
  cudaMemHandleTypePosixFileDescriptor = 0x1,
  cudaMemHandleTypeWin32 = 0x2,
  cudaMemHandleTypeWin32Kmt = 0x4,
  cudaMemHandleTypeFabric = 0x8,
};
enum cudaMemAccessFlags : int {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3,
};
struct cudaMemAccessDesc {
  cudaMemLocation location;
  cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
  cudaMemAllocationType allocType;
  cudaMemAllocationHandleType handleTypes;
  cudaMemLocation location;
  void* win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
enum cudaMemPoolAttr : int {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8,
};

/// A pitched allocation (cudaMallocPitch, cudaMalloc3D): rows of `pitch` bytes of which `xsize`
/// are used, `ysize` rows per slice.
struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch;
  std::size_t xsize;
  std::size_t ysize;
};
/// Width in bytes (in elements where a CUDA array is involved), height, depth.
struct cudaExtent {
  std::size_t width;
  std::size_t height;
  std::size_t depth;
};
struct cudaPos {
  std::size_t x;
  std::size_t y;
  std::size_t z;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz, std::size_t ysz) {
  return cudaPitchedPtr{d, p, xsz, ysz};
}
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return cudaPos{x, y, z}; }
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return cudaExtent{w, h, d}; }

enum cudaAccessProperty : int {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy : int {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4,
};
/// The attributes of streams, kernel nodes and launches (cudaStreamAttrID is this type).
enum cudaLaunchAttributeID : int {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
  cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12,
  cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
};
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned x, y, z;
  } clusterDim;
  int clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  int priority;
  unsigned sharedMemCarveout;
};
using cudaStreamAttrID = cudaLaunchAttributeID;
using cudaStreamAttrValue = cudaLaunchAttributeValue;
using cudaKernelNodeAttrID = cudaLaunchAttributeID;
using cudaKernelNodeAttrValue = cudaLaunchAttributeValue;
constexpr cudaLaunchAttributeID cudaStreamAttributeAccessPolicyWindow = cudaLaunchAttributeAccessPolicyWindow;
constexpr cudaLaunchAttributeID cudaStreamAttributeSynchronizationPolicy = cudaLaunchAttributeSynchronizationPolicy;
constexpr cudaLaunchAttributeID cudaStreamAttributeMemSyncDomainMap = cudaLaunchAttributeMemSyncDomainMap;
constexpr cudaLaunchAttributeID cudaStreamAttributeMemSyncDomain = cudaLaunchAttributeMemSyncDomain;
constexpr cudaLaunchAttributeID cudaStreamAttributePriority = cudaLaunchAttributePriority;
constexpr cudaLaunchAttributeID cudaKernelNodeAttributeAccessPolicyWindow = cudaLaunchAttributeAccessPolicyWindow;
constexpr cudaLaunchAttributeID cudaKernelNodeAttributeCooperative = cudaLaunchAttributeCooperative;
constexpr cudaLaunchAttributeID cudaKernelNodeAttributePriority = cudaLaunchAttributePriority;

enum cudaStreamCaptureMode : int {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamUpdateCaptureDependenciesFlags : int {
  cudaStreamAddCaptureDependencies = 0x0,
  cudaStreamSetCaptureDependencies = 0x1,
};
enum cudaStreamCaptureStatus : int {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};

enum cudaGraphNodeType : int {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
  cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
  cudaGraphNodeTypeExtSemaphoreWait = 0x09,
  cudaGraphNodeTypeMemAlloc = 0x0a,
  cudaGraphNodeTypeMemFree = 0x0b,
  cudaGraphNodeTypeConditional = 0x0d,
  cudaGraphNodeTypeCount
};
enum cudaGraphExecUpdateResult : int {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8,
};
struct cudaGraphExecUpdateResultInfo {
  cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
};
enum cudaGraphInstantiateFlags : int {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8,
};
/// An edge's ports; the simulator knows only full completion (all zero).
struct cudaGraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};

/// A kernel node: `func` is the __global__ function's address, `kernelParams[i]` points at its
/// i-th argument (copied when the node is made). `extra` is not supported (must be null).
// The kernel built-ins are macros on the simulator (device_runtime.hpp): the members keep CUDA's
// names whichever header came first, and `params.gridDim` (the macro expands to
// `params.cusim_grid_dim_()`) reaches them through the member functions below.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
  dim3& cusim_grid_dim_() noexcept { return gridDim; }
  dim3& cusim_block_dim_() noexcept { return blockDim; }
};
#pragma pop_macro("blockDim")
#pragma pop_macro("gridDim")
/// Sets `height` rows of `width` elements of `elementSize` bytes (1, 2 or 4), rows `pitch` apart.
struct cudaMemsetParams {
  void* dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
/// A memory allocation node: `dptr` is set when the node is added and stays the same for every
/// launch of the graph.
struct cudaMemAllocNodeParams {
  cudaMemPoolProps poolProps;
  const cudaMemAccessDesc* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  void* dptr;
};

/// Graph conditional nodes (CUDA 12.4 on): a handle's value, set by the default at each launch
/// (cudaGraphCondAssignDefault) or by cudaGraphSetConditional in a kernel, picks the body graphs
/// that run: IF runs body 0 when non-zero (body 1, if there is one, when zero), WHILE runs body 0
/// as long as it is non-zero, SWITCH runs body n when it is n.
using cudaGraphConditionalHandle = unsigned long long;
enum cudaGraphConditionalHandleFlags : int {
  cudaGraphCondAssignDefault = 1,
};
enum cudaGraphConditionalNodeType : int {
  cudaGraphCondTypeIf = 0,
  cudaGraphCondTypeWhile = 1,
  cudaGraphCondTypeSwitch = 2,
};
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  cudaGraphConditionalNodeType type;
  unsigned size;             ///< 1 for WHILE, 1 or 2 for IF, any number from 1 for SWITCH
  cudaGraph_t* phGraph_out;  ///< set by cudaGraphAddNode: the node's `size` body graphs, owned by it
};

// The parameters of cudaGraphAddNode, one member per node type (the types the simulator adds
// that way: kernel, memcpy, memset, host, empty, allocation, free and conditional nodes).
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaKernelNodeParamsV2 {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
  dim3& cusim_grid_dim_() noexcept { return gridDim; }
  dim3& cusim_block_dim_() noexcept { return blockDim; }
};
#pragma pop_macro("blockDim")
#pragma pop_macro("gridDim")
struct cudaMemcpyNodeParams {
  int flags;
  int reserved[3];
  cudaMemcpy3DParms copyParams;
};
using cudaMemsetParamsV2 = cudaMemsetParams;
using cudaHostNodeParamsV2 = cudaHostNodeParams;
using cudaMemAllocNodeParamsV2 = cudaMemAllocNodeParams;
struct cudaMemFreeNodeParams {
  void* dptr;
};
struct cudaGraphNodeParams {
  cudaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    cudaKernelNodeParamsV2 kernel;
    cudaMemcpyNodeParams memcpy;
    cudaMemsetParamsV2 memset;
    cudaHostNodeParamsV2 host;
    cudaMemAllocNodeParamsV2 alloc;
    cudaMemFreeNodeParams free;
    cudaConditionalNodeParams conditional;
  };
  long long reserved2;
};

#ifndef CU_UUID_HAS_BEEN_DEFINED
#  define CU_UUID_HAS_BEEN_DEFINED
struct CUuuid_st {
  char bytes[16];
};
#endif
using cudaUUID_t = CUuuid_st;

/// CUDA 13's device properties, in CUDA's order, then the fields CUDA 13 dropped (older programs
/// still read them; cudaDeviceGetAttribute has them all).
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  std::size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned gpuPciDeviceID;
  unsigned gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
  // Dropped by CUDA 13 (cudaDeviceGetAttribute answers them there).
  int clockRate;
  int memoryClockRate;
  int deviceOverlap;
  int kernelExecTimeoutEnabled;
  int computeMode;
  int maxTexture1DLinear;
  int singleToDoublePrecisionPerfRatio;
  int cooperativeMultiDeviceLaunch;
};
