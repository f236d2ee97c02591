// SPDX-License-Identifier: MIT
// Must not compile: constant memory is read-only in kernels.
#include <cusim/cusim.hpp>
__constant__ cusim::const_array<float, 4> w;
__global__ void k() { w[0] = 1.0f; }
int main() {}
