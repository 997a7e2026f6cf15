// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/sessiontimeline.h"

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "sessionanalysis.h"

namespace ridgeline::core {

Result<KernelVerdicts> kernelVerdicts(SessionReader& reader)
{
    auto facts = detail::SessionFacts::load(reader);
    if (facts.hasError())
        return facts.error();
    // Only counted or collective kernels have a verdict beyond "unknown (no counters)".
    auto analysed = reader.kernelsById(facts.value().analysedKernelIds());
    if (analysed.hasError())
        return analysed.error();
    KernelVerdicts verdicts;
    for (const auto& k : analysed.value())
        verdicts[k.id] = analyzeKernel(facts.value().factsFor(k)).verdict;
    return verdicts;
}

namespace {

// The analysis of the whole session (no window) as stored in it (storedtimeline.h) while it is still
// what a scan would give, else a scan; a window or a step is always a scan.
Result<std::vector<TimelineSummary>> analyzeStoredOrScan(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineSelection& selection)
{
    if (!selection.window && !selection.step) {
        auto known = verdicts(reader);
        if (known.hasError())
            return known.error();
        auto stored = storedTimelineSummaries(reader, timelineVerdictsKey(known.value()));
        if (stored.hasError())
            return stored.error();
        if (stored.value())
            return std::move(*stored.value());
        return analyzeSessionTimeline(
            reader, [&known](SessionReader&) -> Result<KernelVerdicts> { return known.value(); }, selection);
    }
    return analyzeSessionTimeline(reader, verdicts, selection);
}

} // namespace

Result<std::vector<TimelineSummary>> analyzeSessionTimeline(SessionReader& reader, const TimelineSelection& selection)
{
    return analyzeStoredOrScan(reader, kernelVerdicts, selection);
}

Result<SelectedTimeline> analyzeSelectedTimeline(SessionReader& reader, const TimelineSelection& selection)
{
    SelectedTimeline out;
    out.window = selection.window;
    out.step = selection.step;
    auto steps = profilerSteps(reader);
    if (steps.hasError())
        return steps.error();
    out.steps = std::move(steps).value();
    if (selection.step) {
        auto window = profilerStepWindow(reader, *selection.step);
        if (window.hasError())
            return window.error();
        out.window = window.value();
    }
    std::optional<KernelVerdicts> verdicts; // worked out on the first scan that needs them, then kept
    const KernelVerdictSource once = [&verdicts](SessionReader& r) -> Result<KernelVerdicts> {
        if (!verdicts) {
            auto computed = kernelVerdicts(r);
            if (computed.hasError())
                return computed.error();
            verdicts = std::move(computed).value();
        }
        return *verdicts;
    };
    auto summaries = analyzeStoredOrScan(reader, once, { out.window, std::nullopt });
    if (summaries.hasError())
        return summaries.error();
    out.summaries = std::move(summaries).value();
    if (!selection.allSteps)
        return out;
    for (const auto& step : out.steps) {
        auto ofStep = analyzeSessionTimeline(reader, once, { step.window, std::nullopt });
        if (ofStep.hasError())
            return ofStep.error();
        out.stepSummaries.push_back(std::move(ofStep).value());
    }
    return out;
}

Result<TimelineData> loadTimelineData(SessionReader& reader, const TimelineLoadProgress& progress)
{
    return loadTimelineData(reader, kernelVerdicts, progress);
}

} // namespace ridgeline::core
