// SPDX-License-Identifier: MIT
// Inline PTX in device code runs as the GPU runs it (tools/nvcc/ptx.py): lane masks, bfind (the
// position of the highest set bit, 0xffffffff for none; signed: of the highest bit unlike the
// sign), clamped shifts, popc/brev/clz, mad.lo and several instructions in one statement, as
// cuda-samples' cdpAdvancedQuicksort and hand-tuned kernels write them. Plain CUDA.
#include <cuda_runtime.h>

#include "check.h"

static __device__ __forceinline__ unsigned highest_bit(unsigned word) {
  unsigned ret;
  asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
  return ret;
}

__global__ void lanes(unsigned* lt, unsigned* ge, unsigned* lane) {
  unsigned m, g, l;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  asm("mov.u32 %0, %%lanemask_ge;\n\t"
      "mov.u32 %1, %%laneid;"
      : "=r"(g), "=r"(l));
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  lt[i] = m;
  ge[i] = g;
  lane[i] = l;
}

__global__ void bits(int* out) {
  out[0] = static_cast<int>(highest_bit(0));
  out[1] = static_cast<int>(highest_bit(1));
  out[2] = static_cast<int>(highest_bit(0x80000000u));
  out[3] = static_cast<int>(highest_bit(1000));
  int s;
  asm("bfind.s32 %0, %1;" : "=r"(s) : "r"(-1));
  out[4] = s;
  asm("bfind.s32 %0, %1;" : "=r"(s) : "r"(-1000));
  out[5] = s;
  unsigned r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(1u), "r"(33u));
  out[6] = static_cast<int>(r);
  asm("shr.s32 %0, %1, %2;" : "=r"(s) : "r"(-8), "r"(40u));
  out[7] = s;
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(0xf0f0u));
  out[8] = static_cast<int>(r);
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(1u));
  out[9] = static_cast<int>(r);
  unsigned long long wide = 0;
  asm("mad.lo.u64 %0, %1, %2, %3;" : "=l"(wide) : "l"(3ull << 32), "l"(5ull), "l"(7ull));
  out[10] = static_cast<int>(wide >> 32);
  out[11] = static_cast<int>(wide);
  int acc = 1;
  asm("add.s32 %0, %0, %1;\n\tmul.lo.s32 %0, %0, %1;" : "+r"(acc) : "r"(3));
  out[12] = acc;
}

int main() {
  unsigned *lt = nullptr, *ge = nullptr, *lane = nullptr;
  CHECK_EQ(cudaMallocManaged(&lt, 64 * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&ge, 64 * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&lane, 64 * sizeof(unsigned)), cudaSuccess);
  lanes<<<1, 64>>>(lt, ge, lane);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (unsigned i = 0; i < 64; ++i) {
    const unsigned l = i % 32;
    CHECK_EQ(lane[i], l);
    CHECK_EQ(lt[i], (1u << l) - 1u);
    CHECK_EQ(ge[i], ~((1u << l) - 1u));
  }
  int* out = nullptr;
  CHECK_EQ(cudaMallocManaged(&out, 16 * sizeof(int)), cudaSuccess);
  bits<<<1, 1>>>(out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const int expected[] = {-1, 0, 31, 9, -1, 9, 0, -1, 8, static_cast<int>(0x80000000u), 15, 7, 12};
  for (int i = 0; i < 13; ++i) CHECK_EQ(out[i], expected[i]);
  return finish();
}
