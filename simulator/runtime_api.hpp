// SPDX-License-Identifier: MIT
// The simulator's side of the CUDA runtime subset: the last error.
#pragma once

#include "last_error.hpp"
