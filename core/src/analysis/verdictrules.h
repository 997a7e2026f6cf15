// SPDX-License-Identifier: MIT
// From utilisations to a verdict and its sentence (ARCHITECTURE §4).
#pragma once

#include "ridgeline/core/analysis/roofline.h"

#include <string>

namespace ridgeline::core::detail {

// Whole percent, but never "0 %" for something that is there: 0.004 -> "0.4 %".
std::string percentText(double fraction);

// The likely reason a launch reaches no ceiling: less than one wave, too short, or neither.
std::string latencyHint(const KernelFacts& facts, double durationNs);

// Sets verdict, boundBy, boundUtilization and reason from the analysis' figures. `device` names
// the GPU in "no ceilings" reasons; `hint` is latencyHint()'s sentence.
void classify(KernelAnalysis& a, const std::string& collective, const std::string& deviceName, const std::string& hint);

} // namespace ridgeline::core::detail
