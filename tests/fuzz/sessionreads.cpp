// SPDX-License-Identifier: MIT
// How the session targets read a session: as the CLI and the app read one (sessionreads.h).
#include "sessionreads.h"

#include "fuzzsupport.h"
#include "ridgeline/core/analysis/kerneldetails.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/output/operatorreport.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "ridgeline/core/timeline/timelinerow.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace {

using namespace ridgeline;

// `ridgeline check`, as text and as JSON.
void check(core::SessionReader& reader, std::ostream& out)
{
    auto check = core::checkSession(reader);
    if (check.ok()) {
        core::writeSessionCheck(out, check.value(), false);
        core::writeSessionCheck(out, check.value(), true);
    }
}

// `report`: every format, compared with a baseline (itself).
void kernelReport(core::SessionReader& reader, std::ostream& out)
{
    auto kernels = core::buildKernelReport(reader);
    if (kernels.ok()) {
        const auto baseline = kernels.value();
        for (auto format : { core::ReportFormat::Table, core::ReportFormat::Csv, core::ReportFormat::Json })
            core::writeKernelReport(out, kernels.value(), { format, core::KernelSort::TotalTime, 0, &baseline });
    }
}

// `report --window`: the first half of the session.
void windowReport(core::SessionReader& reader, std::ostream& out)
{
    if (auto span = reader.gpuTimeSpan(); span.ok() && !span.value().empty) {
        const auto start = span.value().startNs;
        const core::TimeWindow half { start, core::saturatingAdd(start, span.value().durationNs() / 2 + 1) };
        if (auto kernels = core::buildKernelReport(reader, { half, std::nullopt }); kernels.ok())
            core::writeKernelReport(
                out, kernels.value(), { core::ReportFormat::Table, core::KernelSort::TotalTime, 0, nullptr });
    }
}

// `report --step 1`: ProfilerStep#1.
void stepReport(core::SessionReader& reader, std::ostream& out)
{
    if (auto kernels = core::buildKernelReport(reader, { std::nullopt, 1 }); kernels.ok())
        core::writeKernelReport(
            out, kernels.value(), { core::ReportFormat::Json, core::KernelSort::TotalTime, 0, nullptr });
}

void opReport(core::SessionReader& reader, std::ostream& out, core::ReportGrouping by)
{
    auto ops = core::buildOperatorReport(reader, by);
    if (ops.ok()) {
        core::writeOperatorReport(out, ops.value(), { core::ReportFormat::Table, 0, &ops.value() });
        core::writeOperatorReport(out, ops.value(), { core::ReportFormat::Json, 0, nullptr });
    }
}

// `report --by op` and `report --by module`.
void opsByOperator(core::SessionReader& reader, std::ostream& out)
{
    opReport(reader, out, core::ReportGrouping::Op);
}

void opsByModule(core::SessionReader& reader, std::ostream& out)
{
    opReport(reader, out, core::ReportGrouping::Module);
}

// `report --by collective`.
void collectiveReport(core::SessionReader& reader, std::ostream& out)
{
    core::SessionReader* readers[] = { &reader };
    auto collectives = core::buildCollectiveReport(readers);
    if (collectives.ok()) {
        core::writeCollectiveReport(out, collectives.value(), core::ReportFormat::Table);
        core::writeCollectiveReport(out, collectives.value(), core::ReportFormat::Json);
    }
}

void perfettoExport(core::SessionReader& reader, std::ostream& out)
{
    (void)core::writePerfettoTrace(reader, out);
}

void htmlExport(core::SessionReader& reader, std::ostream& out)
{
    (void)core::writeHtmlReport(reader, out);
}

// The app's timeline: drawn at one zoom, a kernel found, the launches of the busiest kernel.
void timeline(core::SessionReader& reader, std::ostream&)
{
    auto timeline = core::loadTimelineData(reader);
    if (!timeline.ok())
        return;
    const auto& data = timeline.value();
    const core::PixelGrid grid(data.extent(), 1000);
    std::vector<core::LodItem> items;
    for (std::size_t row = 0; row < data.rowCount(); ++row)
        data.row(row).lod(grid, items);
    if (data.rowCount() > 0 && data.row(0).size() > 0)
        (void)data.findKernel(data.row(0).sourceId(0));
    if (auto kernels = core::summarizeKernels(reader); kernels.ok() && !kernels.value().empty())
        (void)data.launchesOf(kernels.value().front().nameId, kernels.value().front().deviceId);
}

// The app's roofline chart and the details of the busiest kernel.
void roofline(core::SessionReader& reader, std::ostream&)
{
    auto kernels = core::summarizeKernels(reader);
    auto ceilings = reader.ceilings();
    if (!kernels.ok() || !ceilings.ok())
        return;
    (void)core::buildRooflineChart(ceilings.value(), kernels.value());
    if (!kernels.value().empty())
        (void)core::loadKernelDetails(reader, kernels.value().front().nameId, kernels.value().front().deviceId);
}

using Way = void (*)(core::SessionReader&, std::ostream&);
constexpr std::array<Way, 11> kWays { check, kernelReport, windowReport, stepReport, opsByOperator, opsByModule,
    collectiveReport, perfettoExport, htmlExport, timeline, roofline };

} // namespace

unsigned ridgeline::fuzz::readWays()
{
    return static_cast<unsigned>(kWays.size());
}

void ridgeline::fuzz::readSessionOneWay(core::SessionReader& reader, unsigned way)
{
    NullStream out;
    if (replaying) {
        for (auto read : kWays)
            read(reader, out);
    } else {
        kWays[way % kWays.size()](reader, out);
    }
}

void ridgeline::fuzz::readSession(core::SessionReader& reader, std::string_view input)
{
    // `check` reads every session, as every session sent is first checked; so does one other way,
    // chosen by the input's hash (so that a crash reproduces). A damaged session is still read that
    // way: `report` and the exports do not run `check`.
    NullStream out;
    check(reader, out);
    if (replaying) {
        for (std::size_t way = 1; way < kWays.size(); ++way)
            kWays[way](reader, out);
    } else {
        kWays[1 + std::hash<std::string_view>()(input) % (kWays.size() - 1)](reader, out);
    }
}
