// SPDX-License-Identifier: MIT
// The workload of the bundled example session (capture-example.sh): five "training steps", each
// an NVTX range "step" holding "forward", "backward" and "optimizer", with a mix of kernels whose
// bounds differ, so that the roofline shows every verdict:
//   - gemmBf16: cuBLAS BF16 GEMM, m = n = k = 4096 (tensor cores: compute-bound);
//   - triad: a[i] = b[i] + s * c[i] over 2^24 floats (DRAM: memory-bound);
//   - sgemmTiled: FP32 SGEMM with 32x32 shared-memory tiles, n = 1024;
//   - tinyKernel: 1 block of 32 threads, 200 launches per step (latency-bound);
//   - sgdStep: w -= lr * g over 2^24 floats (memory-bound);
// plus a pinned host-to-device copy of the batch on a second stream, waited for with an event,
// and a device-to-host copy of the loss. Nothing here is checked (run.sh does the checking): it
// is a realistic small session for a new user to open.
#include "kit.h"
#include "kitcublas.h"
#include "sgemmtiled.cuh"

#include <cuda_bf16.h>
#include <nvtx3/nvToolsExt.h>

namespace {

__global__ void triad(
    float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, float s, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

__global__ void tinyKernel(float* x)
{
    x[threadIdx.x] = x[threadIdx.x] * 0.5f + 1.f;
}

__global__ void sgdStep(float* __restrict__ w, const float* __restrict__ g, float lr, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        w[i] -= lr * g[i];
}

unsigned blocksFor(size_t n, unsigned threads)
{
    return static_cast<unsigned>((n + threads - 1) / threads);
}

} // namespace

int main()
{
    const int steps = 5;
    const int gemmN = 4096;
    const int sgemmN = 1024;
    const size_t vector = size_t { 1 } << 24;
    const size_t batchBytes = size_t { 32 } << 20;

    cudaStream_t compute, copy;
    KIT_CHECK(cudaStreamCreate(&compute));
    KIT_CHECK(cudaStreamCreate(&copy));
    cudaEvent_t batchReady;
    KIT_CHECK(cudaEventCreateWithFlags(&batchReady, cudaEventDisableTiming));

    const size_t gemmElements = size_t(gemmN) * gemmN;
    __nv_bfloat16 *A16, *B16;
    float *C32, *a, *b, *c, *w, *g, *sa, *sb, *sc, *tiny, *loss, *batch;
    KIT_CHECK(cudaMalloc(&A16, gemmElements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMalloc(&B16, gemmElements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMalloc(&C32, gemmElements * sizeof(float)));
    for (float** v : { &a, &b, &c, &w, &g })
        KIT_CHECK(cudaMalloc(v, vector * sizeof(float)));
    for (float** m : { &sa, &sb, &sc })
        KIT_CHECK(cudaMalloc(m, size_t(sgemmN) * sgemmN * sizeof(float)));
    KIT_CHECK(cudaMalloc(&tiny, 32 * sizeof(float)));
    KIT_CHECK(cudaMalloc(&loss, sizeof(float)));
    KIT_CHECK(cudaMalloc(&batch, batchBytes));
    KIT_CHECK(cudaMemset(A16, 0, gemmElements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMemset(B16, 0, gemmElements * sizeof(__nv_bfloat16)));
    for (float* v : { a, b, c, w, g })
        KIT_CHECK(cudaMemset(v, 0, vector * sizeof(float)));
    for (float* m : { sa, sb, sc })
        KIT_CHECK(cudaMemset(m, 0, size_t(sgemmN) * sgemmN * sizeof(float)));
    KIT_CHECK(cudaMemset(tiny, 0, 32 * sizeof(float)));
    float* hostBatch = nullptr;
    KIT_CHECK(cudaMallocHost(&hostBatch, batchBytes));
    float hostLoss = 0.f;

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, compute));
    const float alpha = 1.f, beta = 0.f;
    const dim3 tiles(sgemmN / kTile, sgemmN / kTile), tile(kTile, kTile);

    for (int step = 0; step < steps; ++step) {
        nvtxRangePushA("step");
        KIT_CHECK(cudaMemcpyAsync(batch, hostBatch, batchBytes, cudaMemcpyHostToDevice, copy));
        KIT_CHECK(cudaEventRecord(batchReady, copy));
        KIT_CHECK(cudaStreamWaitEvent(compute, batchReady, 0));

        nvtxRangePushA("forward");
        CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, gemmN, gemmN, gemmN, &alpha, A16, CUDA_R_16BF,
            gemmN, B16, CUDA_R_16BF, gemmN, &beta, C32, CUDA_R_32F, gemmN, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        triad<<<blocksFor(vector, 256), 256, 0, compute>>>(a, b, c, 3.f, vector);
        for (int i = 0; i < 200; ++i)
            tinyKernel<<<1, 32, 0, compute>>>(tiny);
        nvtxRangePop();

        nvtxRangePushA("backward");
        sgemmTiled<<<tiles, tile, 0, compute>>>(sa, sb, sc, sgemmN);
        triad<<<blocksFor(vector, 256), 256, 0, compute>>>(g, a, b, 0.5f, vector);
        nvtxRangePop();

        nvtxRangePushA("optimizer");
        sgdStep<<<blocksFor(vector, 256), 256, 0, compute>>>(w, g, 0.01f, vector);
        KIT_CHECK(cudaMemcpyAsync(&hostLoss, loss, sizeof(float), cudaMemcpyDeviceToHost, compute));
        KIT_CHECK(cudaStreamSynchronize(compute));
        nvtxRangePop();
        nvtxRangePop();
    }
    KIT_CHECK(cudaGetLastError());
    CUBLAS_CHECK(cublasDestroy(handle));
    KIT_CHECK(cudaFreeHost(hostBatch));
    std::printf("example_mix: %d steps done\n", steps);
    return 0;
}
