// SPDX-License-Identifier: MIT
// What each collected counter is for: which FLOP or byte figure of the roofline, or which
// ceiling, it feeds (`ridgeline metrics`). Plain data, no CUPTI.
#pragma once

#include <string>
#include <string_view>

namespace ridgeline::collectors {

// One short phrase, e.g. "FP64 FLOPs (2 per DFMA)", "L2 counter ceiling (bytes per L2 cycle)",
// "FP16 tensor FLOPs, estimated (512 per tensor instruction)"; for a counter the roofline does
// not read, "detail only (not read by the roofline)".
std::string metricFeeds(std::string_view metric);

// True when the counter is a peak figure (".peak_sustained"): a constant of the chip, which costs
// no replay pass (checked with the host API in tests/cupti).
bool isPeakFigure(std::string_view metric);

} // namespace ridgeline::collectors
