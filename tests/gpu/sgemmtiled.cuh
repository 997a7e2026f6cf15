// SPDX-License-Identifier: MIT
// The tiled FP32 SGEMM kernel shared by sgemm.cu (checked by run.sh, which matches its name
// "sgemmTiled") and example_mix.cu: C = A * B, n x n, 32x32 shared-memory tiles; n must be a
// multiple of kTile; 2 n^3 FLOPs (one FMA per multiply-add).
#pragma once

constexpr int kTile = 32;

__global__ void sgemmTiled(const float* A, const float* B, float* C, int n)
{
    __shared__ float a[kTile][kTile];
    __shared__ float b[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    float sum = 0.f;
    for (int t = 0; t < n; t += kTile) {
        a[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k)
            sum = fmaf(a[threadIdx.y][k], b[k][threadIdx.x], sum);
        __syncthreads();
    }
    C[row * n + col] = sum;
}
