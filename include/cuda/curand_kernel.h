// SPDX-License-Identifier: MIT
// cusim's <curand_kernel.h>: cuRAND's device API with CUDA's names, drawing the same numbers as
// NVIDIA's for the same seed, subsequence and offset. Generators: XORWOW (curandState_t, the
// default), Philox4_32_10 and MRG32k3a; distributions: curand, curand_uniform(_double),
// curand_normal(2, _double, 2_double), curand_log_normal(2, _double), curand_poisson, and
// Philox's curand4, curand_uniform4, curand_normal4, curand_poisson4; skipahead,
// skipahead_sequence (and MRG32k3a's skipahead_subsequence). The arithmetic is
// include/cusim/lib/curand/engines.hpp, shared with the host API (<curand.h>).
//
// Sobol32 and scrambled Sobol32 states take the caller's direction vectors (curand_init,
// curand, curand_uniform(_double), skipahead); curandGetDirectionVectors32's table (Joe and
// Kuo's, a published data set rather than an algorithm) is not provided, nor their normal and
// Poisson draws (the GPU's erfcinvf). Not provided either: the 64-bit Sobol states, MTGP32, the
// discrete distributions (curand_discrete, curandMakeMTGP32...).
// Poisson draws for 64 <= lambda <= 4000 use cuRAND's rejection method through the GPU's
// approximate ex2/lg2/rsqrt/rcp instructions: the simulator computes them exactly, so such draws
// can differ from a GPU's (docs/unmodified-cuda.md).
#pragma GCC system_header
#ifndef CUSIM_CUDA_CURAND_KERNEL_H_
#define CUSIM_CUDA_CURAND_KERNEL_H_
#define CURAND_KERNEL_H_

#include "cuda_runtime.h"
#include "curand.h"

#include <cusim/lib/curand/engines.hpp>

#include <cmath>

#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002
#ifndef CURAND_2POW32_INV
#  define CURAND_2POW32 (4294967296.f)
#  define CURAND_2POW32_DOUBLE (4294967296.)
#  define CURAND_2POW32_INV (2.3283064e-10f)
#  define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#  define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#  define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#  define CURAND_2PI (6.2831855f)
#  define CURAND_PI_DOUBLE (3.1415926535897932)
#  define CURAND_2PI_DOUBLE (6.2831853071795860)
#  define CURAND_SQRT2 (-1.4142135f)
#  define CURAND_SQRT2_DOUBLE (-1.4142135623730951)
#endif

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace cusim::curand_detail {

template <class S>
__host__ __device__ inline void clear_normal_cache(S* s) {
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
}

__host__ __device__ inline void philox_refill(curandStatePhilox4_32_10_t* s) {
  std::uint32_t c[4] = {s->ctr.x, s->ctr.y, s->ctr.z, s->ctr.w};
  const philox_block b = philox4x32_10(philox_block{{c[0], c[1], c[2], c[3]}}, s->key.x, s->key.y);
  s->output.x = b.w[0];
  s->output.y = b.w[1];
  s->output.z = b.w[2];
  s->output.w = b.w[3];
}

template <class F>
__host__ __device__ inline void philox_counter(curandStatePhilox4_32_10_t* s, F&& f) {
  std::uint32_t c[4] = {s->ctr.x, s->ctr.y, s->ctr.z, s->ctr.w};
  f(c);
  s->ctr.x = c[0];
  s->ctr.y = c[1];
  s->ctr.z = c[2];
  s->ctr.w = c[3];
}

}  // namespace cusim::curand_detail

// ---- XORWOW -------------------------------------------------------------------------------------

__host__ __device__ inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  cusim::curand_detail::xorwow_skip(state->d, state->v, n);
}
__host__ __device__ inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  cusim::curand_detail::xorwow_jump(state->v, n, true);
}
__host__ __device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                            unsigned long long offset, curandStateXORWOW_t* state) {
  cusim::curand_detail::xorwow_seed(seed, state->d, state->v);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  cusim::curand_detail::clear_normal_cache(state);
}
__host__ __device__ inline unsigned int curand(curandStateXORWOW_t* state) {
  return cusim::curand_detail::xorwow_next(state->d, state->v);
}

// ---- Philox4_32_10 ------------------------------------------------------------------------------

__host__ __device__ inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  unsigned int r;
  switch (state->STATE++) {
    default: r = state->output.x; break;
    case 1: r = state->output.y; break;
    case 2: r = state->output.z; break;
    case 3: r = state->output.w; break;
  }
  if (state->STATE == 4) {
    cusim::curand_detail::philox_counter(state, [](std::uint32_t* c) { cusim::curand_detail::philox_increment(c); });
    cusim::curand_detail::philox_refill(state);
    state->STATE = 0;
  }
  return r;
}
__host__ __device__ inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 t = state->output;
  cusim::curand_detail::philox_counter(state, [](std::uint32_t* c) { cusim::curand_detail::philox_increment(c); });
  cusim::curand_detail::philox_refill(state);
  const uint4 o = state->output;
  switch (state->STATE) {
    case 1: return make_uint4(t.y, t.z, t.w, o.x);
    case 2: return make_uint4(t.z, t.w, o.x, o.y);
    case 3: return make_uint4(t.w, o.x, o.y, o.z);
    default: return t;
  }
}
__host__ __device__ inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  cusim::curand_detail::philox_counter(state, [n](std::uint32_t* c) { cusim::curand_detail::philox_add_low(c, n); });
  cusim::curand_detail::philox_refill(state);
}
__host__ __device__ inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  cusim::curand_detail::philox_counter(state, [n](std::uint32_t* c) { cusim::curand_detail::philox_add_high(c, n); });
  cusim::curand_detail::philox_refill(state);
}
__host__ __device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                            unsigned long long offset, curandStatePhilox4_32_10_t* state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = static_cast<unsigned int>(seed);
  state->key.y = static_cast<unsigned int>(seed >> 32);
  state->STATE = 0;
  cusim::curand_detail::clear_normal_cache(state);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

// ---- MRG32k3a -----------------------------------------------------------------------------------

__host__ __device__ inline void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::curand_detail::mrg32k3a_jump(state->s1, state->s2, n, 0);
}
__host__ __device__ inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::curand_detail::mrg32k3a_jump(state->s1, state->s2, n, 76);
}
__host__ __device__ inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::curand_detail::mrg32k3a_jump(state->s1, state->s2, n, 127);
}
__host__ __device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                            unsigned long long offset, curandStateMRG32k3a_t* state) {
  cusim::curand_detail::mrg32k3a_seed(seed, state->s1, state->s2);
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  cusim::curand_detail::clear_normal_cache(state);
}
__host__ __device__ inline double curand_MRG32k3a(curandStateMRG32k3a_t* state) {
  return cusim::curand_detail::mrg32k3a_next(state->s1, state->s2);
}
__host__ __device__ inline unsigned int curand(curandStateMRG32k3a_t* state) {
  return cusim::curand_detail::mrg32k3a_bits(curand_MRG32k3a(state));
}

// ---- Sobol32 and scrambled Sobol32 (the caller's direction vectors) --------------------------------

struct curandStateSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;

namespace cusim::curand_detail {
/// Point i of the sequence: the scramble constant and the direction vectors of i's Gray code.
template <class S>
__host__ __device__ inline void sobol_seek(S* state, unsigned int n) {
  state->x = state->c;
  state->i += n;
  const unsigned int gray = state->i ^ (state->i >> 1);
  for (int k = 0; k < 32; ++k)
    if (gray & (1u << k)) state->x ^= state->direction_vectors[k];
}
/// The next point flips the bit of the Gray code that i's lowest zero bit names.
template <class S>
__host__ __device__ inline unsigned int sobol_next(S* state) {
  const unsigned int r = state->x;
  const unsigned int zero = ~state->i;
  state->x ^= state->direction_vectors[zero == 0 ? 31 : __builtin_ctz(zero)];
  ++state->i;
  return r;
}
}  // namespace cusim::curand_detail

__host__ __device__ inline void skipahead(unsigned int n, curandStateSobol32_t* state) {
  cusim::curand_detail::sobol_seek(state, n);
}
__host__ __device__ inline void skipahead(unsigned int n, curandStateScrambledSobol32_t* state) {
  cusim::curand_detail::sobol_seek(state, n);
}
__host__ __device__ inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                                            curandStateSobol32_t* state) {
  state->i = 0;
  state->c = 0;
  for (int k = 0; k < 32; ++k) state->direction_vectors[k] = direction_vectors[k];
  cusim::curand_detail::sobol_seek(state, offset);
}
__host__ __device__ inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                                            unsigned int offset, curandStateScrambledSobol32_t* state) {
  state->i = 0;
  state->c = scramble_c;
  for (int k = 0; k < 32; ++k) state->direction_vectors[k] = direction_vectors[k];
  cusim::curand_detail::sobol_seek(state, offset);
}
__host__ __device__ inline unsigned int curand(curandStateSobol32_t* state) {
  return cusim::curand_detail::sobol_next(state);
}
__host__ __device__ inline unsigned int curand(curandStateScrambledSobol32_t* state) {
  return cusim::curand_detail::sobol_next(state);
}
__host__ __device__ inline float curand_uniform(curandStateSobol32_t* state) {
  return cusim::curand_detail::uniform(curand(state));
}
__host__ __device__ inline double curand_uniform_double(curandStateSobol32_t* state) {
  return cusim::curand_detail::uniform_double(curand(state));
}
__host__ __device__ inline float curand_uniform(curandStateScrambledSobol32_t* state) {
  return cusim::curand_detail::uniform(curand(state));
}
__host__ __device__ inline double curand_uniform_double(curandStateScrambledSobol32_t* state) {
  return cusim::curand_detail::uniform_double(curand(state));
}

// ---- uniform ------------------------------------------------------------------------------------

__host__ __device__ inline float curand_uniform(curandStateXORWOW_t* state) {
  return cusim::curand_detail::uniform(curand(state));
}
__host__ __device__ inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return cusim::curand_detail::uniform_double_hq(x, y);
}
__host__ __device__ inline float curand_uniform(curandStatePhilox4_32_10_t* state) {
  return cusim::curand_detail::uniform(curand(state));
}
__host__ __device__ inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return cusim::curand_detail::uniform_double(curand(state));
}
__host__ __device__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  using cusim::curand_detail::uniform;
  return make_float4(uniform(x.x), uniform(x.y), uniform(x.z), uniform(x.w));
}
__host__ __device__ inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  using cusim::curand_detail::uniform_double_hq;
  return make_double2(uniform_double_hq(x.x, x.y), uniform_double_hq(x.z, x.w));
}
__host__ __device__ inline float curand_uniform(curandStateMRG32k3a_t* state) {
  return static_cast<float>(curand_MRG32k3a(state) * cusim::curand_detail::mrg_norm);
}
__host__ __device__ inline double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return curand_MRG32k3a(state) * cusim::curand_detail::mrg_norm;
}

// ---- normal -------------------------------------------------------------------------------------

namespace cusim::curand_detail {

template <class S>
__host__ __device__ inline float_pair box_muller_of(S* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return box_muller(x, y);
}
__host__ __device__ inline float_pair box_muller_of(curandStateMRG32k3a_t* state) {
  const float x = curand_uniform(state);
  const float y = curand_uniform(state);
  return box_muller_mrg(x, y);
}
template <class S>
__host__ __device__ inline double_pair box_muller_double_of(S* state) {
  const unsigned int x0 = curand(state);
  const unsigned int x1 = curand(state);
  const unsigned int y0 = curand(state);
  const unsigned int y1 = curand(state);
  return box_muller_double(x0, x1, y0, y1);
}
__host__ __device__ inline double_pair box_muller_double_of(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return box_muller_double(x.x, x.y, x.z, x.w);
}
__host__ __device__ inline double_pair box_muller_double_of(curandStateMRG32k3a_t* state) {
  const double x = curand_uniform_double(state);
  const double y = curand_uniform_double(state);
  return box_muller_mrg_double(x, y);
}

/// One value of a pair, the other kept in the state for the next call (cuRAND's caching: a
/// normal and a log-normal draw do not share the kept value).
template <class S, class Map>
__host__ __device__ inline float cached_normal(S* state, int flag, Map map) {
  if (state->boxmuller_flag != flag) {
    const float_pair v = box_muller_of(state);
    state->boxmuller_extra = map(v.y);
    state->boxmuller_flag = flag;
    return map(v.x);
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
template <class S, class Map>
__host__ __device__ inline double cached_normal_double(S* state, int flag, Map map) {
  if (state->boxmuller_flag_double != flag) {
    const double_pair v = box_muller_double_of(state);
    state->boxmuller_extra_double = map(v.y);
    state->boxmuller_flag_double = flag;
    return map(v.x);
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}

/// expf(mean + stddev * x) as nvcc compiles it: the product contracted into the sum.
__host__ __device__ inline float log_normal_of(float x, float mean, float stddev) {
  return static_cast<float>(std::exp(static_cast<double>(std::fma(stddev, x, mean))));
}
__host__ __device__ inline double log_normal_of(double x, double mean, double stddev) {
  return std::exp(std::fma(stddev, x, mean));
}

}  // namespace cusim::curand_detail

#define CUSIM_CURAND_NORMALS_(State)                                                                              \
  __host__ __device__ inline float curand_normal(State* state) {                                                    \
    return cusim::curand_detail::cached_normal(state, EXTRA_FLAG_NORMAL, [](float x) { return x; });                \
  }                                                                                                                 \
  __host__ __device__ inline double curand_normal_double(State* state) {                                            \
    return cusim::curand_detail::cached_normal_double(state, EXTRA_FLAG_NORMAL, [](double x) { return x; });        \
  }                                                                                                                 \
  __host__ __device__ inline float2 curand_normal2(State* state) {                                                  \
    const cusim::curand_detail::float_pair v = cusim::curand_detail::box_muller_of(state);                          \
    return make_float2(v.x, v.y);                                                                                   \
  }                                                                                                                 \
  __host__ __device__ inline double2 curand_normal2_double(State* state) {                                          \
    const cusim::curand_detail::double_pair v = cusim::curand_detail::box_muller_double_of(state);                  \
    return make_double2(v.x, v.y);                                                                                  \
  }                                                                                                                 \
  __host__ __device__ inline float curand_log_normal(State* state, float mean, float stddev) {                      \
    return cusim::curand_detail::cached_normal(state, EXTRA_FLAG_LOG_NORMAL, [=](float x) {                         \
      return cusim::curand_detail::log_normal_of(x, mean, stddev);                                                  \
    });                                                                                                             \
  }                                                                                                                 \
  __host__ __device__ inline double curand_log_normal_double(State* state, double mean, double stddev) {            \
    return cusim::curand_detail::cached_normal_double(state, EXTRA_FLAG_LOG_NORMAL, [=](double x) {                 \
      return cusim::curand_detail::log_normal_of(x, mean, stddev);                                                  \
    });                                                                                                             \
  }                                                                                                                 \
  __host__ __device__ inline float2 curand_log_normal2(State* state, float mean, float stddev) {                    \
    const cusim::curand_detail::float_pair v = cusim::curand_detail::box_muller_of(state);                          \
    return make_float2(cusim::curand_detail::log_normal_of(v.x, mean, stddev),                                     \
                       cusim::curand_detail::log_normal_of(v.y, mean, stddev));                                     \
  }                                                                                                                 \
  __host__ __device__ inline double2 curand_log_normal2_double(State* state, double mean, double stddev) {          \
    const cusim::curand_detail::double_pair v = cusim::curand_detail::box_muller_double_of(state);                  \
    return make_double2(cusim::curand_detail::log_normal_of(v.x, mean, stddev),                                    \
                        cusim::curand_detail::log_normal_of(v.y, mean, stddev));                                    \
  }
CUSIM_CURAND_NORMALS_(curandStateXORWOW_t)
CUSIM_CURAND_NORMALS_(curandStatePhilox4_32_10_t)
CUSIM_CURAND_NORMALS_(curandStateMRG32k3a_t)
#undef CUSIM_CURAND_NORMALS_

__host__ __device__ inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  const cusim::curand_detail::float_pair a = cusim::curand_detail::box_muller(x.x, x.y);
  const cusim::curand_detail::float_pair b = cusim::curand_detail::box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
__host__ __device__ inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  const float4 v = curand_normal4(state);
  using cusim::curand_detail::log_normal_of;
  return make_float4(log_normal_of(v.x, mean, stddev), log_normal_of(v.y, mean, stddev),
                     log_normal_of(v.z, mean, stddev), log_normal_of(v.w, mean, stddev));
}

// ---- Poisson ------------------------------------------------------------------------------------

namespace cusim::curand_detail {

/// Knuth's multiplication method (lambda < 64).
template <class S>
__host__ __device__ inline unsigned int poisson_knuth(S* state, float lambda) {
  unsigned int k = 0;
  float p = static_cast<float>(std::exp(static_cast<double>(lambda)));
  do {
    ++k;
    p *= curand_uniform(state);
  } while (p > 1.0);
  return k - 1;
}

/// lgamma of a positive integer, as cuRAND computes it (a table to 9, Stirling's series above).
__host__ __device__ inline double lgamma_integer(int a) {
  const double fa = std::fabs(static_cast<float>(a));
  if (a > 8) {
    double s = 1.0 / fa;
    const double t2 = s * s;
    double sum = -0.1633436431e-2;
    sum = std::fma(sum, t2, 0.83645878922e-3);
    sum = std::fma(sum, t2, -0.5951896861197e-3);
    sum = std::fma(sum, t2, 0.793650576493454e-3);
    sum = std::fma(sum, t2, -0.277777777735865004e-2);
    sum = std::fma(sum, t2, 0.833333333333331018375e-1);
    sum = std::fma(sum, s, 0.918938533204672);
    s = 0.5 * std::log(fa);
    double t = fa - 0.5;
    s = s * t;
    t = s - fa;
    s = s + sum;
    return t + s;
  }
  constexpr double table[] = {0.0, 0.0, 6.931471805599453094e-1, 1.791759469228055001e0, 3.178053830347945620e0,
                              4.787491742782045994e0, 6.579251212010100995e0, 8.525161361065414300e0,
                              1.060460290274525023e1};
  return table[static_cast<int>(fa) - 1];
}

/// The regularized incomplete gamma approximation cuRAND's rejection method uses, and its inverse.
struct gammainc_parameters {
  float alpha, beta;
  explicit gammainc_parameters(float a) {
    alpha = std::fma(1.43248035075540910f, 1.0f / std::sqrt(a - 0.12400979329415655f), 0.00025361074907033f);
    beta = std::fma(0.21096734870196546f, 1.0f / std::sqrt(a - 1.97381164089999420f), 0.94201734077887530f);
  }
};
__host__ __device__ inline float pgammainc(const gammainc_parameters& p, float a, float x) {
  float t = std::fma(p.alpha, a - x, -p.beta);
  t = 1.0f + std::exp(t);
  return 1.0f / (t * t);
}
__host__ __device__ inline float pgammaincinv(const gammainc_parameters& p, float a, float y) {
  float t = 1.0f / std::sqrt(y) - 1.0f;
  t = std::log(t);
  t = p.beta + t;
  return std::fma(-t, 1.0f / p.alpha, a);
}

/// The rejection method (64 <= lambda <= 4000).
template <class S>
__host__ __device__ inline unsigned int poisson_gammainc(S* state, float lambda) {
  const gammainc_parameters p(lambda);
  const float logl = std::log(lambda);
  for (;;) {
    const float y = curand_uniform(state);
    const float x = std::floor(pgammaincinv(p, lambda, y));
    float z = curand_uniform(state);
    const float v = (pgammainc(p, lambda, x + 1.0f) - pgammainc(p, lambda, x)) * 1.3f;
    z = z * v;
    const float t = std::exp(std::fma(x, logl, -lambda) -
                             static_cast<float>(lgamma_integer(static_cast<int>(1.0f + x))));
    if (z < t && v >= 1e-20) return static_cast<unsigned int>(x);
  }
}

template <class S>
__host__ __device__ inline unsigned int poisson(S* state, double lambda) {
  if (lambda < 64) return poisson_knuth(state, static_cast<float>(lambda));
  if (lambda > 4000) return static_cast<unsigned int>(std::fma(std::sqrt(lambda), curand_normal_double(state), lambda) + 0.5);
  return poisson_gammainc(state, static_cast<float>(lambda));
}

}  // namespace cusim::curand_detail

__host__ __device__ inline unsigned int curand_poisson(curandStateXORWOW_t* state, double lambda) {
  return cusim::curand_detail::poisson(state, lambda);
}
__host__ __device__ inline unsigned int curand_poisson(curandStatePhilox4_32_10_t* state, double lambda) {
  return cusim::curand_detail::poisson(state, lambda);
}
__host__ __device__ inline unsigned int curand_poisson(curandStateMRG32k3a_t* state, double lambda) {
  return cusim::curand_detail::poisson(state, lambda);
}
__host__ __device__ inline uint4 curand_poisson4(curandStatePhilox4_32_10_t* state, double lambda) {
  if (lambda > 4000) {
    const double2 a = curand_normal2_double(state);
    const double2 b = curand_normal2_double(state);
    const double r = std::sqrt(lambda);
    auto round = [&](double x) { return static_cast<unsigned int>(std::fma(r, x, lambda) + 0.5); };
    return make_uint4(round(a.x), round(a.y), round(b.x), round(b.y));
  }
  uint4 r;
  r.x = curand_poisson(state, lambda);
  r.y = curand_poisson(state, lambda);
  r.z = curand_poisson(state, lambda);
  r.w = curand_poisson(state, lambda);
  return r;
}

#endif  // CUSIM_CUDA_CURAND_KERNEL_H_
