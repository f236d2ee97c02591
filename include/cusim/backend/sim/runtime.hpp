// SPDX-License-Identifier: MIT
// The CUDA runtime subset on the simulator: CUDA's names, signatures and error codes. These
// functions never throw; a failure is returned and kept as the calling host thread's last error.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/runtime_types.hpp>
#include <cusim/detail/source_location.hpp>

#include <cstddef>

// The functions with C signatures have C linkage, so that C programs link the simulator too
// (`gcc main.c -lcudart`). cudaMalloc and cudaMallocManaged keep C++ signatures that also take the
// allocation site (named by CUSIM_CHECK=leaks); their C-linkage twins are defined apart
// (simulator/c_linkage.cpp) and never declared to C++ callers, whose calls stay unambiguous.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes,
                       cusim::detail::source_location site = cusim::detail::source_location::current());
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              cusim::detail::source_location site = cusim::detail::source_location::current());

extern "C" {

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

/// Rows `*pitch` bytes apart (a multiple of 512), each at least `width` bytes; `height` rows.
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
/// `height` rows of `width` bytes, `spitch` apart in `src` and `dpitch` apart in `dst`.
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height);
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent);
/// Pitched memory only: CUDA arrays (srcArray, dstArray) are not simulated.
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* params);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* params, cudaStream_t stream = nullptr);
cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent);
/// Single device: both devices must be 0.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = nullptr);
/// Page-locks (here: remembers) the program's memory; with cudaHostRegisterMapped kernels may use
/// it through cudaHostGetDevicePointer, which on the simulator is the host pointer itself.
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
cudaError_t cudaHostGetFlags(unsigned* flags, void* host_ptr);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
/// Accepted: managed memory is host memory on the simulator.
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location);
/// The address and size of a __device__ / __constant__ variable (the variable itself here).
cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol);
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const void* symbol);

/// Stream-ordered allocation: the memory is usable at once (earlier than CUDA promises), freed
/// when the stream reaches cudaFreeAsync. On a capturing stream they become graph nodes.
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t min_bytes_to_keep);

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
/// The simulated device's properties, one at a time (CUDA's cudaDeviceAttr numbering).
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
/// Both 13000 (CUDA 13.0).
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
/// One device: it has no peer (0), and enabling peer access to itself is cudaErrorInvalidDevice.
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
/// One device, no link: every pair is cudaErrorInvalidDevice (a device with itself included).
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src_device, int dst_device);
/// Priorities run from 0 (least) to -5 (greatest), as on current GPUs; the simulator's streams
/// all run at once, so a priority changes nothing but what cudaStreamGetPriority says.
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config);
cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int length, int device);
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();

/// CUDA 12's deprecated spellings, removed by CUDA 13: the cudaDevice* call each one stands for.
__CUDA_DEPRECATED cudaError_t cudaThreadExit();
__CUDA_DEPRECATED cudaError_t cudaThreadSynchronize();
__CUDA_DEPRECATED cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value);
__CUDA_DEPRECATED cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit);
__CUDA_DEPRECATED cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config);
__CUDA_DEPRECATED cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config);
/// Nothing to convert: every simulated device has double precision.
__CUDA_DEPRECATED cudaError_t cudaSetDoubleForDevice(double* d);
__CUDA_DEPRECATED cudaError_t cudaSetDoubleForHost(double* d);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags);
cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long* id);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
/// Calls fn(user_data) on the stream's thread once the work queued before it has run.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
/// Calls callback(stream, status, user_data) like cudaLaunchHostFunc; `flags` must be 0.
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned flags);
/// Access policy window, synchronization policy, priority: kept and reported, no effect.
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* value);

/// Work queued on a capturing stream (kernels, copies, memsets, host functions, stream-ordered
/// allocations, event records and waits that fork and join other streams) is recorded into a
/// graph instead of run; cudaStreamEndCapture returns it.
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
/// Captures into `graph` (a conditional node's body, say) after `dependencies`, instead of a new one.
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* edge_data, std::size_t count,
                                          cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                     unsigned long long* id = nullptr, cudaGraph_t* graph = nullptr,
                                     const cudaGraphNode_t** dependencies = nullptr,
                                     const cudaGraphEdgeData** edge_data = nullptr, std::size_t* count = nullptr);
/// What the stream's next captured work depends on: these nodes of its capture's graph besides
/// (cudaStreamAddCaptureDependencies) or instead of (cudaStreamSetCaptureDependencies) the others.
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* edge_data, std::size_t count,
                                                unsigned flags = 0);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = nullptr, unsigned flags = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

/// A kernel by its address alone: launchable once the simulator has seen it launched with its
/// type (any typed launch, `<<<>>>` included) or cusim::detail::register_kernel; otherwise
/// cudaErrorInvalidDeviceFunction.
cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr);
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr);
/// sharedSizeBytes is the static shared memory the kernel's launches showed so far; numRegs 0.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel);
/// cudaFuncAttributeMaxDynamicSharedMemorySize up to sharedMemPerBlockOptin, the carveout from
/// -1 to 100: kept and reported, the launch limits stay the device's.
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void* kernel, cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                         std::size_t shared_bytes);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* kernel, int block_size,
                                                                  std::size_t shared_bytes, unsigned flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* shared_bytes, const void* kernel, int blocks,
                                                      int block_size);

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edge_data, std::size_t* count);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edge_data, std::size_t count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         cudaGraphEdgeData* edge_data, std::size_t* count);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
/// `params->func` must be a kernel the simulator can launch by address (see cudaLaunchKernel);
/// the arguments are copied when the node is added.
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaKernelNodeParams* params);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, void* dst, const void* src, std::size_t bytes,
                                     cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemsetParams* params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 std::size_t count, const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  std::size_t count);
/// Sets params->dptr: the same address at every launch of the graph.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, cudaMemAllocNodeParams* params);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    std::size_t count, void* ptr);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
/// Queues the graph's nodes on `stream` in a topological order (the order they were added among
/// the nodes whose dependencies have run).
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms* params);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemsetParams* params);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* params);
/// Takes the parameters of `graph`'s nodes into `exec` when the two have the same nodes (paired in
/// the order they were added), of the same types, with the same edges and kernels.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info);
/// The memory of graph allocation nodes: reserved when a node is added (its address is fixed
/// from then), in use while allocated (from the node's run until freed).
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
/// Only the high watermarks, and only to 0 (they start again from the current figure).
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);

/// A node of any type from its cudaGraphNodeParams (kernel, memcpy, memset, host, empty, memory
/// allocation and free, conditional; the others are cudaErrorNotSupported); a conditional node's
/// body graphs are made with it and returned in params->conditional.phGraph_out.
cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                             const cudaGraphEdgeData* edge_data, std::size_t count, cudaGraphNodeParams* params);
/// A handle for conditional nodes of `graph` (or of graphs nested in its conditional nodes).
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                             unsigned default_launch_value = 0, unsigned flags = 0);
/// Device code: sets the handle's value for the conditional nodes that run after the kernel.
void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned value);

}  // extern "C"

namespace cusim::detail {
cudaError_t memcpy_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t bytes,
                          std::size_t offset, cudaMemcpyKind kind, bool to_symbol);
/// Keeps `code` as the calling thread's last error and returns it (the header's templates).
cudaError_t runtime_error(cudaError_t code) noexcept;
/// cudaGetSymbolAddress for a variable of `bytes`: copies may then treat it as device memory.
cudaError_t symbol_address(void** ptr, const void* symbol, std::size_t bytes);
/// Makes a kernel known by its address (defined in launch.hpp, which every kernel's file includes).
template <class... Params>
void register_kernel(void (*kernel)(Params...));
/// register_kernel for a kernel given by its type; nothing for one given as `const void*`.
template <class... Params>
void register_if_kernel(void (*kernel)(Params...)) {
  register_kernel(kernel);
}
template <class Kernel>
void register_if_kernel(Kernel) {}
}  // namespace cusim::detail

/// CUDA 11's spellings, which cuda_runtime.h keeps for C++.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t*, char*, std::size_t) {
  return cudaGraphInstantiate(exec, graph, 0);
}
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphNode_t* error_node,
                                       cudaGraphExecUpdateResult* result) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t e = cudaGraphExecUpdate(exec, graph, &info);
  if (error_node != nullptr) *error_node = info.errorNode;
  if (result != nullptr) *result = info.result;
  return e;
}
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                            std::size_t count) {
  return cudaGraphAddDependencies(graph, from, to, nullptr, count);
}
/// CUDA 12.3's cudaGraphAddNode, without edge data.
inline cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    std::size_t count, cudaGraphNodeParams* params) {
  return cudaGraphAddNode(node, graph, dependencies, nullptr, count, params);
}
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned flags) { return cudaEventCreateWithFlags(event, flags); }
inline cudaError_t cudaMallocHost(void** ptr, std::size_t bytes, unsigned flags) { return cudaHostAlloc(ptr, bytes, flags); }

/// The occupancy calculator: the block size (a multiple of the warp size up to `block_size_limit`,
/// 0 for the device's limit) that keeps the most threads resident per multiprocessor when a block
/// of b threads uses shared_bytes_of(b) of dynamic shared memory, and the grid that fills the
/// device with it.
template <class SharedBytesOf, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int* min_grid_size, int* block_size, Kernel kernel,
                                                                     SharedBytesOf shared_bytes_of,
                                                                     int block_size_limit = 0, unsigned flags = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return cusim::detail::runtime_error(cudaErrorInvalidValue);
  cusim::detail::register_if_kernel(kernel);
  const void* k = reinterpret_cast<const void*>(kernel);
  cudaFuncAttributes attributes;
  int warp = 0, max_threads = 0, per_sm_threads = 0, sms = 0;
  if (cudaError_t e = cudaFuncGetAttributes(&attributes, k); e != cudaSuccess) return e;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, 0);
  cudaDeviceGetAttribute(&per_sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int limit = max_threads < attributes.maxThreadsPerBlock ? max_threads : attributes.maxThreadsPerBlock;
  if (block_size_limit > 0 && block_size_limit < limit) limit = block_size_limit;
  int best_threads = 0, best_size = 0, best_blocks = 0;
  for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
    const int size = aligned < limit ? aligned : limit;
    int blocks = 0;
    if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, k, size, static_cast<std::size_t>(shared_bytes_of(size)), flags);
        e != cudaSuccess)
      return e;
    if (blocks * size > best_threads) best_threads = blocks * size, best_size = size, best_blocks = blocks;
    if (best_threads == per_sm_threads) break;
  }
  *min_grid_size = best_blocks * sms;
  *block_size = best_size;
  return cudaSuccess;
}
template <class SharedBytesOf, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, Kernel kernel,
                                                           SharedBytesOf shared_bytes_of, int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, kernel, shared_bytes_of,
                                                                 block_size_limit, cudaOccupancyDefault);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size, Kernel kernel,
                                                        std::size_t shared_bytes = 0, int block_size_limit = 0,
                                                        unsigned flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      min_grid_size, block_size, kernel, [shared_bytes](int) { return shared_bytes; }, block_size_limit, flags);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, Kernel kernel,
                                               std::size_t shared_bytes = 0, int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeWithFlags(min_grid_size, block_size, kernel, shared_bytes, block_size_limit,
                                                     cudaOccupancyDefault);
}

/// The kernel itself, not cast to const void*, as CUDA's C++ API takes it.
template <class... Params>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void (*kernel)(Params...), int block_size,
                                                         std::size_t shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel), block_size,
                                                       shared_bytes);
}
template <class... Params>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, void (*kernel)(Params...),
                                                                  int block_size, std::size_t shared_bytes,
                                                                  unsigned flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, reinterpret_cast<const void*>(kernel),
                                                                block_size, shared_bytes, flags);
}
template <class... Params>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* shared_bytes, void (*kernel)(Params...), int blocks,
                                                      int block_size) {
  return cudaOccupancyAvailableDynamicSMemPerBlock(shared_bytes, reinterpret_cast<const void*>(kernel), blocks,
                                                   block_size);
}
template <class... Params>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, void (*kernel)(Params...)) {
  cusim::detail::register_kernel(kernel);  // a kernel by its type, launched or not
  return cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}
template <class... Params>
cudaError_t cudaFuncSetAttribute(void (*kernel)(Params...), cudaFuncAttribute attr, int value) {
  cusim::detail::register_kernel(kernel);
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <class... Params>
cudaError_t cudaFuncSetCacheConfig(void (*kernel)(Params...), cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(kernel), config);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** ptr, const T& symbol) {
  return cusim::detail::symbol_address(ptr, static_cast<const void*>(&symbol), sizeof(T));
}
/// sizeof the variable: the simulator knows it only through its type.
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T&) {
  if (bytes == nullptr) return cusim::detail::runtime_error(cudaErrorInvalidValue);
  *bytes = sizeof(T);
  return cudaSuccess;
}
// The allocating overloads are always inlined: the return address the simulator keeps for a report
// ("allocated at") is then in the program's code, also at -O0.
template <class T>
[[gnu::always_inline]] inline cudaError_t cudaMallocPitch(T** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
template <class T>
[[gnu::always_inline]] inline cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}


template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes,
                       cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes, site);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags, site);
}
template <class T>
[[gnu::always_inline]] inline cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
/// Copies `bytes` from host memory into a __constant__ / __device__ variable.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), src, bytes, offset, kind, true);
}
/// Copies `bytes` out of a __constant__ / __device__ variable.
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), dst, bytes, offset, kind, false);
}
