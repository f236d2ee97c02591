// SPDX-License-Identifier: MIT
// CUDA graphs: nodes (kernels, copies, memsets, host functions, allocations) with dependencies,
// built by hand or by stream capture (capture.cpp), instantiated into an executable order and
// launched onto a stream.
#pragma once

#include <cusim/cuda_runtime.hpp>

#include <cstddef>
#include <memory>
#include <variant>
#include <vector>

namespace cusim::sim {

/// The memory of an allocation node: reserved when the node is made, so that its address is the
/// same at every launch, and live (known to the allocation registry) from then until freed, and
/// again from each run of the node. When the last graph holding it goes, memory still live becomes
/// the program's to free; freed memory is released.
class graph_allocation {
 public:
  explicit graph_allocation(std::size_t bytes);
  ~graph_allocation();
  graph_allocation(const graph_allocation&) = delete;
  graph_allocation& operator=(const graph_allocation&) = delete;

  void* ptr() const noexcept { return ptr_; }
  /// The node's run: live again if a free node, cudaFree or cudaFreeAsync freed it.
  void map() const;
  /// Whether `p` is what cudaFreeAsync and a free node may free: the start of a live device
  /// allocation, or the address of a graph allocation node. That address is fixed for the node's
  /// life, as in CUDA, so a stream-ordered free may name it before the launch that maps it has run.
  static bool freeable_in_order(const void* p);

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// The memory of graph allocation nodes (cudaDeviceGetGraphMemAttribute), as an H200 with CUDA 13
/// counts it: mapped in 32 MiB granules when an allocation node first runs, kept mapped (used and
/// reserved alike) when the allocation is freed or its graph destroyed, until cudaDeviceGraphMemTrim
/// gives back what no live allocation holds; the high watermarks since the last reset.
struct graph_memory {
  std::size_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
};
graph_memory graph_memory_usage();
/// cudaDeviceGraphMemTrim: the mapped granules shrink to what the live allocations need.
void trim_graph_memory();
/// cudaDeviceSetGraphMemAttribute: a high watermark starts again from the current figure.
void reset_graph_memory_high(bool used);

struct kernel_work {
  const void* func = nullptr;
  dim3 grid, block;
  unsigned shared_bytes = 0;
  bool cooperative = false;
  detail::bound_kernel bound;
  std::vector<void*> params;  ///< where each argument lives in bound.closure (kernelParams)
};
struct copy_work {
  cudaMemcpy3DParms params;
};
struct memset_work {
  cudaMemsetParams params;
};
struct host_work {
  cudaHostFn_t fn;
  void* user_data;
};
struct empty_work {};
struct alloc_work {
  std::shared_ptr<graph_allocation> allocation;
  cudaMemAllocNodeParams params;
};
struct free_work {
  void* ptr;
};
/// A conditional node's body graphs (made with the node, destroyed with it) and, in an
/// executable graph, the steps each body became when it was instantiated (graphs.cpp).
struct conditional_bodies;
struct compiled_bodies;
struct conditional_work {
  cudaGraphConditionalHandle handle = 0;
  cudaGraphConditionalNodeType type = cudaGraphCondTypeIf;
  std::shared_ptr<conditional_bodies> bodies;
  std::shared_ptr<const compiled_bodies> compiled;  ///< set in an executable graph's copy
};
/// What a node does; its cudaGraphNodeType follows from the alternative.
using node_work =
    std::variant<kernel_work, copy_work, memset_work, host_work, empty_work, alloc_work, free_work, conditional_work>;

cudaGraph_t create_graph();
void destroy_graph(cudaGraph_t graph);
bool graph_is_valid(cudaGraph_t graph) noexcept;
/// Adds a node running `work` after `dependencies` (nodes of `graph`, checked by the caller).
cudaGraphNode_t add_node(cudaGraph_t graph, node_work work, const cudaGraphNode_t* dependencies, std::size_t count);
/// Whether `count` dependencies are nodes of `graph`, none twice.
bool dependencies_in_graph(cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count);
/// The nodes of `graph` that no other node depends on.
std::vector<cudaGraphNode_t> leaves_of(cudaGraph_t graph);

/// A kernel node's work from CUDA's parameters: the arguments bound (copied) through the kernel's
/// binder, the configuration checked as a launch would be. cudaErrorInvalidDeviceFunction for a
/// kernel the simulator cannot launch by address.
cudaError_t make_kernel_work(const cudaKernelNodeParams& params, kernel_work* work);
/// A kernel node's work for a launch of `kernel` bound to its arguments.
kernel_work kernel_node_work(const void* kernel, const launch_config& config, bool cooperative,
                             detail::bound_kernel bound);

}  // namespace cusim::sim
