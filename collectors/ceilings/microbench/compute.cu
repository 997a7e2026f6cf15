// SPDX-License-Identifier: MIT
// FMA peaks of the CUDA cores: 8 independent FMA chains per thread, enough warps to fill every
// SM. One FMA is 2 FLOPs; one HFMA2 (two FP16 lanes) is 4.
#include "microbench.h"

#include <cuda_fp16.h>

namespace microbench {

namespace {

constexpr int kChains = 8;
constexpr int kIterations = 4096;

template <typename T> __device__ T fma2(T a, T b, T c);
template <> __device__ float fma2(float a, float b, float c)
{
    return fmaf(a, b, c);
}
template <> __device__ double fma2(double a, double b, double c)
{
    return fma(a, b, c);
}
template <> __device__ __half2 fma2(__half2 a, __half2 b, __half2 c)
{
    return __hfma2(a, b, c);
}

// x = x * a + b converges to b / (1 - a): the values stay finite for every type.
template <typename T> __global__ void fmaKernel(T a, T b, T* sink)
{
    T x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c)
        x[c] = b;
    for (int i = 0; i < kIterations; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c)
            x[c] = fma2(x[c], a, b);
    }
    T sum = x[0];
#pragma unroll
    for (int c = 1; c < kChains; ++c)
        sum = fma2(sum, a, x[c]);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        sink[0] = sum;
}

template <typename T>
Measurement run(const DeviceFacts& device, const char* name, const char* resource, T a, T b, double flopsPerFma)
{
    T* sink = nullptr;
    MB_CHECK(cudaMalloc(&sink, sizeof(T)));
    const int blocks = device.prop.multiProcessorCount * 16;
    const int threads = 256;
    const double seconds = bestSeconds(10, [&] { fmaKernel<T><<<blocks, threads>>>(a, b, sink); });
    MB_CHECK(cudaFree(sink));
    const double fmas = static_cast<double>(blocks) * threads * kChains * (kIterations + 1.0);
    char note[128];
    std::snprintf(
        note, sizeof note, "%d FMA chains per thread, %d blocks x %d threads, best of 10", kChains, blocks, threads);
    return { name, resource, fmas * flopsPerFma / seconds, "FLOP/s", note };
}

} // namespace

std::vector<Measurement> measureCompute(const DeviceFacts& device)
{
    return {
        run<double>(device, "fp64_fma", "FP64", 0.999, 0.001, 2.0),
        run<float>(device, "fp32_fma", "FP32", 0.999f, 0.001f, 2.0),
        run<__half2>(
            device, "fp16_hfma2", "FP16", __floats2half2_rn(0.999f, 0.999f), __floats2half2_rn(0.001f, 0.001f), 4.0),
    };
}

} // namespace microbench
