// SPDX-License-Identifier: MIT
// The body of the kit's tiled GEMM kernels (sgemmTiled in sgemmtiled.cuh, dgemmTiled in dgemm.cu):
// C = A * B, n x n, Tile x Tile shared-memory tiles; n must be a multiple of Tile; 2 n^3 FLOPs (one
// FMA per multiply-add). Each kernel keeps its own name, which run.sh matches.
#pragma once

template <typename T, int Tile> __device__ __forceinline__ void gemmTiled(const T* A, const T* B, T* C, int n)
{
    __shared__ T a[Tile][Tile];
    __shared__ T b[Tile][Tile];
    const int row = blockIdx.y * Tile + threadIdx.y;
    const int col = blockIdx.x * Tile + threadIdx.x;
    T sum = T(0);
    for (int t = 0; t < n; t += Tile) {
        a[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < Tile; ++k)
            sum = fma(a[threadIdx.y][k], b[k][threadIdx.x], sum); // fmaf for float
        __syncthreads();
    }
    C[row * n + col] = sum;
}
