// SPDX-License-Identifier: MIT
// A program that forks before touching CUDA: parent and child each run 4 FP32 triads of 16 Mi
// elements; the parent exits first, the child a second later. The session must hold both
// processes and 8 launches.
#include "kit.h"
#include "triad.cuh"

#include <sys/wait.h>
#include <unistd.h>

__global__ void forkTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
}

static void work()
{
    const size_t n = size_t { 1 } << 24;
    float* a = kitDeviceArray<float>(n);
    const float* b = kitZeroedArray<float>(n);
    const float* c = kitZeroedArray<float>(n);
    for (int i = 0; i < 4; ++i)
        forkTriad<<<triadBlocks(n), kTriadThreads>>>(a, b, c, n);
    KIT_CHECK(cudaDeviceSynchronize());
}

int main()
{
    const pid_t child = fork();
    if (child < 0)
        return 1;
    if (child == 0) {
        sleep(1); // outlives the parent: the launcher must wait for it
        work();
        return 0;
    }
    work();
    const double n = double(size_t { 1 } << 24);
    kitExpect("forkTriad", 8, 2.0 * n * 8, 12.0 * n * 8, "exact", "memory-bound:DRAM");
    std::printf("ridgeline-kit: {\"processes\":2}\n");
    return 0; // without waiting for the child
}
