// SPDX-License-Identifier: MIT
// Graphs and their executable form. A launch queues each node's work on the stream in a
// topological order (among ready nodes, the one added first), so a graph runs as the same work
// queued by hand would.
#include "graphs.hpp"

#include "copies.hpp"
#include "device.hpp"
#include "functions.hpp"
#include "kernels.hpp"
#include "last_error.hpp"
#include "memory.hpp"
#include "streams.hpp"

#include <cusim/backend/sim/unmodified.hpp>
#include <cusim/host/launch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <iterator>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

// Host code: the kernel built-ins' macros would hide cudaKernelNodeParams's members.
#undef gridDim
#undef blockDim

namespace cusim::sim {
/// A conditional handle's value. The graph it was made for and the executable graphs made from
/// that graph hold it, so that an executable graph works on after its graph is destroyed.
struct conditional_value {
  std::atomic<unsigned> value;
  unsigned default_value;
  bool assign_default;
  cudaGraph_t graph;
};
}  // namespace cusim::sim

struct CUgraphNode_st {
  CUgraph_st* graph = nullptr;
  cusim::sim::node_work work;
  std::vector<CUgraphNode_st*> dependencies;
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added
  std::vector<std::shared_ptr<cusim::sim::conditional_value>> handles;  // made for its conditional nodes
  bool body = false;                                   // a conditional node's body, owned by the node
};

struct CUgraphExec_st {
  std::vector<cusim::sim::node_work> steps;            // in launch order
  std::vector<std::shared_ptr<cusim::sim::conditional_value>> defaults;  // set to their default at each launch
  std::vector<std::shared_ptr<cusim::sim::conditional_value>> held;      // every handle its nodes use
  std::vector<std::size_t> step_of;                    // node index (order added) -> step
  std::vector<std::vector<std::size_t>> dependencies;  // node index -> its dependencies' indices, sorted
  std::unordered_map<const CUgraphNode_st*, std::size_t> step_of_node;  // nodes of the graphs it came from
};

namespace cusim::sim {

struct conditional_bodies {
  std::vector<cudaGraph_t> graphs;  // phGraph_out points here
  conditional_bodies() = default;
  conditional_bodies(const conditional_bodies&) = delete;
  conditional_bodies& operator=(const conditional_bodies&) = delete;
  ~conditional_bodies() {
    for (cudaGraph_t g : graphs) destroy_graph(g);
  }
};
struct compiled_bodies {
  std::vector<std::vector<node_work>> steps;  // per body, in launch order
};

namespace {

std::mutex handles_mutex;
std::set<cudaGraph_t> graphs;
std::set<cudaGraphNode_t> nodes;
std::set<cudaGraphExec_t> execs;

bool exec_is_valid(cudaGraphExec_t exec) {
  std::lock_guard lock(handles_mutex);
  return execs.count(exec) != 0;
}
bool node_is_valid(cudaGraphNode_t node) {
  std::lock_guard lock(handles_mutex);
  return nodes.count(node) != 0;
}

cudaGraphNodeType type_of(const node_work& work) {
  static constexpr cudaGraphNodeType types[] = {cudaGraphNodeTypeKernel,  cudaGraphNodeTypeMemcpy,
                                                cudaGraphNodeTypeMemset,  cudaGraphNodeTypeHost,
                                                cudaGraphNodeTypeEmpty,   cudaGraphNodeTypeMemAlloc,
                                                cudaGraphNodeTypeMemFree, cudaGraphNodeTypeConditional};
  static_assert(std::size(types) == std::variant_size_v<node_work>);
  return types[work.index()];
}

std::mutex conditionals_mutex;
std::unordered_map<cudaGraphConditionalHandle, std::weak_ptr<conditional_value>> conditionals;
cudaGraphConditionalHandle next_handle = 1;

/// The handle's value while a graph or an executable graph holds it; null otherwise.
std::shared_ptr<conditional_value> find_conditional(cudaGraphConditionalHandle handle) {
  std::lock_guard lock(conditionals_mutex);
  auto it = conditionals.find(handle);
  if (it == conditionals.end()) return nullptr;
  auto v = it->second.lock();
  if (v == nullptr) conditionals.erase(it);
  return v;
}

/// `count` dependencies, each a node of `graph`, none twice.
bool valid_dependencies(cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count) {
  if (count > 0 && dependencies == nullptr) return false;
  std::lock_guard lock(handles_mutex);
  for (std::size_t i = 0; i < count; ++i) {
    if (nodes.count(dependencies[i]) == 0 || dependencies[i]->graph != graph) return false;
    if (std::find(dependencies, dependencies + i, dependencies[i]) != dependencies + i) return false;
  }
  return true;
}

/// The checks every cudaGraphAdd*Node makes, then the node.
template <class MakeWork>
cudaError_t add_checked(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                        std::size_t count, MakeWork make_work) {
  if (node == nullptr || !graph_is_valid(graph) || !valid_dependencies(graph, dependencies, count))
    return fail(cudaErrorInvalidValue);
  node_work work;
  if (cudaError_t e = make_work(work); e != cudaSuccess) return fail(e);
  *node = add_node(graph, std::move(work), dependencies, count);
  return cudaSuccess;
}

std::unordered_map<const CUgraphNode_st*, std::size_t> index_of_nodes(cudaGraph_t graph) {
  std::unordered_map<const CUgraphNode_st*, std::size_t> index;
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) index[graph->nodes[i].get()] = i;
  return index;
}

/// Kahn's algorithm, the earliest-added ready node first; false if the edges have a cycle.
bool launch_order(cudaGraph_t graph, std::vector<std::size_t>& order) {
  const auto index = index_of_nodes(graph);
  const std::size_t n = graph->nodes.size();
  std::vector<std::size_t> waiting(n);
  std::vector<std::vector<std::size_t>> dependents(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const CUgraphNode_st* d : graph->nodes[i]->dependencies) {
      ++waiting[i];
      dependents[index.at(d)].push_back(i);
    }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push(i);
  order.clear();
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (std::size_t j : dependents[i])
      if (--waiting[j] == 0) ready.push(j);
  }
  return order.size() == n;
}

std::vector<std::size_t> dependency_indices(const CUgraphNode_st& node,
                                            const std::unordered_map<const CUgraphNode_st*, std::size_t>& index) {
  std::vector<std::size_t> out;
  for (const CUgraphNode_st* d : node.dependencies) out.push_back(index.at(d));
  std::sort(out.begin(), out.end());
  return out;
}

cudaError_t run(const node_work& work, cudaStream_t stream);

/// Runs a conditional node's bodies on the stream's thread, when the stream reaches the node: the
/// bodies' work runs inside this step (run_inline_scope), before whatever was queued after it.
void run_conditional(const conditional_work& c, cudaStream_t stream) {
  run_inline_scope scope(stream);
  const auto value = [&] {
    const auto v = find_conditional(c.handle);
    return v != nullptr ? v->value.load() : 0u;
  };
  const auto body = [&](std::size_t i) {
    for (const node_work& w : c.compiled->steps[i])
      if (run(w, stream) != cudaSuccess) return false;
    return stream == nullptr || stream_fault(stream) == nullptr;  // a faulted stream runs nothing more
  };
  const std::size_t bodies = c.compiled->steps.size();
  switch (c.type) {
    case cudaGraphCondTypeIf:
      if (value() != 0)
        body(0);
      else if (bodies == 2)
        body(1);
      break;
    case cudaGraphCondTypeWhile:
      while (value() != 0 && body(0)) {
      }
      break;
    case cudaGraphCondTypeSwitch:
      if (const unsigned v = value(); v < bodies) body(v);
      break;
  }
}

/// Queues one node's work on `stream`.
cudaError_t run(const node_work& work, cudaStream_t stream) {
  struct runner {
    cudaStream_t stream;
    cudaError_t operator()(const kernel_work& k) const {
      try {
        detail::submit(k.func, launch_config{k.grid, k.block, k.shared_bytes, stream}, k.bound, k.cooperative);
      } catch (...) {
        return detail::c_api_launch_failed(std::current_exception(), stream);
      }
      return cudaSuccess;
    }
    cudaError_t operator()(const copy_work& c) const {
      run_on(stream, [p = c.params] { run_copy(p); });
      return cudaSuccess;
    }
    cudaError_t operator()(const memset_work& m) const {
      run_on(stream, [p = m.params] { run_memset(p); });
      return cudaSuccess;
    }
    cudaError_t operator()(const host_work& h) const {
      run_on(stream, [h] { h.fn(h.user_data); });
      return cudaSuccess;
    }
    cudaError_t operator()(const empty_work&) const { return cudaSuccess; }
    cudaError_t operator()(const alloc_work& a) const {
      // Mapped when the launch is enqueued, not when the stream reaches the node: the program may
      // name the address in stream-ordered calls (copies, cudaFreeAsync) right after the launch.
      a.allocation->map();
      return cudaSuccess;
    }
    cudaError_t operator()(const free_work& f) const {
      run_on(stream, [p = f.ptr] { release(p, true, false); });
      return cudaSuccess;
    }
    cudaError_t operator()(const conditional_work& c) const {
      run_on(stream, [c, s = stream] { run_conditional(c, s); });
      return cudaSuccess;
    }
  };
  return std::visit(runner{stream}, work);
}

}  // namespace

namespace {
std::mutex node_addresses_mutex;
struct node_memory {
  std::size_t bytes;
  bool ran = false;  // mapped from the node's first run, as a GPU maps it then
};
std::map<const void*, node_memory> node_addresses;  // each graph allocation's address, size and state
// What the GPU maps for graph allocations, in granules of 32 MiB (an H200 reports 32 MiB for one
// allocation of 1 MiB, 64 MiB for one of 40 MiB: tests/gpu_truth/README.md), under the mutex.
constexpr std::size_t graph_memory_granule = std::size_t{32} << 20;
std::size_t mapped = 0;
std::size_t used_high = 0, reserved_high = 0;  // cudaGraphMemAttr*High, under the mutex

/// The bytes of the allocations that have run and are not freed, in whole granules (under the mutex).
std::size_t live_granules() {
  std::size_t live = 0;
  for (const auto& [p, memory] : node_addresses) {
    if (!memory.ran) continue;
    const auto a = find_allocation(p);
    if (a && a->base == p) live += memory.bytes;
  }
  return (live + graph_memory_granule - 1) / graph_memory_granule * graph_memory_granule;
}
}  // namespace

graph_allocation::graph_allocation(std::size_t bytes) : bytes_(bytes) {
  constexpr std::size_t alignment = 256;
  ptr_ = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (ptr_ != nullptr && !adopt(ptr_, bytes_, allocation_kind::device)) {
    std::free(ptr_);
    ptr_ = nullptr;
  }
  if (ptr_ != nullptr) {
    std::lock_guard lock(node_addresses_mutex);
    node_addresses.emplace(ptr_, node_memory{bytes_});
  }
  graph_memory_usage();  // the high watermarks
}

bool graph_allocation::freeable_in_order(const void* p) {
  if (p == nullptr) return false;
  const auto a = find_allocation(p);
  if (a && a->base == p && a->kind == allocation_kind::device) return true;
  std::lock_guard lock(node_addresses_mutex);
  return node_addresses.count(p) != 0;
}

graph_allocation::~graph_allocation() {
  if (ptr_ != nullptr) {
    std::lock_guard lock(node_addresses_mutex);
    node_addresses.erase(ptr_);
  }
  // Still live: the program frees it (cudaFree), so the registry takes it over.
  if (ptr_ != nullptr && !take_ownership(ptr_)) std::free(ptr_);
}

void graph_allocation::map() const {
  adopt(ptr_, bytes_, allocation_kind::device);
  {
    std::lock_guard lock(node_addresses_mutex);
    if (auto it = node_addresses.find(ptr_); it != node_addresses.end()) it->second.ran = true;
    mapped = std::max(mapped, live_granules());
  }
  graph_memory_usage();
}

void trim_graph_memory() {
  std::lock_guard lock(node_addresses_mutex);
  mapped = live_granules();
}

graph_memory graph_memory_usage() {
  std::lock_guard lock(node_addresses_mutex);
  graph_memory m;
  m.used = m.reserved = mapped;  // what a GPU reports: freed graph memory stays mapped until a trim
  used_high = std::max(used_high, m.used);
  reserved_high = std::max(reserved_high, m.reserved);
  m.used_high = used_high;
  m.reserved_high = reserved_high;
  return m;
}

void reset_graph_memory_high(bool used) {
  std::lock_guard lock(node_addresses_mutex);
  (used ? used_high : reserved_high) = 0;
}

cudaGraph_t create_graph() {
  auto* g = new CUgraph_st;
  std::lock_guard lock(handles_mutex);
  graphs.insert(g);
  return g;
}

void destroy_graph(cudaGraph_t graph) {
  {
    std::lock_guard lock(handles_mutex);
    graphs.erase(graph);
    for (const auto& n : graph->nodes) nodes.erase(n.get());
  }
  delete graph;
}

bool graph_is_valid(cudaGraph_t graph) noexcept {
  std::lock_guard lock(handles_mutex);
  return graphs.count(graph) != 0;
}

cudaGraphNode_t add_node(cudaGraph_t graph, node_work work, const cudaGraphNode_t* dependencies, std::size_t count) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->graph = graph;
  node->work = std::move(work);
  node->dependencies.assign(dependencies, dependencies + count);
  cudaGraphNode_t handle = node.get();
  graph->nodes.push_back(std::move(node));
  std::lock_guard lock(handles_mutex);
  nodes.insert(handle);
  return handle;
}

bool dependencies_in_graph(cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count) {
  return valid_dependencies(graph, dependencies, count);
}

std::vector<cudaGraphNode_t> leaves_of(cudaGraph_t graph) {
  std::set<const CUgraphNode_st*> depended_on;
  for (const auto& n : graph->nodes) depended_on.insert(n->dependencies.begin(), n->dependencies.end());
  std::vector<cudaGraphNode_t> leaves;
  for (const auto& n : graph->nodes)
    if (depended_on.count(n.get()) == 0) leaves.push_back(n.get());
  return leaves;
}

kernel_work kernel_node_work(const void* kernel, const launch_config& config, bool cooperative,
                             detail::bound_kernel bound) {
  kernel_work k{kernel, config.grid, config.block, static_cast<unsigned>(config.shared_bytes), cooperative,
                std::move(bound), {}};
  k.params = k.bound.params(k.bound.closure.get());
  return k;
}

cudaError_t make_kernel_work(const cudaKernelNodeParams& params, kernel_work* work) {
  if (params.func == nullptr) return cudaErrorInvalidDeviceFunction;
  if (params.extra != nullptr) return cudaErrorNotSupported;  // packed argument buffers are not simulated
  const detail::kernel_binder bind = binder_for(params.func);
  if (bind == nullptr) return cudaErrorInvalidDeviceFunction;
  const launch_config config{params.gridDim, params.blockDim, params.sharedMemBytes, nullptr};
  try {
    validate_launch(config, kernel_info_of(params.func));
    *work = kernel_node_work(params.func, config, false, bind(params.func, params.kernelParams));
  } catch (const cuda_error& e) {
    return e.code();
  }
  return cudaSuccess;
}

}  // namespace cusim::sim

using namespace cusim::sim;

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned flags) {
  if (graph == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
  *graph = create_graph();
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (!graph_is_valid(graph) || graph->body) return fail(cudaErrorInvalidValue);  // a body goes with its node
  destroy_graph(graph);
  return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (clone == nullptr || !graph_is_valid(original)) return fail(cudaErrorInvalidValue);
  for (const auto& n : original->nodes)  // CUDA: a graph with conditional nodes cannot be cloned
    if (std::holds_alternative<conditional_work>(n->work)) return fail(cudaErrorNotSupported);
  cudaGraph_t copy = create_graph();
  std::unordered_map<const CUgraphNode_st*, cudaGraphNode_t> copied;
  for (const auto& n : original->nodes) {
    std::vector<cudaGraphNode_t> dependencies;
    for (const CUgraphNode_st* d : n->dependencies) dependencies.push_back(copied.at(d));
    copied[n.get()] = add_node(copy, n->work, dependencies.data(), dependencies.size());
  }
  *clone = copy;
  return cudaSuccess;
}

namespace {
/// CUDA's protocol for listing: with a null array, the count; else up to *count entries (the rest
/// of a longer array set to null) and the real count.
template <class T>
cudaError_t list(const std::vector<T>& items, T* out, std::size_t* count) {
  if (count == nullptr) return fail(cudaErrorInvalidValue);
  if (out != nullptr)
    for (std::size_t i = 0; i < *count; ++i) out[i] = i < items.size() ? items[i] : T{};
  *count = items.size();
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* out, std::size_t* count) {
  if (!graph_is_valid(graph)) return fail(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> all;
  for (const auto& n : graph->nodes) all.push_back(n.get());
  return list(all, out, count);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* out, std::size_t* count) {
  if (!graph_is_valid(graph)) return fail(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> roots;
  for (const auto& n : graph->nodes)
    if (n->dependencies.empty()) roots.push_back(n.get());
  return list(roots, out, count);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edge_data, std::size_t* count) {
  if (!graph_is_valid(graph) || count == nullptr || (from == nullptr) != (to == nullptr))
    return fail(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> sources, targets;
  for (const auto& n : graph->nodes)
    for (CUgraphNode_st* d : n->dependencies) sources.push_back(d), targets.push_back(n.get());
  if (edge_data != nullptr)
    for (std::size_t i = 0; i < *count; ++i) edge_data[i] = cudaGraphEdgeData{};
  std::size_t n = *count;
  list(sources, from, &n);
  return list(targets, to, count);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edge_data, std::size_t count) {
  if (!graph_is_valid(graph) || (count > 0 && (from == nullptr || to == nullptr))) return fail(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < count; ++i) {
    if (edge_data != nullptr && (edge_data[i].from_port != 0 || edge_data[i].to_port != 0 || edge_data[i].type != 0))
      return fail(cudaErrorNotSupported);  // only full-completion edges
    if (!valid_dependencies(graph, &from[i], 1) || !valid_dependencies(graph, &to[i], 1) || from[i] == to[i])
      return fail(cudaErrorInvalidValue);
    auto& deps = to[i]->dependencies;
    if (std::find(deps.begin(), deps.end(), from[i]) != deps.end()) return fail(cudaErrorInvalidValue);
  }
  for (std::size_t i = 0; i < count; ++i) to[i]->dependencies.push_back(from[i]);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (type == nullptr || !node_is_valid(node)) return fail(cudaErrorInvalidValue);
  *type = type_of(node->work);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         cudaGraphEdgeData* edge_data, std::size_t* count) {
  if (!node_is_valid(node)) return fail(cudaErrorInvalidValue);
  if (edge_data != nullptr && count != nullptr)
    for (std::size_t i = 0; i < *count; ++i) edge_data[i] = cudaGraphEdgeData{};
  return list(node->dependencies, dependencies, count);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  if (!node_is_valid(node)) return fail(cudaErrorInvalidValue);
  CUgraph_st* graph = node->graph;
  for (auto& n : graph->nodes) std::erase(n->dependencies, node);
  {
    std::lock_guard lock(handles_mutex);
    nodes.erase(node);
  }
  std::erase_if(graph->nodes, [node](const auto& n) { return n.get() == node; });
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaKernelNodeParams* params) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (params == nullptr) return cudaErrorInvalidValue;
    kernel_work k;
    const cudaError_t e = make_kernel_work(*params, &k);
    work = std::move(k);
    return e;
  });
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params) {
  if (params == nullptr || !node_is_valid(node)) return fail(cudaErrorInvalidValue);
  const auto* k = std::get_if<kernel_work>(&node->work);
  if (k == nullptr) return fail(cudaErrorInvalidValue);
  *params = cudaKernelNodeParams{const_cast<void*>(k->func), k->grid, k->block, k->shared_bytes,
                                 const_cast<void**>(k->params.data()), nullptr};
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
  if (params == nullptr || !node_is_valid(node) || !std::holds_alternative<kernel_work>(node->work))
    return fail(cudaErrorInvalidValue);
  kernel_work k;
  if (cudaError_t e = make_kernel_work(*params, &k); e != cudaSuccess) return fail(e);
  node->work = std::move(k);
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemcpy3DParms* params) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (params == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = check_copy(*params); e != cudaSuccess) return e;
    work = copy_work{*params};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, void* dst, const void* src, std::size_t bytes,
                                     cudaMemcpyKind kind) {
  const cudaMemcpy3DParms copy = linear_copy(dst, src, bytes, kind);
  return cudaGraphAddMemcpyNode(node, graph, dependencies, count, &copy);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* params) {
  if (params == nullptr || !node_is_valid(node)) return fail(cudaErrorInvalidValue);
  const auto* c = std::get_if<copy_work>(&node->work);
  if (c == nullptr) return fail(cudaErrorInvalidValue);
  *params = c->params;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemsetParams* params) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (params == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = check_memset(*params); e != cudaSuccess) return e;
    work = memset_work{*params};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 std::size_t count, const cudaHostNodeParams* params) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (params == nullptr || params->fn == nullptr) return cudaErrorInvalidValue;
    work = host_work{params->fn, params->userData};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  std::size_t count) {
  return add_checked(node, graph, dependencies, count, [](node_work& work) {
    work = empty_work{};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, cudaMemAllocNodeParams* params) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (params == nullptr || params->bytesize == 0 || params->poolProps.allocType != cudaMemAllocationTypePinned ||
        params->poolProps.location.type != cudaMemLocationTypeDevice || params->poolProps.location.id != 0)
      return cudaErrorInvalidValue;
    if (params->bytesize > device_properties().totalGlobalMem) return cudaErrorMemoryAllocation;
    auto allocation = std::make_shared<graph_allocation>(params->bytesize);
    if (allocation->ptr() == nullptr) return cudaErrorMemoryAllocation;
    params->dptr = allocation->ptr();
    work = alloc_work{std::move(allocation), *params};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    std::size_t count, void* ptr) {
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    if (!graph_allocation::freeable_in_order(ptr)) return cudaErrorInvalidValue;
    work = free_work{ptr};
    return cudaSuccess;
  });
}

namespace {
/// The handles of `graph` held by `exec`, and those whose value is their default at each launch.
void add_handles(cudaGraph_t graph, CUgraphExec_st& exec) {
  for (const auto& v : graph->handles) {
    exec.held.push_back(v);
    if (v->assign_default) exec.defaults.push_back(v);
  }
}
/// An executable graph's copy of a conditional node: its bodies' steps, as they are now (nested
/// conditional nodes too). A body holds kernel, copy, memset, empty and conditional nodes only.
cudaError_t compile_conditional(node_work& work, CUgraphExec_st& exec) {
  auto* c = std::get_if<conditional_work>(&work);
  if (c == nullptr) return cudaSuccess;
  auto compiled = std::make_shared<compiled_bodies>();
  for (cudaGraph_t body : c->bodies->graphs) {
    std::vector<std::size_t> order;
    if (!launch_order(body, order)) return cudaErrorInvalidValue;
    add_handles(body, exec);
    std::vector<node_work>& steps = compiled->steps.emplace_back();
    for (std::size_t i : order) {
      steps.push_back(body->nodes[i]->work);
      if (std::holds_alternative<host_work>(steps.back()) || std::holds_alternative<alloc_work>(steps.back()) ||
          std::holds_alternative<free_work>(steps.back()))
        return cudaErrorNotSupported;
      if (cudaError_t e = compile_conditional(steps.back(), exec); e != cudaSuccess) return e;
    }
  }
  c->compiled = std::move(compiled);
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  if (exec == nullptr || !graph_is_valid(graph)) return fail(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned long long>(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                                cudaGraphInstantiateFlagUseNodePriority))
    return fail(cudaErrorInvalidValue);  // device launch is not simulated
  std::vector<std::size_t> order;
  if (!launch_order(graph, order)) return fail(cudaErrorInvalidValue);  // a cycle
  auto e = std::make_unique<CUgraphExec_st>();
  const auto index = index_of_nodes(graph);
  e->step_of.resize(order.size());
  add_handles(graph, *e);
  for (std::size_t step = 0; step < order.size(); ++step) {
    const CUgraphNode_st* n = graph->nodes[order[step]].get();
    e->steps.push_back(n->work);
    if (cudaError_t c = compile_conditional(e->steps.back(), *e); c != cudaSuccess) return fail(c);
    e->step_of[order[step]] = step;
    e->step_of_node[n] = step;
  }
  for (const auto& n : graph->nodes) e->dependencies.push_back(dependency_indices(*n, index));
  {
    std::lock_guard lock(handles_mutex);
    execs.insert(e.get());
  }
  *exec = e.release();
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (!exec_is_valid(exec)) return fail(cudaErrorInvalidValue);
  if (!stream_is_valid(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (stream_is_capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported);  // child graph nodes are not simulated
  if (!exec->defaults.empty())
    run_on(stream, [handles = exec->defaults] {
      for (const auto& v : handles) v->value = v->default_value;
    });
  for (const node_work& work : exec->steps)
    if (cudaError_t e = run(work, stream); e != cudaSuccess) return e;
  // A kernel node's fault, in an unmodified program: reported once on stderr when the graph has run,
  // as a <<<>>> launch's is.
  run_on(stream, [stream] {
    if (const std::exception_ptr fault = stream_fault(stream)) cusim::detail::report_c_api_kernel_fault(fault);
  });
  return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  if (!exec_is_valid(exec)) return fail(cudaErrorInvalidValue);
  return stream_is_valid(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  {
    std::lock_guard lock(handles_mutex);
    if (execs.erase(exec) == 0) return fail(cudaErrorInvalidValue);
  }
  delete exec;
  return cudaSuccess;
}

namespace {
/// The step of `exec` that `node` (of a graph it came from) became, if it holds work of type T.
template <class T>
T* step_of(cudaGraphExec_t exec, cudaGraphNode_t node) {
  if (!exec_is_valid(exec)) return nullptr;
  auto it = exec->step_of_node.find(node);
  return it != exec->step_of_node.end() ? std::get_if<T>(&exec->steps[it->second]) : nullptr;
}
}  // namespace

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params) {
  kernel_work* step = step_of<kernel_work>(exec, node);
  if (step == nullptr || params == nullptr) return fail(cudaErrorInvalidValue);
  kernel_work k;
  if (cudaError_t e = make_kernel_work(*params, &k); e != cudaSuccess) return fail(e);
  *step = std::move(k);
  return cudaSuccess;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemcpy3DParms* params) {
  copy_work* step = step_of<copy_work>(exec, node);
  if (step == nullptr || params == nullptr) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_copy(*params); e != cudaSuccess) return fail(e);
  step->params = *params;
  return cudaSuccess;
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemsetParams* params) {
  memset_work* step = step_of<memset_work>(exec, node);
  if (step == nullptr || params == nullptr) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_memset(*params); e != cudaSuccess) return fail(e);
  step->params = *params;
  return cudaSuccess;
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaHostNodeParams* params) {
  host_work* step = step_of<host_work>(exec, node);
  if (step == nullptr || params == nullptr || params->fn == nullptr) return fail(cudaErrorInvalidValue);
  *step = host_work{params->fn, params->userData};
  return cudaSuccess;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
  if (!exec_is_valid(exec) || !graph_is_valid(graph)) return fail(cudaErrorInvalidValue);
  auto result = [&](cudaGraphExecUpdateResult r, cudaGraphNode_t node) {
    if (info != nullptr) *info = cudaGraphExecUpdateResultInfo{r, node, nullptr};
    return r == cudaGraphExecUpdateSuccess ? cudaSuccess : fail(cudaErrorGraphExecUpdateFailure);
  };
  if (graph->nodes.size() != exec->steps.size()) return result(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  const auto index = index_of_nodes(graph);
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
    CUgraphNode_st* n = graph->nodes[i].get();
    const node_work& old = exec->steps[exec->step_of[i]];
    if (n->work.index() != old.index()) return result(cudaGraphExecUpdateErrorNodeTypeChanged, n);
    if (dependency_indices(*n, index) != exec->dependencies[i]) return result(cudaGraphExecUpdateErrorTopologyChanged, n);
    if (std::holds_alternative<alloc_work>(n->work) || std::holds_alternative<free_work>(n->work) ||
        std::holds_alternative<conditional_work>(n->work))
      return result(cudaGraphExecUpdateErrorNotSupported, n);
    if (const auto* k = std::get_if<kernel_work>(&n->work); k && k->func != std::get<kernel_work>(old).func)
      return result(cudaGraphExecUpdateErrorFunctionChanged, n);
  }
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
    exec->steps[exec->step_of[i]] = graph->nodes[i]->work;
    exec->step_of_node[graph->nodes[i].get()] = exec->step_of[i];
  }
  return result(cudaGraphExecUpdateSuccess, nullptr);
}

cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (device != 0) return fail(cudaErrorInvalidDevice);
  trim_graph_memory();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (device != 0) return fail(cudaErrorInvalidDevice);
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  const graph_memory m = graph_memory_usage();
  unsigned long long figure = 0;
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: figure = m.used; break;
    case cudaGraphMemAttrUsedMemHigh: figure = m.used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: figure = m.reserved; break;
    case cudaGraphMemAttrReservedMemHigh: figure = m.reserved_high; break;
    default: return fail(cudaErrorInvalidValue);
  }
  *static_cast<unsigned long long*>(value) = figure;  // a cuuint64_t, as CUDA writes it
  return cudaSuccess;
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (device != 0) return fail(cudaErrorInvalidDevice);
  if (value == nullptr || (attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) ||
      *static_cast<const unsigned long long*>(value) != 0)
    return fail(cudaErrorInvalidValue);
  reset_graph_memory_high(attr == cudaGraphMemAttrUsedMemHigh);
  return cudaSuccess;
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                             unsigned default_launch_value, unsigned flags) {
  if (handle == nullptr || !graph_is_valid(graph) || (flags & ~unsigned{cudaGraphCondAssignDefault}) != 0)
    return fail(cudaErrorInvalidValue);
  auto v = std::make_shared<conditional_value>();
  v->value = default_launch_value;
  v->default_value = default_launch_value;
  v->assign_default = (flags & cudaGraphCondAssignDefault) != 0;
  v->graph = graph;
  std::lock_guard lock(conditionals_mutex);
  *handle = next_handle++;
  conditionals.emplace(*handle, v);
  graph->handles.push_back(std::move(v));
  return cudaSuccess;
}

void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned value) {
  if (const auto v = find_conditional(handle)) v->value = value;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                             const cudaGraphEdgeData* edge_data, std::size_t count, cudaGraphNodeParams* params) {
  if (params == nullptr) return fail(cudaErrorInvalidValue);
  for (std::size_t i = 0; edge_data != nullptr && i < count; ++i)
    if (edge_data[i].from_port != 0 || edge_data[i].to_port != 0 || edge_data[i].type != 0)
      return fail(cudaErrorNotSupported);  // only full-completion edges
  switch (params->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParamsV2& k = params->kernel;
      const cudaKernelNodeParams v1{k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra};
      return cudaGraphAddKernelNode(node, graph, dependencies, count, &v1);
    }
    case cudaGraphNodeTypeMemcpy:
      if (params->memcpy.flags != 0) return fail(cudaErrorInvalidValue);
      return cudaGraphAddMemcpyNode(node, graph, dependencies, count, &params->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: return cudaGraphAddMemsetNode(node, graph, dependencies, count, &params->memset);
    case cudaGraphNodeTypeHost: return cudaGraphAddHostNode(node, graph, dependencies, count, &params->host);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(node, graph, dependencies, count);
    case cudaGraphNodeTypeMemAlloc: return cudaGraphAddMemAllocNode(node, graph, dependencies, count, &params->alloc);
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(node, graph, dependencies, count, params->free.dptr);
    case cudaGraphNodeTypeConditional: break;
    default: return fail(cudaErrorNotSupported);  // child graphs, events, external semaphores
  }
  cudaConditionalNodeParams& c = params->conditional;
  return add_checked(node, graph, dependencies, count, [&](node_work& work) {
    const auto v = find_conditional(c.handle);
    const bool size_ok = c.type == cudaGraphCondTypeWhile  ? c.size == 1
                         : c.type == cudaGraphCondTypeIf   ? c.size == 1 || c.size == 2
                         : c.type == cudaGraphCondTypeSwitch ? c.size >= 1
                                                             : false;
    if (v == nullptr || v->graph != graph || !size_ok) return cudaErrorInvalidValue;
    for (const auto& n : graph->nodes)  // a handle drives one conditional node, as the GPU refuses a second
      if (const auto* w = std::get_if<conditional_work>(&n->work); w != nullptr && w->handle == c.handle)
        return cudaErrorInvalidValue;
    auto bodies = std::make_shared<conditional_bodies>();
    for (unsigned i = 0; i < c.size; ++i) {
      bodies->graphs.push_back(create_graph());
      bodies->graphs.back()->body = true;
    }
    c.phGraph_out = bodies->graphs.data();
    work = conditional_work{c.handle, c.type, std::move(bodies), nullptr};
    return cudaSuccess;
  });
}
