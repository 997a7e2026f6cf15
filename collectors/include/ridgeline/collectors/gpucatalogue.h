// SPDX-License-Identifier: MIT
// Datasheet peaks of NVIDIA GPUs, each figure with its source. The last resort for ceilings:
// measured ceilings and counter-derived ones (peak_sustained x clock) are preferred.
#pragma once

#include "ridgeline/core/model.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

struct GpuSpec {
    std::string name; // "NVIDIA H100 SXM5 80GB"
    std::vector<std::string> matches; // lower-case substrings of CUDA device names that select it
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    double boostClockHz = 0;
    // Dense peaks by resource name (core::resource::*): FLOP/s (ops/s for INT8) or bytes/s.
    std::map<std::string, double> peaks;
    std::string source; // where the figures come from (URL or document and table)
};

const std::vector<GpuSpec>& gpuCatalogue();

// Finds the entry for a CUDA device name (as cudaGetDeviceProperties or a trace reports it).
// Compute capability and SM count, when known (non-zero), must agree, and pick between
// variants of one name (e.g. A100 40 GB vs 80 GB, H100 SXM vs PCIe). nullptr: unknown GPU.
const GpuSpec* findGpu(std::string_view deviceName, int ccMajor = 0, int ccMinor = 0, int smCount = 0);

// The spec's peaks as session ceilings (source datasheet) for one device of the session.
std::vector<core::Ceiling> datasheetCeilings(const GpuSpec& spec, std::int64_t deviceId);

} // namespace ridgeline::collectors
