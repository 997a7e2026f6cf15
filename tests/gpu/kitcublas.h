// SPDX-License-Identifier: MIT
// cuBLAS for the kit programs that use it (gemm_bf16, example_mix): a failed call exits with its status.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                                                             \
    do {                                                                                                               \
        cublasStatus_t s_ = (call);                                                                                    \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                             \
            std::fprintf(stderr, "%s failed: cuBLAS status %d\n", #call, static_cast<int>(s_));                        \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)
