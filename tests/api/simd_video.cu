// SPDX-License-Identifier: MIT
// The SIMD video intrinsics (__vadd2 ... __vsads4 and sm_90's __vimax_s32_relu ... __vibmin_u16x2)
// against a per-lane reference written from CUDA's and PTX's documented semantics, and against a
// table of hand-checked words (lanes at 0x80 / 0x7fff / 0x8000, carries that must stay in a lane).
#include "test_support.hpp"

#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {
// Which operation an intrinsic is, for the host's reference.
enum class kind {
  abs, absss, neg, negss,
  add, addss, addus, sub, subss, subus, avgs, avgu, haddu, absdiff, max, min,
  cmpeq, cmpne, cmpge, cmpgt, cmple, cmplt, seteq, setne, setge, setgt, setle, setlt, sad,
  max_relu, min_relu, max3, min3, max3_relu, min3_relu, addmax, addmin, addmax_relu, addmin_relu,
  bmax, bmin, bmax_pred, bmin_pred
};
struct op_info {
  const char* name;
  kind k;
  int width;  // lane width in bits: 8, 16 or 32
  bool is_signed;
};
}  // namespace

// X(intrinsic, kind, lane width, signed lanes): one argument, two, and the __vi* forms.
#define SIMD_UNARY(X)                                                                               \
  X(__vabs2, abs, 16, true) X(__vabs4, abs, 8, true) X(__vabsss2, absss, 16, true)                  \
  X(__vabsss4, absss, 8, true) X(__vneg2, neg, 16, true) X(__vneg4, neg, 8, true)                   \
  X(__vnegss2, negss, 16, true) X(__vnegss4, negss, 8, true)
#define SIMD_BINARY_W(X, n, w)                                                                     \
  X(__vadd##n, add, w, false) X(__vaddss##n, addss, w, true) X(__vaddus##n, addus, w, false)        \
  X(__vsub##n, sub, w, false) X(__vsubss##n, subss, w, true) X(__vsubus##n, subus, w, false)        \
  X(__vavgs##n, avgs, w, true) X(__vavgu##n, avgu, w, false) X(__vhaddu##n, haddu, w, false)        \
  X(__vabsdiffs##n, absdiff, w, true) X(__vabsdiffu##n, absdiff, w, false)                          \
  X(__vmaxs##n, max, w, true) X(__vmaxu##n, max, w, false) X(__vmins##n, min, w, true)              \
  X(__vminu##n, min, w, false) X(__vcmpeq##n, cmpeq, w, false) X(__vcmpne##n, cmpne, w, false)      \
  X(__vcmpges##n, cmpge, w, true) X(__vcmpgeu##n, cmpge, w, false) X(__vcmpgts##n, cmpgt, w, true)  \
  X(__vcmpgtu##n, cmpgt, w, false) X(__vcmples##n, cmple, w, true) X(__vcmpleu##n, cmple, w, false) \
  X(__vcmplts##n, cmplt, w, true) X(__vcmpltu##n, cmplt, w, false) X(__vseteq##n, seteq, w, false)  \
  X(__vsetne##n, setne, w, false) X(__vsetges##n, setge, w, true) X(__vsetgeu##n, setge, w, false)  \
  X(__vsetgts##n, setgt, w, true) X(__vsetgtu##n, setgt, w, false) X(__vsetles##n, setle, w, true)  \
  X(__vsetleu##n, setle, w, false) X(__vsetlts##n, setlt, w, true) X(__vsetltu##n, setlt, w, false) \
  X(__vsads##n, sad, w, true) X(__vsadu##n, sad, w, false)
#define SIMD_BINARY(X) SIMD_BINARY_W(X, 2, 16) SIMD_BINARY_W(X, 4, 8)
// XI(intrinsic, kind, width, signed, parameter type)
#define SIMD_INT2(XI)                                                                                  \
  XI(__vimax_s32_relu, max_relu, 32, true, int) XI(__vimin_s32_relu, min_relu, 32, true, int)          \
  XI(__vimax_s16x2_relu, max_relu, 16, true, unsigned) XI(__vimin_s16x2_relu, min_relu, 16, true, unsigned)
#define SIMD_INT3(XI)                                                                                     \
  XI(__vimax3_s32, max3, 32, true, int) XI(__vimax3_u32, max3, 32, false, unsigned)                       \
  XI(__vimax3_s16x2, max3, 16, true, unsigned) XI(__vimax3_u16x2, max3, 16, false, unsigned)              \
  XI(__vimin3_s32, min3, 32, true, int) XI(__vimin3_u32, min3, 32, false, unsigned)                       \
  XI(__vimin3_s16x2, min3, 16, true, unsigned) XI(__vimin3_u16x2, min3, 16, false, unsigned)              \
  XI(__vimax3_s32_relu, max3_relu, 32, true, int) XI(__vimax3_s16x2_relu, max3_relu, 16, true, unsigned)  \
  XI(__vimin3_s32_relu, min3_relu, 32, true, int) XI(__vimin3_s16x2_relu, min3_relu, 16, true, unsigned)  \
  XI(__viaddmax_s32, addmax, 32, true, int) XI(__viaddmax_u32, addmax, 32, false, unsigned)               \
  XI(__viaddmax_s16x2, addmax, 16, true, unsigned) XI(__viaddmax_u16x2, addmax, 16, false, unsigned)      \
  XI(__viaddmin_s32, addmin, 32, true, int) XI(__viaddmin_u32, addmin, 32, false, unsigned)               \
  XI(__viaddmin_s16x2, addmin, 16, true, unsigned) XI(__viaddmin_u16x2, addmin, 16, false, unsigned)      \
  XI(__viaddmax_s32_relu, addmax_relu, 32, true, int)                                                     \
  XI(__viaddmax_s16x2_relu, addmax_relu, 16, true, unsigned)                                              \
  XI(__viaddmin_s32_relu, addmin_relu, 32, true, int)                                                     \
  XI(__viaddmin_s16x2_relu, addmin_relu, 16, true, unsigned)
// Each of these gives two outputs: the value, then its predicate(s) (pred_hi * 2 + pred_lo).
#define SIMD_PRED32(XI)                                                                      \
  XI(__vibmax_s32, bmax, 32, true, int) XI(__vibmax_u32, bmax, 32, false, unsigned)          \
  XI(__vibmin_s32, bmin, 32, true, int) XI(__vibmin_u32, bmin, 32, false, unsigned)
#define SIMD_PRED16(XI)                                                                              \
  XI(__vibmax_s16x2, bmax, 16, true, unsigned) XI(__vibmax_u16x2, bmax, 16, false, unsigned)         \
  XI(__vibmin_s16x2, bmin, 16, true, unsigned) XI(__vibmin_u16x2, bmin, 16, false, unsigned)

#define SIMD_COUNT(...) +1
#define SIMD_COUNT2(...) +2
constexpr int n_ops = 0 SIMD_UNARY(SIMD_COUNT) SIMD_BINARY(SIMD_COUNT) SIMD_INT2(SIMD_COUNT)
    SIMD_INT3(SIMD_COUNT) SIMD_PRED32(SIMD_COUNT2) SIMD_PRED16(SIMD_COUNT2);

/// Every intrinsic on (a[i], b[i], c[i]): out[i * n_ops + op], in the order of the lists above.
__global__ void all_intrinsics(cusim::span<const unsigned> a, cusim::span<const unsigned> b,
                               cusim::span<const unsigned> c, cusim::span<unsigned> out) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= static_cast<int>(a.size())) return;
  unsigned x = a[i], y = b[i], z = c[i];
  int k = i * n_ops;
#define SIMD_CALL1(f, ...) out[k++] = f(x);
#define SIMD_CALL2(f, ...) out[k++] = f(x, y);
#define SIMD_CALLI2(f, kind, w, s, T) out[k++] = static_cast<unsigned>(f(static_cast<T>(x), static_cast<T>(y)));
#define SIMD_CALLI3(f, kind, w, s, T) \
  out[k++] = static_cast<unsigned>(f(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z)));
#define SIMD_CALLP32(f, kind, w, s, T)                                           \
  {                                                                              \
    bool pred = false;                                                           \
    out[k++] = static_cast<unsigned>(f(static_cast<T>(x), static_cast<T>(y), &pred)); \
    out[k++] = pred ? 1u : 0u;                                                   \
  }
#define SIMD_CALLP16(f, ...)                     \
  {                                              \
    bool hi = false, lo = false;                 \
    out[k++] = f(x, y, &hi, &lo);                \
    out[k++] = (hi ? 2u : 0u) | (lo ? 1u : 0u);  \
  }
  SIMD_UNARY(SIMD_CALL1)
  SIMD_BINARY(SIMD_CALL2)
  SIMD_INT2(SIMD_CALLI2)
  SIMD_INT3(SIMD_CALLI3)
  SIMD_PRED32(SIMD_CALLP32)
  SIMD_PRED16(SIMD_CALLP16)
}

namespace {
#define SIMD_INFO(f, k, w, s, ...) op_info{#f, kind::k, w, s},
#define SIMD_INFO_PRED(f, k, w, s, ...) op_info{#f, kind::k, w, s}, op_info{#f ".pred", kind::k##_pred, w, s},
const op_info ops[] = {SIMD_UNARY(SIMD_INFO) SIMD_BINARY(SIMD_INFO) SIMD_INT2(SIMD_INFO) SIMD_INT3(SIMD_INFO)
                           SIMD_PRED32(SIMD_INFO_PRED) SIMD_PRED16(SIMD_INFO_PRED)};
static_assert(sizeof(ops) / sizeof(ops[0]) == n_ops);

int op_index(const std::string& name) {
  for (int i = 0; i < n_ops; ++i)
    if (name == ops[i].name) return i;
  FAIL("no intrinsic " << name);
  return -1;
}

// The reference: lanes as exact integers (long long), results reduced modulo 2^width at the end.
long long lane_of(unsigned word, int width, int i, bool is_signed) {
  unsigned long long v = (static_cast<unsigned long long>(word) >> (width * i)) & ((1ull << width) - 1);
  if (is_signed && v >= (1ull << (width - 1))) return static_cast<long long>(v) - (1ll << width);
  return static_cast<long long>(v);
}
/// v modulo 2^width, read back as a lane of that signedness (what a wrapping add leaves).
long long wrap(long long v, int width, bool is_signed) {
  return lane_of(static_cast<unsigned>(static_cast<unsigned long long>(v) & ((1ull << width) - 1)), width, 0,
                 is_signed);
}
long long clamp_to_lane(long long v, int width, bool is_signed) {
  long long lo = is_signed ? -(1ll << (width - 1)) : 0;
  long long hi = is_signed ? (1ll << (width - 1)) - 1 : (1ll << width) - 1;
  return v < lo ? lo : (v > hi ? hi : v);
}
long long max2(long long p, long long q) { return p > q ? p : q; }
long long min2(long long p, long long q) { return p < q ? p : q; }

/// One lane's result, before it is cut to the lane's width.
long long lane_result(const op_info& op, long long p, long long q, long long r) {
  const int w = op.width;
  const bool s = op.is_signed;
  const long long all_ones = -1;
  switch (op.k) {
    case kind::abs: return p < 0 ? -p : p;
    case kind::absss: return clamp_to_lane(p < 0 ? -p : p, w, true);
    case kind::neg: return -p;
    case kind::negss: return clamp_to_lane(-p, w, true);
    case kind::add: return p + q;
    case kind::addss: case kind::addus: return clamp_to_lane(p + q, w, s);
    case kind::sub: return p - q;
    case kind::subss: case kind::subus: return clamp_to_lane(p - q, w, s);
    case kind::avgs: {  // (p + q) / 2 with halves rounded away from zero (PTX vavrg)
      long long sum = p + q, half = sum / 2;
      if (sum % 2 != 0) half += sum > 0 ? 1 : -1;
      return half;
    }
    case kind::avgu: return (p + q + 1) / 2;
    case kind::haddu: return (p + q) / 2;
    case kind::absdiff: return p > q ? p - q : q - p;
    case kind::max: return max2(p, q);
    case kind::min: return min2(p, q);
    case kind::cmpeq: return p == q ? all_ones : 0;
    case kind::cmpne: return p != q ? all_ones : 0;
    case kind::cmpge: return p >= q ? all_ones : 0;
    case kind::cmpgt: return p > q ? all_ones : 0;
    case kind::cmple: return p <= q ? all_ones : 0;
    case kind::cmplt: return p < q ? all_ones : 0;
    case kind::seteq: return p == q;
    case kind::setne: return p != q;
    case kind::setge: return p >= q;
    case kind::setgt: return p > q;
    case kind::setle: return p <= q;
    case kind::setlt: return p < q;
    case kind::max_relu: return max2(max2(p, q), 0);
    case kind::min_relu: return max2(min2(p, q), 0);
    case kind::max3: return max2(max2(p, q), r);
    case kind::min3: return min2(min2(p, q), r);
    case kind::max3_relu: return max2(max2(max2(p, q), r), 0);
    case kind::min3_relu: return max2(min2(min2(p, q), r), 0);
    case kind::addmax: return max2(wrap(p + q, w, s), r);
    case kind::addmin: return min2(wrap(p + q, w, s), r);
    case kind::addmax_relu: return max2(max2(wrap(p + q, w, s), r), 0);
    case kind::addmin_relu: return max2(min2(wrap(p + q, w, s), r), 0);
    case kind::bmax: return max2(p, q);
    case kind::bmin: return min2(p, q);
    case kind::bmax_pred: return p >= q;
    case kind::bmin_pred: return p <= q;
    case kind::sad: break;
  }
  FAIL("no reference for " << op.name);
  return 0;
}

unsigned reference(const op_info& op, unsigned a, unsigned b, unsigned c) {
  const int w = op.width, lanes = 32 / w;
  if (op.k == kind::sad) {  // the sum of the lanes' |a - b|, not cut to a lane
    long long sum = 0;
    for (int i = 0; i < lanes; ++i) {
      long long d = lane_of(a, w, i, op.is_signed) - lane_of(b, w, i, op.is_signed);
      sum += d < 0 ? -d : d;
    }
    return static_cast<unsigned>(sum);
  }
  if (op.k == kind::bmax_pred || op.k == kind::bmin_pred) {  // one bit per lane, high lane first
    unsigned bits = 0;
    for (int i = lanes - 1; i >= 0; --i)
      bits = bits * 2 + static_cast<unsigned>(lane_result(op, lane_of(a, w, i, op.is_signed),
                                                          lane_of(b, w, i, op.is_signed), 0));
    return bits;
  }
  unsigned long long result = 0;
  for (int i = 0; i < lanes; ++i) {
    long long v = lane_result(op, lane_of(a, w, i, op.is_signed), lane_of(b, w, i, op.is_signed),
                              lane_of(c, w, i, op.is_signed));
    result |= (static_cast<unsigned long long>(v) & ((1ull << w) - 1)) << (w * i);
  }
  return static_cast<unsigned>(result);
}

struct inputs {
  std::vector<unsigned> a, b, c;
  void add(unsigned x, unsigned y, unsigned z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

/// Runs every intrinsic on the inputs; result[i][op].
std::vector<std::vector<unsigned>> run_all(const inputs& in) {
  const auto n = in.a.size();
  auto d_a = cusim::to_device(in.a);
  auto d_b = cusim::to_device(in.b);
  auto d_c = cusim::to_device(in.c);
  cusim::device_array<unsigned> out(n * n_ops);
  const int threads = 128;
  cusim::launch(all_intrinsics, static_cast<unsigned>((n + threads - 1) / threads), threads, d_a, d_b, d_c, out);
  auto flat = out.copy_to_host();
  std::vector<std::vector<unsigned>> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i].assign(flat.begin() + static_cast<long>(i * n_ops),
                                                  flat.begin() + static_cast<long>((i + 1) * n_ops));
  return r;
}

std::string hex(unsigned v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08x", v);
  return s;
}
}  // namespace

TEST_CASE("every SIMD intrinsic matches a per-lane reference on lane edge values and random words") {
  inputs in;
  // Lane 0 of a and b takes every pair of edge values; the other lanes other pairs of them.
  const unsigned bytes[8] = {0x00, 0x01, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  const unsigned halves[8] = {0x0000, 0x0001, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff};
  for (unsigned p = 0; p < 8; ++p)
    for (unsigned q = 0; q < 8; ++q) {
      in.add(bytes[p] | bytes[q] << 8 | bytes[p ^ 3] << 16 | bytes[(q + 5) & 7] << 24,
             bytes[q] | bytes[p] << 8 | bytes[(q + 1) & 7] << 16 | bytes[(p + 6) & 7] << 24,
             bytes[(p + q) & 7] * 0x01010101u);
      in.add(halves[p] | halves[q] << 16, halves[q] | halves[p] << 16, halves[(p + q) & 7] | halves[p ^ q] << 16);
      in.add(halves[p] * 0x10001u, halves[q] * 0x10001u, halves[(p * q) & 7] * 0x10001u);
    }
  const unsigned words[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
  for (unsigned x : words)
    for (unsigned y : words) in.add(x, y, y ^ x ^ 0x80000000u);
  std::mt19937 random(20261126);
  for (int i = 0; i < 1500; ++i) {
    unsigned x = random(), y = random(), z = random();
    in.add(x, y, z);
    in.add(x, x ^ (y & 0x01010101u), z);  // equal lanes, and lanes one apart
  }

  auto results = run_all(in);
  int mismatches = 0;
  for (std::size_t i = 0; i < in.a.size(); ++i)
    for (int k = 0; k < n_ops; ++k) {
      unsigned expected = reference(ops[k], in.a[i], in.b[i], in.c[i]);
      if (results[i][k] == expected) continue;
      if (++mismatches > 20) continue;  // report the first few, count the rest
      CAPTURE(ops[k].name);
      CAPTURE(hex(in.a[i]));
      CAPTURE(hex(in.b[i]));
      CAPTURE(hex(in.c[i]));
      CHECK(hex(results[i][k]) == hex(expected));
    }
  CHECK(mismatches == 0);
}

TEST_CASE("SIMD intrinsics on hand-checked words: saturation, rounding, and no carry between lanes") {
  struct hand_case {
    const char* name;
    unsigned a, b, c, expected;
  };
  const unsigned int_max = INT_MAX, int_min = 0x80000000u, minus_1 = 0xffffffffu;
  // Lanes are listed low to high in the comments.
  const hand_case cases[] = {
      {"__vadd4", 0x80ff7f01u, 0x80017f01u, 0, 0x0000fe02u},   // 01+01, 7f+7f, ff+01 (no carry), 80+80
      {"__vadd2", 0xffff7fffu, 0x00010001u, 0, 0x00008000u},   // 7fff+1, ffff+1 wraps alone
      {"__vsub4", 0x00000000u, 0x01010101u, 0, 0xffffffffu},   // every lane borrows alone
      {"__vsub2", 0x00010000u, 0x00000001u, 0, 0x0001ffffu},
      {"__vaddss4", 0x80807f7fu, 0xff01017fu, 0, 0x80817f7fu}, // 254->7f, 128->7f, -127, -129->-128
      {"__vaddus4", 0x80807f7fu, 0xff01017fu, 0, 0xff8180feu}, // fe, 80, 81, 17f->ff
      {"__vaddss2", 0x7fff8000u, 0x0001ffffu, 0, 0x7fff8000u}, // -32768-1 -> 8000, 32767+1 -> 7fff
      {"__vaddus2", 0xffff8000u, 0x00018000u, 0, 0xffffffffu},
      {"__vsubss2", 0x80007fffu, 0x0001ffffu, 0, 0x80007fffu}, // 32767-(-1) -> 7fff, -32768-1 -> 8000
      {"__vsubss4", 0x807f0000u, 0x01ff8001u, 0, 0x807f7fffu}, // -1, 0-(-128)->7f, 127-(-1)->7f, -129->80
      {"__vsubus4", 0x10ff0001u, 0x20010102u, 0, 0x00fe0000u},
      {"__vabs4", 0x80ff7f01u, 0, 0, 0x80017f01u},             // |-128| wraps to 80
      {"__vabsss4", 0x80ff7f01u, 0, 0, 0x7f017f01u},           // ... saturates to 7f
      {"__vabs2", 0x8000ffffu, 0, 0, 0x80000001u},
      {"__vabsss2", 0x8000ffffu, 0, 0, 0x7fff0001u},
      {"__vneg4", 0x80ff0100u, 0, 0, 0x8001ff00u},
      {"__vnegss4", 0x80ff0100u, 0, 0, 0x7f01ff00u},
      {"__vneg2", 0x80000001u, 0, 0, 0x8000ffffu},
      {"__vnegss2", 0x80000001u, 0, 0, 0x7fffffffu},
      {"__vavgs4", 0x7ffffd01u, 0x7f00ff00u, 0, 0x7ffffe01u},  // 1/2->1, -4/2, -1/2->-1, 254/2
      {"__vavgs4", 0x80fefe02u, 0x80ff0101u, 0, 0x80feff02u},  // 3/2->2, -1/2->-1, -3/2->-2, -256/2
      {"__vavgs2", 0xffff0001u, 0x00000000u, 0, 0xffff0001u},  // 1/2 -> 1, -1/2 -> -1
      {"__vavgs2", 0x80007fffu, 0x80007fffu, 0, 0x80007fffu},  // no overflow in the sum
      {"__vavgu4", 0xff0101ffu, 0xff0002ffu, 0, 0xff0102ffu},
      {"__vhaddu4", 0xff0101ffu, 0xff0002ffu, 0, 0xff0001ffu},
      {"__vavgu2", 0xffff0003u, 0xffff0000u, 0, 0xffff0002u},
      {"__vhaddu2", 0xffff0003u, 0xffff0000u, 0, 0xffff0001u},
      // CUDA's own examples, then signed against unsigned order.
      {"__vcmpeq2", 0x1234aba5u, 0x1234aba6u, 0, 0xffff0000u},
      {"__vcmpges2", 0x1234aba5u, 0x1234aba6u, 0, 0xffff0000u},
      {"__vcmpgts2", 0x1234aba5u, 0x1234aba6u, 0, 0x00000000u},
      {"__vcmples2", 0x1234aba5u, 0x1234aba6u, 0, 0xffffffffu},
      {"__vcmplts2", 0x1234aba5u, 0x1234aba6u, 0, 0x0000ffffu},
      {"__vcmpeq4", 0x1234aba5u, 0x1234aba6u, 0, 0xffffff00u},
      {"__vcmplts4", 0x1234aba5u, 0x1234aba6u, 0, 0x000000ffu},
      {"__vcmpgts4", 0x80ff7f01u, 0x7f00ff01u, 0, 0x0000ff00u},
      {"__vcmpgtu4", 0x80ff7f01u, 0x7f00ff01u, 0, 0xffff0000u},
      {"__vsetgts4", 0x80ff7f01u, 0x7f00ff01u, 0, 0x00000100u},
      {"__vsetgtu4", 0x80ff7f01u, 0x7f00ff01u, 0, 0x01010000u},
      {"__vsetges2", 0x80007fffu, 0x7fff8000u, 0, 0x00000001u},
      {"__vsetgeu2", 0x80007fffu, 0x7fff8000u, 0, 0x00010000u},
      {"__vcmpges2", 0x80007fffu, 0x7fff8000u, 0, 0x0000ffffu},
      {"__vcmpgeu2", 0x80007fffu, 0x7fff8000u, 0, 0xffff0000u},
      {"__vseteq4", 0x12345678u, 0x12005678u, 0, 0x01000101u},
      {"__vsetne4", 0x12345678u, 0x12005678u, 0, 0x00010000u},
      {"__vabsdiffs4", 0x807f0080u, 0x7f80ff7fu, 0, 0xffff01ffu},  // 255, 1, 255, 255
      {"__vabsdiffu4", 0x807f0080u, 0x7f80ff7fu, 0, 0x0101ff01u},
      {"__vsads4", 0x807f0080u, 0x7f80ff7fu, 0, 766u},
      {"__vsadu4", 0x807f0080u, 0x7f80ff7fu, 0, 258u},
      {"__vabsdiffs2", 0x80007fffu, 0x7fff8000u, 0, 0xffffffffu},
      {"__vabsdiffu2", 0x80007fffu, 0x7fff8000u, 0, 0x00010001u},
      {"__vsads2", 0x80007fffu, 0x7fff8000u, 0, 131070u},  // 65535 twice: more than a lane holds
      {"__vsadu2", 0x80007fffu, 0x7fff8000u, 0, 2u},
      {"__vmaxs4", 0x80ff7f01u, 0x7f00ff02u, 0, 0x7f007f02u},
      {"__vmaxu4", 0x80ff7f01u, 0x7f00ff02u, 0, 0x80ffff02u},
      {"__vmins4", 0x80ff7f01u, 0x7f00ff02u, 0, 0x80ffff01u},
      {"__vminu4", 0x80ff7f01u, 0x7f00ff02u, 0, 0x7f007f01u},
      {"__vmaxs2", 0x8000ffffu, 0x7fff0001u, 0, 0x7fff0001u},
      {"__vmaxs2", 0x0001fffeu, 0x0002ffffu, 0, 0x0002ffffu},  // both low halves negative
      {"__vmaxu2", 0x8000ffffu, 0x7fff0001u, 0, 0x8000ffffu},
      {"__vimax_s32_relu", 0xfffffffbu, 0xfffffffdu, 0, 0u},
      {"__vimax_s32_relu", 7u, 0xfffffffdu, 0, 7u},
      {"__vimin_s32_relu", 7u, 0xfffffffdu, 0, 0u},
      {"__vimin_s32_relu", 7u, 3u, 0, 3u},
      {"__vimax_s16x2_relu", 0x8000fffeu, 0x00050001u, 0, 0x00050001u},
      {"__vimax_s16x2_relu", 0xfffe8000u, 0xffff8001u, 0, 0u},
      {"__vimin_s16x2_relu", 0x7fff0005u, 0x00030002u, 0, 0x00030002u},
      {"__vimax3_s16x2", 0x80000001u, 0xffff8000u, 0x00017fffu, 0x00017fffu},
      {"__vimax3_u16x2", 0x80000001u, 0xffff8000u, 0x00017fffu, 0xffff8000u},
      {"__vimin3_s16x2", 0x80000001u, 0xffff8000u, 0x00017fffu, 0x80008000u},
      {"__vimin3_u16x2", 0x80000001u, 0xffff8000u, 0x00017fffu, 0x00010001u},
      {"__vimax3_s32", minus_1, int_min, 5u, 5u},
      {"__vimax3_u32", minus_1, int_min, 5u, minus_1},
      {"__vimin3_s32_relu", 3u, int_min, 5u, 0u},
      {"__viaddmax_s32", int_max, 1u, 0u, 0u},  // INT_MAX + 1 wraps to INT_MIN, as add.s32 does
      {"__viaddmin_s32", int_max, 1u, 0u, int_min},
      {"__viaddmax_u32", minus_1, 2u, 0u, 1u},
      {"__viaddmin_u32", minus_1, 2u, 5u, 1u},
      {"__viaddmax_s16x2", 0x7fff0001u, 0x00010001u, 0u, 0x00000002u},  // 7fff+1 wraps to -32768
      {"__viaddmin_s16x2", 0x7fff0001u, 0x00010001u, 0u, 0x80000000u},
      {"__viaddmax_u16x2", 0xffff0001u, 0x00020001u, 0u, 0x00010002u},
      {"__viaddmax_s16x2_relu", 0x0003fff0u, 0x00040001u, 0xfff0fff8u, 0x00070000u},
      {"__vibmax_s32", minus_1, 1u, 0, 1u},
      {"__vibmax_s32.pred", minus_1, 1u, 0, 0u},
      {"__vibmax_u32", minus_1, 1u, 0, minus_1},
      {"__vibmax_u32.pred", minus_1, 1u, 0, 1u},
      {"__vibmin_s32", 2u, 2u, 0, 2u},
      {"__vibmin_s32.pred", 2u, 2u, 0, 1u},
      {"__vibmax_s16x2", 0xffff0001u, 0x00010001u, 0, 0x00010001u},
      {"__vibmax_s16x2.pred", 0xffff0001u, 0x00010001u, 0, 1u},  // hi: -1 >= 1 false, lo: 1 >= 1
      {"__vibmax_u16x2", 0xffff0001u, 0x00010001u, 0, 0xffff0001u},
      {"__vibmax_u16x2.pred", 0xffff0001u, 0x00010001u, 0, 3u},
      {"__vibmin_s16x2", 0xffff0001u, 0x00010001u, 0, 0xffff0001u},
      {"__vibmin_s16x2.pred", 0xffff0001u, 0x00010001u, 0, 3u},
      {"__vibmin_u16x2", 0xffff0001u, 0x00010001u, 0, 0x00010001u},
      {"__vibmin_u16x2.pred", 0xffff0001u, 0x00010001u, 0, 1u},
  };
  inputs in;
  for (const auto& t : cases) in.add(t.a, t.b, t.c);
  auto results = run_all(in);
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const auto& t = cases[i];
    CAPTURE(t.name);
    CAPTURE(hex(t.a));
    CAPTURE(hex(t.b));
    CAPTURE(hex(t.c));
    int k = op_index(t.name);
    CHECK(hex(results[i][k]) == hex(t.expected));
    CHECK(hex(reference(ops[k], t.a, t.b, t.c)) == hex(t.expected));  // the reference agrees
  }
}
