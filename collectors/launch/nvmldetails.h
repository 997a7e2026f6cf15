// SPDX-License-Identifier: MIT
// NVML details of probed GPUs (maximum clocks, NVLink and PCIe links), through dlopen.
#pragma once

#include "ridgeline/collectors/launch/gpuprobe.h"

#include <string>

namespace ridgeline::collectors::detail {

// Fills clocks and links of every GPU NVML knows by UUID; returns false when NVML is unavailable.
bool addNvmlDetails(GpuProbe& probe, const std::string& library);

} // namespace ridgeline::collectors::detail
