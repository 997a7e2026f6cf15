// SPDX-License-Identifier: MIT
// Everything the views show of one open session, loaded off the GUI thread and then shared
// read-only by every view (the views hold a shared_ptr; nothing in it changes after loading).
#pragma once

#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/output/sessionoperators.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <QString>
#include <memory>
#include <vector>

namespace ridgeline::ui {

struct SessionDocument {
    QString path;
    core::KernelReport report; // meta, devices, kernel summaries, timeline summaries
    std::vector<core::Ceiling> ceilings; // of every device, every source
    // Every op of the session in lanes, for the timeline view (core::loadTimelineData); may be null.
    std::shared_ptr<const core::TimelineData> timeline;
    // The PyTorch profiler's steps ("ProfilerStep#N" ranges, profilersteps.h) by number, each with
    // its window (the GPU-side range where the trace has one); empty when the session has none.
    std::vector<core::ProfilerStep> steps;
    // The collectives (`ridgeline report --by collective`): rows by type, process group and size,
    // the ranks' waits and the instances matched across ranks; may be null.
    std::shared_ptr<const core::CollectiveReport> collectives;
    // The PyTorch operators: which launched each kernel, the table grouped by operator and module
    // (core::loadSessionOperators); null when the session has none.
    std::shared_ptr<const core::SessionOperators> operators;
    // The time each operator shape, kernel or copy would give back at its roof, ranked
    // (core::sessionOpportunities, `ridgeline report --opportunities`); null when it could not be
    // worked out (opportunitiesError says why) or in the table stage.
    std::shared_ptr<const core::Opportunities> opportunities;
    QString opportunitiesError;
    // True for the table stage of an open (ReadHooks::tableReady): the timeline, its analysis and
    // the views built on them follow with the complete document of the same session.
    bool tableStage = false;
    // What `ridgeline check` warns of in this session's values (bad times, dangling ids, NaN metrics...).
    std::vector<core::ValueWarning> warnings;
    // False in the document delivered before the value checks ran (ReadHooks::documentReady): its
    // `warnings` are not known yet.
    bool valuesChecked = true;
};

using SessionDocumentPtr = std::shared_ptr<const SessionDocument>;

} // namespace ridgeline::ui
