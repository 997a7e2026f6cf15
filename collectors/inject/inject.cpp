// SPDX-License-Identifier: MIT
// libridgeline-inject.so: the two entry points, and nothing else, that the library exports
// (exports.map). Loaded by the CUDA driver through CUDA_INJECTION64_PATH and by NVTX through
// NVTX_INJECTION64_PATH; the work is in capture.cpp.
#include "capture.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    return ridgeline::inject::startCapture();
}

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(void* getExportTable)
{
    return ridgeline::inject::forwardNvtxInjection(getExportTable);
}
