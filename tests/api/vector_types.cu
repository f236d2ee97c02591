// SPDX-License-Identifier: MIT
// CUDA's vector types: every one with CUDA's size, alignment and element type, so that structs
// holding them have the same layout on both backends; every make_* function; dim3 and uint3.
// The static_asserts state the values of CUDA's vector_types.h: nvcc compiling this file checks them.
#include "test_support.hpp"

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

// CUDA 13 deprecates long4, ulong4, longlong4, ulonglong4 and double4 (and their make_*) in favour
// of the _16a/_32a types. They are still CUDA types that existing programs use, so they are tested
// too, with the deprecation diagnostics of nvcc's front end and of the host compiler silenced
// around those uses. The simulator does not deprecate them.
#if defined(__NVCC__)
#  define BEGIN_DEPRECATED_VECTOR_TYPES                                                                   \
    _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1444") _Pragma("nv_diag_suppress 20199") \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#  define END_DEPRECATED_VECTOR_TYPES _Pragma("GCC diagnostic pop") _Pragma("nv_diagnostic pop")
#else
#  define BEGIN_DEPRECATED_VECTOR_TYPES
#  define END_DEPRECATED_VECTOR_TYPES
#endif

namespace {

/// A vector type V of elements E (x, y, ...) with CUDA's sizeof and alignof.
template <class V, class E, std::size_t Size, std::size_t Align>
constexpr bool is_vector = std::is_same_v<decltype(V::x), E> && sizeof(V) == Size && alignof(V) == Align &&
                           std::is_trivially_copyable_v<V> && std::is_standard_layout_v<V>;

static_assert(is_vector<char1, signed char, 1, 1> && is_vector<char2, signed char, 2, 2>);
static_assert(is_vector<char3, signed char, 3, 1> && is_vector<char4, signed char, 4, 4>);
static_assert(is_vector<uchar1, unsigned char, 1, 1> && is_vector<uchar2, unsigned char, 2, 2>);
static_assert(is_vector<uchar3, unsigned char, 3, 1> && is_vector<uchar4, unsigned char, 4, 4>);
static_assert(is_vector<short1, short, 2, 2> && is_vector<short2, short, 4, 4>);
static_assert(is_vector<short3, short, 6, 2> && is_vector<short4, short, 8, 8>);
static_assert(is_vector<ushort1, unsigned short, 2, 2> && is_vector<ushort2, unsigned short, 4, 4>);
static_assert(is_vector<ushort3, unsigned short, 6, 2> && is_vector<ushort4, unsigned short, 8, 8>);
static_assert(is_vector<int1, int, 4, 4> && is_vector<int2, int, 8, 8>);
static_assert(is_vector<int3, int, 12, 4> && is_vector<int4, int, 16, 16>);
static_assert(is_vector<uint1, unsigned, 4, 4> && is_vector<uint2, unsigned, 8, 8>);
static_assert(is_vector<uint3, unsigned, 12, 4> && is_vector<uint4, unsigned, 16, 16>);
static_assert(is_vector<float1, float, 4, 4> && is_vector<float2, float, 8, 8>);
static_assert(is_vector<float3, float, 12, 4> && is_vector<float4, float, 16, 16>);
// 64-bit Linux: long is 8 bytes, and long2 aligns to 2 * sizeof(long).
static_assert(sizeof(long) == 8);
static_assert(is_vector<long1, long, 8, 8> && is_vector<long2, long, 16, 16> && is_vector<long3, long, 24, 8>);
static_assert(is_vector<ulong1, unsigned long, 8, 8> && is_vector<ulong2, unsigned long, 16, 16>);
static_assert(is_vector<ulong3, unsigned long, 24, 8>);
static_assert(is_vector<longlong1, long long, 8, 8> && is_vector<longlong2, long long, 16, 16>);
static_assert(is_vector<longlong3, long long, 24, 8>);
static_assert(is_vector<ulonglong1, unsigned long long, 8, 8> && is_vector<ulonglong2, unsigned long long, 16, 16>);
static_assert(is_vector<ulonglong3, unsigned long long, 24, 8>);
static_assert(is_vector<double1, double, 8, 8> && is_vector<double2, double, 16, 16>);
static_assert(is_vector<double3, double, 24, 8>);
// CUDA 13's explicitly aligned four-element types.
static_assert(is_vector<long4_16a, long, 32, 16> && is_vector<long4_32a, long, 32, 32>);
static_assert(is_vector<ulong4_16a, unsigned long, 32, 16> && is_vector<ulong4_32a, unsigned long, 32, 32>);
static_assert(is_vector<longlong4_16a, long long, 32, 16> && is_vector<longlong4_32a, long long, 32, 32>);
static_assert(is_vector<ulonglong4_16a, unsigned long long, 32, 16>);
static_assert(is_vector<ulonglong4_32a, unsigned long long, 32, 32>);
static_assert(is_vector<double4_16a, double, 32, 16> && is_vector<double4_32a, double, 32, 32>);
BEGIN_DEPRECATED_VECTOR_TYPES
static_assert(is_vector<long4, long, 32, 16> && is_vector<ulong4, unsigned long, 32, 16>);
static_assert(is_vector<longlong4, long long, 32, 16> && is_vector<ulonglong4, unsigned long long, 32, 16>);
static_assert(is_vector<double4, double, 32, 16>);
END_DEPRECATED_VECTOR_TYPES
static_assert(sizeof(dim3) == 12 && alignof(dim3) == 4 && std::is_same_v<decltype(dim3::x), unsigned>);

/// A vector after a char: where the vector starts and how big the struct is follow its alignment.
template <class V>
struct after_char {
  char c;
  V v;
};
static_assert(offsetof(after_char<float4>, v) == 16 && sizeof(after_char<float4>) == 32);
static_assert(offsetof(after_char<double2>, v) == 16 && sizeof(after_char<double2>) == 32);
static_assert(offsetof(after_char<int2>, v) == 8 && sizeof(after_char<int2>) == 16);
static_assert(offsetof(after_char<float2>, v) == 8 && sizeof(after_char<float2>) == 16);
static_assert(offsetof(after_char<short4>, v) == 8 && sizeof(after_char<short4>) == 16);
static_assert(offsetof(after_char<uchar2>, v) == 2 && sizeof(after_char<uchar2>) == 4);
static_assert(offsetof(after_char<float3>, v) == 4 && sizeof(after_char<float3>) == 16);
static_assert(offsetof(after_char<long2>, v) == 16 && sizeof(after_char<long2>) == 32);
static_assert(offsetof(after_char<double4_32a>, v) == 32 && sizeof(after_char<double4_32a>) == 64);

/// A record of mixed vector types, as a program would share it between host code and kernels.
struct rec {
  char tag;
  float4 v;
  double2 d;
  int2 i;
  uchar3 u;
  long2 l;
};
// Byte offsets that host code (and CUDA) expects.
constexpr std::size_t v_at = 16, d_at = 32, i_at = 48, u_at = 56, l_at = 64, rec_size = 80;
static_assert(offsetof(rec, v) == v_at && offsetof(rec, d) == d_at && offsetof(rec, i) == i_at);
static_assert(offsetof(rec, u) == u_at && offsetof(rec, l) == l_at);
static_assert(sizeof(rec) == rec_size && alignof(rec) == 16);

template <class T>
T read_at(const std::vector<unsigned char>& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

/// x + 10 y + 100 z + 1000 w: which component holds which argument of make_*.
template <class V>
__device__ long long digits(const V& v) {
  long long r = static_cast<long long>(v.x);
  if constexpr (requires { v.y; }) r += 10 * static_cast<long long>(v.y);
  if constexpr (requires { v.z; }) r += 100 * static_cast<long long>(v.z);
  if constexpr (requires { v.w; }) r += 1000 * static_cast<long long>(v.w);
  return r;
}

}  // namespace

__global__ void fill_records(cusim::span<rec> out) {
  const int k = cusim::grid<1>();
  if (k >= static_cast<int>(out.size())) return;
  const float f = static_cast<float>(k);
  const auto b = static_cast<unsigned char>(k);
  out[k] = rec{static_cast<char>('a' + k % 26),
               make_float4(f, f + 0.5f, f + 0.25f, -f),
               make_double2(k * 1.5, k * -2.0),
               make_int2(k, -k),
               make_uchar3(b, static_cast<unsigned char>(b + 1), static_cast<unsigned char>(b + 2)),
               make_long2(k * 1000000000000L, -static_cast<long>(k))};
}

TEST_CASE("a kernel fills structs of mixed vector types with the layout host code expects") {
  const int n = 100;
  cusim::device_array<rec> d(n);
  cusim::launch(fill_records, 2, 64, d);
  const std::vector<rec> h = d.copy_to_host();
  REQUIRE(h.size() == static_cast<std::size_t>(n));
  std::vector<unsigned char> bytes(h.size() * sizeof(rec));
  std::memcpy(bytes.data(), h.data(), bytes.size());
  for (int k = 0; k < n; ++k) {
    CAPTURE(k);
    const float f = static_cast<float>(k);
    const rec& r = h[k];
    CHECK(r.tag == 'a' + k % 26);
    CHECK(r.v.x == f);
    CHECK(r.v.y == f + 0.5f);
    CHECK(r.v.z == f + 0.25f);
    CHECK(r.v.w == -f);
    CHECK(r.d.x == k * 1.5);
    CHECK(r.d.y == k * -2.0);
    CHECK(r.i.x == k);
    CHECK(r.i.y == -k);
    CHECK(r.u.x == k);
    CHECK(r.u.y == k + 1);
    CHECK(r.u.z == k + 2);
    CHECK(r.l.x == k * 1000000000000L);
    CHECK(r.l.y == -k);
    // The same values at CUDA's byte offsets.
    const std::size_t at = static_cast<std::size_t>(k) * rec_size;
    CHECK(read_at<char>(bytes, at) == 'a' + k % 26);
    CHECK(read_at<float>(bytes, at + v_at) == f);
    CHECK(read_at<float>(bytes, at + v_at + 12) == -f);
    CHECK(read_at<double>(bytes, at + d_at + 8) == k * -2.0);
    CHECK(read_at<int>(bytes, at + i_at + 4) == -k);
    CHECK(read_at<unsigned char>(bytes, at + u_at + 2) == k + 2);
    CHECK(read_at<long>(bytes, at + l_at) == k * 1000000000000L);
    CHECK(read_at<long>(bytes, at + l_at + 8) == -k);
  }
}

BEGIN_DEPRECATED_VECTOR_TYPES
__global__ void call_every_make(cusim::span<long long> out) {
  int k = 0;
  out[k++] = digits(make_char1(1));
  out[k++] = digits(make_char2(1, 2));
  out[k++] = digits(make_char3(1, 2, 3));
  out[k++] = digits(make_char4(1, 2, 3, 4));
  out[k++] = digits(make_uchar1(1));
  out[k++] = digits(make_uchar2(1, 2));
  out[k++] = digits(make_uchar3(1, 2, 3));
  out[k++] = digits(make_uchar4(1, 2, 3, 4));
  out[k++] = digits(make_short1(1));
  out[k++] = digits(make_short2(1, 2));
  out[k++] = digits(make_short3(1, 2, 3));
  out[k++] = digits(make_short4(1, 2, 3, 4));
  out[k++] = digits(make_ushort1(1));
  out[k++] = digits(make_ushort2(1, 2));
  out[k++] = digits(make_ushort3(1, 2, 3));
  out[k++] = digits(make_ushort4(1, 2, 3, 4));
  out[k++] = digits(make_int1(1));
  out[k++] = digits(make_int2(1, 2));
  out[k++] = digits(make_int3(1, 2, 3));
  out[k++] = digits(make_int4(1, 2, 3, 4));
  out[k++] = digits(make_uint1(1));
  out[k++] = digits(make_uint2(1, 2));
  out[k++] = digits(make_uint3(1, 2, 3));
  out[k++] = digits(make_uint4(1, 2, 3, 4));
  out[k++] = digits(make_long1(1));
  out[k++] = digits(make_long2(1, 2));
  out[k++] = digits(make_long3(1, 2, 3));
  out[k++] = digits(make_long4(1, 2, 3, 4));
  out[k++] = digits(make_ulong1(1));
  out[k++] = digits(make_ulong2(1, 2));
  out[k++] = digits(make_ulong3(1, 2, 3));
  out[k++] = digits(make_ulong4(1, 2, 3, 4));
  out[k++] = digits(make_longlong1(1));
  out[k++] = digits(make_longlong2(1, 2));
  out[k++] = digits(make_longlong3(1, 2, 3));
  out[k++] = digits(make_longlong4(1, 2, 3, 4));
  out[k++] = digits(make_ulonglong1(1));
  out[k++] = digits(make_ulonglong2(1, 2));
  out[k++] = digits(make_ulonglong3(1, 2, 3));
  out[k++] = digits(make_ulonglong4(1, 2, 3, 4));
  out[k++] = digits(make_float1(1));
  out[k++] = digits(make_float2(1, 2));
  out[k++] = digits(make_float3(1, 2, 3));
  out[k++] = digits(make_float4(1, 2, 3, 4));
  out[k++] = digits(make_double1(1));
  out[k++] = digits(make_double2(1, 2));
  out[k++] = digits(make_double3(1, 2, 3));
  out[k++] = digits(make_double4(1, 2, 3, 4));
  out[k++] = digits(make_long4_16a(1, 2, 3, 4));
  out[k++] = digits(make_long4_32a(1, 2, 3, 4));
  out[k++] = digits(make_ulong4_16a(1, 2, 3, 4));
  out[k++] = digits(make_ulong4_32a(1, 2, 3, 4));
  out[k++] = digits(make_longlong4_16a(1, 2, 3, 4));
  out[k++] = digits(make_longlong4_32a(1, 2, 3, 4));
  out[k++] = digits(make_ulonglong4_16a(1, 2, 3, 4));
  out[k++] = digits(make_ulonglong4_32a(1, 2, 3, 4));
  out[k++] = digits(make_double4_16a(1, 2, 3, 4));
  out[k++] = digits(make_double4_32a(1, 2, 3, 4));
}
END_DEPRECATED_VECTOR_TYPES

TEST_CASE("every make_ function builds its vector type with the arguments in x, y, z, w order") {
  constexpr int families = 12, wide = 10;
  cusim::device_array<long long> out(families * 4 + wide);
  cusim::launch(call_every_make, 1, 1, out);
  const std::vector<long long> h = out.copy_to_host();
  const long long expected[4] = {1, 21, 321, 4321};
  for (int i = 0; i < families * 4; ++i) {
    CAPTURE(i);
    CHECK(h[i] == expected[i % 4]);
  }
  for (int i = families * 4; i < families * 4 + wide; ++i) {
    CAPTURE(i);
    CHECK(h[i] == 4321);
  }
}

TEST_CASE("dim3 defaults missing extents to 1 and converts to and from uint3") {
  static_assert(dim3().x == 1 && dim3().y == 1 && dim3().z == 1);
  static_assert(dim3(4).x == 4 && dim3(4).y == 1 && dim3(4, 5).z == 1);
  const dim3 d(uint3{2, 3, 4});
  CHECK(d.x == 2);
  CHECK(d.y == 3);
  CHECK(d.z == 4);
  const uint3 u = dim3(5, 6);
  CHECK(u.x == 5);
  CHECK(u.y == 6);
  CHECK(u.z == 1);
  const dim3 m = make_uint3(7, 8, 9);
  CHECK(m.x * 100 + m.y * 10 + m.z == 789);
}
