// A shared-memory tree reduction missing the __syncthreads() between its steps (CUSIM_CHECK=race).
#include <cstdio>

__global__ void sum(const float* in, float* out) {
  __shared__ float s[128];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    // bug: __syncthreads() missing here
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 2 * sizeof(float));
  float h[256];
  for (float& v : h) v = 1.0f;
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<2, 128>>>(in, out);
  printf("sum: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
