// SPDX-License-Identifier: MIT
// The one header a kernel source includes: kernel API and host API of the configured backend.
#pragma once

#include <cusim/config.hpp>

#include <cusim/error.hpp>
#include <cusim/kernel/arrays.hpp>
#include <cusim/kernel/assert.hpp>
#include <cusim/kernel/atomics.hpp>
#include <cusim/kernel/cooperative_groups.hpp>
#include <cusim/kernel/grid.hpp>
#include <cusim/kernel/math.hpp>
#include <cusim/kernel/sync.hpp>
#include <cusim/kernel/warp.hpp>

#include <cusim/host/check.hpp>
#include <cusim/host/device_array.hpp>
#include <cusim/host/launch.hpp>

#include <cusim/lib/forall.hpp>
#include <cusim/lib/random.hpp>
#include <cusim/lib/reduce.hpp>
