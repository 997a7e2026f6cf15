// SPDX-License-Identifier: MIT
// A session's timeline with the analysis' verdicts. The timeline (timeline/) colours its ops by
// verdict but computes none: these give it the roofline's verdicts of the kernels (roofline.h).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <vector>

namespace ridgeline::core {

class SessionReader;

// The verdict of every kernel whose verdict needs more than its duration (counted, or carrying a
// collective), from the session's facts (analyzeKernel): the timeline's KernelVerdictSource.
Result<KernelVerdicts> kernelVerdicts(SessionReader& reader);

// One summary per rank and device, ordered by rank then device (timeline.h), with kernelVerdicts.
Result<std::vector<TimelineSummary>> analyzeSessionTimeline(
    SessionReader& reader, const TimelineSelection& selection = {});

// The timeline analysis of what `selection` chooses, with what the output needs to say which window
// it covers: the window (a step's resolved), the session's profiler steps and, with allSteps, each
// step's own analysis. The verdicts are worked out once for all of them.
struct SelectedTimeline {
    std::vector<TimelineSummary> summaries; // of the whole session, the window or the step
    std::optional<TimeWindow> window; // none: the whole session
    std::optional<std::int64_t> step;
    std::vector<ProfilerStep> steps; // every step of the session
    std::vector<std::vector<TimelineSummary>> stepSummaries; // per entry of `steps`, with allSteps only
};
// An unknown step is NotFound (naming the steps there are), an empty window InvalidArgument.
Result<SelectedTimeline> analyzeSelectedTimeline(SessionReader& reader, const TimelineSelection& selection);

// The whole session's timeline in lanes (timelinelod.h), with kernelVerdicts.
Result<TimelineData> loadTimelineData(SessionReader& reader, const TimelineLoadProgress& progress = {});

} // namespace ridgeline::core
