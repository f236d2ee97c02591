// SPDX-License-Identifier: MIT
// Cooperative groups with CUDA's names: `cusim::cg` on both backends, and the `cooperative_groups`
// spelling too. On the GPU backend cusim::cg is CUDA's own cooperative_groups namespace.
//
//     namespace cg = cusim::cg;
//     auto block = cg::this_thread_block();
//     auto tile = cg::tiled_partition<32>(block);
//     v += tile.shfl_down(v, 16);
//     cg::this_grid().sync();  // in a cusim::launch_cooperative launch only
#pragma once

#include <cusim/config.hpp>

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/cooperative_groups.hpp>
#else
#  include <cusim/backend/cuda/cooperative_groups.hpp>
#endif
