// SPDX-License-Identifier: MIT
// Region copies and memsets, checked against the allocation registry.
#include "copies.hpp"

#include "memory.hpp"
#include "memory_checker.hpp"

#include <cstdint>
#include <cstring>

namespace cusim::sim {

namespace {
/// The first byte of a region at `pos` in pitched memory, and how many bytes it spans.
struct span {
  char* first;
  std::size_t bytes;
};
span region(const cudaPitchedPtr& p, const cudaPos& pos, const cudaExtent& e) {
  const std::size_t rows_per_slice = p.ysize != 0 ? p.ysize : e.height;
  char* first = static_cast<char*>(p.ptr) + (pos.z * rows_per_slice + pos.y) * p.pitch + pos.x;
  const std::size_t last_row = (e.depth - 1) * rows_per_slice + (e.height - 1);
  return {first, last_row * p.pitch + e.width};
}
bool on_device(const span& s) { return is_device_range(s.first, s.bytes); }
}  // namespace

cudaMemcpy3DParms linear_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  return pitched_copy(dst, bytes, src, bytes, bytes, 1, kind);
}

cudaMemcpy3DParms pitched_copy(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                               std::size_t height, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), spitch, width, height);
  p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
  p.extent = make_cudaExtent(width, height, 1);
  p.kind = kind;
  return p;
}

cudaError_t check_copy(const cudaMemcpy3DParms& c) {
  if (c.kind < cudaMemcpyHostToHost || c.kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (c.srcArray != nullptr || c.dstArray != nullptr) return cudaErrorInvalidValue;  // no CUDA arrays here
  if (c.extent.width == 0 || c.extent.height == 0 || c.extent.depth == 0) return cudaSuccess;
  if (c.srcPtr.ptr == nullptr || c.dstPtr.ptr == nullptr) return cudaErrorInvalidValue;
  const bool rows = c.extent.height > 1 || c.extent.depth > 1;
  if (c.srcPos.x + c.extent.width > c.srcPtr.pitch && rows) return cudaErrorInvalidValue;
  if (c.dstPos.x + c.extent.width > c.dstPtr.pitch && rows) return cudaErrorInvalidValue;
  const span src = region(c.srcPtr, c.srcPos, c.extent), dst = region(c.dstPtr, c.dstPos, c.extent);
  switch (c.kind) {
    case cudaMemcpyHostToHost:
    case cudaMemcpyDefault: return cudaSuccess;
    case cudaMemcpyHostToDevice: return on_device(dst) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost: return on_device(src) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice: return on_device(src) && on_device(dst) ? cudaSuccess : cudaErrorInvalidValue;
  }
  return cudaErrorInvalidMemcpyDirection;
}

void run_copy(const cudaMemcpy3DParms& c) {
  if (c.extent.width == 0 || c.extent.height == 0 || c.extent.depth == 0) return;
  const std::size_t src_rows = c.srcPtr.ysize != 0 ? c.srcPtr.ysize : c.extent.height;
  const std::size_t dst_rows = c.dstPtr.ysize != 0 ? c.dstPtr.ysize : c.extent.height;
  for (std::size_t z = 0; z < c.extent.depth; ++z)
    for (std::size_t y = 0; y < c.extent.height; ++y) {
      const char* from = static_cast<const char*>(c.srcPtr.ptr) +
                         ((c.srcPos.z + z) * src_rows + c.srcPos.y + y) * c.srcPtr.pitch + c.srcPos.x;
      char* to = static_cast<char*>(c.dstPtr.ptr) + ((c.dstPos.z + z) * dst_rows + c.dstPos.y + y) * c.dstPtr.pitch +
                 c.dstPos.x;
      std::memmove(to, from, c.extent.width);
      note_host_write(to, c.extent.width);  // CUSIM_CHECK=init: the bytes are initialised
    }
}

cudaError_t check_memset(const cudaMemsetParams& m) {
  if (m.elementSize != 1 && m.elementSize != 2 && m.elementSize != 4) return cudaErrorInvalidValue;
  if (m.width == 0 || m.height == 0) return cudaSuccess;
  const std::size_t row = m.width * m.elementSize;
  if (m.height > 1 && m.pitch < row) return cudaErrorInvalidValue;
  if (m.dst == nullptr || !is_device_range(m.dst, (m.height - 1) * m.pitch + row)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

void run_memset(const cudaMemsetParams& m) {
  const std::size_t row = m.width * m.elementSize;
  for (std::size_t y = 0; y < m.height; ++y) {
    char* to = static_cast<char*>(m.dst) + y * m.pitch;
    switch (m.elementSize) {
      case 1: std::memset(to, static_cast<int>(m.value & 0xff), row); break;
      case 2: {
        const auto v = static_cast<std::uint16_t>(m.value);
        for (std::size_t i = 0; i < m.width; ++i) std::memcpy(to + 2 * i, &v, 2);
        break;
      }
      default:
        for (std::size_t i = 0; i < m.width; ++i) std::memcpy(to + 4 * i, &m.value, 4);
    }
    note_host_write(to, row);
  }
}

}  // namespace cusim::sim
