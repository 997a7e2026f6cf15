// SPDX-License-Identifier: MIT
// GPU validation kit: every program prints, for each kernel it launches, one line
//   ridgeline-kit: {"kernel":"<substring of the kernel name>","launches":N,"flops":F,
//                   "dram_bytes":B,"dram_check":"exact|min|none","verdict":"<expected or any>"}
// with analytic totals over all launches, so run.sh needs no formula of its own.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define KIT_CHECK(call)                                                                                                \
    do {                                                                                                               \
        cudaError_t kitStatus_ = (call);                                                                               \
        if (kitStatus_ != cudaSuccess) {                                                                               \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(kitStatus_)); \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

inline void kitExpect(
    const char* kernel, long long launches, double flops, double dramBytes, const char* dramCheck, const char* verdict)
{
    std::printf("ridgeline-kit: {\"kernel\":\"%s\",\"launches\":%lld,\"flops\":%.17g,\"dram_bytes\":%.17g,"
                "\"dram_check\":\"%s\",\"verdict\":\"%s\"}\n",
        kernel, launches, flops, dramBytes, dramCheck, verdict);
    std::fflush(stdout);
}

// Memory operations (copies) are checked by kind and total bytes.
inline void kitExpectCopy(const char* kind, const char* memory, long long count, double bytes)
{
    std::printf("ridgeline-kit: {\"memop\":\"%s\",\"memory\":\"%s\",\"count\":%lld,\"bytes\":%.17g}\n", kind, memory,
        count, bytes);
    std::fflush(stdout);
}

// A device array of `count` elements of T, not initialised.
template <typename T> T* kitDeviceArray(size_t count)
{
    T* array = nullptr;
    KIT_CHECK(cudaMalloc(&array, count * sizeof(T)));
    return array;
}

// A device array of `count` elements of T, zeroed (one cudaMemset).
template <typename T> T* kitZeroedArray(size_t count)
{
    T* array = kitDeviceArray<T>(count);
    KIT_CHECK(cudaMemset(array, 0, count * sizeof(T)));
    return array;
}

inline int kitSmCount()
{
    int device = 0, sms = 0;
    KIT_CHECK(cudaGetDevice(&device));
    KIT_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
}
