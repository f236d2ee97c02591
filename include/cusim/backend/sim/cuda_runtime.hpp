// SPDX-License-Identifier: MIT
// The simulator's counterpart of CUDA's <cuda_runtime.h> plus what nvcc builds into every .cu file:
// the qualifiers, vector types, runtime API, built-in variables, barriers, atomics, math, warp
// primitives, assert and __trap, and cudaLaunchKernel. The CUDA headers the simulator provides for
// unmodified programs build on this one header.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/qualifiers.hpp>
#include <cusim/backend/sim/runtime_types.hpp>
#include <cusim/backend/sim/vector_types.hpp>

#include <cusim/backend/sim/runtime.hpp>
#include <cusim/backend/sim/textures.hpp>

#include <cusim/backend/sim/assert.hpp>
#include <cusim/backend/sim/atomics.hpp>
#include <cusim/backend/sim/device_runtime.hpp>
#include <cusim/backend/sim/math.hpp>
#include <cusim/backend/sim/phases.hpp>
#include <cusim/backend/sim/sync.hpp>
#include <cusim/backend/sim/warp.hpp>

#include <cusim/host/launch.hpp>
