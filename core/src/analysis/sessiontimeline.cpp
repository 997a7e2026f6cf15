// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/sessiontimeline.h"

#include "ridgeline/core/analysis/roofline.h"
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

Result<std::vector<TimelineSummary>> analyzeSessionTimeline(SessionReader& reader, const TimelineSelection& selection)
{
    return analyzeSessionTimeline(reader, kernelVerdicts, selection);
}

Result<TimelineData> loadTimelineData(SessionReader& reader, const TimelineLoadProgress& progress)
{
    return loadTimelineData(reader, kernelVerdicts, progress);
}

} // namespace ridgeline::core
