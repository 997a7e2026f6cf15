// SPDX-License-Identifier: MIT
// libridgeline-inject.so: the two entry points, and nothing else, that the library exports
// (exports.map). Loaded by the CUDA driver through CUDA_INJECTION64_PATH and by NVTX through
// NVTX_INJECTION64_PATH; the work is in capture.cpp.
#include "capture.h"

#include <cstdint>

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    return ridgeline::inject::startCapture();
}

// NVTX calls this with its NvtxGetExportTableFunc_t: the same type here, so that a program built
// with clang's -fsanitize=function (UBSan) finds the type it calls through.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    const void* (*getExportTable)(std::uint32_t))
{
    return ridgeline::inject::forwardNvtxInjection(reinterpret_cast<void*>(getExportTable));
}
