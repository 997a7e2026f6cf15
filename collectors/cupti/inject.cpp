// SPDX-License-Identifier: MIT
// libridgeline-inject.so: loaded by the CUDA driver through CUDA_INJECTION64_PATH.
// Skeleton: the entry point exists and declines politely; the collector issue fills it
// with the CUPTI Activity API and the Range Profiler (ARCHITECTURE §2).

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    // Returning 0 tells the driver that injection did not set anything up.
    return 0;
}
