// SPDX-License-Identifier: MIT
// DGEMM C = A * B, n = 2048, 16x16 shared-memory tiles: 2 n^3 FP64 FLOPs; DRAM at least 3 n^2 doubles.
#include "gemmtiled.cuh"
#include "kit.h"

constexpr int kTile = 16;

__global__ void dgemmTiled(const double* A, const double* B, double* C, int n)
{
    gemmTiled<double, kTile>(A, B, C, n);
}

int main()
{
    const int n = 2048;
    const size_t elements = size_t(n) * n, bytes = elements * sizeof(double);
    const double* A = kitZeroedArray<double>(elements);
    const double* B = kitZeroedArray<double>(elements);
    double* C = kitDeviceArray<double>(elements);
    const int launches = 3;
    for (int i = 0; i < launches; ++i)
        dgemmTiled<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(A, B, C, n);
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    kitExpect("dgemmTiled", launches, 2.0 * n * n * n * launches, 3.0 * bytes * launches, "min", "any");
    return 0;
}
