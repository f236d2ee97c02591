// SPDX-License-Identifier: MIT
// CUDA arrays, texture objects and surface objects: the runtime functions that make and copy
// them, and the fetches kernel code calls (include/cusim/backend/sim/textures.hpp). Filtering
// follows the CUDA Programming Guide's "Texture Fetching" appendix as an H100 answers it
// (../shared/gpu-truth/libraries.h100.txt): the fraction of a linear fetch is rounded to 1/256,
// the weights of a 2-D or 3-D fetch (products of those) are rounded to 1/256 again, and 8- and
// 16-bit unsigned texels read as normalized floats are filtered as 16-bit unsigned integers
// (an 8-bit value v as v * 257), the sum rounded to the nearest integer and divided by 65535.
#include "block_state.hpp"
#include "cuda_arrays.hpp"
#include "debugger.hpp"
#include "device.hpp"
#include "diagnostics.hpp"
#include "last_error.hpp"
#include "memory.hpp"
#include "runtime_errors.hpp"
#include "streams.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

using cusim::sim::fail;

namespace cusim::sim {
namespace {

/// What a texture or surface object reads: texels `row_bytes` apart in rows, `slice_bytes` apart
/// in slices.
struct resource_view {
  char* base = nullptr;
  std::size_t row_bytes = 0;
  std::size_t slice_bytes = 0;
  std::size_t width = 0, height = 1, depth = 1;
  cudaChannelFormatDesc format{};
  int channels = 0;
  std::size_t element = 0;
  cudaArray* array = nullptr;
  bool linear = false;  // cudaResourceTypeLinear: tex1Dfetch only
};

struct object {
  bool alive = false;
  cudaResourceDesc resource{};
  cudaTextureDesc texture{};
  cudaResourceViewDesc view_desc{};
  resource_view view;
};

struct registry {
  std::shared_mutex mutex;
  std::vector<object> textures;  // handle - 1
  std::vector<object> surfaces;
};
registry& objects() {
  static registry* r = new registry;  // outlives kernels still running at exit
  return *r;
}

/// The channels of a format, or 0 when CUDA refuses it: each of x, y, z, w 0, 8, 16 or 32 bits,
/// the used ones first and equal; float channels 16 or 32 bits.
int channels_of(const cudaChannelFormatDesc& d) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int n = 0;
  while (n < 4 && bits[n] != 0) ++n;
  for (int k = n; k < 4; ++k)
    if (bits[k] != 0) return 0;
  if (n == 0 || n == 3) return 0;
  for (int k = 0; k < n; ++k)
    if (bits[k] != bits[0]) return 0;
  if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32) return 0;
  switch (d.f) {
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned: return n;
    case cudaChannelFormatKindFloat: return bits[0] == 8 ? 0 : n;
    default: return 0;
  }
}

float half_to_float(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v;
  if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    v = mantissa != 0 ? std::nanf("") : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}

/// How a texture's texels are filtered and returned.
enum class domain { floats, unorm16, integers };

domain domain_of(const resource_view& v, const cudaTextureDesc& t) {
  if (v.format.f == cudaChannelFormatKindFloat) return domain::floats;
  if (t.readMode == cudaReadModeNormalizedFloat)
    return v.format.f == cudaChannelFormatKindUnsigned ? domain::unorm16 : domain::floats;
  return domain::integers;
}

/// Component `c` of the texel at `p`, in `d`'s terms: a float (signed integers normalized to
/// [-1, 1]), a 16-bit unsigned value, or the integer itself.
struct texel_values {
  float f[4];
  std::int64_t i[4];
};
texel_values read_texel(const char* p, const resource_view& v, domain d) {
  texel_values out{{0.f, 0.f, 0.f, 1.f}, {0, 0, 0, 1}};
  if (d == domain::unorm16) out.i[3] = 65535;
  const int bits = v.format.x;
  for (int c = 0; c < v.channels; ++c) {
    const char* at = p + c * (bits / 8);
    if (v.format.f == cudaChannelFormatKindFloat) {
      if (bits == 16) {
        std::uint16_t h;
        std::memcpy(&h, at, 2);
        out.f[c] = half_to_float(h);
      } else {
        std::memcpy(&out.f[c], at, 4);
      }
      continue;
    }
    std::int64_t value = 0;
    const bool is_signed = v.format.f == cudaChannelFormatKindSigned;
    if (bits == 8) {
      value = is_signed ? static_cast<std::int64_t>(static_cast<std::int8_t>(*at))
                        : static_cast<std::int64_t>(static_cast<std::uint8_t>(*at));
    } else if (bits == 16) {
      std::uint16_t u;
      std::memcpy(&u, at, 2);
      value = is_signed ? static_cast<std::int64_t>(static_cast<std::int16_t>(u)) : static_cast<std::int64_t>(u);
    } else {
      std::uint32_t u;
      std::memcpy(&u, at, 4);
      value = is_signed ? static_cast<std::int64_t>(static_cast<std::int32_t>(u)) : static_cast<std::int64_t>(u);
    }
    if (d == domain::integers) {
      out.i[c] = value;
    } else if (d == domain::unorm16) {
      out.i[c] = bits == 8 ? value * 257 : value;
    } else {  // signed normalized
      const float scale = bits == 8 ? 127.f : 32767.f;
      out.f[c] = std::max(static_cast<float>(value) / scale, -1.f);
    }
  }
  return out;
}

texel_values border_texel(const cudaTextureDesc& t, domain d) {
  texel_values out{};
  for (int c = 0; c < 4; ++c) {
    out.f[c] = t.borderColor[c];
    out.i[c] = d == domain::unorm16 ? std::llround(std::clamp(t.borderColor[c], 0.f, 1.f) * 65535.f) : 0;
  }
  return out;
}

/// Texel index `i` on an axis of `n` texels under `mode`; -1 for the border.
std::int64_t address(std::int64_t i, std::int64_t n, cudaTextureAddressMode mode, bool normalized) {
  if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) mode = cudaAddressModeClamp;
  switch (mode) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
      const std::int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : i;
    default: return std::clamp<std::int64_t>(i, 0, n - 1);
  }
}

/// floor(v) as an integer, NaN as 0 and far values held inside the range.
std::int64_t floor_index(float v) {
  if (v != v) return 0;
  return static_cast<std::int64_t>(std::floor(std::clamp(v, -1e9f, 1e9f)));
}

const char* fetch_name(detail::texture_op op) {
  switch (op) {
    case detail::texture_op::fetch1d: return "tex1Dfetch";
    case detail::texture_op::sample1d: return "tex1D";
    case detail::texture_op::sample2d: return "tex2D";
    case detail::texture_op::sample3d: return "tex3D";
    case detail::texture_op::sample1d_layered: return "tex1DLayered";
    case detail::texture_op::sample2d_layered: return "tex2DLayered";
    case detail::texture_op::sample_cubemap: return "texCubemap";
    case detail::texture_op::sample_cubemap_layered: return "texCubemapLayered";
  }
  return "tex";
}

const char* surface_name(detail::surface_op op, bool write) {
  switch (op) {
    case detail::surface_op::d1: return write ? "surf1Dwrite" : "surf1Dread";
    case detail::surface_op::d2: return write ? "surf2Dwrite" : "surf2Dread";
    case detail::surface_op::d3: return write ? "surf3Dwrite" : "surf3Dread";
    case detail::surface_op::d1_layered: return write ? "surf1DLayeredwrite" : "surf1DLayeredread";
    case detail::surface_op::d2_layered: return write ? "surf2DLayeredwrite" : "surf2DLayeredread";
    case detail::surface_op::cubemap: return write ? "surfCubemapwrite" : "surfCubemapread";
    case detail::surface_op::cubemap_layered: return write ? "surfCubemapLayeredwrite" : "surfCubemapLayeredread";
  }
  return "surf";
}

/// Bumped by every change of the objects or arrays, under the registry's lock: a kernel thread's
/// worker keeps the last object it looked up in each table while the generation stays the same,
/// so that a fetch takes no lock (the workers would contend for the lock's cache line).
std::atomic<std::uint64_t> generation{1};
struct cached_object {
  std::uint64_t generation = 0;
  unsigned long long handle = 0;
  object o;
};
thread_local cached_object cache[2];  // textures, surfaces

/// The object behind `handle` for a kernel thread, or its tagged fault.
const object& find_object(std::vector<object> registry::*table, unsigned long long handle, const char* call,
                          const char* what, const detail::source_location& site) {
  cached_object& c = cache[table == &registry::textures ? 0 : 1];
  if (c.handle == handle && c.generation == generation.load(std::memory_order_acquire)) return c.o;
  enum { found, unknown, destroyed, freed } status = unknown;
  registry& r = objects();
  {
    std::shared_lock lock(r.mutex);
    const std::vector<object>& objs = r.*table;
    if (handle != 0 && handle <= objs.size()) {
      const object& o = objs[handle - 1];
      status = !o.alive ? destroyed : o.view.array != nullptr && o.view.array->freed.load(std::memory_order_acquire) ? freed : found;
      if (status == found) {
        c.generation = generation.load(std::memory_order_relaxed);
        c.handle = handle;
        c.o = o;
      }
    }
  }
  if (status == found) return c.o;
  const thread_record& t = current_record(call);
  if (status == freed)
    raise_fault(freed_array_fetch_error(t.thread_idx, t.block->block_idx, call, what, handle, site));
  raise_fault(bad_texture_object_error(t.thread_idx, t.block->block_idx, call, what, handle, status == destroyed, site));
}

detail::texel4 finish(const float (&f)[4]) {
  detail::texel4 out{};
  out.floats = true;
  std::memcpy(out.bits, f, sizeof f);
  return out;
}

detail::texel4 sample(const object& o, detail::texture_op op, float x, float y, float z, int layer) {
  const resource_view& v = o.view;
  const cudaTextureDesc& t = o.texture;
  const domain d = domain_of(v, t);
  using detail::texture_op;

  int dims = 1;
  bool normalized = t.normalizedCoords != 0;
  std::size_t slice = 0;
  float c[3] = {x, y, z};
  switch (op) {
    case texture_op::sample2d: dims = 2; break;
    case texture_op::sample3d: dims = 3; break;
    case texture_op::sample1d_layered:
      slice = static_cast<std::size_t>(std::clamp<long long>(layer, 0, static_cast<long long>(v.depth) - 1));
      break;
    case texture_op::sample2d_layered:
      dims = 2;
      slice = static_cast<std::size_t>(std::clamp<long long>(layer, 0, static_cast<long long>(v.depth) - 1));
      break;
    case texture_op::sample_cubemap:
    case texture_op::sample_cubemap_layered: {
      // The face and its coordinates (s, t) on it, as the Programming Guide's cubemap table gives.
      const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
      int face;
      float m, s, tt;
      if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, tt = -y;
      } else if (ay >= az) {
        face = y >= 0 ? 2 : 3, m = ay, s = x, tt = y >= 0 ? z : -z;
      } else {
        face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, tt = -y;
      }
      c[0] = (s / m + 1.f) * 0.5f;
      c[1] = (tt / m + 1.f) * 0.5f;
      dims = 2;
      normalized = true;
      const long long layers = static_cast<long long>(v.depth / 6);
      const long long l = op == texture_op::sample_cubemap ? 0 : std::clamp<long long>(layer, 0, layers - 1);
      slice = static_cast<std::size_t>(6 * l + face);
      break;
    }
    default: break;
  }
  const std::int64_t sizes[3] = {static_cast<std::int64_t>(v.width), static_cast<std::int64_t>(v.height),
                                 static_cast<std::int64_t>(v.depth)};
  const char* base = v.base + slice * v.slice_bytes;
  const bool linear = t.filterMode == cudaFilterModeLinear && d != domain::integers;

  // Per axis: the first texel's index and the weight of the second in 1/256 (0 when point).
  std::int64_t first[3] = {0, 0, 0};
  int weight[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    // Wrap and mirror act on the normalized coordinate before it is scaled (the Programming
    // Guide's frac(x) and 1 - frac(x)); scaling first loses bits that the GPU keeps
    // (simpleTexture's rotated image differs from the GPU's at the wrapped edges otherwise).
    float ca = c[a];
    if (normalized && ca == ca && (t.addressMode[a] == cudaAddressModeWrap || t.addressMode[a] == cudaAddressModeMirror)) {
      const float whole = std::floor(ca);
      ca -= whole;
      if (t.addressMode[a] == cudaAddressModeMirror && std::fmod(whole, 2.f) != 0.f) ca = 1.f - ca;
    }
    const float scaled = normalized ? ca * static_cast<float>(sizes[a]) : ca;
    if (linear) {
      const float shifted = scaled - 0.5f;
      first[a] = floor_index(shifted);
      const float fraction = shifted != shifted ? 0.f : shifted - std::floor(shifted);
      weight[a] = static_cast<int>(std::lround(fraction * 256.f));
    } else {
      first[a] = floor_index(scaled);
    }
  }
  const texel_values border = border_texel(t, d);
  auto texel_at = [&](const std::int64_t (&index)[3]) -> texel_values {
    const char* p = base;
    for (int a = 0; a < dims; ++a) {
      const std::int64_t i = address(index[a], sizes[a], t.addressMode[a], normalized);
      if (i < 0) return border;
      p += static_cast<std::size_t>(i) * (a == 0 ? v.element : a == 1 ? v.row_bytes : v.slice_bytes);
    }
    return read_texel(p, v, d);
  };

  if (!linear) {
    const texel_values tv = texel_at(first);
    if (d == domain::integers) {
      detail::texel4 out{};
      for (int k = 0; k < 4; ++k) out.bits[k] = static_cast<std::uint32_t>(tv.i[k]);
      return out;
    }
    float f[4];
    for (int k = 0; k < 4; ++k)
      f[k] = d == domain::unorm16 ? static_cast<float>(tv.i[k]) / 65535.f : tv.f[k];
    return finish(f);
  }

  // The corners' weights in 1/256, summing to 256: along x, 256 - A and A; each further axis splits
  // a weight w into w - round(w * B / 256) and round(w * B / 256). In 2-D that is the product A * B
  // rounded, and A, B and 256 - A - B less or plus it for the others, as the H100's results show.
  std::int64_t weights[8] = {256 - weight[0], weight[0]};
  for (int a = 1; a < dims; ++a)
    for (int k = (1 << a) - 1; k >= 0; --k) {
      const std::int64_t second = (weights[k] * weight[a] + 128) >> 8;
      weights[k + (1 << a)] = second;
      weights[k] -= second;
    }
  // Float texels: the weighted sum rounded once (equal texels give back their value exactly).
  double acc[4] = {0, 0, 0, 0};
  std::int64_t sum[4] = {0, 0, 0, 0};
  for (int corner = 0; corner < (1 << dims); ++corner) {
    const std::int64_t w = weights[corner];
    if (w == 0) continue;
    std::int64_t index[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) index[a] = first[a] + ((corner >> a) & 1);
    const texel_values tv = texel_at(index);
    for (int k = 0; k < 4; ++k) {
      if (d == domain::unorm16)
        sum[k] += w * tv.i[k];
      else
        acc[k] += static_cast<double>(w) * static_cast<double>(tv.f[k]);
    }
  }
  float result[4];
  for (int k = 0; k < 4; ++k)
    result[k] = d == domain::unorm16 ? static_cast<float>((sum[k] + 128) >> 8) / 65535.f
                                     : static_cast<float>(acc[k] / 256.0);
  return finish(result);
}

/// The view of a resource description, or the CUDA error that refuses it.
cudaError_t view_of(const cudaResourceDesc& r, resource_view& v) {
  const cudaDeviceProp& p = device_properties();
  switch (r.resType) {
    case cudaResourceTypeArray: {
      cudaArray* a = r.res.array.array;
      if (!live_array(a)) return cudaErrorInvalidValue;
      v.base = a->data;
      v.row_bytes = a->row_bytes();
      v.slice_bytes = a->slice_bytes();
      v.width = a->extent.width;
      v.height = a->rows;
      v.depth = a->slices;
      v.format = a->desc;
      v.array = a;
      break;
    }
    case cudaResourceTypeLinear: {
      const auto& l = r.res.linear;
      if (l.devPtr == nullptr || reinterpret_cast<std::uintptr_t>(l.devPtr) % p.textureAlignment != 0 ||
          !is_device_range(l.devPtr, l.sizeInBytes))
        return cudaErrorInvalidValue;
      v.format = l.desc;
      v.base = static_cast<char*>(l.devPtr);
      v.linear = true;
      break;
    }
    case cudaResourceTypePitch2D: {
      const auto& l = r.res.pitch2D;
      v.format = l.desc;
      const int n = channels_of(l.desc);
      if (n == 0) return cudaErrorInvalidValue;
      const std::size_t element = static_cast<std::size_t>(n * l.desc.x / 8);
      if (l.devPtr == nullptr || reinterpret_cast<std::uintptr_t>(l.devPtr) % p.textureAlignment != 0 ||
          l.width == 0 || l.height == 0 || l.pitchInBytes % p.texturePitchAlignment != 0 ||
          l.width * element > l.pitchInBytes ||
          !is_device_range(l.devPtr, (l.height - 1) * l.pitchInBytes + l.width * element))
        return cudaErrorInvalidValue;
      v.base = static_cast<char*>(l.devPtr);
      v.row_bytes = l.pitchInBytes;
      v.slice_bytes = l.pitchInBytes * l.height;
      v.width = l.width;
      v.height = l.height;
      break;
    }
    default: return cudaErrorInvalidValue;  // mipmapped arrays are not simulated
  }
  v.channels = channels_of(v.format);
  if (v.channels == 0) return cudaErrorInvalidValue;
  v.element = static_cast<std::size_t>(v.channels * v.format.x / 8);
  if (r.resType == cudaResourceTypeLinear) {
    v.width = r.res.linear.sizeInBytes / v.element;
    v.row_bytes = v.slice_bytes = r.res.linear.sizeInBytes;
    if (v.width == 0) return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

unsigned long long add_object(std::vector<object>& table, object o) {
  o.alive = true;
  table.push_back(o);
  generation.fetch_add(1, std::memory_order_release);
  return table.size();
}

cudaError_t destroy_object(std::vector<object> registry::*table, unsigned long long handle) {
  registry& r = objects();
  std::unique_lock lock(r.mutex);
  std::vector<object>& objs = r.*table;
  if (handle == 0 || handle > objs.size() || !objs[handle - 1].alive) return fail(cudaErrorInvalidValue);
  objs[handle - 1].alive = false;
  generation.fetch_add(1, std::memory_order_release);
  return cudaSuccess;
}

const object* host_object(std::vector<object> registry::*table, unsigned long long handle) {
  std::vector<object>& objs = objects().*table;
  if (handle == 0 || handle > objs.size() || !objs[handle - 1].alive) return nullptr;
  return &objs[handle - 1];
}

/// Device pointer of (x bytes, row y, slice z) of a live array, after checking that `width` bytes by
/// `height` rows fit there.
cudaError_t array_region(const cudaArray* a, std::size_t x, std::size_t y, std::size_t width, std::size_t height,
                         char** at) {
  if (!live_array(a)) return cudaErrorInvalidValue;
  if (x > a->row_bytes() || width > a->row_bytes() - x || y > a->rows || height > a->rows - y)
    return cudaErrorInvalidValue;
  *at = a->data + y * a->row_bytes() + x;
  return cudaSuccess;
}

}  // namespace

}  // namespace cusim::sim

namespace cusim::detail {

texel4 texture_fetch(cudaTextureObject_t texture, texture_op op, float x, float y, float z, int layer,
                     const source_location& site) {
  const char* call = sim::fetch_name(op);
  const sim::object& o = sim::find_object(&sim::registry::textures, texture, call, "texture object", site);
  if (op == texture_op::fetch1d) {
    // An index outside the texture reads zeros, in any address mode.
    const sim::resource_view& v = o.view;
    const sim::domain d = sim::domain_of(v, o.texture);
    texel4 out{};
    out.floats = d != sim::domain::integers;
    if (layer < 0 || static_cast<std::size_t>(layer) >= v.width) return out;
    const sim::texel_values tv = sim::read_texel(v.base + static_cast<std::size_t>(layer) * v.element, v, d);
    if (d == sim::domain::integers) {
      for (int k = 0; k < 4; ++k) out.bits[k] = static_cast<std::uint32_t>(tv.i[k]);
      return out;
    }
    float f[4];
    for (int k = 0; k < 4; ++k) f[k] = d == sim::domain::unorm16 ? static_cast<float>(tv.i[k]) / 65535.f : tv.f[k];
    return sim::finish(f);
  }
  return sim::sample(o, op, x, y, z, layer);
}

void surface_access(cudaSurfaceObject_t surface, surface_op op, int x, int y, int z, void* value, std::size_t bytes,
                    bool write, cudaSurfaceBoundaryMode mode, const source_location& site) {
  const char* call = sim::surface_name(op, write);
  const sim::object& o = sim::find_object(&sim::registry::surfaces, surface, call, "surface object", site);
  const sim::resource_view& v = o.view;
  long long slice = z;
  if (op == surface_op::d1) y = 0, slice = 0;
  if (op == surface_op::d2) slice = 0;
  if (op == surface_op::d1_layered) y = 0;
  const long long row = static_cast<long long>(v.row_bytes);
  const bool inside = x >= 0 && static_cast<long long>(bytes) <= row && x <= row - static_cast<long long>(bytes) &&
                      y >= 0 && static_cast<std::size_t>(y) < v.height && slice >= 0 &&
                      static_cast<std::size_t>(slice) < v.depth;
  long long cx = x, cy = y, cz = slice;
  if (!inside) {
    if (mode == cudaBoundaryModeTrap) {
      const sim::thread_record& t = sim::current_record(call);
      sim::raise_fault(sim::surface_out_of_range_error(t.thread_idx, t.block->block_idx, call, surface, x, y, slice,
                                                       bytes, v.width, v.height, v.depth, v.element, site));
    }
    if (mode == cudaBoundaryModeZero) {
      if (!write) std::memset(value, 0, bytes);
      return;
    }
    const long long last_x = std::max<long long>(0, (row - static_cast<long long>(bytes)) /
                                                        static_cast<long long>(v.element) * static_cast<long long>(v.element));
    cx = std::clamp<long long>(cx, 0, last_x);
    cy = std::clamp<long long>(cy, 0, static_cast<long long>(v.height) - 1);
    cz = std::clamp<long long>(cz, 0, static_cast<long long>(v.depth) - 1);
    if (static_cast<long long>(bytes) > row) {
      if (!write) std::memset(value, 0, bytes);
      return;
    }
  }
  char* at = v.base + static_cast<std::size_t>(cz) * v.slice_bytes + static_cast<std::size_t>(cy) * v.row_bytes +
             static_cast<std::size_t>(cx);
  if (write)
    std::memcpy(at, value, bytes);
  else
    std::memcpy(value, at, bytes);
}

}  // namespace cusim::detail

// ---- the runtime API ------------------------------------------------------------------------------

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

namespace {
/// `caller`: the return address into the program of cudaMallocArray or cudaMalloc3DArray (named
/// by a leak report of the array's storage).
cudaError_t make_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags,
                       std::uintptr_t caller) {
  if (array == nullptr) return fail(cudaErrorInvalidValue);
  *array = nullptr;
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (desc == nullptr) return fail(cudaErrorInvalidValue);
  const int channels = cusim::sim::channels_of(*desc);
  if (channels == 0) return fail(cudaErrorInvalidValue);
  if (flags & ~(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    return fail(cudaErrorInvalidValue);
  const bool layered = flags & cudaArrayLayered, cubemap = flags & cudaArrayCubemap;
  if (extent.width == 0 || (extent.height == 0 && extent.depth != 0 && !layered)) return fail(cudaErrorInvalidValue);
  if (cubemap && (extent.width != extent.height || extent.depth == 0 || extent.depth % 6 != 0 ||
                  (!layered && extent.depth != 6)))
    return fail(cudaErrorInvalidValue);
  if (layered && extent.depth == 0) return fail(cudaErrorInvalidValue);
  const cudaDeviceProp& p = cusim::sim::device_properties();
  // CUDA 13's limits on an H100 (cudaDeviceProp::maxTexture1D, maxTexture2D, maxTexture3D, maxTexture2DLayered).
  if (extent.width > 131072 || extent.height > 65536 || extent.depth > (layered ? 2048u : 16384u))
    return fail(cudaErrorInvalidValue);
  auto a = std::make_unique<cudaArray>();
  a->desc = *desc;
  a->extent = extent;
  a->flags = flags;
  a->element = static_cast<std::size_t>(channels * desc->x / 8);
  a->rows = extent.height == 0 ? 1 : extent.height;
  a->slices = extent.depth == 0 ? 1 : extent.depth;
  const std::size_t bytes = a->slice_bytes() * a->slices;
  if (bytes > p.totalGlobalMem) return fail(cudaErrorMemoryAllocation);
  a->data = static_cast<char*>(cusim::sim::allocate(bytes, cusim::sim::allocation_kind::device, {}, 0, caller));
  if (a->data == nullptr) return fail(cudaErrorMemoryAllocation);
  *array = cusim::sim::keep_array(std::move(a));
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  return make_array(array, desc, extent, flags, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width,
                            std::size_t height, unsigned int flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return fail(cudaErrorInvalidValue);
  return make_array(array, desc, make_cudaExtent(width, height, 0), flags,
                    reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (array == nullptr) return cudaSuccess;
  cusim::sim::wait_for(nullptr);  // like cudaFree, it waits for the device
  std::unique_lock lock(cusim::sim::objects().mutex);
  if (!cusim::sim::forget_array(array)) return fail(cudaErrorInvalidValue);
  cusim::sim::generation.fetch_add(1, std::memory_order_release);
  return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  if (!cusim::sim::live_array(array)) return fail(cudaErrorInvalidValue);
  if (desc != nullptr) *desc = array->desc;
  if (extent != nullptr) *extent = array->extent;
  if (flags != nullptr) *flags = array->flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  if (desc == nullptr || !cusim::sim::live_array(array)) return fail(cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                     std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  char* at = nullptr;
  std::size_t pitch = 0;
  {
    std::shared_lock lock(cusim::sim::objects().mutex);
    if (cudaError_t e = cusim::sim::array_region(dst, wOffset, hOffset, width, height, &at); e != cudaSuccess)
      return fail(e);
    pitch = dst->row_bytes();
  }
  return cudaMemcpy2DAsync(at, pitch, src, spitch, width, height, kind, stream);
}
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, nullptr);
}
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                       std::size_t hOffset, std::size_t width, std::size_t height,
                                       cudaMemcpyKind kind, cudaStream_t stream) {
  char* at = nullptr;
  std::size_t pitch = 0;
  {
    std::shared_lock lock(cusim::sim::objects().mutex);
    if (cudaError_t e = cusim::sim::array_region(src, wOffset, hOffset, width, height, &at); e != cudaSuccess)
      return fail(e);
    pitch = src->row_bytes();
  }
  return cudaMemcpy2DAsync(dst, dpitch, at, pitch, width, height, kind, stream);
}
cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                  std::size_t hOffset, std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, nullptr);
}

namespace {
/// cudaMemcpyToArray and cudaMemcpyFromArray: `count` bytes from (wOffset, hOffset) on, row after
/// row of the array; at most three 2-D copies (the rest of the first row, whole rows, the start of
/// the last).
cudaError_t linear_array_copy(const cudaArray* a, std::size_t wOffset, std::size_t hOffset, void* host,
                              std::size_t count, cudaMemcpyKind kind, bool to_array) {
  std::size_t row = 0, rows = 0;
  char* base = nullptr;
  {
    std::shared_lock lock(cusim::sim::objects().mutex);
    if (!cusim::sim::live_array(a)) return fail(cudaErrorInvalidValue);
    row = a->row_bytes(), rows = a->rows, base = a->data;
  }
  if (wOffset >= row || hOffset >= rows || count > (rows - hOffset) * row - wOffset) return fail(cudaErrorInvalidValue);
  char* p = static_cast<char*>(host);
  std::size_t offset = hOffset * row + wOffset;  // bytes from the array's start
  while (count > 0) {
    const std::size_t x = offset % row, y = offset / row;
    std::size_t width = std::min(row - x, count), height = 1;
    if (x == 0 && count >= row) height = count / row, width = row;
    char* at = base + y * row + x;
    const cudaError_t e = to_array ? cudaMemcpy2D(at, row, p, width, width, height, kind)
                                   : cudaMemcpy2D(p, width, at, row, width, height, kind);
    if (e != cudaSuccess) return e;
    p += width * height, count -= width * height, offset += width * height;
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                              std::size_t count, cudaMemcpyKind kind) {
  if (count == 0) return cudaSuccess;
  if (src == nullptr) return fail(cudaErrorInvalidValue);
  return linear_array_copy(dst, wOffset, hOffset, const_cast<void*>(src), count, kind, true);
}
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t wOffset, std::size_t hOffset,
                                std::size_t count, cudaMemcpyKind kind) {
  if (count == 0) return cudaSuccess;
  if (dst == nullptr) return fail(cudaErrorInvalidValue);
  return linear_array_copy(src, wOffset, hOffset, dst, count, kind, false);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* desc, const cudaResourceViewDesc* view) {
  if (texture == nullptr || resource == nullptr || desc == nullptr) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (view != nullptr && view->format != cudaResViewFormatNone) return fail(cudaErrorInvalidValue);
  cusim::sim::object o;
  o.resource = *resource;
  o.texture = *desc;
  if (view != nullptr) o.view_desc = *view;
  for (auto mode : desc->addressMode)
    if (mode < cudaAddressModeWrap || mode > cudaAddressModeBorder) return fail(cudaErrorInvalidValue);
  if (desc->filterMode != cudaFilterModePoint && desc->filterMode != cudaFilterModeLinear)
    return fail(cudaErrorInvalidValue);
  if (desc->readMode != cudaReadModeElementType && desc->readMode != cudaReadModeNormalizedFloat)
    return fail(cudaErrorInvalidValue);
  cusim::sim::registry& r = cusim::sim::objects();
  std::unique_lock lock(r.mutex);
  if (cudaError_t e = cusim::sim::view_of(*resource, o.view); e != cudaSuccess) return fail(e);
  // Normalized-float reads exist for 8- and 16-bit integers only.
  if (desc->readMode == cudaReadModeNormalizedFloat && o.view.format.f != cudaChannelFormatKindFloat &&
      o.view.format.x == 32)
    return fail(cudaErrorInvalidValue);
  *texture = cusim::sim::add_object(r.textures, o);
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture) {
  return cusim::sim::destroy_object(&cusim::sim::registry::textures, texture);
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  const cusim::sim::object* o = cusim::sim::host_object(&cusim::sim::registry::textures, texture);
  if (resource == nullptr || o == nullptr) return fail(cudaErrorInvalidValue);
  *resource = o->resource;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t texture) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  const cusim::sim::object* o = cusim::sim::host_object(&cusim::sim::registry::textures, texture);
  if (desc == nullptr || o == nullptr) return fail(cudaErrorInvalidValue);
  *desc = o->texture;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc* view, cudaTextureObject_t texture) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  const cusim::sim::object* o = cusim::sim::host_object(&cusim::sim::registry::textures, texture);
  if (view == nullptr || o == nullptr) return fail(cudaErrorInvalidValue);
  *view = o->view_desc;
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource) {
  if (surface == nullptr || resource == nullptr) return fail(cudaErrorInvalidValue);
  if (cudaError_t e = cusim::sim::sticky_fault(); e != cudaSuccess) return e;
  if (resource->resType != cudaResourceTypeArray) return fail(cudaErrorInvalidValue);
  cusim::sim::object o;
  o.resource = *resource;
  cusim::sim::registry& r = cusim::sim::objects();
  std::unique_lock lock(r.mutex);
  if (cudaError_t e = cusim::sim::view_of(*resource, o.view); e != cudaSuccess) return fail(e);
  if (!(o.view.array->flags & cudaArraySurfaceLoadStore)) return fail(cudaErrorInvalidValue);
  *surface = cusim::sim::add_object(r.surfaces, o);
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surface) {
  return cusim::sim::destroy_object(&cusim::sim::registry::surfaces, surface);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* resource, cudaSurfaceObject_t surface) {
  std::shared_lock lock(cusim::sim::objects().mutex);
  const cusim::sim::object* o = cusim::sim::host_object(&cusim::sim::registry::surfaces, surface);
  if (resource == nullptr || o == nullptr) return fail(cudaErrorInvalidValue);
  *resource = o->resource;
  return cudaSuccess;
}
