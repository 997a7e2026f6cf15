// SPDX-License-Identifier: MIT
// What to try for a kernel, given what bounds it (docs/ROOFLINE.md "Verdict"). A pure function
// of the verdict, the bounding resource and the latency hint: the desktop details pane, the CLI
// report and the HTML export can all show the same suggestions.
#pragma once

#include "ridgeline/core/analysis/roofline.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

struct AdviceInput {
    VerdictClass verdict = VerdictClass::Unknown;
    std::string_view boundBy; // FP64, FP32, FP16, tensor, SM, DRAM, L2, L1, NVLink, PCIe, collective, or empty
    std::string_view latencyHint; // KernelAnalysis::latencyHint (latency-bound kernels)
    std::optional<double> boundUtilization; // above 1: the ceiling or the counters are wrong
    bool hasCounters = false;
};

// Concrete suggestions, most useful first; never empty.
std::vector<std::string> adviceFor(const AdviceInput& input);
std::vector<std::string> adviceFor(const KernelAnalysis& analysis);

} // namespace ridgeline::core
