// SPDX-License-Identifier: MIT
// STREAM triad a[i] = b[i] + s * c[i] in FP32 and FP64: 2 FLOPs (one FMA) and 3 elements of
// DRAM traffic (two reads, one write) per element; arrays 64 Mi elements, far beyond L2.
#include "kit.h"

template <typename T>
__global__ void triad(T* __restrict__ a, const T* __restrict__ b, const T* __restrict__ c, T s, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

template <typename T> void run(const char* name, int launches)
{
    const size_t n = size_t { 1 } << 26;
    T *a, *b, *c;
    KIT_CHECK(cudaMalloc(&a, n * sizeof(T)));
    KIT_CHECK(cudaMalloc(&b, n * sizeof(T)));
    KIT_CHECK(cudaMalloc(&c, n * sizeof(T)));
    KIT_CHECK(cudaMemset(b, 0, n * sizeof(T)));
    KIT_CHECK(cudaMemset(c, 0, n * sizeof(T)));
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    for (int i = 0; i < launches; ++i)
        triad<T><<<blocks, 256>>>(a, b, c, T(3), n);
    KIT_CHECK(cudaGetLastError());
    KIT_CHECK(cudaDeviceSynchronize());
    kitExpect(name, launches, 2.0 * n * launches, 3.0 * n * sizeof(T) * launches, "exact", "memory-bound:DRAM");
    KIT_CHECK(cudaFree(a));
    KIT_CHECK(cudaFree(b));
    KIT_CHECK(cudaFree(c));
}

int main()
{
    run<float>("triad<float>", 10);
    run<double>("triad<double>", 10);
    return 0;
}
