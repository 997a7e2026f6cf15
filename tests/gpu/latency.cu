// SPDX-License-Identifier: MIT
// A tiny latency-bound kernel: one block of 32 threads, 64 dependent FP32 FMAs each, launched
// 2000 times. 2 * 64 * 32 FLOPs per launch; no DRAM traffic to speak of (one float per thread).
#include "kit.h"

__global__ void tinyKernel(float* out, float a)
{
    float x = out[threadIdx.x];
#pragma unroll
    for (int i = 0; i < 64; ++i)
        x = fmaf(x, a, 1.0f);
    out[threadIdx.x] = x;
}

int main()
{
    float* out;
    KIT_CHECK(cudaMalloc(&out, 32 * sizeof(float)));
    KIT_CHECK(cudaMemset(out, 0, 32 * sizeof(float)));
    const int launches = 2000;
    for (int i = 0; i < launches; ++i)
        tinyKernel<<<1, 32>>>(out, 0.5f);
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    kitExpect("tinyKernel", launches, 2.0 * 64 * 32 * launches, 0, "none", "latency-bound");
    return 0;
}
