// 5-byte records (a tag, then a 32-bit value) read by casting the byte pointer: the value's
// address is not a multiple of 4, and a GPU faults on the misaligned load.
#include <cstdio>

__global__ void values(unsigned* out, const unsigned char* records) {
  const unsigned char* r = records + 5 * threadIdx.x;
  out[threadIdx.x] = *reinterpret_cast<const unsigned*>(r + 1);  // bug: misaligned
}

int main() {
  unsigned char* records;
  unsigned* out;
  cudaMalloc(&records, 5 * 32);
  cudaMalloc(&out, 32 * sizeof(unsigned));
  cudaMemset(records, 0, 5 * 32);
  values<<<1, 32>>>(out, records);
  printf("values: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
