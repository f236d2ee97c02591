// SPDX-License-Identifier: MIT
// cuRAND's host API (<curand.h>): generators that fill memory with XORWOW, Philox4_32_10 or
// MRG32k3a numbers in cuRAND's default ordering, from the arithmetic the device API uses
// (include/cusim/lib/curand/engines.hpp).
//
// The ordering (CURAND_ORDERING_PSEUDO_DEFAULT, as NVIDIA's library lays it out; compared with
// its host generators over mixed sequences of calls, offsets and kinds): XORWOW runs 4096 states
// and MRG32k3a 81920, state s on subsequence s. Output unit m of a call is drawn by state
// (position + m) mod N, which continues from its own last draw; after the seed or offset is set,
// a state starts at the number of positions below the offset that are its own. A unit is one
// value (curandGenerate, curandGenerateUniform), one Box-Muller pair (the normal and log-normal
// calls: two draws, XORWOW's double pairs four) or, for XORWOW's doubles, one value of two draws;
// the position advances by the units drawn. Philox runs 65536 states, state s on subsequence s:
// position p's value is lane p mod 4 of state (p / 4) mod 65536's next block, doubles come four
// from two consecutive blocks, normals pair even and odd positions, and the position advances by
// the values drawn, whatever their kind (so Philox also takes odd counts of normals).
// A device generator writes device memory in its stream's order: the stream is synchronised
// first, then the values are written.
#include <cusim/cuda_runtime.hpp>
#include <cusim/lib/curand/engines.hpp>

#include <cuda/curand.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <vector>

namespace cusim::curand_detail {
struct xorwow_state {
  std::uint32_t d, v[5];
};
struct mrg_state {
  std::uint32_t s1[3], s2[3];
};
}  // namespace cusim::curand_detail

struct curandGenerator_st {
  curandRngType_t type;
  bool host;
  unsigned long long seed = 0;
  unsigned long long offset = 0;    // as last set (curandSetGeneratorOffset)
  unsigned long long position = 0;  // the offset plus the units drawn since
  curandOrdering_t ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
  cudaStream_t stream = nullptr;
  // XORWOW's and MRG32k3a's states persist between calls, each from where its last draw left it;
  // a state not yet drawn from since the seed or offset was set is derived when first needed.
  std::vector<cusim::curand_detail::xorwow_state> xorwow_states;
  std::vector<cusim::curand_detail::mrg_state> mrg_states;
  std::vector<std::uint64_t> philox_blocks;
  std::vector<char> ready;

  void restart() {
    position = offset;
    ready.clear();
  }
};

namespace {

using namespace cusim::curand_detail;

constexpr unsigned xorwow_states = 4096;
constexpr unsigned mrg_states = 81920;
constexpr unsigned mrg_legacy_states = 4096;  // CURAND_ORDERING_PSEUDO_LEGACY
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

/// Generators whose state is a sequence of draws (XORWOW, MRG32k3a): units dealt round-robin over
/// `count` states from the generator's position (the header's ordering). A state first drawn from
/// since the last restart is derived by `init(state, s, draws)`, with the number of positions
/// below the offset that are its own; `emit(m, state)` writes unit m.
template <class State, class Init, class Emit>
void round_robin(curandGenerator_st& g, std::vector<State>& states, unsigned long long units, unsigned count, Init init,
                 Emit emit) {
  if (g.ready.size() != count) {
    g.ready.assign(count, 0);
    states.resize(count);
  }
  const unsigned long long r = g.position % count;
  const unsigned long long used = units < count ? units : count;
  for (unsigned long long i = 0; i < used; ++i) {
    const unsigned long long s = (r + i) % count;
    State& st = states[s];
    if (!g.ready[s]) {
      init(st, s, g.offset / count + (s < g.offset % count ? 1 : 0));
      g.ready[s] = 1;
    }
    for (unsigned long long m = i; m < units; m += count) emit(m, st);
  }
  g.position += units;
}

auto xorwow_init(unsigned long long seed) {
  return [seed](xorwow_state& st, unsigned long long s, unsigned long long skip) {
    xorwow_seed(seed, st.d, st.v);
    xorwow_jump(st.v, s, true);
    xorwow_skip(st.d, st.v, skip);
  };
}
auto mrg_init(unsigned long long seed) {
  return [seed](mrg_state& st, unsigned long long s, unsigned long long skip) {
    mrg32k3a_seed(seed, st.s1, st.s2);
    mrg32k3a_jump(st.s1, st.s2, s, 76);
    mrg32k3a_jump(st.s1, st.s2, skip, 0);
  };
}

/// Block k (four 32-bit values) of Philox state s: the counter (k, s) under the seed.
philox_block philox_at(unsigned long long seed, unsigned long long s, unsigned long long k) {
  return philox4x32_10(philox_block{{static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32),
                                     static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(s >> 32)}},
                       static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// Philox's states: the next block of each, derived after a restart from the blocks below the
/// offset that are its own.
std::uint64_t& philox_next_block(curandGenerator_st& g, unsigned long long s) {
  if (g.ready.size() != philox_states) {
    g.ready.assign(philox_states, 0);
    g.philox_blocks.resize(philox_states);
  }
  if (!g.ready[s]) {
    const unsigned long long b = g.offset / 4;
    g.philox_blocks[s] = b / philox_states + (s < b % philox_states ? 1 : 0);
    g.ready[s] = 1;
  }
  return g.philox_blocks[s];
}

/// The kinds of output.
enum class kind { bits, uniform, uniform_double, normal, normal_double, log_normal, log_normal_double };

template <class T>
curandStatus_t generate(curandGenerator_t g, T* out, std::size_t n, kind k, double mean = 0, double stddev = 1) {
  if (g == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  const bool pairs = k == kind::normal || k == kind::normal_double || k == kind::log_normal ||
                     k == kind::log_normal_double;
  // Philox draws normals from any position; the others by whole pairs.
  if (pairs && n % 2 != 0 && g->type != CURAND_RNG_PSEUDO_PHILOX4_32_10) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (n == 0) return CURAND_STATUS_SUCCESS;
  if (out == nullptr) return CURAND_STATUS_LAUNCH_FAILURE;
  if (!g->host) {
    // In stream order: what the stream has queued before writes first.
    if (cudaStreamSynchronize(g->stream) != cudaSuccess) return CURAND_STATUS_LAUNCH_FAILURE;
  }
  const unsigned long long o = g->position, seed = g->seed;
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
  auto put_one = [&](unsigned long long j, double x) {
    out[j] = static_cast<T>(k == kind::log_normal_double ? std::exp(shape(x)) : shape(x));
  };
  auto put_one_f = [&](unsigned long long j, float x) {
    out[j] = static_cast<T>(k == kind::log_normal ? static_cast<float>(std::exp(static_cast<double>(shape_f(x))))
                                                  : shape_f(x));
  };
  switch (g->type) {
    case CURAND_RNG_PSEUDO_XORWOW:
      round_robin(*g, g->xorwow_states, units, xorwow_states, xorwow_init(seed), [&](unsigned long long m, xorwow_state& st) {
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
      round_robin(*g, g->mrg_states, units, g->ordering == CURAND_ORDERING_PSEUDO_LEGACY ? mrg_legacy_states : mrg_states,
                  mrg_init(seed), [&](unsigned long long m, mrg_state& st) {
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
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: {
      // Position p's value is lane p % 4 of a block of state (p / 4) mod 65536, whose next block
      // it takes; doubles take four at a time from two consecutive blocks (curand_uniform4_double,
      // curand_normal4_double), the group of position p from state (p / 4) mod 65536.
      const bool doubles = k == kind::uniform_double || k == kind::normal_double || k == kind::log_normal_double;
      std::uint32_t pending = 0;  // a normal pair's first value
      for (unsigned long long j = 0; j < n; ++j) {
        const unsigned long long p = o + j, s = (p / 4) % philox_states, lane = p % 4;
        std::uint64_t& next = philox_next_block(*g, s);
        if (!doubles) {
          const std::uint32_t v = philox_at(seed, s, next).w[lane];
          if (lane == 3) ++next;
          switch (k) {
            case kind::bits: out[j] = static_cast<T>(v); break;
            case kind::uniform: out[j] = static_cast<T>(uniform(v)); break;
            default: {
              // Pairs are of even and odd positions: a call that starts at an odd one starts with
              // the second value of its pair.
              if (lane % 2 == 0 && j + 1 < n) {
                pending = v;
                continue;
              }
              const std::uint32_t first = lane % 2 == 0 ? v : j == 0 ? philox_at(seed, s, next - (lane == 3)).w[lane - 1] : pending;
              const std::uint32_t second = lane % 2 == 0 ? philox_at(seed, s, next).w[lane + 1] : v;
              const float_pair f = box_muller(first, second);
              if (lane % 2 == 1) {
                if (j > 0) put_one_f(j - 1, f.x);
                put_one_f(j, f.y);
              } else {
                put_one_f(j, f.x);  // the last value of the call, the first of its pair
              }
            }
          }
          continue;
        }
        const philox_block b = philox_at(seed, s, next + lane / 2);
        if (lane == 3) next += 2;
        if (k == kind::uniform_double) {
          out[j] = static_cast<T>(uniform_double_hq(b.w[2 * (lane % 2)], b.w[2 * (lane % 2) + 1]));
        } else {
          const double_pair v = box_muller_double(b.w[0], b.w[1], b.w[2], b.w[3]);
          put_one(j, lane % 2 == 0 ? v.x : v.y);
        }
      }
      g->position += n;  // Philox counts values, whatever their kind
      return CURAND_STATUS_SUCCESS;
    }
    default: return CURAND_STATUS_TYPE_ERROR;
  }
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
  generator->restart();
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  generator->restart();
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  // BEST is DEFAULT; LEGACY is DEFAULT too but for MRG32k3a, which then runs 4096 states. SEEDED
  // (XORWOW's fast seeding) and DYNAMIC are cuRAND's but not implemented here: refused rather
  // than answered in another order (docs/unmodified-cuda.md).
  if (order != CURAND_ORDERING_PSEUDO_DEFAULT && order != CURAND_ORDERING_PSEUDO_BEST &&
      order != CURAND_ORDERING_PSEUDO_LEGACY)
    return CURAND_STATUS_OUT_OF_RANGE;
  generator->ordering = order;
  generator->restart();
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
