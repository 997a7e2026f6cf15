// SPDX-License-Identifier: MIT
// An NVTX-annotated loop: range "training" around 10 ranges "step" (nvtx3, header-only), each
// with one SAXPY kernel of 16 Mi elements (2 FLOPs and 12 bytes per element). The session must
// hold 11 ranges named so, and the kernels inside them.
#include "kit.h"

#include <nvtx3/nvToolsExt.h>

__global__ void saxpyStep(float* __restrict__ y, const float* __restrict__ x, float a, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const size_t n = size_t { 1 } << 24;
    const int steps = 10;
    float *x, *y;
    KIT_CHECK(cudaMalloc(&x, n * sizeof(float)));
    KIT_CHECK(cudaMalloc(&y, n * sizeof(float)));
    KIT_CHECK(cudaMemset(x, 0, n * sizeof(float)));
    KIT_CHECK(cudaMemset(y, 0, n * sizeof(float)));
    nvtxRangePushA("training");
    for (int i = 0; i < steps; ++i) {
        nvtxRangePushA("step");
        saxpyStep<<<static_cast<unsigned>((n + 255) / 256), 256>>>(y, x, 2.f, n);
        KIT_CHECK(cudaDeviceSynchronize());
        nvtxRangePop();
    }
    nvtxRangePop();
    kitExpect("saxpyStep", steps, 2.0 * n * steps, 12.0 * n * steps, "exact", "memory-bound:DRAM");
    std::printf("ridgeline-kit: {\"nvtx\":\"step\",\"count\":%d}\n", steps);
    std::printf("ridgeline-kit: {\"nvtx\":\"training\",\"count\":1}\n");
    return 0;
}
