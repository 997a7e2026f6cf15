// SPDX-License-Identifier: MIT
// DRAM: a STREAM-style copy over arrays far larger than L2. L2: repeated reads of a working set
// half the size of L2 with ld.global.cg (cached in L2 only).
#include "microbench.h"

#include <algorithm>

namespace microbench {

namespace {

__global__ void copyKernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n)
{
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[i];
}

__global__ void l2ReadKernel(const float4* __restrict__ data, size_t mask, int iterations, float* sink)
{
    const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t id = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    float sum = 0.f;
    for (int k = 0; k < iterations; ++k) {
        const float4 v = __ldcg(&data[(id + static_cast<size_t>(k) * threads) & mask]);
        sum += v.x + v.y + v.z + v.w;
    }
    if (sum == 1234.5f) // never true with zeroed data; keeps the loads alive
        sink[0] = sum;
}

} // namespace

std::vector<Measurement> measureMemory(const DeviceFacts& device)
{
    std::vector<Measurement> out;
    size_t freeBytes = 0, totalBytes = 0;
    MB_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    // Two arrays, each at least 8x L2 and at most 1 GiB.
    const size_t arrayBytes = std::min<size_t>(size_t { 1 } << 30, freeBytes / 4);
    const size_t n = arrayBytes / sizeof(float4);
    float4 *a = nullptr, *b = nullptr;
    MB_CHECK(cudaMalloc(&a, n * sizeof(float4)));
    MB_CHECK(cudaMalloc(&b, n * sizeof(float4)));
    MB_CHECK(cudaMemset(a, 0, n * sizeof(float4)));
    const int blocks = device.prop.multiProcessorCount * 8;
    const double copySeconds = bestSeconds(20, [&] { copyKernel<<<blocks, 256>>>(a, b, n); });
    const double copyBytes = 2.0 * static_cast<double>(n * sizeof(float4));
    char note[160];
    std::snprintf(note, sizeof note, "STREAM copy of %.0f MiB (read + write), best of 20", arrayBytes / 1048576.0);
    out.push_back({ "dram_copy", "DRAM", copyBytes / copySeconds, "B/s", note });
    MB_CHECK(cudaFree(b));

    // L2: the largest power-of-two number of float4s within half of L2.
    size_t elements = 1;
    while (elements * 2 * sizeof(float4) <= static_cast<size_t>(device.prop.l2CacheSize) / 2)
        elements *= 2;
    float* sink = nullptr;
    MB_CHECK(cudaMalloc(&sink, sizeof(float)));
    const int l2Blocks = device.prop.multiProcessorCount * 4;
    const int iterations = 2048;
    const double l2Seconds
        = bestSeconds(20, [&] { l2ReadKernel<<<l2Blocks, 512>>>(a, elements - 1, iterations, sink); });
    const double l2Bytes = static_cast<double>(l2Blocks) * 512.0 * iterations * sizeof(float4);
    std::snprintf(note, sizeof note, "ld.global.cg reads of a %.1f MiB working set, best of 20",
        elements * sizeof(float4) / 1048576.0);
    out.push_back({ "l2_read", "L2", l2Bytes / l2Seconds, "B/s", note });
    MB_CHECK(cudaFree(sink));
    MB_CHECK(cudaFree(a));
    return out;
}

} // namespace microbench
