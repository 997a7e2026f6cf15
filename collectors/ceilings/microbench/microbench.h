// SPDX-License-Identifier: MIT
// ridgeline-microbench: measures the ceilings of one GPU (docs/CAPTURE.md, "Devices and measured
// ceilings"). Each benchmark returns what it measured; main.cu prints them as JSON.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace microbench {

struct Measurement {
    std::string name; // "dram_copy", "fp32_fma", "h2d_pinned", ...
    std::string resource; // ceilings-table resource ("DRAM", "FP32", ...) or "" when it is no ceiling
    double value = 0; // FLOP/s or B/s
    std::string unit; // "FLOP/s" or "B/s"
    std::string note;
};

struct DeviceFacts {
    int ordinal = 0;
    cudaDeviceProp prop {};
    int smClockKhz = 0;
    int memoryClockKhz = 0;
    int deviceCount = 0;
};

#define MB_CHECK(call)                                                                                                 \
    do {                                                                                                               \
        cudaError_t mbStatus_ = (call);                                                                                \
        if (mbStatus_ != cudaSuccess) {                                                                                \
            std::fprintf(stderr, "ridgeline-microbench: %s failed: %s\n", #call, cudaGetErrorString(mbStatus_));       \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

// Best (shortest) time in seconds of `reps` runs of `launch` on the default stream, after one warm-up.
template <typename F> double bestSeconds(int reps, F launch)
{
    cudaEvent_t start, stop;
    MB_CHECK(cudaEventCreate(&start));
    MB_CHECK(cudaEventCreate(&stop));
    launch();
    MB_CHECK(cudaGetLastError());
    MB_CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int i = 0; i < reps; ++i) {
        MB_CHECK(cudaEventRecord(start));
        launch();
        MB_CHECK(cudaEventRecord(stop));
        MB_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        MB_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (ms < best)
            best = ms;
    }
    MB_CHECK(cudaGetLastError());
    MB_CHECK(cudaEventDestroy(start));
    MB_CHECK(cudaEventDestroy(stop));
    return static_cast<double>(best) * 1e-3;
}

std::vector<Measurement> measureMemory(const DeviceFacts& device);
std::vector<Measurement> measureCompute(const DeviceFacts& device);
std::vector<Measurement> measureTensor(const DeviceFacts& device);
std::vector<Measurement> measureTransfers(const DeviceFacts& device);

} // namespace microbench
