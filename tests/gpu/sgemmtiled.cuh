// SPDX-License-Identifier: MIT
// The tiled FP32 SGEMM kernel shared by sgemm.cu (checked by run.sh, which matches its name
// "sgemmTiled") and example_mix.cu: C = A * B, n x n, 32x32 shared-memory tiles; n must be a
// multiple of kTile; 2 n^3 FLOPs (one FMA per multiply-add).
#pragma once

#include "gemmtiled.cuh"

constexpr int kTile = 32;

__global__ void sgemmTiled(const float* A, const float* B, float* C, int n)
{
    gemmTiled<float, kTile>(A, B, C, n);
}
