// SPDX-License-Identifier: MIT
// What host_loops.cu needs of CUDA when the plain host compiler builds it (run.sh): nothing runs it.
#pragma once
struct dim3 { unsigned x = 0, y = 0, z = 0; };
