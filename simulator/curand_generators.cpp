// SPDX-License-Identifier: MIT
// cuRAND's host API (<curand.h>): generators that fill memory with XORWOW, Philox4_32_10 or
// MRG32k3a numbers in cuRAND's default ordering, from the arithmetic the device API uses
// (include/cusim/lib/curand/engines.hpp).
//
// The ordering (CURAND_ORDERING_PSEUDO_DEFAULT, as NVIDIA's library lays it out): XORWOW runs
// 4096 states and MRG32k3a 81920, state s on subsequence s; output unit m of a call that starts at
// offset o is drawn by state (o + m) mod N, and a state starts at the number of positions below o
// that are its own. A unit is one value (curandGenerate, curandGenerateUniform), one Box-Muller
// pair (the normal and log-normal calls: two values, XORWOW's double pairs drawing four) or, for
// XORWOW's doubles, one value of two draws. Philox runs 65536 states; state s owns the blocks of
// four consecutive 32-bit values at positions 4 (s + 65536 k), its k-th Philox output; floats,
// doubles and normals take consecutive 32-bit values. The offset advances by the units drawn.
// A device generator writes device memory in its stream's order: the stream is synchronised
// first, then the values are written.
#include <cusim/cuda_runtime.hpp>
#include <cusim/lib/curand/engines.hpp>

#include <cuda/curand.h>

#include <cmath>
#include <cstdint>
#include <new>

struct curandGenerator_st {
  curandRngType_t type;
  bool host;
  unsigned long long seed = 0;
  unsigned long long offset = 0;
  curandOrdering_t ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
  cudaStream_t stream = nullptr;
};

namespace {

using namespace cusim::curand_detail;

constexpr unsigned xorwow_states = 4096;
constexpr unsigned mrg_states = 81920;
constexpr unsigned long long philox_states = 65536;

bool supported(curandRngType_t t) {
  return t == CURAND_RNG_PSEUDO_DEFAULT || t == CURAND_RNG_PSEUDO_XORWOW || t == CURAND_RNG_PSEUDO_PHILOX4_32_10 ||
         t == CURAND_RNG_PSEUDO_MRG32K3A;
}
bool known(curandRngType_t t) {
  switch (t) {
    case CURAND_RNG_TEST:
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW:
    case CURAND_RNG_PSEUDO_MRG32K3A:
    case CURAND_RNG_PSEUDO_MTGP32:
    case CURAND_RNG_PSEUDO_MT19937:
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64: return true;
  }
  return false;
}

curandStatus_t create(curandGenerator_t* generator, curandRngType_t type, bool host) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (!known(type) || !supported(type)) return CURAND_STATUS_TYPE_ERROR;
  auto* g = new (std::nothrow) curandGenerator_st{};
  if (g == nullptr) return CURAND_STATUS_ALLOCATION_FAILED;
  g->type = type == CURAND_RNG_PSEUDO_DEFAULT ? CURAND_RNG_PSEUDO_XORWOW : type;
  g->host = host;
  *generator = g;
  return CURAND_STATUS_SUCCESS;
}

/// Generators whose state is a sequence of draws (XORWOW, MRG32k3a): units of `draws` draws,
/// dealt round-robin over `states` states from offset `o` (the header's ordering). `emit(m, s)`
/// writes unit m from state s.
template <class State, class Init, class Emit>
void round_robin(unsigned long long o, unsigned long long units, unsigned states, Init init, Emit emit) {
  const unsigned long long r = o % states;
  const unsigned long long used = units < states ? units : states;
  for (unsigned long long i = 0; i < used; ++i) {
    const unsigned long long s = (r + i) % states;
    State st;
    init(st, s, o / states + (s < r ? 1 : 0));
    for (unsigned long long m = i; m < units; m += states) emit(m, st);
  }
}

struct xorwow {
  std::uint32_t d, v[5];
};
struct mrg {
  std::uint32_t s1[3], s2[3];
};

auto xorwow_init(unsigned long long seed) {
  return [seed](xorwow& st, unsigned long long s, unsigned long long skip) {
    xorwow_seed(seed, st.d, st.v);
    xorwow_jump(st.v, s, true);
    xorwow_skip(st.d, st.v, skip);
  };
}
auto mrg_init(unsigned long long seed) {
  return [seed](mrg& st, unsigned long long s, unsigned long long skip) {
    mrg32k3a_seed(seed, st.s1, st.s2);
    mrg32k3a_jump(st.s1, st.s2, s, 76);
    mrg32k3a_jump(st.s1, st.s2, skip, 0);
  };
}

/// Philox's 32-bit value at position p.
std::uint32_t philox_value(unsigned long long seed, unsigned long long p) {
  const unsigned long long block = p / 4;
  const unsigned long long s = block % philox_states, k = block / philox_states;
  const philox_block b = philox4x32_10(
      philox_block{{static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(s),
                    static_cast<std::uint32_t>(s >> 32)}},
      static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  return b.w[p % 4];
}

/// The kinds of output.
enum class kind { bits, uniform, uniform_double, normal, normal_double, log_normal, log_normal_double };

template <class T>
curandStatus_t generate(curandGenerator_t g, T* out, std::size_t n, kind k, double mean = 0, double stddev = 1) {
  if (g == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  const bool pairs = k == kind::normal || k == kind::normal_double || k == kind::log_normal ||
                     k == kind::log_normal_double;
  if (pairs && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (n == 0) return CURAND_STATUS_SUCCESS;
  if (out == nullptr) return CURAND_STATUS_LAUNCH_FAILURE;
  if (!g->host) {
    // In stream order: what the stream has queued before writes first.
    if (cudaStreamSynchronize(g->stream) != cudaSuccess) return CURAND_STATUS_LAUNCH_FAILURE;
  }
  const unsigned long long o = g->offset, seed = g->seed;
  const unsigned long long units = pairs ? n / 2 : n;
  const auto shape = [&](double x) { return std::fma(stddev, x, mean); };
  const auto shape_f = [&](float x) { return std::fma(static_cast<float>(stddev), x, static_cast<float>(mean)); };
  auto put_pair = [&](unsigned long long m, double x, double y) {
    if (k == kind::log_normal_double) {
      x = std::exp(shape(x));
      y = std::exp(shape(y));
    } else {
      x = shape(x);
      y = shape(y);
    }
    out[2 * m] = static_cast<T>(x);
    out[2 * m + 1] = static_cast<T>(y);
  };
  auto put_pair_f = [&](unsigned long long m, float x, float y) {
    if (k == kind::log_normal) {
      x = static_cast<float>(std::exp(static_cast<double>(shape_f(x))));
      y = static_cast<float>(std::exp(static_cast<double>(shape_f(y))));
    } else {
      x = shape_f(x);
      y = shape_f(y);
    }
    out[2 * m] = static_cast<T>(x);
    out[2 * m + 1] = static_cast<T>(y);
  };
  switch (g->type) {
    case CURAND_RNG_PSEUDO_XORWOW:
      round_robin<xorwow>(o, units, xorwow_states, xorwow_init(seed), [&](unsigned long long m, xorwow& st) {
        auto next = [&] { return xorwow_next(st.d, st.v); };
        switch (k) {
          case kind::bits: out[m] = static_cast<T>(next()); break;
          case kind::uniform: out[m] = static_cast<T>(uniform(next())); break;
          case kind::uniform_double: {
            const std::uint32_t x = next();
            out[m] = static_cast<T>(uniform_double_hq(x, next()));
            break;
          }
          case kind::normal:
          case kind::log_normal: {
            const std::uint32_t x = next();
            const float_pair p = box_muller(x, next());
            put_pair_f(m, p.x, p.y);
            break;
          }
          case kind::normal_double:
          case kind::log_normal_double: {
            const std::uint32_t a = next(), b = next(), c = next();
            const double_pair p = box_muller_double(a, b, c, next());
            put_pair(m, p.x, p.y);
            break;
          }
        }
      });
      break;
    case CURAND_RNG_PSEUDO_MRG32K3A:
      round_robin<mrg>(o, units, mrg_states, mrg_init(seed), [&](unsigned long long m, mrg& st) {
        auto next = [&] { return mrg32k3a_next(st.s1, st.s2); };
        switch (k) {
          case kind::bits: out[m] = static_cast<T>(mrg32k3a_bits(next())); break;
          case kind::uniform: out[m] = static_cast<T>(static_cast<float>(next() * mrg_norm)); break;
          case kind::uniform_double: out[m] = static_cast<T>(next() * mrg_norm); break;
          case kind::normal:
          case kind::log_normal: {
            const float x = static_cast<float>(next() * mrg_norm);
            const float_pair p = box_muller_mrg(x, static_cast<float>(next() * mrg_norm));
            put_pair_f(m, p.x, p.y);
            break;
          }
          case kind::normal_double:
          case kind::log_normal_double: {
            const double x = next() * mrg_norm;
            const double_pair p = box_muller_mrg_double(x, next() * mrg_norm);
            put_pair(m, p.x, p.y);
            break;
          }
        }
      });
      break;
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      for (unsigned long long m = 0; m < units; ++m) {
        auto at = [&](unsigned long long i) { return philox_value(seed, i); };
        switch (k) {
          case kind::bits: out[m] = static_cast<T>(at(o + m)); break;
          case kind::uniform: out[m] = static_cast<T>(uniform(at(o + m))); break;
          case kind::uniform_double: {
            const unsigned long long p = 2 * (o + m);
            out[m] = static_cast<T>(uniform_double_hq(at(p), at(p + 1)));
            break;
          }
          case kind::normal:
          case kind::log_normal: {
            const unsigned long long p = 2 * (o + m);
            const float_pair v = box_muller(at(p), at(p + 1));
            put_pair_f(m, v.x, v.y);
            break;
          }
          case kind::normal_double:
          case kind::log_normal_double: {
            const unsigned long long p = 4 * (o + m);
            const double_pair v = box_muller_double(at(p), at(p + 1), at(p + 2), at(p + 3));
            put_pair(m, v.x, v.y);
            break;
          }
        }
      }
      break;
    default: return CURAND_STATUS_TYPE_ERROR;
  }
  g->offset += units;
  return CURAND_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, false);
}
curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, true);
}
curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetVersion(int* version) {
  if (version == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  // Only the default ordering's layout is implemented; BEST is documented to be the same.
  if (order != CURAND_ORDERING_PSEUDO_DEFAULT && order != CURAND_ORDERING_PSEUDO_BEST)
    return CURAND_STATUS_OUT_OF_RANGE;
  generator->ordering = order;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateSeeds(curandGenerator_t generator) {
  return generator == nullptr ? CURAND_STATUS_NOT_INITIALIZED : CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* outputPtr, size_t num) {
  return generate(generator, outputPtr, num, kind::bits);
}
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* outputPtr, size_t num) {
  return generate(generator, outputPtr, num, kind::uniform);
}
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr, size_t num) {
  return generate(generator, outputPtr, num, kind::uniform_double);
}
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean, float stddev) {
  return generate(generator, outputPtr, n, kind::normal, mean, stddev);
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                          double stddev) {
  return generate(generator, outputPtr, n, kind::normal_double, mean, stddev);
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                       float stddev) {
  return generate(generator, outputPtr, n, kind::log_normal, mean, stddev);
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                             double stddev) {
  return generate(generator, outputPtr, n, kind::log_normal_double, mean, stddev);
}

}  // extern "C"
