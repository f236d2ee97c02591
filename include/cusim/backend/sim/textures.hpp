// SPDX-License-Identifier: MIT
// CUDA arrays, texture objects and surface objects on the simulator: the types and runtime
// functions with CUDA 13's names and values (cudaMallocArray, cudaCreateTextureObject, ...), and
// the device-side fetches (tex1D/2D/3D, tex1Dfetch, layered and cubemap fetches, surf*read and
// surf*write). A fetch is answered by the simulator (simulator/textures.cpp): point and linear
// filtering with the GPU's 1/256 weights, the address modes, the read modes; a texture or surface
// object that was never created or was destroyed, and a surface access out of range with
// cudaBoundaryModeTrap, are tagged faults of the thread.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/runtime_types.hpp>
#include <cusim/backend/sim/vector_types.hpp>
#include <cusim/detail/source_location.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

// ---- types (driver_types.h, texture_types.h, surface_types.h) -------------------------------------

enum cudaChannelFormatKind : int {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
  int x;
  int y;
  int z;
  int w;
  cudaChannelFormatKind f;
};

constexpr unsigned cudaArrayDefault = 0x00;
constexpr unsigned cudaArrayLayered = 0x01;
constexpr unsigned cudaArraySurfaceLoadStore = 0x02;
constexpr unsigned cudaArrayCubemap = 0x04;
constexpr unsigned cudaArrayTextureGather = 0x08;

enum cudaResourceType : int {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03,
};

struct cudaMipmappedArray;
using cudaMipmappedArray_t = cudaMipmappedArray*;
using cudaMipmappedArray_const_t = const cudaMipmappedArray*;

struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t width;
      std::size_t height;
      std::size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

/// Resource views are accepted only as "none" (the resource's own format).
enum cudaResourceViewFormat : int { cudaResViewFormatNone = 0x00 };
struct cudaResourceViewDesc {
  cudaResourceViewFormat format;
  std::size_t width;
  std::size_t height;
  std::size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
  unsigned int reserved[16];
};

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

enum cudaTextureAddressMode : int {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode : int {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};
enum cudaTextureReadMode : int {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};
enum cudaSurfaceBoundaryMode : int {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
enum cudaSurfaceFormatMode : int {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

using cudaTextureObject_t = unsigned long long;
using cudaSurfaceObject_t = unsigned long long;

// ---- runtime functions ----------------------------------------------------------------------------

extern "C" {
cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width,
                            std::size_t height = 0, unsigned int flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array);
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                     std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                  std::size_t hOffset, std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                       std::size_t hOffset, std::size_t width, std::size_t height,
                                       cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                              std::size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t wOffset, std::size_t hOffset,
                                std::size_t count, cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* desc, const cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc* view, cudaTextureObject_t texture);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surface);
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* resource, cudaSurfaceObject_t surface);
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
}

// ---- channel descriptors (channel_descriptor.h) ---------------------------------------------------

namespace cusim::detail {
/// The scalar and the number of components of a texel type (float, int2, uchar4, ...).
template <class T>
struct texel_traits {
  using scalar = unsigned char;
  static constexpr int count = 0;
};
#define CUSIM_TEXEL_TRAITS(S, V)                                    \
  template <>                                                       \
  struct texel_traits<S> {                                          \
    using scalar = S;                                               \
    static constexpr int count = 1;                                 \
  };                                                                \
  template <>                                                       \
  struct texel_traits<V##1> {                                       \
    using scalar = S;                                               \
    static constexpr int count = 1;                                 \
  };                                                                \
  template <>                                                       \
  struct texel_traits<V##2> {                                       \
    using scalar = S;                                               \
    static constexpr int count = 2;                                 \
  };                                                                \
  template <>                                                       \
  struct texel_traits<V##3> {                                       \
    using scalar = S;                                               \
    static constexpr int count = 3;                                 \
  };                                                                \
  template <>                                                       \
  struct texel_traits<V##4> {                                       \
    using scalar = S;                                               \
    static constexpr int count = 4;                                 \
  };
CUSIM_TEXEL_TRAITS(signed char, char)
CUSIM_TEXEL_TRAITS(unsigned char, uchar)
CUSIM_TEXEL_TRAITS(short, short)
CUSIM_TEXEL_TRAITS(unsigned short, ushort)
CUSIM_TEXEL_TRAITS(int, int)
CUSIM_TEXEL_TRAITS(unsigned int, uint)
CUSIM_TEXEL_TRAITS(float, float)
#undef CUSIM_TEXEL_TRAITS
template <>
struct texel_traits<char> {
  using scalar = char;
  static constexpr int count = 1;
};
}  // namespace cusim::detail

/// CUDA's cudaCreateChannelDesc<T>(): the channels of T, or cudaChannelFormatKindNone.
template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  using traits = cusim::detail::texel_traits<T>;
  using S = typename traits::scalar;
  constexpr int n = traits::count == 3 ? 0 : traits::count;
  constexpr int bits = static_cast<int>(sizeof(S) * 8);
  constexpr cudaChannelFormatKind kind = n == 0                                ? cudaChannelFormatKindNone
                                         : std::is_floating_point<S>::value ? cudaChannelFormatKindFloat
                                         : std::is_signed<S>::value         ? cudaChannelFormatKindSigned
                                                                            : cudaChannelFormatKindUnsigned;
  return cudaChannelFormatDesc{n >= 1 ? bits : 0, n >= 2 ? bits : 0, n >= 4 ? bits : 0, n >= 4 ? bits : 0, kind};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() { return {16, 16, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() { return {16, 16, 16, 16, cudaChannelFormatKindFloat}; }

// ---- device fetches -------------------------------------------------------------------------------

namespace cusim::detail {

/// What a fetch asks the simulator for.
enum class texture_op : unsigned char {
  fetch1d,            ///< tex1Dfetch: an integer index, no filtering
  sample1d,           ///< tex1D, tex1DLod, tex1DGrad
  sample2d,           ///< tex2D, tex2DLod, tex2DGrad
  sample3d,           ///< tex3D, tex3DLod
  sample1d_layered,   ///< tex1DLayered
  sample2d_layered,   ///< tex2DLayered
  sample_cubemap,     ///< texCubemap
  sample_cubemap_layered,
};
/// Four components as the fetch returned them: float bits when `floats`, else 32-bit integers.
struct texel4 {
  std::uint32_t bits[4];
  bool floats;
};
texel4 texture_fetch(cudaTextureObject_t texture, texture_op op, float x, float y, float z, int layer,
                     const source_location& site);
enum class surface_op : unsigned char { d1, d2, d3, d1_layered, d2_layered, cubemap, cubemap_layered };
/// Reads or writes `bytes` bytes at byte column `x`, row `y`, slice or layer `z`.
void surface_access(cudaSurfaceObject_t surface, surface_op op, int x, int y, int z, void* value, std::size_t bytes,
                    bool write, cudaSurfaceBoundaryMode mode, const source_location& site);

template <class S>
S float_component(float f, std::true_type) {
  return static_cast<S>(f);
}
template <class S>
S float_component(float f, std::false_type) {
  return f != f ? S{} : static_cast<S>(static_cast<long long>(f));
}
template <class S>
S texel_component(const texel4& r, int k) {
  if (r.floats) {
    float f;
    std::memcpy(&f, &r.bits[k], sizeof f);
    return float_component<S>(f, std::is_floating_point<S>{});
  }
  return static_cast<S>(static_cast<std::int32_t>(r.bits[k]));
}

template <class T>
T texel_as(const texel4& r) {
  using traits = texel_traits<T>;
  static_assert(traits::count > 0, "a texture fetch returns a scalar or a vector of char, short, int or float");
  using S = typename traits::scalar;
  S c[4];
  for (int k = 0; k < traits::count; ++k) c[k] = texel_component<S>(r, k);
  T out;
  std::memcpy(&out, c, sizeof out);
  return out;
}

using tex_site = source_location;
}  // namespace cusim::detail

#define CUSIM_TEX_SITE ::cusim::detail::source_location site = ::cusim::detail::source_location::current()
#define CUSIM_TEX_OP ::cusim::detail::texture_op

template <class T>
T tex1Dfetch(cudaTextureObject_t t, int x, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(
      cusim::detail::texture_fetch(t, CUSIM_TEX_OP::fetch1d, static_cast<float>(x), 0.f, 0.f, x, site));
}
template <class T>
void tex1Dfetch(T* r, cudaTextureObject_t t, int x, CUSIM_TEX_SITE) {
  *r = tex1Dfetch<T>(t, x, site);
}
template <class T>
T tex1D(cudaTextureObject_t t, float x, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample1d, x, 0.f, 0.f, 0, site));
}
template <class T>
void tex1D(T* r, cudaTextureObject_t t, float x, CUSIM_TEX_SITE) {
  *r = tex1D<T>(t, x, site);
}
template <class T>
T tex2D(cudaTextureObject_t t, float x, float y, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample2d, x, y, 0.f, 0, site));
}
template <class T>
void tex2D(T* r, cudaTextureObject_t t, float x, float y, CUSIM_TEX_SITE) {
  *r = tex2D<T>(t, x, y, site);
}
template <class T>
T tex3D(cudaTextureObject_t t, float x, float y, float z, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample3d, x, y, z, 0, site));
}
template <class T>
void tex3D(T* r, cudaTextureObject_t t, float x, float y, float z, CUSIM_TEX_SITE) {
  *r = tex3D<T>(t, x, y, z, site);
}
template <class T>
T tex1DLayered(cudaTextureObject_t t, float x, int layer, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(
      cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample1d_layered, x, 0.f, 0.f, layer, site));
}
template <class T>
void tex1DLayered(T* r, cudaTextureObject_t t, float x, int layer, CUSIM_TEX_SITE) {
  *r = tex1DLayered<T>(t, x, layer, site);
}
template <class T>
T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(
      cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample2d_layered, x, y, 0.f, layer, site));
}
template <class T>
void tex2DLayered(T* r, cudaTextureObject_t t, float x, float y, int layer, CUSIM_TEX_SITE) {
  *r = tex2DLayered<T>(t, x, y, layer, site);
}
template <class T>
T texCubemap(cudaTextureObject_t t, float x, float y, float z, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample_cubemap, x, y, z, 0, site));
}
template <class T>
void texCubemap(T* r, cudaTextureObject_t t, float x, float y, float z, CUSIM_TEX_SITE) {
  *r = texCubemap<T>(t, x, y, z, site);
}
template <class T>
T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer, CUSIM_TEX_SITE) {
  return cusim::detail::texel_as<T>(
      cusim::detail::texture_fetch(t, CUSIM_TEX_OP::sample_cubemap_layered, x, y, z, layer, site));
}
template <class T>
void texCubemapLayered(T* r, cudaTextureObject_t t, float x, float y, float z, int layer, CUSIM_TEX_SITE) {
  *r = texCubemapLayered<T>(t, x, y, z, layer, site);
}
// Arrays have one level (no mipmapped arrays): the level of detail and the gradients select it.
template <class T>
T tex1DLod(cudaTextureObject_t t, float x, float, CUSIM_TEX_SITE) {
  return tex1D<T>(t, x, site);
}
template <class T>
T tex2DLod(cudaTextureObject_t t, float x, float y, float, CUSIM_TEX_SITE) {
  return tex2D<T>(t, x, y, site);
}
template <class T>
void tex2DLod(T* r, cudaTextureObject_t t, float x, float y, float, CUSIM_TEX_SITE) {
  *r = tex2D<T>(t, x, y, site);
}
template <class T>
T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float, CUSIM_TEX_SITE) {
  return tex3D<T>(t, x, y, z, site);
}
template <class T>
T tex2DGrad(cudaTextureObject_t t, float x, float y, float2, float2, CUSIM_TEX_SITE) {
  return tex2D<T>(t, x, y, site);
}
template <class T>
void tex2DGrad(T* r, cudaTextureObject_t t, float x, float y, float2, float2, CUSIM_TEX_SITE) {
  *r = tex2D<T>(t, x, y, site);
}

#define CUSIM_SURF_MODE cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap
#define CUSIM_SURF_OP ::cusim::detail::surface_op

template <class T>
void surf1Dread(T* r, cudaSurfaceObject_t s, int x, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d1, x, 0, 0, r, sizeof(T), false, mode, site);
}
template <class T>
T surf1Dread(cudaSurfaceObject_t s, int x, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surf1Dread(&r, s, x, mode, site);
  return r;
}
template <class T>
void surf1Dwrite(T v, cudaSurfaceObject_t s, int x, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d1, x, 0, 0, &v, sizeof(T), true, mode, site);
}
template <class T>
void surf2Dread(T* r, cudaSurfaceObject_t s, int x, int y, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d2, x, y, 0, r, sizeof(T), false, mode, site);
}
template <class T>
T surf2Dread(cudaSurfaceObject_t s, int x, int y, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surf2Dread(&r, s, x, y, mode, site);
  return r;
}
template <class T>
void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d2, x, y, 0, &v, sizeof(T), true, mode, site);
}
template <class T>
void surf3Dread(T* r, cudaSurfaceObject_t s, int x, int y, int z, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d3, x, y, z, r, sizeof(T), false, mode, site);
}
template <class T>
T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surf3Dread(&r, s, x, y, z, mode, site);
  return r;
}
template <class T>
void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d3, x, y, z, &v, sizeof(T), true, mode, site);
}
template <class T>
void surf1DLayeredread(T* r, cudaSurfaceObject_t s, int x, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d1_layered, x, 0, layer, r, sizeof(T), false, mode, site);
}
template <class T>
T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surf1DLayeredread(&r, s, x, layer, mode, site);
  return r;
}
template <class T>
void surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d1_layered, x, 0, layer, &v, sizeof(T), true, mode, site);
}
template <class T>
void surf2DLayeredread(T* r, cudaSurfaceObject_t s, int x, int y, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d2_layered, x, y, layer, r, sizeof(T), false, mode, site);
}
template <class T>
T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surf2DLayeredread(&r, s, x, y, layer, mode, site);
  return r;
}
template <class T>
void surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::d2_layered, x, y, layer, &v, sizeof(T), true, mode, site);
}
template <class T>
void surfCubemapread(T* r, cudaSurfaceObject_t s, int x, int y, int face, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::cubemap, x, y, face, r, sizeof(T), false, mode, site);
}
template <class T>
T surfCubemapread(cudaSurfaceObject_t s, int x, int y, int face, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  T r;
  surfCubemapread(&r, s, x, y, face, mode, site);
  return r;
}
template <class T>
void surfCubemapwrite(T v, cudaSurfaceObject_t s, int x, int y, int face, CUSIM_SURF_MODE, CUSIM_TEX_SITE) {
  cusim::detail::surface_access(s, CUSIM_SURF_OP::cubemap, x, y, face, &v, sizeof(T), true, mode, site);
}

#undef CUSIM_SURF_MODE
#undef CUSIM_SURF_OP
#undef CUSIM_TEX_SITE
#undef CUSIM_TEX_OP
