// SPDX-License-Identifier: MIT
// A session's timeline with the analysis' verdicts. The timeline (timeline/) colours its ops by
// verdict but computes none: these give it the roofline's verdicts of the kernels (roofline.h).
#pragma once

#include "ridgeline/core/base/result.h"
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

// The whole session's timeline in lanes (timelinelod.h), with kernelVerdicts.
Result<TimelineData> loadTimelineData(SessionReader& reader, const TimelineLoadProgress& progress = {});

} // namespace ridgeline::core
