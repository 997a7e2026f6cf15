// SPDX-License-Identifier: MIT
// Tensor-core GEMM through cuBLAS: BF16 inputs, FP32 accumulation (cublasGemmEx), m = n = k =
// 8192: 2 m n k FLOPs per call, all on the tensor cores. cuBLAS picks the kernel (its name varies
// with the GPU and version; the kit matches "gemm"); DRAM at least the compulsory bytes.
#include "kit.h"
#include "kitcublas.h"

#include <cuda_bf16.h>

int main()
{
    const int n = 8192;
    const size_t elements = size_t(n) * n;
    __nv_bfloat16 *A, *B;
    float* C;
    KIT_CHECK(cudaMalloc(&A, elements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMalloc(&B, elements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMalloc(&C, elements * sizeof(float)));
    KIT_CHECK(cudaMemset(A, 0, elements * sizeof(__nv_bfloat16)));
    KIT_CHECK(cudaMemset(B, 0, elements * sizeof(__nv_bfloat16)));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    const float alpha = 1.f, beta = 0.f;
    const int launches = 5;
    for (int i = 0; i < launches; ++i)
        CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16BF, n, B, CUDA_R_16BF,
            n, &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    KIT_CHECK(cudaDeviceSynchronize());
    CUBLAS_CHECK(cublasDestroy(handle));
    const double compulsory = (2.0 * elements * sizeof(__nv_bfloat16) + elements * sizeof(float)) * launches;
    kitExpect("gemm", launches, 2.0 * n * n * double(n) * launches, compulsory, "min", "compute-bound:tensor");
    return 0;
}
