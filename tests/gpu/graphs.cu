// SPDX-License-Identifier: MIT
// A CUDA graph of three kernel nodes (stream capture: FP32 triad, scale, FP32 triad; n = 2^24)
// launched 5 times. run.sh checks that all 15 kernels are recorded with their graph id and
// reports which counters CUPTI gave them: per kernel node (each kernel its own verdict) or
// graph-level (one range per graph launch, on its first kernel) (docs/CAPTURE.md "CUDA graphs").
#include "kit.h"

__global__ void graphTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + 3.f * c[i];
}

__global__ void graphScale(float* __restrict__ a, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= 0.5f;
}

int main()
{
    constexpr int kLaunches = 5;
    const size_t n = size_t { 1 } << 24;
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    float *a, *b, *c;
    KIT_CHECK(cudaMalloc(&a, n * sizeof(float)));
    KIT_CHECK(cudaMalloc(&b, n * sizeof(float)));
    KIT_CHECK(cudaMalloc(&c, n * sizeof(float)));
    cudaStream_t stream;
    KIT_CHECK(cudaStreamCreate(&stream));
    cudaGraph_t graph;
    KIT_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    graphTriad<<<blocks, 256, 0, stream>>>(a, b, c, n);
    graphScale<<<blocks, 256, 0, stream>>>(a, n);
    graphTriad<<<blocks, 256, 0, stream>>>(b, a, c, n);
    KIT_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    KIT_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < kLaunches; ++i)
        KIT_CHECK(cudaGraphLaunch(exec, stream));
    KIT_CHECK(cudaStreamSynchronize(stream));
    std::printf("ridgeline-kit: {\"graph\":\"graphTriad,graphScale\",\"launches\":%d,\"nodes\":3}\n", kLaunches);
    return 0;
}
