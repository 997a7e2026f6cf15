// SPDX-License-Identifier: MIT
// Four streams, each running an FP32 triad on its own 16 Mi-element arrays, 5 times: the kernels
// of different streams overlap on the timeline. Same FLOPs and bytes as stream_triad per element.
#include "kit.h"
#include "triad.cuh"

__global__ void streamTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
}

int main()
{
    const int streams = 4, launches = 5;
    const size_t n = size_t { 1 } << 24;
    cudaStream_t s[streams];
    float* buffers[streams][3];
    for (int i = 0; i < streams; ++i) {
        KIT_CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
        for (auto& buffer : buffers[i])
            buffer = kitZeroedArray<float>(n);
    }
    const unsigned blocks = triadBlocks(n);
    for (int l = 0; l < launches; ++l) {
        for (int i = 0; i < streams; ++i)
            streamTriad<<<blocks, kTriadThreads, 0, s[i]>>>(buffers[i][0], buffers[i][1], buffers[i][2], n);
    }
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    const double total = double(streams) * launches;
    kitExpect("streamTriad", streams * launches, 2.0 * n * total, 3.0 * n * sizeof(float) * total, "exact",
        "memory-bound:DRAM");
    return 0;
}
