// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): every primitive it has. What it has, and what it lacks,
// is listed in docs/unmodified-cuda.md ("Thrust, CUB and libcu++").
#pragma once

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
