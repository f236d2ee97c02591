// SPDX-License-Identifier: MIT
// Atomic functions on raw pointers (include/cusim/backend/sim/atomics.hpp): one past shared and
// global memory, or misaligned, each is a tagged report naming the thread, the block and the line
// of the call; contended atomics from many blocks, which run in parallel, give exact results; a
// thread spinning on an atomic lets the thread it waits for run. Under CUSIM_CHECK=race (a second
// test runs this program so) each atomic is one atomic access: no race among them, while plain
// adds from many blocks to one word are one.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "check.h"

__global__ void shared_past_end(int i) {
  extern __shared__ unsigned bins[];
  unsigned* p = bins;
  if (threadIdx.x == 7) atomicAdd(p + i, 1u);  // line 17
}
__global__ void global_past_end(unsigned long long* p, int i) {
  if (blockIdx.x == 2 && threadIdx.x == 5) atomicAdd(p + i, 1ull);  // line 20
}
__global__ void misaligned_at(char* p, int offset) {
  if (threadIdx.x == 3) atomicExch(reinterpret_cast<int*>(p + offset), 1);  // line 23
}
__global__ void cas_past_end(int* p, int i) {
  if (threadIdx.x == 1 && blockIdx.x == 1) atomicCAS(p + i, 0, 1);  // line 26
}

constexpr int blocks = 96, threads = 128;

struct counters {
  int add, sub;
  unsigned inc_wraps, dec_wraps;
  unsigned long long add64;
  float fadd;
  double dadd;
  int max, min;
  unsigned bits_or, bits_and, bits_xor;
  unsigned long long max64;
  int cas_count;
  unsigned exch, exch_seen;
  int lock, locked_sum;
};

__global__ void contend(counters* c, bool with_lock, int rounds) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    atomicAdd(&c->add, 3);
    atomicSub(&c->sub, 2);
    atomicInc(&c->inc_wraps, 999u);
    atomicDec(&c->dec_wraps, 999u);
    atomicAdd(&c->add64, (1ull << 33) + 1);
    atomicAdd(&c->fadd, 0.5f);
    atomicAdd(&c->dadd, 0.25);
    atomicXor(&c->bits_xor, 1u << (t % 32));
  }
  atomicMax(&c->max, t);
  atomicMin(&c->min, -t);
  atomicOr(&c->bits_or, 1u << (t % 32));
  atomicAnd(&c->bits_and, ~(1u << (t % 31)));
  atomicMax(&c->max64, static_cast<unsigned long long>(t) << 40);
  // An increment by compare-and-swap: every thread's succeeds once.
  int seen = atomicAdd(&c->cas_count, 0);
  for (int old; (old = atomicCAS(&c->cas_count, seen, seen + 1)) != seen;) seen = old;
  // Every value exchanged in comes out once, but the last, which stays.
  atomicXor(&c->exch_seen, atomicExch(&c->exch, static_cast<unsigned>(t + 1)));
  // A lock between the blocks' first threads: the plain add under it is exact. (Not under
  // CUSIM_CHECK=race, which knows no locks: the adds would be a race to it.)
  if (with_lock && threadIdx.x == 0) {
    while (atomicCAS(&c->lock, 0, 1) != 0) {
    }
    __threadfence();
    volatile int* sum = &c->locked_sum;
    *sum = *sum + 1;
    __threadfence();
    atomicExch(&c->lock, 0);
  }
}

// Thread 0 of each block spins on its block's flag, which thread 32 (another warp) sets after its
// own work.
__global__ void spin_on_flag(int* flags, int* out) {
  int* flag = flags + blockIdx.x;
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[2 * blockIdx.x] = atomicAdd(flag, 0);
  } else if (threadIdx.x == 32) {
    out[2 * blockIdx.x + 1] = 41;
    atomicExch(flag, 42);
  }
}

// Plain read-modify-writes from many blocks to one word: a race.
__global__ void plain_adds(int* total) {
  if (threadIdx.x == 0) *total += 1;
}

/// `text` with every hexadecimal address replaced by 0x?.
std::string addresses_hidden(std::string text) {
  for (std::size_t at = text.find("0x"); at != std::string::npos; at = text.find("0x", at + 3)) {
    std::size_t end = at + 2;
    while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
    text.replace(at, end - at, "0x?");
  }
  return text;
}

int main() {
  const char* check = std::getenv("CUSIM_CHECK");
  const bool race = check != nullptr && std::string(check).find("race") != std::string::npos;
  cudaError_t code = cudaSuccess;
  std::string report;

  // One element past the block's 256 bytes of dynamic shared memory.
  report = addresses_hidden(fault_of([&] { shared_past_end<<<3, 32, 256>>>(64); }, code));
  CHECK_EQ(report, std::string("tid=[7, 0, 0] ctaid=[0, 0, 0]: invalid shared write of 4 bytes at 0x?: 0 bytes past the end of the "
                               "block's 256 bytes of dynamic shared memory (extern __shared__), in no __shared__ "
                               "variable (atomics.cu:17)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // One past a page-sized allocation, from block 2's thread 5.
  report = addresses_hidden(fault_of(
      [&] {
        unsigned long long* a = nullptr;
        cudaMalloc(&a, 4096);
        global_past_end<<<4, 32>>>(a, 512);
      },
      code));
  CHECK_EQ(report, std::string("tid=[5, 0, 0] ctaid=[2, 0, 0]: invalid global write of 8 bytes at 0x?: 0 bytes past the end of a "
                               "4096-byte allocation of device memory (cudaMalloc) at 0x?, allocated at atomics.cu:126 "
                               "(atomics.cu:20)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // A compare-and-swap far past the end.
  report = addresses_hidden(fault_of(
      [&] {
        int* a = nullptr;
        cudaMalloc(&a, 4096);
        cas_past_end<<<2, 32>>>(a, 1500);
      },
      code));
  CHECK_EQ(report, std::string("tid=[1, 0, 0] ctaid=[1, 0, 0]: invalid global write of 4 bytes at 0x?: 1904 bytes past the end of a "
                               "4096-byte allocation of device memory (cudaMalloc) at 0x?, allocated at atomics.cu:139 "
                               "(atomics.cu:26)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // An int 2 bytes off its alignment: the GPU faults.
  report = addresses_hidden(fault_of(
      [&] {
        char* a = nullptr;
        cudaMalloc(&a, 64);
        misaligned_at<<<1, 32>>>(a, 2);
      },
      code));
  CHECK_EQ(report, std::string("tid=[3, 0, 0] ctaid=[0, 0, 0]: misaligned global write of 4 bytes at 0x?: not a multiple of 4 "
                               "(misaligned address) (atomics.cu:23)\n"));
  CHECK_EQ(code, cudaErrorMisalignedAddress);

  // Contended atomics of every kind from 96 blocks.
  {
    stderr_capture capture;
    counters* c = nullptr;
    CHECK_EQ(cudaMallocManaged(&c, sizeof(counters)), cudaSuccess);
    *c = counters{};
    c->dec_wraps = 0;
    c->bits_and = ~0u;
    // Long enough for the blocks on two workers (the test's CUSIM_WORKERS=2) to overlap; a
    // tenth under the race checker, which runs a launch's blocks one at a time.
    const int rounds = race ? 16 : 256;
    contend<<<blocks, threads>>>(c, !race, rounds);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    constexpr long long n = static_cast<long long>(blocks) * threads;
    const long long ops = n * rounds;
    CHECK_EQ(c->add, static_cast<int>(3 * ops));
    CHECK_EQ(c->sub, static_cast<int>(-2 * ops));
    CHECK_EQ(c->inc_wraps, static_cast<unsigned>(ops % 1000));
    CHECK_EQ(c->dec_wraps, static_cast<unsigned>((1000 - ops % 1000) % 1000));
    CHECK_EQ(c->add64, static_cast<unsigned long long>(ops) * ((1ull << 33) + 1));
    CHECK_EQ(c->fadd, static_cast<float>(ops) * 0.5f);  // exact: each sum a multiple of 0.5 below 2^24
    CHECK_EQ(c->dadd, static_cast<double>(ops) * 0.25);
    CHECK_EQ(c->bits_xor, 0u);  // each bit flipped an even number of times
    CHECK_EQ(c->max, static_cast<int>(n - 1));
    CHECK_EQ(c->min, static_cast<int>(-(n - 1)));
    CHECK_EQ(c->bits_or, ~0u);
    CHECK_EQ(c->bits_and, 1u << 31);
    CHECK_EQ(c->max64, static_cast<unsigned long long>(n - 1) << 40);
    CHECK_EQ(c->cas_count, static_cast<int>(n));
    unsigned all = 0;
    for (long long v = 1; v <= n; ++v) all ^= static_cast<unsigned>(v);
    CHECK_EQ(c->exch_seen ^ c->exch, all);
    CHECK(c->exch >= 1 && c->exch <= static_cast<unsigned>(n));
    CHECK_EQ(c->lock, 0);
    CHECK_EQ(c->locked_sum, race ? 0 : blocks);
    CHECK_EQ(capture.text(), std::string());
    cudaFree(c);
  }

  // A spin on an atomic ends: the setting thread runs.
  {
    int* p = nullptr;
    CHECK_EQ(cudaMallocManaged(&p, 6 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 6; ++i) p[i] = 0;
    spin_on_flag<<<2, 64>>>(p, p + 2);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(p[2], 42);
    CHECK_EQ(p[3], 41);
    CHECK_EQ(p[4], 42);
    CHECK_EQ(p[5], 41);
    cudaFree(p);
  }

  // Plain adds from many blocks: a race, which CUSIM_CHECK=race reports (and nothing checks without it).
  if (race) {
    std::string text;
    const std::string error = fault_of(
        [] {
          int* total = nullptr;
          cudaMalloc(&total, sizeof(int));
          cudaMemset(total, 0, sizeof(int));
          plain_adds<<<4, 32>>>(total);
        },
        &text);
    CHECK_EQ(error, std::string("cudaErrorLaunchFailure"));
    CHECK(text.find("data race on global memory") != std::string::npos);
  }
  return finish();
}
