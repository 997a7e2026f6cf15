// SPDX-License-Identifier: MIT
// `ridgeline report --by op|module`: GPU time per PyTorch operator (or module), from the links of
// operatorlinks.h, as terminal table, CSV or JSON, optionally compared with a baseline session.
//
// Attribution is to the innermost operator: a kernel launched by aten::addmm inside aten::linear
// counts for aten::addmm only, so the rows add up to the attributed GPU time. Each row also gives
// the GPU time of the GPU ops whose top-level operator has its name (top_level_gpu_time_ns).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/timeline/timeline.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

class SessionReader;

// What `report --by` groups by: kernels (name and device; today's table), operators, modules.
enum class ReportGrouping { Kernel, Op, Module };
std::optional<ReportGrouping> reportGroupingFromString(std::string_view text);

struct OperatorReportRow {
    std::string name; // operator name, or module path
    std::int64_t gpuTimeNs = 0; // GPU ops it launched (innermost operator)
    std::int64_t gpuOps = 0; // kernels, copies and memsets it launched
    std::int64_t kernels = 0; // of which kernels (collectives included)
    std::int64_t calls = 0; // its instances (by module: operators in the module)
    std::int64_t cpuTimeNs = 0; // their durations (inclusive; by module: the outermost operators in it)
    std::int64_t selfCpuTimeNs = 0; // less the time of the operators nested in them
    std::int64_t topLevelGpuTimeNs = 0; // GPU ops whose top-level operator has this name (by op only)
    std::array<std::int64_t, kVerdictClassCount> timeByVerdictNs {}; // GPU time by verdict of its GPU ops
    double shareOfGpuTime = 0; // gpuTimeNs / all GPU time
};

struct OperatorReport {
    std::string path;
    ReportGrouping by = ReportGrouping::Op;
    std::vector<OperatorReportRow> rows; // by GPU time, then CPU time, then name
    std::int64_t gpuTimeNs = 0; // every kernel, copy and memset
    std::int64_t gpuOps = 0;
    std::int64_t unattributedGpuTimeNs = 0; // GPU ops with no operator
    std::int64_t unattributedGpuOps = 0;
    std::int64_t withoutCall = 0; // of those, with no launching call in the session
    std::int64_t operators = 0;
    std::int64_t byExternalId = 0, externalIdDisagrees = 0, externalIdUnmatched = 0; // OperatorLinks
};

Result<OperatorReport> buildOperatorReport(SessionReader& reader, ReportGrouping by);

struct OperatorLinks;
// Where each operator and each GPU op of the links counts in a report built from them.
struct OperatorAttribution {
    std::vector<std::size_t> rowOfOperator; // per OperatorLinks::operators: index into OperatorReport::rows
    std::vector<std::size_t> rowOfGpuOp; // per OperatorLinks::gpuOps: index into rows; GpuOpLink::kNone: unattributed
};
// The same from links already made (the app links once and builds both groupings); `attribution`,
// when given, receives the row of every operator and GPU op.
Result<OperatorReport> buildOperatorReport(
    SessionReader& reader, const OperatorLinks& links, ReportGrouping by, OperatorAttribution* attribution = nullptr);

struct OperatorReportOptions {
    ReportFormat format = ReportFormat::Table;
    std::size_t top = 0; // 0 = every row
    const OperatorReport* baseline = nullptr; // before/now/change per row when set
};

void writeOperatorReport(std::ostream& out, const OperatorReport& report, const OperatorReportOptions& options);

} // namespace ridgeline::core
