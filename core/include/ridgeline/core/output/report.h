// SPDX-License-Identifier: MIT
// `ridgeline report`: the kernel table of a session as terminal table, CSV or JSON.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/ncuestimates.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

enum class ReportFormat { Table, Csv, Json };
std::optional<ReportFormat> reportFormatFromString(std::string_view text);

struct KernelReport {
    std::string path;
    int schemaVersion = 0;
    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    std::vector<KernelSummary> kernels; // all of them; sorting and --top apply when writing
    // Timeline analysis per rank and device (timeline.h), over the window when one was chosen.
    std::vector<TimelineSummary> timeline;
    std::optional<TimeWindow> timelineWindow;
    std::optional<std::int64_t> timelineStep;
    // The session's profiler steps (profilersteps.h), so that the output can say which window it
    // covers; with TimelineSelection::allSteps, each step's own timeline analysis too.
    std::vector<ProfilerStep> steps;
    std::vector<std::vector<TimelineSummary>> stepTimelines; // per entry of `steps`, when all were asked for
    // Nsight Compute's own rule results per kernel (ncuestimates.h): JSON rows' "ncu_estimates".
    std::map<NcuKernelKey, std::vector<NcuEstimate>> ncuEstimates;
};

// Which kernel name the terminal table shows: the short one (shortKernelName, cut to fit 120
// columns) or the full demangled one. CSV and JSON carry both ("name", "short_name").
enum class ReportNames { Short, Full };
std::optional<ReportNames> reportNamesFromString(std::string_view text);

struct ReportOptions {
    ReportFormat format = ReportFormat::Table;
    KernelSort sort = KernelSort::TotalTime;
    std::size_t top = 0; // 0 = every row
    // Compared kernel by kernel with this session's report when set (kernelcompare.h): Baseline
    // and delta columns or fields, then the kernels gone since the baseline.
    const KernelReport* baseline = nullptr;
    ReportNames names = ReportNames::Short; // last, so that {format, sort, top} still initialises the rest
};

// `timeline` chooses the window of the timeline analysis (whole session by default); an unknown
// profiler step is NotFound, an empty window InvalidArgument.
Result<KernelReport> buildKernelReport(SessionReader& reader, const TimelineSelection& timeline = {});
void writeKernelReport(std::ostream& out, KernelReport report, const ReportOptions& options);

} // namespace ridgeline::core
