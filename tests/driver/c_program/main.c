/* SPDX-License-Identifier: MIT */
/* A C program on the CUDA runtime: `gcc main.c -I<toolkit>/include -L<toolkit>/lib64 -lcudart`. */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount: %d device(s), %s\n", n, e == cudaSuccess ? "cudaSuccess" : "error");
  return e != cudaSuccess || n < 1;
}
