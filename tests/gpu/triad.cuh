// SPDX-License-Identifier: MIT
// The FP32 triad a[i] = b[i] + 3 c[i] of several kit programs: 2 FLOPs (one FMA) and 3 floats of
// DRAM traffic (two reads, one write) per element. Each program launches it from a kernel of its
// own name (abortTriad, crashTriad, ...), which run.sh matches, in blocks of kTriadThreads.
#pragma once

#include "kit.h"

#include <cstddef>

constexpr unsigned kTriadThreads = 256;

__device__ __forceinline__ void triadElement(
    float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + 3.f * c[i];
}

// The blocks of kTriadThreads that cover n elements.
inline unsigned triadBlocks(size_t n)
{
    return static_cast<unsigned>((n + kTriadThreads - 1) / kTriadThreads);
}

// The arrays a, b and c of a triad over n elements, on the device, not initialised.
struct TriadArrays {
    float* a;
    float* b;
    float* c;
};

inline TriadArrays triadArrays(size_t n)
{
    return { kitDeviceArray<float>(n), kitDeviceArray<float>(n), kitDeviceArray<float>(n) };
}
