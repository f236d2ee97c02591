// SPDX-License-Identifier: MIT
// More memory-behaviour kernels than ../shared/gpu-truth/teaching/teaching_kernels.cu, each launched
// once, to hold the teaching report's rules (CUSIM_REPORT) to what a GPU counts beyond the 17 kernels
// it was written against: vector and narrow accesses, partial and 2-D warps, atomics and reductions,
// 8- and 16-byte shared accesses, multicast, variable trip counts. teaching_probe.ncu.<gpu>.csv beside
// it is Nsight Compute's answer on a real GPU (README.md says how it was recorded).
#include <cuda_runtime.h>
#include <cstdio>

#define N (1 << 20)

// ---- global memory ----
__global__ void g_float2_copy(float2 *out, const float2 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void g_float4_copy(float4 *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void g_float4_stride2(float4 *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(2 * i) % (N / 4)];
}
__global__ void g_offset3(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 3];
}
__global__ void g_offset8(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 8];
}
__global__ void g_store_stride4(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[(4 * i) % N] = in[i];
}
__global__ void g_char_stride4(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(4 * i) % N];
}
__global__ void g_short_copy(unsigned short *out, const unsigned short *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void g_block48(float *out, const float *in) {  // warp 1 of each block has 16 lanes
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void g_block2d(float *out, const float *in) {  // 16 x 16 blocks: a warp is two rows
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  out[y * 1024 + x] = in[y * 1024 + x];
}
__global__ void g_guarded(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void g_column(float *out, const float *in) {  // a warp reads down a column of 1024
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int row = i % 1024, col = i / 1024;
  out[i] = in[row * 1024 + col];
}
__global__ void g_atomic_same(float *out) { atomicAdd(&out[0], 1.f); }
__global__ void g_atomic_spread(unsigned *out, unsigned *old) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  old[i] = atomicAdd(&out[i % 1024], 1u);
}
__global__ void g_atomic_lanes(unsigned *out) {  // a reduction, value unused: one per lane, coalesced
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[i], 1u);
}

// ---- shared memory ----
__global__ void s_double_stride1(double *out) {
  __shared__ double s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[255 - t];
}
__global__ void s_double_stride2(double *out) {
  __shared__ double s[512];
  unsigned t = threadIdx.x;
  s[(2 * t) % 512] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[(2 * t + 1) % 512];
}
__global__ void s_float2_stride1(float2 *out) {
  __shared__ float2 s[256];
  unsigned t = threadIdx.x;
  s[t] = make_float2(t, t);
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t ^ 1];
}
__global__ void s_float4_stride1(float4 *out) {
  __shared__ float4 s[256];
  unsigned t = threadIdx.x;
  s[t] = make_float4(t, t, t, t);
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t ^ 3];
}
__global__ void s_float4_stride2(float4 *out) {
  __shared__ float4 s[512];
  unsigned t = threadIdx.x;
  s[2 * t] = make_float4(t, t, t, t);
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[2 * t];
}
__global__ void s_char_stride1(unsigned char *out) {
  __shared__ unsigned char s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[255 - t];
}
__global__ void s_stride3(float *out) {
  __shared__ float s[3 * 256];
  unsigned t = threadIdx.x;
  s[3 * t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[3 * t];
}
__global__ void s_stride4(float *out) {
  __shared__ float s[4 * 256];
  unsigned t = threadIdx.x;
  s[4 * t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[4 * t];
}
__global__ void s_stride8(float *out) {
  __shared__ float s[8 * 256];
  unsigned t = threadIdx.x;
  s[8 * t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[8 * t];
}
__global__ void s_stride16(float *out) {
  __shared__ float s[16 * 256];
  unsigned t = threadIdx.x;
  s[16 * t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[16 * t];
}
__global__ void s_multicast4(float *out) {  // eight words, four lanes each
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t / 4];
}
__global__ void s_same_bank_words(float *out) {  // four words of one bank, eight lanes each
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[(t % 4) * 32];
}
__global__ void s_transpose16(float *out, const float *in) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 1024 + x];
  __syncthreads();
  out[y * 1024 + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void s_matmul_tiled(float *C, const float *A, const float *B) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0;
  for (int k0 = 0; k0 < 256; k0 += 16) {
    As[ty][tx] = A[row * 256 + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * 256 + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * 256 + col] = acc;
}
__global__ void s_atomic_bins(unsigned *out) {
  __shared__ unsigned bins[64];
  unsigned t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[t % 8], 1u);
  __syncthreads();
  if (t < 64) out[blockIdx.x * 64 + t] = bins[t];
}

// ---- divergence ----
__global__ void d_early_exit(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 >= 20) return;
  float v = in[i];
  v = v * 2.f + 1.f;
  out[i] = v;
}
__global__ void d_trip_count(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  for (int k = 0; k < (int)(threadIdx.x % 8); ++k) v += in[(i + k) % N];
  out[i] = v;
}
__global__ void d_quarter(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 4 == 0) out[i] = in[i] * 2.f;
}
__global__ void d_shuffle_reduce(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

int main() {
  float *a, *b;
  unsigned *u, *v;
  cudaMalloc(&a, (N + 64) * sizeof(float) * 4);
  cudaMalloc(&b, (N + 64) * sizeof(float) * 4);
  cudaMalloc(&u, N * sizeof(unsigned));
  cudaMalloc(&v, N * sizeof(unsigned));
  cudaMemset(a, 0, (N + 64) * sizeof(float) * 4);
  cudaMemset(b, 0, (N + 64) * sizeof(float) * 4);
  cudaMemset(u, 0, N * sizeof(unsigned));
  const int B = 256, G = N / B;
  g_float2_copy<<<G / 2, B>>>((float2 *)b, (const float2 *)a);
  g_float4_copy<<<G / 4, B>>>((float4 *)b, (const float4 *)a);
  g_float4_stride2<<<G / 4, B>>>((float4 *)b, (const float4 *)a);
  g_offset3<<<G, B>>>(b, a);
  g_offset8<<<G, B>>>(b, a);
  g_store_stride4<<<G, B>>>(b, a);
  g_char_stride4<<<G, B>>>((unsigned char *)b, (const unsigned char *)a);
  g_short_copy<<<G, B>>>((unsigned short *)b, (const unsigned short *)a);
  g_block48<<<N / 48, 48>>>(b, a);
  g_block2d<<<dim3(64, 64), dim3(16, 16)>>>(b, a);
  g_guarded<<<(N - 100 + B - 1) / B, B>>>(b, a, N - 100);
  g_column<<<G, B>>>(b, a);
  g_atomic_same<<<64, B>>>(b);
  g_atomic_spread<<<G, B>>>(u, v);
  g_atomic_lanes<<<G, B>>>(u);
  s_double_stride1<<<G / 2, B>>>((double *)b);
  s_double_stride2<<<G / 2, B>>>((double *)b);
  s_float2_stride1<<<G / 2, B>>>((float2 *)b);
  s_float4_stride1<<<G / 4, B>>>((float4 *)b);
  s_float4_stride2<<<G / 4, B>>>((float4 *)b);
  s_char_stride1<<<G, B>>>((unsigned char *)b);
  s_stride3<<<G, B>>>(b);
  s_stride4<<<G, B>>>(b);
  s_stride8<<<G, B>>>(b);
  s_stride16<<<G, B>>>(b);
  s_multicast4<<<G, B>>>(b);
  s_same_bank_words<<<G, B>>>(b);
  s_transpose16<<<dim3(64, 64), dim3(16, 16)>>>(b, a);
  s_matmul_tiled<<<dim3(16, 16), dim3(16, 16)>>>(b, a, a);
  s_atomic_bins<<<G, B>>>(u);
  d_early_exit<<<G, B>>>(b, a);
  d_trip_count<<<G, B>>>(b, a);
  d_quarter<<<G, B>>>(b, a);
  d_shuffle_reduce<<<G, B>>>(b, a);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("teaching probe: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
