// SPDX-License-Identifier: MIT
// Aborts mid-run: 100 FP32 triads (n = 2^22), each waited for, then abort() (SIGABRT). The
// injection library's fatal-signal handler flushes what CUPTI holds into the crash file: the
// session must be `partial`, the capture must exit with 134 (128 + SIGABRT), and every launch
// made before the abort must be in it.
#include "kit.h"
#include "triad.cuh"

#include <cstdlib>

__global__ void abortTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
}

int main()
{
    const size_t n = size_t { 1 } << 22;
    const auto [a, b, c] = triadArrays(n);
    constexpr int kLaunches = 100;
    for (int i = 0; i < kLaunches; ++i) {
        abortTriad<<<triadBlocks(n), kTriadThreads>>>(a, b, c, n);
        KIT_CHECK(cudaDeviceSynchronize());
    }
    std::printf("ridgeline-kit: {\"crash\":\"SIGABRT\",\"launches_before_crash\":%d}\n", kLaunches);
    std::fflush(stdout);
    std::abort();
}
