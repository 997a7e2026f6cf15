// SPDX-License-Identifier: MIT
// Tensor-core peak with warp-level mma.sync (the WMMA API), 16x16x16 tiles, FP32 accumulators,
// operands held in registers: no memory traffic. Each mma_sync is 2 * 16 * 16 * 16 FLOPs.
// Hopper's warpgroup wgmma instructions reach more than mma.sync; this is the mma.sync ceiling.
#include "microbench.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

namespace microbench {

namespace {

constexpr int kAccumulators = 4;
constexpr int kIterations = 2048;

template <typename T> __global__ void mmaKernel(float* sink)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[kAccumulators];
    wmma::fill_fragment(a, static_cast<T>(0.01f));
    wmma::fill_fragment(b, static_cast<T>(0.01f));
#pragma unroll
    for (int k = 0; k < kAccumulators; ++k)
        wmma::fill_fragment(c[k], 0.0f);
    for (int i = 0; i < kIterations; ++i) {
#pragma unroll
        for (int k = 0; k < kAccumulators; ++k)
            wmma::mma_sync(c[k], a, b, c[k]);
    }
    for (int k = 1; k < kAccumulators; ++k) {
        for (int e = 0; e < c[0].num_elements; ++e)
            c[0].x[e] += c[k].x[e];
    }
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    wmma::store_matrix_sync(sink + (warp % 64) * 256, c[0], 16, wmma::mem_row_major);
#else
    if (threadIdx.x == 0)
        sink[0] = 0.f;
#endif
}

template <typename T>
Measurement run(const DeviceFacts& device, const char* name, const char* resource, const char* type)
{
    float* sink = nullptr;
    MB_CHECK(cudaMalloc(&sink, 64 * 256 * sizeof(float)));
    const int blocks = device.prop.multiProcessorCount * 8;
    const int threads = 256;
    const double seconds = bestSeconds(10, [&] { mmaKernel<T><<<blocks, threads>>>(sink); });
    MB_CHECK(cudaFree(sink));
    const double warps = static_cast<double>(blocks) * threads / 32.0;
    const double flops = warps * kAccumulators * kIterations * 2.0 * 16 * 16 * 16;
    char note[160];
    std::snprintf(note, sizeof note, "mma.sync (WMMA) 16x16x16 %s -> FP32, operands in registers, best of 10", type);
    return { name, resource, flops / seconds, "FLOP/s", note };
}

} // namespace

std::vector<Measurement> measureTensor(const DeviceFacts& device)
{
    if (device.prop.major < 8)
        return {}; // the kernels need sm_80 (BF16 WMMA)
    return {
        run<__half>(device, "fp16_mma", "FP16_tensor", "FP16"),
        run<__nv_bfloat16>(device, "bf16_mma", "BF16_tensor", "BF16"),
    };
}

} // namespace microbench
