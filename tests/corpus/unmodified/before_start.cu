// A 3-point stencil whose first thread reads the element before the start of its input.
#include <cstdio>

__global__ void smooth(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;  // bug: i == 0 reads in[-1]
}

int main() {
  const int n = 512;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  smooth<<<n / 128, 128>>>(out, in, n);
  printf("smooth: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
