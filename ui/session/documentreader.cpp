// SPDX-License-Identifier: MIT
#include "documentreader.h"

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/ncuestimates.h"
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/sessionoperators.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <QCoreApplication>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <atomic>
#include <future>

namespace ridgeline::ui {

namespace {

class Stages {
public:
    explicit Stages(const ReadHooks& hooks)
        : m_hooks(hooks)
    { }
    // Reports the start of a stage; false when the user cancelled.
    bool begin(int permille, const QString& what) const
    {
        if (m_hooks.cancelled && m_hooks.cancelled())
            return false;
        if (m_hooks.progress)
            m_hooks.progress(permille, what);
        return true;
    }

private:
    const ReadHooks& m_hooks;
};

core::Error cancelledError()
{
    return core::makeError(core::ErrorCode::InvalidArgument, "Opening was cancelled.");
}

QString loaderTr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::SessionDocumentLoader", text);
}

// Gives the heap's free pages back to the system (every arena's); nothing outside glibc.
void releaseFreedMemory()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

} // namespace

core::Result<SessionDocument> readSessionDocument(const QString& path, const ReadHooks& hooks)
{
    const Stages stages(hooks);
    if (!stages.begin(0, loaderTr("Opening session")))
        return cancelledError();
    auto reader = core::SessionReader::open(path.toStdString());
    if (reader.hasError())
        return reader.error();
    auto& session = reader.value();

    SessionDocument doc;
    doc.path = path;
    auto& report = doc.report;
    report.path = session.path();
    report.schemaVersion = session.fileSchemaVersion();
    if (!stages.begin(50, loaderTr("Reading devices")))
        return cancelledError();
    auto meta = session.meta();
    if (meta.hasError())
        return meta.error();
    report.meta = std::move(meta).value();
    auto devices = session.devices();
    if (devices.hasError())
        return devices.error();
    report.devices = std::move(devices).value();
    auto ceilings = session.ceilings();
    if (ceilings.hasError())
        return ceilings.error();
    doc.ceilings = std::move(ceilings).value();

    // The same figures as core::buildKernelReport over the whole session, in cancellable stages.
    if (!stages.begin(100, loaderTr("Summarising kernels and their verdicts")))
        return cancelledError();
    auto kernels = core::summarizeKernels(session);
    if (kernels.hasError())
        return kernels.error();
    report.kernels = std::move(kernels).value();
    auto ncuEstimates = core::ncuEstimatesByKernel(session); // Nsight Compute's rule results, if any
    if (ncuEstimates.hasError())
        return ncuEstimates.error();
    report.ncuEstimates = std::move(ncuEstimates).value();
    if (hooks.tableReady) {
        doc.tableStage = true;
        hooks.tableReady(doc);
        doc.tableStage = false;
    }

    if (!stages.begin(550, loaderTr("Analysing the timeline")))
        return cancelledError();
    // The timeline view's lanes load on a second reader while this thread analyses the timeline:
    // the two scans together take about as long as the longer one.
    std::atomic<bool> stop { false };
    auto lanes = std::async(std::launch::async, [&path, &stop]() -> core::Result<core::TimelineData> {
        auto second = core::SessionReader::open(path.toStdString());
        if (second.hasError())
            return second.error();
        return core::loadTimelineData(second.value(), [&stop](double) { return !stop.load(); });
    });
    auto timeline = core::analyzeSessionTimeline(session);
    if (timeline.hasError()) {
        stop = true;
        return timeline.error();
    }
    report.timeline = std::move(timeline).value();
    // Only a session with operators (a PyTorch trace) has this stage: an Nsight Compute report's
    // open would otherwise name one it does not have.
    auto hasOperators = session.hasOperators();
    if (hasOperators.hasError()) {
        stop = true;
        return hasOperators.error();
    }
    if (hasOperators.value()) {
        if (!stages.begin(800, loaderTr("Linking kernels to their PyTorch operators"))) {
            stop = true;
            return cancelledError();
        }
        auto operators = core::loadSessionOperators(session);
        if (operators.hasError()) {
            stop = true;
            return operators.error();
        }
        if (operators.value())
            doc.operators = std::make_shared<const core::SessionOperators>(std::move(*operators.value()));
    }
    if (!stages.begin(900, loaderTr("Laying out the timeline"))) {
        stop = true;
        return cancelledError();
    }
    auto steps = core::profilerSteps(session); // while the lanes are still being laid out
    if (steps.hasError()) {
        stop = true;
        return steps.error();
    }
    doc.steps = std::move(steps).value();
    auto laidOut = lanes.get();
    if (laidOut.hasError())
        return laidOut.error();
    doc.timeline = std::make_shared<const core::TimelineData>(std::move(laidOut).value());
    // The scans' temporaries (ops per stream and per device, 80 bytes an op) are freed now, but
    // the allocator keeps what it freed below its mmap threshold (up to 32 MB a block) in the
    // loader threads' arenas: the open app held 60.4 bytes per GPU op, 41.2 with this (10 M ops).
    releaseFreedMemory();

    if (!stages.begin(930, loaderTr("Matching collectives across ranks")))
        return cancelledError();
    core::SessionReader* readers[] = { &session };
    auto collectives = core::buildCollectiveReport(readers);
    if (collectives.hasError())
        return collectives.error();
    doc.collectives = std::make_shared<const core::CollectiveReport>(std::move(collectives).value());

    if (!stages.begin(940, loaderTr("Ranking opportunities")))
        return cancelledError();
    // A session whose opportunities cannot be worked out still opens: the page says why.
    auto opportunities = core::sessionOpportunities(session);
    if (opportunities.hasError())
        doc.opportunitiesError = QString::fromStdString(opportunities.error().message);
    else
        doc.opportunities = std::move(opportunities).value();

    if (hooks.documentReady) {
        doc.valuesChecked = false;
        hooks.documentReady(doc);
        doc.valuesChecked = true;
    }
    if (!stages.begin(950, loaderTr("Checking values")))
        return cancelledError();
    auto warnings
        = core::checkSessionValues(path.toStdString(), [&hooks] { return hooks.cancelled && hooks.cancelled(); });
    if (hooks.cancelled && hooks.cancelled())
        return cancelledError();
    if (warnings.hasError())
        return warnings.error();
    doc.warnings = std::move(warnings).value();

    if (!stages.begin(1000, loaderTr("Done")))
        return cancelledError();
    return doc;
}

} // namespace ridgeline::ui
