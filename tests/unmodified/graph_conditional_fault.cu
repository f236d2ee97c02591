// SPDX-License-Identifier: MIT
// A kernel fault inside a graph's WHILE node ends the loop, as a GPU's lost context does: the
// launch returns, the synchronisation returns the fault, reported once with the thread and line.
#include "check.h"

__global__ void step(int* data, int* counter, cudaGraphConditionalHandle loop) {
  if (threadIdx.x == 0) {
    data[*counter] = *counter;  // 4 ints: the fifth iteration writes past the end
    *counter += 1;
    if (*counter == 100) cudaGraphSetConditional(loop, 0);
  }
}

int main() {
  int *data = nullptr, *counter = nullptr;
  CHECK_EQ(cudaMalloc(&data, 4 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&counter, sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMemset(counter, 0, sizeof(int)), cudaSuccess);
  cudaGraph_t graph;
  CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaGraphConditionalHandle loop = 0;
  CHECK_EQ(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
  cudaGraphNodeParams params = {cudaGraphNodeTypeConditional};
  params.conditional.handle = loop;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  CHECK_EQ(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params), cudaSuccess);
  void* args[] = {&data, &counter, &loop};
  cudaKernelNodeParams kernel = {};
  kernel.func = (void*)step;
  kernel.gridDim = dim3(1);
  kernel.blockDim = dim3(32);
  kernel.kernelParams = args;
  cudaGraphNode_t body_step;
  CHECK_EQ(cudaGraphAddKernelNode(&body_step, params.conditional.phGraph_out[0], nullptr, 0, &kernel), cudaSuccess);
  cudaGraphExec_t exec;
  CHECK_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  cudaStream_t stream;
  CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);
  std::string report;
  {
    stderr_capture capture;
    CHECK_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream), cudaErrorIllegalAddress);
    report = capture.text();
  }
  CHECK(report.find("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global write of 4 bytes") != std::string::npos);
  CHECK(report.find("0 bytes past the end of a 16-byte allocation") != std::string::npos);
  CHECK(report.find("(graph_conditional_fault.cu:8)") != std::string::npos);
  CHECK(report.find("invalid global write", report.find("invalid global write") + 1) == std::string::npos);  // once
  if (failures != 0) std::printf("the report:\n%s", report.c_str());
  return finish();
}
