// SPDX-License-Identifier: MIT
// Per kernel name and device: launches and time. The row model behind `ridgeline report`
// and the desktop kernel table (a plain C++ view-model; ui adapts it to Qt).
#pragma once

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

class SessionReader;

struct KernelSummary {
    std::int64_t nameId = 0;
    std::int64_t deviceId = 0;
    std::string name; // demangled
    std::string shortName; // shortKernelName(name): what tables show; the full name is in tooltips and details
    std::string mangledName;
    std::string deviceName;
    std::int64_t launches = 0;
    std::int64_t totalNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    double shareOfKernelTime = 0; // of all kernel time in the session, 0..1
    // Launches that ran in CUDA graph launches profiled as one range (graph-level counters only).
    std::int64_t graphLevelLaunches = 0;
    // The roofline over the launches that have counters (time-weighted), and the verdict.
    KernelAnalysis analysis;
    // The short name, or the full one when the row was built without it.
    const std::string& displayName() const { return shortName.empty() ? name : shortName; }
    double averageNs() const { return launches ? static_cast<double>(totalNs) / static_cast<double>(launches) : 0; }
};

enum class KernelSort { TotalTime, Launches, AverageTime, MaxTime, Name };
std::optional<KernelSort> kernelSortFromString(std::string_view text);
std::vector<std::string> kernelSortNames();

// One narrow pass over the kernels table for the times, and the roofline analysis of the
// launches that have counters or carry a collective; rows sorted by total time, largest first.
Result<std::vector<KernelSummary>> summarizeKernels(SessionReader& reader);
void sortKernelSummaries(std::vector<KernelSummary>& rows, KernelSort sort);

} // namespace ridgeline::core
