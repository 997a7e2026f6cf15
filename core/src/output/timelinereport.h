// SPDX-License-Identifier: MIT
// The timeline part of `ridgeline report`: the "timeline" JSON array and the table summary.
#pragma once

#include "ridgeline/core/timeline/timeline.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <vector>

namespace ridgeline::core::detail {

// One object per rank and device (docs: rank, device, counts, span_ns, idle_ns, compute_ns, ...).
nlohmann::json timelineJson(const std::vector<TimelineSummary>& summaries);
// {"start_ns", "end_ns", "step"} of the analysed window, or null for the whole session.
nlohmann::json timelineWindowJson(const std::optional<TimeWindow>& window, const std::optional<std::int64_t>& step);
// A few lines per rank and device, for the terminal table.
void writeTimelineTable(std::ostream& out, const std::vector<TimelineSummary>& summaries,
    const std::optional<TimeWindow>& window, const std::optional<std::int64_t>& step);

} // namespace ridgeline::core::detail
