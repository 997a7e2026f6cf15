// SPDX-License-Identifier: MIT
// Four host threads launch FP32 triads (n = 2^22) at the same time, each on a stream of its own, on
// one context: every profiled launch must be alone in its counter range (the launch gate), so
// every launch has counters and none is reported as "recorded N counter ranges instead of one".
#include "kit.h"
#include "triad.cuh"

#include <thread>
#include <vector>

__global__ void threadTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
}

int main()
{
    constexpr int kThreads = 4, kLaunches = 25;
    const size_t n = size_t { 1 } << 22;
    KIT_CHECK(cudaFree(nullptr)); // the context, before the threads
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([n] {
            cudaStream_t stream;
            KIT_CHECK(cudaStreamCreate(&stream));
            const auto [a, b, c] = triadArrays(n);
            for (int i = 0; i < kLaunches; ++i)
                threadTriad<<<triadBlocks(n), kTriadThreads, 0, stream>>>(a, b, c, n);
            KIT_CHECK(cudaStreamSynchronize(stream));
        });
    }
    for (auto& t : threads)
        t.join();
    kitExpect("threadTriad", kThreads * kLaunches, 2.0 * n * kThreads * kLaunches,
        3.0 * n * sizeof(float) * kThreads * kLaunches, "exact", "memory-bound:DRAM");
    std::printf("ridgeline-kit: {\"serialised\":\"threadTriad\",\"launches\":%d}\n", kThreads * kLaunches);
    return 0;
}
