// SPDX-License-Identifier: MIT
// How the session targets read a session: as the CLI and the app read one (sessionreads.h).
#include "sessionreads.h"

#include "fuzzsupport.h"
#include "ridgeline/core/analysis/kerneldetails.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/output/opreport.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "ridgeline/core/timeline/timelinerow.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace ridgeline;

void reports(core::SessionReader& reader, std::ostream& out)
{
    auto kernels = core::buildKernelReport(reader);
    if (kernels.ok()) {
        const auto baseline = kernels.value();
        for (auto format : { core::ReportFormat::Table, core::ReportFormat::Csv, core::ReportFormat::Json })
            core::writeKernelReport(out, kernels.value(), { format, core::KernelSort::TotalTime, 0, &baseline });
    }
    // A window over the first half of the session, as `report --window` asks for.
    if (auto span = reader.gpuTimeSpan(); span.ok() && !span.value().empty) {
        const auto start = span.value().startNs;
        const core::TimeWindow half { start, core::saturatingAdd(start, span.value().durationNs() / 2 + 1) };
        (void)core::buildKernelReport(reader, { half, std::nullopt });
    }
    (void)core::buildKernelReport(reader, { std::nullopt, 1 }); // ProfilerStep#1
    for (auto by : { core::ReportGrouping::Op, core::ReportGrouping::Module }) {
        auto ops = core::buildOpReport(reader, by);
        if (ops.ok()) {
            core::writeOpReport(out, ops.value(), { core::ReportFormat::Table, 0, &ops.value() });
            core::writeOpReport(out, ops.value(), { core::ReportFormat::Json, 0, nullptr });
        }
    }
    core::SessionReader* readers[] = { &reader };
    auto collectives = core::buildCollectiveReport(readers);
    if (collectives.ok()) {
        core::writeCollectiveReport(out, collectives.value(), core::ReportFormat::Table);
        core::writeCollectiveReport(out, collectives.value(), core::ReportFormat::Json);
    }
}

// What the app shows: the timeline (drawn at one zoom), the roofline chart, a kernel's details.
void app(core::SessionReader& reader)
{
    auto timeline = core::loadTimelineData(reader);
    if (timeline.ok()) {
        const auto& data = timeline.value();
        const core::PixelGrid grid(data.extent(), 1000);
        std::vector<core::LodItem> items;
        for (std::size_t row = 0; row < data.rowCount(); ++row)
            data.row(row).lod(grid, items);
        if (data.rowCount() > 0 && data.row(0).size() > 0)
            (void)data.findKernel(data.row(0).sourceId(0));
    }
    auto kernels = core::summarizeKernels(reader);
    auto ceilings = reader.ceilings();
    if (kernels.ok() && ceilings.ok()) {
        (void)core::buildRooflineChart(ceilings.value(), kernels.value());
        if (!kernels.value().empty()) {
            const auto& first = kernels.value().front();
            (void)core::loadKernelDetails(reader, first.nameId, first.deviceId);
            if (timeline.ok())
                (void)timeline.value().launchesOf(first.nameId, first.deviceId);
        }
    }
}

} // namespace

void ridgeline::fuzz::readSession(core::SessionReader& reader, std::string_view input)
{
    // Every input is checked, as every session sent is first; the deeper readers run on a quarter
    // of the inputs each (fuzz::deeper), since all of them would make each input ten times slower.
    NullStream out;
    auto check = core::checkSession(reader);
    if (check.ok()) {
        core::writeSessionCheck(out, check.value(), false);
        core::writeSessionCheck(out, check.value(), true);
    }
    // A damaged session is still read the other ways: `report` and the exports do not run `check`.
    if (deeper(input, 0))
        reports(reader, out);
    if (deeper(input, 1)) {
        (void)core::writePerfettoTrace(reader, out);
        (void)core::writeHtmlReport(reader, out);
    }
    if (deeper(input, 2))
        app(reader);
}
