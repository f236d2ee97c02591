// SPDX-License-Identifier: MIT
// CUDA arrays (cudaMallocArray, cudaMalloc3DArray): the registry of live arrays and their storage,
// and a copy naming an array rewritten as a copy of its storage (cudaMemcpy3D, runtime_memory.cpp).
// The runtime functions that make, free and copy arrays and the fetches that read them are
// textures.cpp's.
#pragma once

#include <cusim/cuda_runtime.hpp>

#include <atomic>
#include <cstddef>
#include <memory>

/// A CUDA array: its texels in one device allocation, rows of `extent.width` elements, `rows` rows
/// per slice, `slices` slices (depth, layers, or 6 faces per cubemap layer).
struct cudaArray {
  cudaChannelFormatDesc desc;
  cudaExtent extent;  // as allocated: height and depth 0 where the array has no such axis
  unsigned flags;
  std::size_t element;
  std::size_t rows;
  std::size_t slices;
  char* data;
  std::atomic<bool> freed{false};
  std::size_t row_bytes() const { return extent.width * element; }
  std::size_t slice_bytes() const { return row_bytes() * rows; }
};

namespace cusim::sim {

/// Registers a new array (its storage already allocated) and returns it.
cudaArray* keep_array(std::unique_ptr<cudaArray> array);
/// Whether `array` is live: made and not freed.
bool live_array(const cudaArray* array);
/// Frees a live array's storage and marks it freed (it stays known, so that a texture object of it
/// can say so); false when `array` is not live.
bool forget_array(cudaArray* array);
/// A cudaMemcpy3DParms naming a CUDA array on either side, rewritten as a pitched copy of the
/// array's storage (positions and width in elements become bytes). cudaErrorInvalidValue for an
/// array that is not live, a pointer given with it, arrays of different element sizes, or a region
/// past the array's extent; a copy without arrays is left as it is.
cudaError_t resolve_array_copy(cudaMemcpy3DParms& copy);

}  // namespace cusim::sim
