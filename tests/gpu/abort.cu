// SPDX-License-Identifier: MIT
// Aborts mid-run: 100 FP32 triads (n = 2^22), each waited for, then abort() (SIGABRT). The
// injection library's fatal-signal handler flushes what CUPTI holds into the crash file: the
// session must be `partial`, the capture must exit with 134 (128 + SIGABRT), and every launch
// made before the abort must be in it.
#include "kit.h"

#include <cstdlib>

__global__ void abortTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + 3.f * c[i];
}

int main()
{
    const size_t n = size_t { 1 } << 22;
    float *a, *b, *c;
    KIT_CHECK(cudaMalloc(&a, n * sizeof(float)));
    KIT_CHECK(cudaMalloc(&b, n * sizeof(float)));
    KIT_CHECK(cudaMalloc(&c, n * sizeof(float)));
    constexpr int kLaunches = 100;
    for (int i = 0; i < kLaunches; ++i) {
        abortTriad<<<static_cast<unsigned>((n + 255) / 256), 256>>>(a, b, c, n);
        KIT_CHECK(cudaDeviceSynchronize());
    }
    std::printf("ridgeline-kit: {\"crash\":\"SIGABRT\",\"launches_before_crash\":%d}\n", kLaunches);
    std::fflush(stdout);
    std::abort();
}
