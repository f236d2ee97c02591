// SPDX-License-Identifier: MIT
// What a GPU answers for graph memory attributes and conditional-node handles (graph_probe.h200.txt):
// built with `nvcc -arch=sm_90 -o gp graph_probe.cu`; docs/fidelity.md, "Graphs, as an H200 answered".
#include <cuda_runtime.h>
#include <cstdio>
#define P(x) std::printf("%-70s %s\n", #x, cudaGetErrorName(x))
static cudaGraphNodeParams cond(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType t, unsigned size) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = t;
  p.conditional.size = size;
  return p;
}
static unsigned long long attr(cudaGraphMemAttributeType a) {
  unsigned long long v = 0; cudaDeviceGetGraphMemAttribute(0, a, &v); return v;
}
static void mem(const char* when) {
  std::printf("mem %-40s used %llu usedHigh %llu reserved %llu reservedHigh %llu\n", when,
              attr(cudaGraphMemAttrUsedMemCurrent), attr(cudaGraphMemAttrUsedMemHigh),
              attr(cudaGraphMemAttrReservedMemCurrent), attr(cudaGraphMemAttrReservedMemHigh));
}
int main() {
  cudaFree(0);
  mem("start");
  for (size_t bytes : {size_t(1) << 20, size_t(40) << 20}) {
    cudaGraph_t g; cudaGraphCreate(&g, 0);
    cudaMemAllocNodeParams a{};
    a.poolProps.allocType = cudaMemAllocationTypePinned;
    a.poolProps.location.type = cudaMemLocationTypeDevice;
    a.poolProps.location.id = 0;
    a.bytesize = bytes;
    cudaGraphNode_t n; P(cudaGraphAddMemAllocNode(&n, g, nullptr, 0, &a));
    cudaGraphExec_t e; P(cudaGraphInstantiate(&e, g, 0));
    mem("instantiated");
    P(cudaGraphLaunch(e, nullptr)); P(cudaDeviceSynchronize());
    mem("launched");
    P(cudaFree(a.dptr)); P(cudaDeviceSynchronize());
    mem("freed");
    P(cudaGraphExecDestroy(e)); P(cudaGraphDestroy(g));
    mem("destroyed");
    P(cudaDeviceGraphMemTrim(0));
    mem("trimmed");
  }
  unsigned long long zero = 0;
  P(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  mem("high reset");
  cudaGraphNode_t node;
  {  // the test's sequence
    cudaGraph_t graph, other; cudaGraphCreate(&graph, 0); cudaGraphCreate(&other, 0);
    cudaGraphConditionalHandle handle = 0, foreign = 0;
    P(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));
    P(cudaGraphConditionalHandleCreate(&foreign, other, 0, 0));
    cudaGraphNodeParams p = cond(handle, cudaGraphCondTypeWhile, 2);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    p = cond(handle, cudaGraphCondTypeIf, 3);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    p = cond(handle, cudaGraphCondTypeSwitch, 0);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    p = cond(foreign, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, nullptr));
    p = cond(handle, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    size_t count = 0; P(cudaGraphGetNodes(graph, nullptr, &count)); std::printf("count %zu\n", count);
    cudaGraphExec_t exec; P(cudaGraphInstantiate(&exec, graph, 0));
    P(cudaGetLastError());
  }
  {  // a foreign handle alone
    cudaGraph_t graph, other; cudaGraphCreate(&graph, 0); cudaGraphCreate(&other, 0);
    cudaGraphConditionalHandle handle = 0, foreign = 0;
    P(cudaGraphConditionalHandleCreate(&foreign, other, 0, 0));
    cudaGraphNodeParams p = cond(foreign, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    cudaGraphExec_t exec; P(cudaGraphInstantiate(&exec, graph, 0));
    P(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));
    p = cond(handle, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    p = cond(foreign, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, other, nullptr, nullptr, 0, &p));
    P(cudaGetLastError());
  }
  {  // two nodes on one handle; a handle after a failed add
    cudaGraph_t graph; cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle = 0;
    P(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));
    cudaGraphNodeParams p = cond(handle, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    p = cond(handle, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
    cudaGraph_t g2; cudaGraphCreate(&g2, 0);
    cudaGraphConditionalHandle h2 = 0;
    P(cudaGraphConditionalHandleCreate(&h2, g2, 0, 0));
    p = cond(h2, cudaGraphCondTypeWhile, 2);
    P(cudaGraphAddNode(&node, g2, nullptr, nullptr, 0, &p));
    p = cond(h2, cudaGraphCondTypeIf, 1);
    P(cudaGraphAddNode(&node, g2, nullptr, nullptr, 0, &p));
    P(cudaGetLastError());
  }
  return 0;
}
