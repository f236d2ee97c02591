// SPDX-License-Identifier: MIT
// CUDA arrays, texture objects and surface objects (include/cusim/backend/sim/textures.hpp): what
// the other runtime files need of them.
#pragma once

#include <cusim/cuda_runtime.hpp>

namespace cusim::sim {

/// A cudaMemcpy3DParms naming a CUDA array on either side, rewritten as a pitched copy of the
/// array's storage (positions and width in elements become bytes). cudaErrorInvalidValue for an
/// array that is not live or a region past its extent; a copy without arrays is left as it is.
cudaError_t resolve_array_copy(cudaMemcpy3DParms& copy);

}  // namespace cusim::sim
