// SPDX-License-Identifier: MIT
// SGEMM C = A * B, n = 2048, naive (one thread per element) and tiled (32x32 shared-memory
// tiles): 2 n^3 FLOPs each (one FMA per multiply-add). DRAM traffic is at least the compulsory
// 3 n^2 floats (A and B read once, C written once): "min", since reuse depends on the caches.
#include "kit.h"
#include "sgemmtiled.cuh"

__global__ void sgemmNaive(const float* A, const float* B, float* C, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.f;
    for (int k = 0; k < n; ++k)
        sum = fmaf(A[row * n + k], B[k * n + col], sum);
    C[row * n + col] = sum;
}

int main()
{
    const int n = 2048;
    const size_t elements = size_t(n) * n, bytes = elements * sizeof(float);
    const float* A = kitZeroedArray<float>(elements);
    const float* B = kitZeroedArray<float>(elements);
    float* C = kitDeviceArray<float>(elements);
    const dim3 block(kTile, kTile), grid(n / kTile, n / kTile);
    const int launches = 3;
    for (int i = 0; i < launches; ++i)
        sgemmNaive<<<grid, block>>>(A, B, C, n);
    for (int i = 0; i < launches; ++i)
        sgemmTiled<<<grid, block>>>(A, B, C, n);
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    const double flops = 2.0 * n * n * n * launches;
    const double compulsory = 3.0 * bytes * launches;
    kitExpect("sgemmNaive", launches, flops, compulsory, "min", "any");
    kitExpect("sgemmTiled", launches, flops, compulsory, "min", "any");
    return 0;
}
