// SPDX-License-Identifier: MIT
// The CUDA atomic set on global and shared memory, with CUDA's semantics.
#include "test_support.hpp"

#include <vector>

__global__ void global_atomics(cusim::span<int> i, cusim::span<unsigned> u, cusim::span<unsigned long long> ull,
                               cusim::span<float> f, cusim::span<double> d) {
  const int t = cusim::grid<1>();
  atomicAdd(&i[0], 1);
  atomicSub(&i[1], 2);
  atomicMax(&i[2], t);
  atomicMin(&i[3], -t);
  atomicAnd(&u[0], ~(1u << (t % 32)));
  atomicOr(&u[1], 1u << (t % 32));
  atomicXor(&u[2], 1u << (t % 8));
  atomicInc(&u[3], 9u);  // counts 0..9 then wraps to 0
  atomicDec(&u[4], 9u);  // counts down, wrapping from 0 to 9
  atomicAdd(&ull[0], 1ull << 33);
  atomicMax(&ull[1], static_cast<unsigned long long>(t) << 40);
  atomicAdd(&f[0], 0.5f);
  atomicAdd(&d[0], 0.25);
  atomicExch(&f[1], 3.0f);
  int expected = t;  // each thread claims slot t of a CAS ladder
  while (atomicCAS(&i[4], expected, expected + 1) != expected) {
  }
}

TEST_CASE("global atomics of every type give CUDA's results") {
  auto i = cusim::to_device(std::vector<int>{0, 0, -1, 1, 0});
  auto u = cusim::to_device(std::vector<unsigned>{~0u, 0u, 0u, 0u, 0u});
  auto ull = cusim::to_device(std::vector<unsigned long long>{0, 0});
  auto f = cusim::to_device(std::vector<float>{0, 0});
  auto d = cusim::to_device(std::vector<double>{0});
  const int n = 256;
  cusim::launch(global_atomics, 4, 64, i, u, ull, f, d);
  auto hi = i.copy_to_host();
  auto hu = u.copy_to_host();
  auto hull = ull.copy_to_host();
  CHECK(hi[0] == n);
  CHECK(hi[1] == -2 * n);
  CHECK(hi[2] == n - 1);
  CHECK(hi[3] == -(n - 1));
  CHECK(hi[4] == n);
  CHECK(hu[0] == 0u);
  CHECK(hu[1] == ~0u);
  CHECK(hu[2] == 0u);                // 256 flips of 8 bits, 32 each: even
  CHECK(hu[3] == n % 10);            // 256 increments modulo 10
  CHECK(hu[4] == (10 - n % 10) % 10);
  CHECK(hull[0] == (static_cast<unsigned long long>(n) << 33));
  CHECK(hull[1] == (static_cast<unsigned long long>(n - 1) << 40));
  CHECK(f.copy_to_host()[0] == doctest::Approx(n * 0.5));
  CHECK(f.copy_to_host()[1] == 3.0f);
  CHECK(d.copy_to_host()[0] == doctest::Approx(n * 0.25));
}

__global__ void inc_dec_wrap(cusim::span<unsigned> r) {
  unsigned* x = &r[0];
  *x = 5;
  r[1] = atomicInc(x, 5u);  // old 5 >= 5: wraps to 0
  r[2] = *x;
  r[3] = atomicInc(x, 5u);
  r[4] = *x;
  *x = 0;
  r[5] = atomicDec(x, 7u);  // old 0: wraps to 7
  r[6] = *x;
  *x = 9;
  r[7] = atomicDec(x, 7u);  // old 9 > 7: becomes 7
  r[8] = *x;
  r[9] = atomicDec(x, 7u);
  r[10] = *x;
}

TEST_CASE("atomicInc and atomicDec wrap around like CUDA's") {
  cusim::device_array<unsigned> r(11);
  cusim::launch(inc_dec_wrap, 1, 1, r);
  auto h = r.copy_to_host();
  CHECK(h[1] == 5u);
  CHECK(h[2] == 0u);
  CHECK(h[3] == 0u);
  CHECK(h[4] == 1u);
  CHECK(h[5] == 0u);
  CHECK(h[6] == 7u);
  CHECK(h[7] == 9u);
  CHECK(h[8] == 7u);
  CHECK(h[9] == 7u);
  CHECK(h[10] == 6u);
}

__global__ void shared_histogram(cusim::span<const int> values, cusim::span<unsigned> bins) {
  __shared__ cusim::shared_array<unsigned, 16> local;
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = cusim::grid<1>(); i < static_cast<int>(values.size()); i += cusim::gridsize<1>())
    atomicAdd(&local[values[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

TEST_CASE("a histogram with shared-memory atomics matches the host's") {
  std::vector<int> v(5000);
  std::vector<unsigned> ref(16, 0);
  for (int i = 0; i < 5000; ++i) v[i] = (i * 7919) % 1000, ++ref[v[i] % 16];
  auto dv = cusim::to_device(v);
  cusim::device_array<unsigned> bins(16);
  bins.copy_from_host(std::vector<unsigned>(16, 0));
  cusim::launch(shared_histogram, 6, 128, dv, bins);
  CHECK(bins.copy_to_host() == ref);
}
