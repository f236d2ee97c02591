// SPDX-License-Identifier: MIT
// On the GPU, cusim::cg is CUDA's own cooperative_groups namespace.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cooperative_groups.h>

namespace cusim {
namespace cg = ::cooperative_groups;
}
