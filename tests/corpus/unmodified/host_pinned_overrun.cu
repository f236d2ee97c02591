// Host code filling one element past the end of a cudaMallocHost buffer: reported, and the
// program goes on.
#include <cstdio>

int main() {
  float* h;
  cudaMallocHost(&h, 10 * sizeof(float));
  for (int i = 0; i <= 10; ++i) h[i] = 1.0f;  // bug: <= 10
  printf("filled\n");
  cudaFreeHost(h);
  return 0;
}
