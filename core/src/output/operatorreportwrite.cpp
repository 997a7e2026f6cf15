// SPDX-License-Identifier: MIT
// The writers of `report --by op|module` (operatorreport.h): table, CSV and JSON, with the baseline's
// before / now / change per row when one is given.
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/output/operatorreport.h"
#include "ridgeline/core/version.h"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <nlohmann/json.hpp>

namespace ridgeline::core {

namespace {

constexpr std::string_view kUnattributed = "(unattributed)";

const char* groupWord(ReportGrouping by)
{
    return by == ReportGrouping::Module ? "module" : "op";
}

// The baseline's rows by name, and those gone since.
struct Comparison {
    std::map<std::string, const OperatorReportRow*, std::less<>> before;
    std::vector<const OperatorReportRow*> gone;
};

Comparison compare(const OperatorReport& now, const OperatorReport* baseline)
{
    Comparison c;
    if (!baseline)
        return c;
    for (const auto& row : baseline->rows)
        c.before.emplace(row.name, &row);
    std::map<std::string_view, bool> present;
    for (const auto& row : now.rows)
        present[row.name] = true;
    for (const auto& row : baseline->rows) {
        if (!present.contains(row.name))
            c.gone.push_back(&row);
    }
    return c;
}

const OperatorReportRow* beforeOf(const Comparison& c, const std::string& name)
{
    auto it = c.before.find(name);
    return it == c.before.end() ? nullptr : it->second;
}

std::string verdictsCell(const OperatorReportRow& row)
{
    std::string cell;
    for (std::size_t v = 0; v < kVerdictClassCount; ++v) {
        if (row.timeByVerdictNs[v] == 0 || row.gpuTimeNs == 0)
            continue;
        const double pct = 100.0 * static_cast<double>(row.timeByVerdictNs[v]) / static_cast<double>(row.gpuTimeNs);
        cell += fmt::format("{}{} {}", cell.empty() ? "" : ", ", toString(static_cast<VerdictClass>(v)),
            pct < 0.5 ? std::string("<1%") : fmt::format("{:.0f}%", pct));
    }
    return cell.empty() ? "-" : cell;
}

std::string signedDuration(std::int64_t ns)
{
    return (ns > 0 ? "+" : ns < 0 ? "-" : "") + formatDuration(std::fabs(static_cast<double>(ns)));
}

std::string changeCell(const OperatorReportRow& now, const OperatorReportRow* before)
{
    if (!before)
        return "new";
    const std::int64_t delta = saturatingSub(now.gpuTimeNs, before->gpuTimeNs);
    if (before->gpuTimeNs == 0)
        return signedDuration(delta);
    return fmt::format("{} ({:+.0f}%)", signedDuration(delta),
        100.0 * static_cast<double>(delta) / static_cast<double>(before->gpuTimeNs));
}

void writeTable(
    std::ostream& out, const OperatorReport& r, std::size_t shown, const OperatorReport* baseline, const Comparison& c)
{
    const double share = r.gpuTimeNs > 0
        ? 100.0 * static_cast<double>(saturatingSub(r.gpuTimeNs, r.unattributedGpuTimeNs))
            / static_cast<double>(r.gpuTimeNs)
        : 0.0;
    fmt::print(out,
        "{}: {} GPU ops, {} of GPU time; {} operators; {:.1f} % of the GPU time attributed (innermost "
        "operator), {} in {} GPU ops unattributed\n",
        r.path, formatCount(r.gpuOps), formatDuration(static_cast<double>(r.gpuTimeNs)), formatCount(r.operators),
        share, formatDuration(static_cast<double>(r.unattributedGpuTimeNs)), formatCount(r.unattributedGpuOps));
    if (r.byExternalId > 0 || r.externalIdUnmatched > 0)
        fmt::print(out,
            "External id: {} launches linked by it, {} of them to another operator than time containment "
            "finds; {} with an External id of no operator around the call\n",
            formatCount(r.byExternalId), formatCount(r.externalIdDisagrees), formatCount(r.externalIdUnmatched));
    if (baseline)
        fmt::print(out, "Compared with {}: {} of GPU time before ({} unattributed)\n", baseline->path,
            formatDuration(static_cast<double>(baseline->gpuTimeNs)),
            formatDuration(static_cast<double>(baseline->unattributedGpuTimeNs)));
    if (r.rows.empty()) {
        fmt::print(out, "No operators in this session.\n");
        return;
    }
    if (shown < r.rows.size())
        fmt::print(out, "Showing the top {}.\n", shown);
    fmt::print(out, "{:>7}  {:>11}{}  {:>7}  {:>7}  {:>8}  {:>11}  {:>11}  {:<30}  {}\n", "GPU %", "GPU time",
        baseline ? fmt::format("  {:>11}  {:>20}", "Before", "Change") : std::string(), "GPU ops", "Kernels", "Calls",
        "CPU time", "Self CPU", "Verdicts (share of GPU time)", r.by == ReportGrouping::Module ? "Module" : "Operator");
    for (std::size_t i = 0; i < shown; ++i) {
        const OperatorReportRow& row = r.rows[i];
        const OperatorReportRow* before = baseline ? beforeOf(c, row.name) : nullptr;
        fmt::print(out, "{:>6.2f}%  {:>11}{}  {:>7}  {:>7}  {:>8}  {:>11}  {:>11}  {:<30}  {}\n",
            row.shareOfGpuTime * 100.0, formatDuration(static_cast<double>(row.gpuTimeNs)),
            baseline ? fmt::format("  {:>11}  {:>20}",
                before ? formatDuration(static_cast<double>(before->gpuTimeNs)) : "-", changeCell(row, before))
                     : std::string(),
            formatCount(row.gpuOps), formatCount(row.kernels), formatCount(row.calls),
            formatDuration(static_cast<double>(row.cpuTimeNs)), formatDuration(static_cast<double>(row.selfCpuTimeNs)),
            verdictsCell(row), row.name);
    }
    if (!c.gone.empty()) {
        fmt::print(out, "Gone since the baseline ({}):\n", c.gone.size());
        for (const OperatorReportRow* row : c.gone)
            fmt::print(out, "  {:>11} of GPU time, {} calls  {}\n", formatDuration(static_cast<double>(row->gpuTimeNs)),
                formatCount(row->calls), row->name);
    }
}

std::string verdictColumn(std::size_t v)
{
    std::string name = toString(static_cast<VerdictClass>(v));
    for (char& ch : name)
        ch = ch == '-' || ch == ' ' ? '_' : ch;
    return name + "_ns";
}

void writeCsvRow(std::ostream& out, const OperatorReportRow& row, std::string_view status,
    const OperatorReportRow* before, bool baseline)
{
    fmt::print(out, "{},{},{:.4f},{},{},{},{},{},{}", csvField(row.name), row.gpuTimeNs, row.shareOfGpuTime * 100.0,
        row.gpuOps, row.kernels, row.calls, row.cpuTimeNs, row.selfCpuTimeNs, row.topLevelGpuTimeNs);
    for (std::size_t v = 0; v < kVerdictClassCount; ++v)
        fmt::print(out, ",{}", row.timeByVerdictNs[v]);
    if (baseline)
        fmt::print(out, ",{},{},{},{}", status, before ? fmt::format("{}", before->gpuTimeNs) : std::string(),
            saturatingSub(row.gpuTimeNs, before ? before->gpuTimeNs : 0),
            before ? fmt::format("{}", before->calls) : std::string());
    out << '\n';
}

void writeCsv(
    std::ostream& out, const OperatorReport& r, std::size_t shown, const OperatorReport* baseline, const Comparison& c)
{
    out << "name,gpu_time_ns,pct_gpu_time,gpu_ops,kernels,calls,cpu_time_ns,self_cpu_time_ns,top_level_gpu_time_ns";
    for (std::size_t v = 0; v < kVerdictClassCount; ++v)
        out << ',' << verdictColumn(v);
    if (baseline)
        out << ",status,baseline_gpu_time_ns,delta_gpu_time_ns,baseline_calls";
    out << '\n';
    for (std::size_t i = 0; i < shown; ++i) {
        const OperatorReportRow* before = baseline ? beforeOf(c, r.rows[i].name) : nullptr;
        writeCsvRow(out, r.rows[i], before ? "both" : "new", before, baseline != nullptr);
    }
    // The GPU time of no operator, so that the column adds up to all GPU time.
    OperatorReportRow rest;
    rest.name = kUnattributed;
    rest.gpuTimeNs = r.unattributedGpuTimeNs;
    rest.gpuOps = r.unattributedGpuOps;
    rest.shareOfGpuTime
        = r.gpuTimeNs > 0 ? static_cast<double>(r.unattributedGpuTimeNs) / static_cast<double>(r.gpuTimeNs) : 0.0;
    OperatorReportRow restBefore;
    if (baseline)
        restBefore.gpuTimeNs = baseline->unattributedGpuTimeNs;
    writeCsvRow(out, rest, "both", baseline ? &restBefore : nullptr, baseline != nullptr);
    for (const OperatorReportRow* row : c.gone) {
        OperatorReportRow empty;
        empty.name = row->name;
        writeCsvRow(out, empty, "gone", row, true);
    }
}

nlohmann::json rowJson(const OperatorReportRow& row, ReportGrouping by)
{
    nlohmann::json verdicts = nlohmann::json::object();
    for (std::size_t v = 0; v < kVerdictClassCount; ++v)
        verdicts[toString(static_cast<VerdictClass>(v))] = row.timeByVerdictNs[v];
    nlohmann::json j = {
        { "name", row.name },
        { "gpu_time_ns", row.gpuTimeNs },
        { "pct_gpu_time", row.shareOfGpuTime * 100.0 },
        { "gpu_ops", row.gpuOps },
        { "kernels", row.kernels },
        { "calls", row.calls },
        { "cpu_time_ns", row.cpuTimeNs },
        { "self_cpu_time_ns", row.selfCpuTimeNs },
        { "time_by_verdict_ns", verdicts },
    };
    if (by == ReportGrouping::Op)
        j["top_level_gpu_time_ns"] = row.topLevelGpuTimeNs;
    return j;
}

void writeJson(
    std::ostream& out, const OperatorReport& r, std::size_t shown, const OperatorReport* baseline, const Comparison& c)
{
    using nlohmann::json;
    json rows = json::array();
    for (std::size_t i = 0; i < shown; ++i) {
        rows.push_back(rowJson(r.rows[i], r.by));
        if (baseline) {
            const OperatorReportRow* before = beforeOf(c, r.rows[i].name);
            rows.back()["baseline"] = before ? rowJson(*before, r.by) : json(nullptr);
            rows.back()["delta_gpu_time_ns"] = saturatingSub(r.rows[i].gpuTimeNs, before ? before->gpuTimeNs : 0);
        }
    }
    json document = {
        { "ridgeline_version", kVersion },
        { "session", { { "path", r.path } } },
        { "by", groupWord(r.by) },
        { "gpu_time_ns", r.gpuTimeNs },
        { "gpu_ops", r.gpuOps },
        { "operators", r.operators },
        { r.by == ReportGrouping::Module ? "modules" : "ops", rows },
        { "unattributed_gpu_time_ns", r.unattributedGpuTimeNs },
        { "unattributed_gpu_ops", r.unattributedGpuOps },
        { "unattributed_without_launch_call", r.withoutCall },
        { "external_id",
            { { "linked", r.byExternalId }, { "disagreeing", r.externalIdDisagrees },
                { "unmatched", r.externalIdUnmatched } } },
    };
    if (baseline) {
        json gone = json::array();
        for (const OperatorReportRow* row : c.gone)
            gone.push_back(rowJson(*row, r.by));
        document["baseline"] = { { "path", baseline->path }, { "gpu_time_ns", baseline->gpuTimeNs },
            { "unattributed_gpu_time_ns", baseline->unattributedGpuTimeNs }, { "gone", gone } };
    }
    out << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace

void writeOperatorReport(std::ostream& out, const OperatorReport& report, const OperatorReportOptions& options)
{
    const std::size_t shown = options.top > 0 && options.top < report.rows.size() ? options.top : report.rows.size();
    const Comparison c = compare(report, options.baseline);
    switch (options.format) {
    case ReportFormat::Table:
        writeTable(out, report, shown, options.baseline, c);
        break;
    case ReportFormat::Csv:
        writeCsv(out, report, shown, options.baseline, c);
        break;
    case ReportFormat::Json:
        writeJson(out, report, shown, options.baseline, c);
        break;
    }
}

} // namespace ridgeline::core
