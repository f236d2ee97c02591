// SPDX-License-Identifier: MIT
// The kernels of the Makefile project, launched from main.cu.
#pragma once

constexpr int kTile = 16;

__global__ void transpose(const float* in, float* out, int n);
__global__ void sum_block(const int* in, int* out);
