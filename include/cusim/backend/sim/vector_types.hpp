// SPDX-License-Identifier: MIT
// CUDA's built-in vector types (dim3, uint3, float4, ...) and their make_* functions for the host compiler.
//
// Alignments matter: CUDA aligns float2 to 8, float4/int4/double2 to 16 and long4_32a to 32 bytes,
// and those alignments decide the layout of every struct that contains a vector type. A buffer
// shared between host code and a kernel (and between the two backends) only means the same thing
// when both sides lay it out alike, so each type here has exactly CUDA's size and alignment:
//   T1, T3: the alignment of T;  T2: 2 * sizeof(T);  T4: 4 * sizeof(T), at most 16;
//   T4_16a, T4_32a (CUDA 13, for the 8-byte element types): 16 and 32.
// CUDA 13 deprecates long4, ulong4, longlong4, ulonglong4 and double4 in favour of the _16a/_32a
// spellings; they are defined here without the deprecation, with CUDA's (16-byte) alignment.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#define CUSIM_VECTOR_TYPES(name, T)                                                                    \
  struct name##1 { T x; };                                                                             \
  struct alignas(2 * sizeof(T)) name##2 { T x, y; };                                                   \
  struct name##3 { T x, y, z; };                                                                       \
  struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) name##4 { T x, y, z, w; };                  \
  constexpr name##1 make_##name##1(T x) noexcept { return {x}; }                                       \
  constexpr name##2 make_##name##2(T x, T y) noexcept { return {x, y}; }                               \
  constexpr name##3 make_##name##3(T x, T y, T z) noexcept { return {x, y, z}; }                       \
  constexpr name##4 make_##name##4(T x, T y, T z, T w) noexcept { return {x, y, z, w}; }

// The explicitly aligned four-element types CUDA 13 adds for 8-byte elements.
#define CUSIM_WIDE_VECTOR_TYPES(name, T)                                                               \
  struct alignas(16) name##4_16a { T x, y, z, w; };                                                    \
  struct alignas(32) name##4_32a { T x, y, z, w; };                                                    \
  constexpr name##4_16a make_##name##4_16a(T x, T y, T z, T w) noexcept { return {x, y, z, w}; }       \
  constexpr name##4_32a make_##name##4_32a(T x, T y, T z, T w) noexcept { return {x, y, z, w}; }

CUSIM_VECTOR_TYPES(char, signed char)
CUSIM_VECTOR_TYPES(uchar, unsigned char)
CUSIM_VECTOR_TYPES(short, short)
CUSIM_VECTOR_TYPES(ushort, unsigned short)
CUSIM_VECTOR_TYPES(int, int)
CUSIM_VECTOR_TYPES(uint, unsigned int)
CUSIM_VECTOR_TYPES(long, long)
CUSIM_VECTOR_TYPES(ulong, unsigned long)
CUSIM_VECTOR_TYPES(longlong, long long)
CUSIM_VECTOR_TYPES(ulonglong, unsigned long long)
CUSIM_VECTOR_TYPES(float, float)
CUSIM_VECTOR_TYPES(double, double)
CUSIM_WIDE_VECTOR_TYPES(long, long)
CUSIM_WIDE_VECTOR_TYPES(ulong, unsigned long)
CUSIM_WIDE_VECTOR_TYPES(longlong, long long)
CUSIM_WIDE_VECTOR_TYPES(ulonglong, unsigned long long)
CUSIM_WIDE_VECTOR_TYPES(double, double)
#undef CUSIM_VECTOR_TYPES
#undef CUSIM_WIDE_VECTOR_TYPES

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) noexcept
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) noexcept : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const noexcept { return {x, y, z}; }
};
