// SPDX-License-Identifier: MIT
// Roofline figures computed the long way from a session's raw counters and ceilings, with the
// formulas of docs/ROOFLINE.md, to check the chart view-model against.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::core {
class SessionReader;
}

namespace ridgeline::testing {

struct ExpectedPoint {
    std::string name; // demangled
    std::int64_t deviceId = 0;
    std::string level;
    std::string precision; // empty: combined
    double intensity = 0;
    double flopsPerS = 0;
    double timeShare = 0;
};

// (device, resource) -> the ceiling with the most trusted source, the highest of that source.
std::map<std::pair<std::int64_t, std::string>, core::Ceiling> expectedBestCeilings(
    const std::vector<core::Ceiling>& ceilings, const std::vector<std::int64_t>& devices);

// Points of every kernel (name and device) with counters: FLOPs per precision from the SASS
// instruction counts (FMA = 2, packed half = 2 or 4) and the tensor pipe (x512), bytes per level,
// rates over the launches that have counters.
std::vector<ExpectedPoint> expectedPoints(core::SessionReader& reader, const std::vector<core::KernelSummary>& rows,
    const std::vector<std::string>& levels, bool perPrecision);

} // namespace ridgeline::testing
