// SPDX-License-Identifier: MIT
// The injected capture of one process: part file, CUPTI activity tracing, per-kernel counters,
// flush at exit and on fatal signals. Every failure becomes a capture.error / capture.warning
// sentence and one stderr line; the target always keeps running.
#pragma once

namespace ridgeline::inject {

// Sets everything up once per process. Returns 1 when tracing runs, 0 when nothing was set up
// (the CUDA driver's convention for InitializeInjection).
int startCapture() noexcept;

// Hands NVTX's injection call (NVTX_INJECTION64_PATH) to CUPTI (cuptiNvtxInitialize2), which
// records the NVTX ranges. Returns 1 when CUPTI took it, else 0.
int forwardNvtxInjection(void* getExportTable) noexcept;

} // namespace ridgeline::inject
