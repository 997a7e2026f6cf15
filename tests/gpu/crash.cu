// SPDX-License-Identifier: MIT
// Crashes mid-run: 3 seconds of FP32 triads (16 Mi elements), then a null-pointer write
// (SIGSEGV). With the default 1 s flush period the session keeps the launches of all but about
// the last second; it must be `partial` and the capture must exit with 139 (128 + SIGSEGV).
#include "kit.h"
#include "triad.cuh"

#include <chrono>
#include <csignal>

__global__ void crashTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
}

int main()
{
    const size_t n = size_t { 1 } << 24;
    const auto [a, b, c] = triadArrays(n);
    const auto start = std::chrono::steady_clock::now();
    long long launches = 0;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(3)) {
        crashTriad<<<triadBlocks(n), kTriadThreads>>>(a, b, c, n);
        KIT_CHECK(cudaDeviceSynchronize());
        ++launches;
    }
    std::printf("ridgeline-kit: {\"crash\":\"SIGSEGV\",\"launches_before_crash\":%lld}\n", launches);
    std::fflush(stdout);
    std::raise(SIGSEGV);
    return 0;
}
