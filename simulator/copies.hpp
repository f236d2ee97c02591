// SPDX-License-Identifier: MIT
// Copies and memsets of linear, pitched (2-D) and 3-D regions: CUDA's checks of them against the
// simulator's allocations, and the copies themselves (cudaMemcpy*, graph memcpy/memset nodes).
#pragma once

#include <cusim/cuda_runtime.hpp>

#include <cstddef>

namespace cusim::sim {

/// A linear copy as a 3-D one: one row of `bytes`.
cudaMemcpy3DParms linear_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
/// `height` rows of `width` bytes, `dpitch` and `spitch` apart.
cudaMemcpy3DParms pitched_copy(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                               std::size_t height, cudaMemcpyKind kind);
/// CUDA's checks of a copy: cudaSuccess, or cudaErrorInvalidValue (null pointers, CUDA arrays, a
/// row wider than its pitch, a device side outside one allocation), cudaErrorInvalidMemcpyDirection.
cudaError_t check_copy(const cudaMemcpy3DParms& copy);
/// Copies row by row (memmove: overlapping regions are allowed), noting the bytes as written.
void run_copy(const cudaMemcpy3DParms& copy);

/// CUDA's checks of a memset: an element of 1, 2 or 4 bytes, rows inside their pitch, all inside one
/// device allocation.
cudaError_t check_memset(const cudaMemsetParams& set);
void run_memset(const cudaMemsetParams& set);

}  // namespace cusim::sim
