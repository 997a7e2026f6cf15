// SPDX-License-Identifier: MIT
// DGEMM C = A * B, n = 2048, 16x16 shared-memory tiles: 2 n^3 FP64 FLOPs; DRAM at least 3 n^2 doubles.
#include "kit.h"

constexpr int kTile = 16;

__global__ void dgemmTiled(const double* A, const double* B, double* C, int n)
{
    __shared__ double a[kTile][kTile];
    __shared__ double b[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    double sum = 0.0;
    for (int t = 0; t < n; t += kTile) {
        a[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k)
            sum = fma(a[threadIdx.y][k], b[k][threadIdx.x], sum);
        __syncthreads();
    }
    C[row * n + col] = sum;
}

int main()
{
    const int n = 2048;
    const size_t bytes = size_t(n) * n * sizeof(double);
    double *A, *B, *C;
    KIT_CHECK(cudaMalloc(&A, bytes));
    KIT_CHECK(cudaMalloc(&B, bytes));
    KIT_CHECK(cudaMalloc(&C, bytes));
    KIT_CHECK(cudaMemset(A, 0, bytes));
    KIT_CHECK(cudaMemset(B, 0, bytes));
    const int launches = 3;
    for (int i = 0; i < launches; ++i)
        dgemmTiled<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(A, B, C, n);
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    kitExpect("dgemmTiled", launches, 2.0 * n * n * n * launches, 3.0 * bytes * launches, "min", "any");
    return 0;
}
