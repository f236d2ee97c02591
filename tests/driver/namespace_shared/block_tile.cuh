// A namespace-scope __shared__ array in a header, used by a device function of the header and by
// kernels of the file including it (dct8x8's dct8x8_kernel1.cuh has this shape).
#pragma once
#define TILE 64

__shared__ float tile[TILE];
__shared__ int block_count;

__device__ void put(int i, float v) { tile[i] = v; }
