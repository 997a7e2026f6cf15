// SPDX-License-Identifier: MIT
// The timeline part of `ridgeline report`: the "timeline" JSON array and the table summary.
#pragma once

#include "ridgeline/core/timeline/profilersteps.h"
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
// The session's profiler steps: [{"step", "start_ns", "end_ns", "range": "gpu"|"host"}], each with
// its "timeline" array when `timelines` holds one per step.
nlohmann::json profilerStepsJson(
    const std::vector<ProfilerStep>& steps, const std::vector<std::vector<TimelineSummary>>& timelines);
// A few lines per rank and device, for the terminal table, under a heading that says which window
// they cover (the whole session says which profiler steps it holds besides their warm-up).
void writeTimelineTable(std::ostream& out, const std::vector<TimelineSummary>& summaries,
    const std::optional<TimeWindow>& window, const std::optional<std::int64_t>& step,
    const std::vector<ProfilerStep>& steps);
// One row per profiler step and rank/device: span, busy, compute, communication, idle.
void writeStepTable(std::ostream& out, const std::vector<ProfilerStep>& steps,
    const std::vector<std::vector<TimelineSummary>>& timelines);

} // namespace ridgeline::core::detail
