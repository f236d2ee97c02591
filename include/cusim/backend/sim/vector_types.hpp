// SPDX-License-Identifier: MIT
// CUDA's built-in vector types (dim3, uint3, float4, ...) for the host compiler.
#pragma once

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) noexcept
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) noexcept : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const noexcept { return {x, y, z}; }
};

#define CUSIM_VECTOR_TYPES(T, name)                                                          \
  struct name##1 { T x; };                                                                   \
  struct name##2 { T x, y; };                                                                \
  struct name##3 { T x, y, z; };                                                             \
  struct name##4 { T x, y, z, w; };                                                          \
  constexpr name##1 make_##name##1(T x) noexcept { return {x}; }                             \
  constexpr name##2 make_##name##2(T x, T y) noexcept { return {x, y}; }                     \
  constexpr name##3 make_##name##3(T x, T y, T z) noexcept { return {x, y, z}; }             \
  constexpr name##4 make_##name##4(T x, T y, T z, T w) noexcept { return {x, y, z, w}; }

CUSIM_VECTOR_TYPES(int, int)
CUSIM_VECTOR_TYPES(float, float)
CUSIM_VECTOR_TYPES(double, double)
CUSIM_VECTOR_TYPES(long long, longlong)
#undef CUSIM_VECTOR_TYPES
constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) noexcept { return {x, y, z}; }
