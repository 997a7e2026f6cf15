// SPDX-License-Identifier: MIT
// A CUDA graph of three kernel nodes (stream capture: FP32 triad, scale, FP32 triad; n = 2^24)
// launched 5 times. run.sh checks that all 15 kernels are recorded with their graph id and
// reports which counters CUPTI gave them: per kernel node (each kernel its own verdict) or
// graph-level (one range per graph launch, on its first kernel) (docs/CAPTURE.md "CUDA graphs").
#include "kit.h"
#include "triad.cuh"

__global__ void graphTriad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, size_t n)
{
    triadElement(a, b, c, n);
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
    const unsigned blocks = triadBlocks(n);
    const auto [a, b, c] = triadArrays(n);
    cudaStream_t stream;
    KIT_CHECK(cudaStreamCreate(&stream));
    cudaGraph_t graph;
    KIT_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    graphTriad<<<blocks, kTriadThreads, 0, stream>>>(a, b, c, n);
    graphScale<<<blocks, kTriadThreads, 0, stream>>>(a, n);
    graphTriad<<<blocks, kTriadThreads, 0, stream>>>(b, a, c, n);
    KIT_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    KIT_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < kLaunches; ++i)
        KIT_CHECK(cudaGraphLaunch(exec, stream));
    KIT_CHECK(cudaStreamSynchronize(stream));
    std::printf("ridgeline-kit: {\"graph\":\"graphTriad,graphScale\",\"launches\":%d,\"nodes\":3}\n", kLaunches);
    return 0;
}
