// SPDX-License-Identifier: MIT
// nvcc compiles as C++17 unless told otherwise; the driver compiles as C++20, which the simulator's
// headers need. For a program built in nvcc's dialect (no -std, or one before C++20), the driver
// includes this header first, so that the C++20 standard library functions a C++17 program may
// well define itself do not collide with its own: std::lerp (which libstdc++'s <math.h> also puts
// in the global namespace: a program's `float lerp(float, float, float)`, cuda-samples'
// helper_math.h, "conflicts with a previous declaration") and std::midpoint (ambiguous with a
// program's own under `using namespace std;`). They are declared under reserved names instead,
// as if the library were C++17's.
#pragma once

#if defined(__cplusplus) && __cplusplus > 201703L
#  define lerp __cusim_cxx20_lerp
#  define midpoint __cusim_cxx20_midpoint
#  include <cmath>
#  include <math.h>
#  include <numeric>
#  undef lerp
#  undef midpoint
#endif
