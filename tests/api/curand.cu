// SPDX-License-Identifier: MIT
// cuRAND: the device API (<curand_kernel.h>) draws the numbers an H100 drew for the same seed,
// subsequence and offset (../shared/gpu-truth/libraries.h100.txt, section "== curand": the kernel
// below is libraries.cu's `draw`, statement for statement), its skips agree with drawing, and the
// host API (<curand.h>) lays the numbers out as cuRAND's default ordering does and answers CUDA's
// status codes on bad calls. With CUSIM_BACKEND=cuda the headers and library are NVIDIA's and the
// same expectations are the GPU's.
//
// curand_normal (float) goes through the GPU's approximate __sincosf (its special function unit),
// which the simulator computes exactly: those values agree to about 1e-6 and are compared so; the
// double normals go through libdevice's log and sincospi, which round a few values 1 or 2 ulp away
// from the exact result: compared to 1e-15 (docs/unmodified-cuda.md, "cuRAND").
#include "test_support.hpp"

#if CUSIM_BACKEND_IS_SIM()
#  include <cuda/curand.h>
#  include <cuda/curand_kernel.h>
#else
#  include <curand.h>
#  include <curand_kernel.h>
#endif

#include <cmath>
#include <string>
#include <vector>

namespace {
constexpr int n = 6;

/// One generator and seed/subsequence/offset of the H100's output, its five rows.
struct truth {
  const char* generator;
  unsigned long long seed, subsequence, offset;
  unsigned bits[n];
  float uniform[n];
  float normal[n];
  double normal_double[n];
  unsigned poisson[n];
};
const truth h100[] = {
    {"XORWOW", 0ull, 0ull, 0ull,
     {3179217846u, 1883133293u, 2220552389u, 674260989u, 306521119u, 1986458431u},
     {0.227643266f, 0.329358488f, 0.144065306f, 0.187799111f, 0.915383458f, 0.540124834f},
     {-0.0665771365f, -0.216561452f, 0.91585958f, 0.114309721f, -1.46741116f, 0.105184816f},
     {-0.080401525704014445, 0.2320393761084337, 0.19304641063881586, 0.09024231280224787, -0.28569301848502499, 0.22222357707346865},
     {3u, 5u, 7u, 4u, 8u, 6u}},
    {"XORWOW", 1234ull, 0ull, 0ull,
     {624778773u, 1867875844u, 3739671282u, 1954919316u, 3681184389u, 2501467243u},
     {0.201403871f, 0.786745369f, 0.30077213f, 0.366787016f, 0.576859355f, 0.688476861f},
     {-1.15685928f, -0.186758325f, -0.342182606f, -0.598859966f, 1.18461633f, -1.58108175f},
     {0.80114456997443539, 0.43994021835645658, -0.14430181691047894, 0.31854733118440465, -0.11488387706898631, -0.75420865160913908},
     {3u, 7u, 4u, 8u, 4u, 6u}},
    {"XORWOW", 1234ull, 1ull, 0ull,
     {3522650202u, 3978931785u, 2198015705u, 2308946676u, 3475686971u, 75263415u},
     {0.449337572f, 0.799349427f, 0.136307329f, 0.377423793f, 0.103683397f, 0.760390878f},
     {-1.08428335f, -0.228192151f, -0.124950945f, 0.481627673f, -1.12913001f, 0.931023538f},
     {-0.73733040763538604, -1.1952062529313898, 1.6185941691411703, -1.2514436798172601, -0.88406664439321758, -2.0569778092953404},
     {2u, 5u, 5u, 5u, 3u, 3u}},
    {"XORWOW", 1234ull, 7ull, 5ull,
     {2223688508u, 906701663u, 1924992985u, 1459886507u, 3353540823u, 1869013896u},
     {0.114403613f, 0.869678438f, 0.274812728f, 0.726102233f, 0.880768657f, 0.343057007f},
     {-0.446262866f, 1.95280027f, 0.18949376f, 1.01855707f, 0.59668076f, 1.8094492f},
     {1.1959459476588148, -0.17672039917890581, -0.97740162228444161, -0.92659768819422561, -1.0141539514624633, 0.86869284040011041},
     {7u, 4u, 4u, 8u, 2u, 8u}},
    {"XORWOW", 244837814094590ull, 1000ull, 123456ull,
     {2795750380u, 1179340532u, 419399151u, 3961447269u, 1566531282u, 2296390224u},
     {0.604541004f, 0.768261135f, 0.677462697f, 0.526812971f, 0.813780069f, 0.978409052f},
     {0.00628853403f, -0.439263582f, -0.993500233f, 1.43088853f, 0.458485931f, 0.292882949f},
     {-0.67359083979837542, -0.68090632562941422, 1.0869477718253111, -0.020253153478971653, 0.19758456156781745, 1.2467988336862155},
     {2u, 6u, 10u, 3u, 3u, 2u}},
    {"Philox4_32_10", 0ull, 0ull, 0ull,
     {1713891541u, 3781805453u, 3159862348u, 2600524760u, 4175744164u, 1555169499u},
     {0.693930924f, 0.037094079f, 0.0194494221f, 0.319445759f, 0.140946612f, 0.271746993f},
     {0.351582259f, -0.595407009f, 0.445406228f, -0.898825943f, -0.345167339f, -0.127551675f},
     {0.072225156611441368, 0.41003674532547529, -1.3458088751449335, 0.50739153964774231, 0.68536164773251951, 2.5023676501588579},
     {7u, 5u, 5u, 5u, 1u, 5u}},
    {"Philox4_32_10", 1234ull, 0ull, 0ull,
     {546353992u, 3665621163u, 1140953199u, 3419031310u, 2666454581u, 482218876u},
     {0.977164328f, 0.0800607949f, 0.249172732f, 0.984481454f, 0.797226608f, 0.535602272f},
     {0.634095252f, 0.527833581f, -0.691018641f, 1.06132865f, -1.10544562f, 1.9525727f},
     {0.21417808342498879, 0.069233561188513412, -0.88812088353952923, -0.52920672933424795, 0.35604462806461762, -0.78792319049002391},
     {5u, 0u, 3u, 5u, 5u, 3u}},
    {"Philox4_32_10", 1234ull, 1ull, 0ull,
     {3507855656u, 1392278645u, 3354607383u, 253049307u, 118660703u, 1698527859u},
     {0.115283117f, 0.527328908f, 0.171930373f, 0.29317674f, 0.401275069f, 0.613032401f},
     {-1.22499526f, 1.46488619f, 0.350446939f, 0.54982084f, -2.06631613f, -1.64473379f},
     {1.3228504747476102, -1.6898338236226189, 0.45465306407771289, 0.91065579657725171, -0.56290787580286727, -0.41458546259983931},
     {1u, 4u, 8u, 3u, 1u, 2u}},
    {"Philox4_32_10", 1234ull, 7ull, 5ull,
     {2897886456u, 3571722420u, 296027329u, 3990533219u, 711373462u, 3601287622u},
     {0.359928757f, 0.891671956f, 0.697419703f, 0.0902379975f, 0.895910978f, 0.994386911f},
     {-0.740996838f, -2.11564612f, 0.784062088f, 1.74195814f, 1.14936197f, -0.115037039f},
     {0.27990141400405449, -0.4555657565985281, -0.022978588594010807, 0.32219573755925074, -0.71198405938238829, 1.6932677047498483},
     {7u, 10u, 6u, 4u, 6u, 13u}},
    {"Philox4_32_10", 244837814094590ull, 1000ull, 123456ull,
     {850525202u, 482928858u, 3499477642u, 450781412u, 1215713128u, 3810640910u},
     {0.849249721f, 0.592280269f, 0.167306453f, 0.383539706f, 0.539487362f, 0.0578544624f},
     {0.202996597f, 0.0627440736f, -1.32937253f, 0.408614397f, -1.35907364f, -0.179486468f},
     {-2.5660940939764778, 0.17849235760812121, -0.094652897461606419, -2.3330054544571093, 0.74636162749933865, 0.9461535142252594},
     {3u, 3u, 3u, 4u, 5u, 6u}},
    {"MRG32k3a", 0ull, 0ull, 0ull,
     {545508615u, 1368065476u, 1327943825u, 3546985268u, 951893240u, 2290915747u},
     {0.480774194f, 0.355559886f, 0.135988414f, 0.755852222f, 0.575555325f, 0.410064101f},
     {1.49382663f, 0.0904216096f, -0.563034236f, 0.819376886f, 0.330924273f, 1.51831496f},
     {0.20498228391940715, 0.16212735671955561, 0.6837449406065691, 0.31374363204429467, 2.1988094253269757, 0.45213501000232104},
     {4u, 7u, 5u, 6u, 3u, 2u}},
    {"MRG32k3a", 1234ull, 0ull, 0ull,
     {3379073520u, 2521876100u, 213678209u, 1604391373u, 2253011095u, 4200718073u},
     {0.399929374f, 0.801026344f, 0.323588669f, 0.523023427f, 0.450142622f, 0.56723243f},
     {1.27806675f, 0.440587819f, -1.16417193f, 0.367391795f, -1.27073312f, -0.391598523f},
     {-1.7330923063583163, -0.26901768691350436, -0.2806811177686121, 1.1752099527164879, 0.33941583583815432, 0.3422809236249989},
     {6u, 7u, 4u, 5u, 5u, 7u}},
    {"MRG32k3a", 1234ull, 1ull, 0ull,
     {653317650u, 2890950871u, 2749090064u, 2410030135u, 1992398857u, 2170368389u},
     {0.38535285f, 0.0979305208f, 0.114389196f, 0.0371337458f, 0.249082163f, 0.308701813f},
     {-1.0330987f, 0.305387467f, 1.23549879f, -0.543360591f, 1.81957483f, 0.840986311f},
     {1.9945487402831497, -1.316930691294125, 0.63784438326443615, -1.4342723530814458, 0.29959191923618189, 0.89637983521381248},
     {4u, 3u, 3u, 3u, 2u, 5u}},
    {"MRG32k3a", 1234ull, 7ull, 5ull,
     {885815260u, 4192688416u, 2559931890u, 3701172847u, 27202704u, 1592717158u},
     {0.797774017f, 0.516201437f, 0.243483186f, 0.692062855f, 0.676001906f, 0.207107499f},
     {-1.14985764f, 0.628981531f, -1.48871684f, -0.185437679f, 0.0839061812f, 1.51414299f},
     {0.47507529154475919, 0.60495833824932665, 0.44952630011635952, -1.0879953010930201, 0.85507680055692403, 0.53148592885506485},
     {2u, 7u, 7u, 3u, 9u, 5u}},
    {"MRG32k3a", 244837814094590ull, 1000ull, 123456ull,
     {1938040978u, 737056521u, 1658212479u, 1121845458u, 3053703910u, 1649211647u},
     {0.061871931f, 0.149983123f, 0.82766825f, 0.258775979f, 0.700386047f, 0.151579231f},
     {1.6053673f, -0.584351957f, -0.312960237f, 0.0858274251f, 0.897501051f, 0.476141661f},
     {-1.8879177850146696, 1.4174526391406146, 0.60856879089320748, -0.19762773561424474, 1.0281008418833728, 0.61049465104632072},
     {3u, 2u, 3u, 6u, 2u, 6u}},
};

bool close_float(float got, float want) { return std::fabs(got - want) <= 4e-6f * std::fmax(1.0f, std::fabs(want)); }
bool close_double(double got, double want) { return std::fabs(got - want) <= 1e-15 * std::fabs(want); }
}  // namespace

// gpu-truth/libraries.cu's kernel.
template <class State>
__global__ void draw(unsigned long long seed, unsigned long long sub, unsigned long long off, cusim::span<unsigned> u,
                     cusim::span<float> f, cusim::span<float> g, cusim::span<double> gd, cusim::span<unsigned> poi,
                     int count) {
  State s;
  curand_init(seed, sub, off, &s);
  for (int i = 0; i < count; ++i) u[i] = curand(&s);
  for (int i = 0; i < count; ++i) f[i] = curand_uniform(&s);
  for (int i = 0; i < count; ++i) g[i] = curand_normal(&s);
  for (int i = 0; i < count; ++i) gd[i] = curand_normal_double(&s);
  for (int i = 0; i < count; ++i) poi[i] = curand_poisson(&s, 4.5);
}

template <class State>
void check_against_h100(const std::string& name) {
  cusim::device_array<unsigned> u(n), poi(n);
  cusim::device_array<float> f(n), g(n);
  cusim::device_array<double> gd(n);
  int cases = 0;
  for (const truth& t : h100) {
    if (name != t.generator) continue;
    ++cases;
    cusim::launch(draw<State>, 1, 1, t.seed, t.subsequence, t.offset, u, f, g, gd, poi, n);
    const auto hu = u.copy_to_host(), hp = poi.copy_to_host();
    const auto hf = f.copy_to_host(), hg = g.copy_to_host();
    const auto hd = gd.copy_to_host();
    for (int i = 0; i < n; ++i) {
      INFO(name, " seed ", t.seed, " subsequence ", t.subsequence, " offset ", t.offset, " value ", i);
      CHECK(hu[i] == t.bits[i]);
      CHECK(hf[i] == t.uniform[i]);
      CHECK(hp[i] == t.poisson[i]);
      CHECK(close_float(hg[i], t.normal[i]));
      CHECK(close_double(hd[i], t.normal_double[i]));
    }
  }
  CHECK(cases == 5);
}

TEST_CASE("XORWOW draws the H100's numbers (curand, uniform, normal, normal_double, Poisson)") {
  check_against_h100<curandStateXORWOW_t>("XORWOW");
}
TEST_CASE("Philox4_32_10 draws the H100's numbers") { check_against_h100<curandStatePhilox4_32_10_t>("Philox4_32_10"); }
TEST_CASE("MRG32k3a draws the H100's numbers") { check_against_h100<curandStateMRG32k3a_t>("MRG32k3a"); }

// MRG32k3a's curand_init counts subsequences of 2^76 (skipahead_subsequence); its
// skipahead_sequence jumps 2^127. The others' skipahead_sequence is curand_init's subsequence.
template <class State>
__device__ void to_subsequence(unsigned long long k, State* s) {
  skipahead_sequence(k, s);
}
__device__ void to_subsequence(unsigned long long k, curandStateMRG32k3a_t* s) { skipahead_subsequence(k, s); }

// skipahead(k) is k draws; curand_init's subsequence k is a skip to it; curand4 is four
// curand calls from any position; the normal of a pair is kept for the next call; log-normal is
// exp of the normal with the same draws.
template <class State>
__global__ void skips(cusim::span<unsigned> out, cusim::span<float> fo, unsigned long long seed) {
  State a, b, c;
  curand_init(seed, 3, 1000, &a);
  curand_init(seed, 0, 0, &b);
  to_subsequence(3, &b);
  skipahead(1000, &b);
  curand_init(seed, 3, 0, &c);
  for (int i = 0; i < 1000; ++i) curand(&c);
  for (int i = 0; i < 4; ++i) {
    out[3 * i] = curand(&a);
    out[3 * i + 1] = curand(&b);
    out[3 * i + 2] = curand(&c);
  }
  State d, e;
  curand_init(seed, 5, 7, &d);
  curand_init(seed, 5, 7, &e);
  fo[0] = curand_normal(&d);
  fo[1] = curand_normal(&d);
  const float2 pair = curand_normal2(&e);
  fo[2] = pair.x;
  fo[3] = pair.y;
  fo[4] = curand_log_normal(&d, 0.5f, 2.0f);
  fo[5] = curand_log_normal(&d, 0.5f, 2.0f);
  const float2 p2 = curand_normal2(&e);
  fo[6] = expf(0.5f + 2.0f * p2.x);
  fo[7] = expf(0.5f + 2.0f * p2.y);
}

template <class State>
void check_skips() {
  cusim::device_array<unsigned> out(12);
  cusim::device_array<float> fo(8);
  cusim::launch(skips<State>, 1, 1, out, fo, 42ull);
  const auto r = out.copy_to_host();
  const auto f = fo.copy_to_host();
  for (int i = 0; i < 4; ++i) {
    CHECK(r[3 * i] == r[3 * i + 1]);
    CHECK(r[3 * i] == r[3 * i + 2]);
  }
  CHECK(r[0] != r[3]);
  CHECK(f[0] == f[2]);
  CHECK(f[1] == f[3]);
  CHECK(f[0] != f[1]);
  CHECK(std::fabs(f[4] - f[6]) <= 1e-5f * f[6]);
  CHECK(std::fabs(f[5] - f[7]) <= 1e-5f * f[7]);
}

TEST_CASE("skipahead and skipahead_sequence agree with curand_init and with drawing") {
  SUBCASE("XORWOW") { check_skips<curandStateXORWOW_t>(); }
  SUBCASE("Philox4_32_10") { check_skips<curandStatePhilox4_32_10_t>(); }
  SUBCASE("MRG32k3a") { check_skips<curandStateMRG32k3a_t>(); }
}

__global__ void philox_fours(cusim::span<unsigned> out) {
  // From every position within a block of four: curand4 is the next four curand values.
  for (int start = 0; start < 4; ++start) {
    curandStatePhilox4_32_10_t a, b;
    curand_init(7, 2, static_cast<unsigned long long>(start), &a);
    curand_init(7, 2, static_cast<unsigned long long>(start), &b);
    const uint4 v = curand4(&a);
    out[8 * start + 0] = v.x;
    out[8 * start + 1] = v.y;
    out[8 * start + 2] = v.z;
    out[8 * start + 3] = v.w;
    for (int k = 0; k < 4; ++k) out[8 * start + 4 + k] = curand(&b);
  }
}

TEST_CASE("Philox's curand4 is four curand calls from any position") {
  cusim::device_array<unsigned> out(32);
  cusim::launch(philox_fours, 1, 1, out);
  const auto r = out.copy_to_host();
  for (int start = 0; start < 4; ++start)
    for (int k = 0; k < 4; ++k) CHECK(r[8 * start + k] == r[8 * start + 4 + k]);
  CHECK(r[8] == r[1]);  // offset 1 starts one value later
}

// Sobol32 with the first dimension's direction vectors (2^31, 2^30, ...): the points in Gray-code
// order 0, 1/2, 3/4, 1/4, 3/8, ...; an offset is a skip; the scrambled form XORs its constant.
__global__ void sobol(cusim::span<unsigned> out) {
  curandDirectionVectors32_t v;
  for (int k = 0; k < 32; ++k) v[k] = 1u << (31 - k);
  curandStateSobol32_t a, b;
  curand_init(v, 0, &a);
  curand_init(v, 5, &b);
  for (int i = 0; i < 8; ++i) out[i] = curand(&a);
  out[8] = curand(&b);
  curandStateScrambledSobol32_t c;
  curand_init(v, 0x0000ffffu, 2, &c);
  out[9] = curand(&c);
  skipahead(3u, &c);
  out[10] = curand(&c);
}

TEST_CASE("Sobol32 draws the Gray-code order of its direction vectors") {
  cusim::device_array<unsigned> out(11);
  cusim::launch(sobol, 1, 1, out);
  const auto r = out.copy_to_host();
  const unsigned want[] = {0u, 0x80000000u, 0xC0000000u, 0x40000000u, 0x60000000u, 0xE0000000u, 0xA0000000u, 0x20000000u};
  for (int i = 0; i < 8; ++i) CHECK(r[i] == want[i]);
  CHECK(r[8] == want[5]);
  CHECK(r[9] == (want[2] ^ 0x0000ffffu));
  CHECK(r[10] == (want[6] ^ 0x0000ffffu));
}

// The host API, XORWOW's default ordering: 4096 states, state s on subsequence s, so that value
// 0 is subsequence 0's first (the H100's 624778773 for seed 1234), value 1 subsequence 1's first
// (3522650202) and value 4096 subsequence 0's second (1867875844).
TEST_CASE("curandGenerate lays XORWOW's numbers out as cuRAND's default ordering") {
  curandGenerator_t gen = nullptr;
  REQUIRE(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetPseudoRandomGeneratorSeed(gen, 1234) == CURAND_STATUS_SUCCESS);
  cusim::device_array<unsigned> bits(8192);
  REQUIRE(curandGenerate(gen, bits.data(), 8192) == CURAND_STATUS_SUCCESS);
  const auto b = bits.copy_to_host();
  CHECK(b[0] == 624778773u);
  CHECK(b[1] == 3522650202u);
  CHECK(b[4096] == 1867875844u);
  // A second call continues where the first ended; an offset starts there too.
  cusim::device_array<unsigned> more(4);
  REQUIRE(curandGenerate(gen, more.data(), 4) == CURAND_STATUS_SUCCESS);
  CHECK(more.copy_to_host()[0] == 3739671282u);  // subsequence 0's third
  REQUIRE(curandSetGeneratorOffset(gen, 4097) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandGenerate(gen, more.data(), 1) == CURAND_STATUS_SUCCESS);
  CHECK(more.copy_to_host()[0] == 3978931785u);  // subsequence 1's second
  // Uniform floats are curand_uniform of the same values.
  REQUIRE(curandSetGeneratorOffset(gen, 0) == CURAND_STATUS_SUCCESS);
  cusim::device_array<float> uni(2);
  REQUIRE(curandGenerateUniform(gen, uni.data(), 2) == CURAND_STATUS_SUCCESS);
  const auto u = uni.copy_to_host();
  CHECK(u[0] == std::fma(static_cast<float>(624778773u), 2.3283064e-10f, 2.3283064e-10f / 2));
  CHECK(u[0] > 0.14f);
  CHECK(u[0] < 0.15f);
  cusim::device_array<float> normals(4096);
  REQUIRE(curandGenerateNormal(gen, normals.data(), 4096, 10.0f, 2.0f) == CURAND_STATUS_SUCCESS);
  double sum = 0;
  for (float x : normals.copy_to_host()) sum += x;
  CHECK(std::fabs(sum / 4096 - 10.0) < 0.2);
  CHECK(curandDestroyGenerator(gen) == CURAND_STATUS_SUCCESS);
}

// The states persist between calls: one double (two draws of state 0) and then 4096 values:
// states 1 to 4095 give their first, state 0 its third (not its second).
TEST_CASE("a host generator's XORWOW states continue from their own last draw") {
  curandGenerator_t gen = nullptr;
  REQUIRE(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetPseudoRandomGeneratorSeed(gen, 1234) == CURAND_STATUS_SUCCESS);
  cusim::device_array<double> one(1);
  REQUIRE(curandGenerateUniformDouble(gen, one.data(), 1) == CURAND_STATUS_SUCCESS);
  cusim::device_array<unsigned> bits(4096);
  REQUIRE(curandGenerate(gen, bits.data(), 4096) == CURAND_STATUS_SUCCESS);
  const auto b = bits.copy_to_host();
  CHECK(b[0] == 3522650202u);     // subsequence 1's first
  CHECK(b[4095] == 3739671282u);  // subsequence 0's third
  CHECK(curandDestroyGenerator(gen) == CURAND_STATUS_SUCCESS);
}

// Philox: 65536 states by blocks of four values; MRG32k3a: 81920 states, one value each.
TEST_CASE("curandGenerate lays Philox's and MRG32k3a's numbers out as cuRAND's default ordering") {
  curandGenerator_t philox = nullptr, mrg = nullptr;
  REQUIRE(curandCreateGenerator(&philox, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandCreateGenerator(&mrg, CURAND_RNG_PSEUDO_MRG32K3A) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetPseudoRandomGeneratorSeed(philox, 1234) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetPseudoRandomGeneratorSeed(mrg, 1234) == CURAND_STATUS_SUCCESS);
  cusim::device_array<unsigned> bits(81921);
  REQUIRE(curandGenerate(philox, bits.data(), 8) == CURAND_STATUS_SUCCESS);
  auto b = bits.copy_to_host();
  CHECK(b[0] == 546353992u);  // subsequence 0's first four
  CHECK(b[3] == 3419031310u);
  CHECK(b[4] == 3507855656u);  // subsequence 1's first
  REQUIRE(curandGenerate(mrg, bits.data(), 81921) == CURAND_STATUS_SUCCESS);
  b = bits.copy_to_host();
  CHECK(b[0] == 3379073520u);      // subsequence 0's first
  CHECK(b[1] == 653317650u);       // subsequence 1's first
  CHECK(b[81920] == 2521876100u);  // subsequence 0's second
  // CURAND_ORDERING_PSEUDO_LEGACY: MRG32k3a with 4096 states.
  REQUIRE(curandSetGeneratorOrdering(mrg, CURAND_ORDERING_PSEUDO_LEGACY) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetGeneratorOffset(mrg, 0) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandGenerate(mrg, bits.data(), 4097) == CURAND_STATUS_SUCCESS);
  b = bits.copy_to_host();
  CHECK(b[1] == 653317650u);
  CHECK(b[4096] == 2521876100u);
  // Philox takes an odd count of normals; the others draw whole pairs.
  cusim::device_array<float> three(3);
  CHECK(curandGenerateNormal(philox, three.data(), 3, 0.0f, 1.0f) == CURAND_STATUS_SUCCESS);
  CHECK(curandGenerateNormal(mrg, three.data(), 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  CHECK(curandDestroyGenerator(philox) == CURAND_STATUS_SUCCESS);
  CHECK(curandDestroyGenerator(mrg) == CURAND_STATUS_SUCCESS);
}

TEST_CASE("the host generators answer cuRAND's status codes on bad calls") {
  unsigned one = 0;
  float two[3];
  CHECK(curandSetPseudoRandomGeneratorSeed(nullptr, 1) == CURAND_STATUS_NOT_INITIALIZED);
  CHECK(curandGenerate(nullptr, &one, 1) == CURAND_STATUS_NOT_INITIALIZED);
  CHECK(curandDestroyGenerator(nullptr) == CURAND_STATUS_NOT_INITIALIZED);
  curandGenerator_t bad = nullptr;
  CHECK(curandCreateGeneratorHost(&bad, static_cast<curandRngType_t>(7)) == CURAND_STATUS_TYPE_ERROR);
  curandGenerator_t gen = nullptr;
  REQUIRE(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS);
  CHECK(curandGenerateNormal(gen, two, 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  CHECK(curandGenerateLogNormal(gen, two, 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  CHECK(curandSetGeneratorOrdering(gen, CURAND_ORDERING_QUASI_DEFAULT) == CURAND_STATUS_OUT_OF_RANGE);
  CHECK(curandSetGeneratorOrdering(gen, CURAND_ORDERING_PSEUDO_LEGACY) == CURAND_STATUS_SUCCESS);
  CHECK(curandGenerateUniform(gen, two, 0) == CURAND_STATUS_SUCCESS);
  // A host generator writes host memory: the same first value as the device generator's.
  REQUIRE(curandSetPseudoRandomGeneratorSeed(gen, 1234) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandGenerate(gen, &one, 1) == CURAND_STATUS_SUCCESS);
  CHECK(one == 624778773u);
  int version = 0;
  CHECK(curandGetVersion(&version) == CURAND_STATUS_SUCCESS);
  CHECK(version >= 10000);
  CHECK(curandDestroyGenerator(gen) == CURAND_STATUS_SUCCESS);
}
