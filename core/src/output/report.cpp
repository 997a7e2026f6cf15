// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/report.h"

#include "base/enumnames.h"
#include "base/takevalue.h"
#include "jsonstream.h"
#include "ncuestimatesjson.h"
#include "reportbaseline.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/version.h"
#include "timelinereport.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <functional>
#include <nlohmann/json.hpp>

namespace ridgeline::core {

namespace {

std::string metaValue(const KernelReport& report, const char* key)
{
    auto it = report.meta.find(key);
    return it == report.meta.end() ? std::string() : it->second;
}

// Whole-session totals, taken before --top trims the rows.
struct Totals {
    std::int64_t launches = 0;
    std::int64_t kernelNs = 0;
    std::size_t rows = 0;
};

Totals totalsOf(const std::vector<KernelSummary>& rows)
{
    Totals t;
    t.rows = rows.size();
    for (const auto& r : rows) {
        t.launches += r.launches;
        t.kernelNs = saturatingAdd(t.kernelNs, r.totalNs);
    }
    return t;
}

std::string verdictCell(const KernelAnalysis& a)
{
    return verdictText(a.verdict, a.boundBy);
}

std::string roofCell(const KernelAnalysis& a)
{
    return a.boundUtilization ? fmt::format("{:.0f} %", *a.boundUtilization * 100.0) : "-";
}

template <typename T>
std::string optionalCell(const std::optional<T>& value, const std::function<std::string(T)>& format)
{
    return value ? format(*value) : "-";
}

std::optional<double> dramIntensity(const KernelAnalysis& a)
{
    auto it = a.intensity.find(Resource::DRAM);
    return it == a.intensity.end() ? std::nullopt : std::optional<double>(it->second);
}

// The terminal is 120 columns wide: the name takes what the other columns leave (at least
// kMinNameColumns) and is cut with "…"; --names full prints it whole. The verdict leads the
// second line of each kernel, so the numbers and the name share the first.
constexpr std::size_t kTableColumns = 120;
constexpr std::size_t kMinNameColumns = 16;

std::string nameCell(const KernelSummary& r, std::size_t before, const ReportOptions& options)
{
    if (options.names == ReportNames::Full)
        return r.name;
    return fitColumns(r.displayName(), std::max(kMinNameColumns, kTableColumns - std::min(before, kTableColumns)));
}

// The reason sentence starts with the verdict; where one does not, the verdict comes first.
std::string verdictLine(const KernelAnalysis& a)
{
    if (a.reason.starts_with(toString(a.verdict)))
        return a.reason;
    return a.reason.empty() ? verdictCell(a) : fmt::format("{}: {}", verdictCell(a), a.reason);
}

// Words on lines of at most kTableColumns, each indented; a word longer than a line gets its own.
void writeWrapped(std::ostream& out, std::string_view text, std::size_t indent)
{
    std::string line;
    std::size_t lineColumns = 0;
    while (!text.empty()) {
        const auto space = text.find(' ');
        const auto word = text.substr(0, space);
        text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
        const auto columns = textColumns(word);
        if (lineColumns > 0 && indent + lineColumns + 1 + columns > kTableColumns) {
            fmt::print(out, "{:>{}}{}\n", "", indent, line);
            line.clear();
            lineColumns = 0;
        }
        if (lineColumns > 0) {
            line += ' ';
            ++lineColumns;
        }
        line += word;
        lineColumns += columns;
    }
    fmt::print(out, "{:>{}}{}\n", "", indent, line);
}

void writeTable(std::ostream& out, const KernelReport& report, const Totals& totals, const detail::ReportBaseline* b,
    const ReportOptions& options)
{
    fmt::print(out, "{}: {} launches of {} kernels (by name and device), {} of kernel time\n", report.path,
        formatCount(totals.launches), formatCount(static_cast<std::int64_t>(totals.rows)),
        formatDuration(static_cast<double>(totals.kernelNs)));
    if (report.kernels.empty()) {
        fmt::print(out, "No kernels in this session.\n");
        return;
    }
    if (report.kernels.size() < totals.rows)
        fmt::print(out, "Showing the top {}.\n", report.kernels.size());
    // With a baseline its three columns take the place of the roofline ones (in CSV and JSON
    // both stay); the second line then gives the change of % of roof.
    if (b)
        fmt::print(out, "{:>6}  {:>10}{}  {:>9}  {:>10}  {:>3}  {}\n", "Time %", "Total", detail::baselineTableHeader(),
            "Launches", "Avg", "Dev", "Kernel");
    else
        fmt::print(out, "{:>6}  {:>10}  {:>8}  {:>10}  {:>6}  {:>12}  {:>7}  {:>3}  {}\n", "Time %", "Total",
            "Launches", "Avg", "% roof", "FLOP/s", "AI DRAM", "Dev", "Kernel");
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        const auto& r = report.kernels[i];
        const auto& a = r.analysis;
        std::string numbers;
        if (b)
            numbers = fmt::format("{:>5.1f}%  {:>10}{}  {:>9}  {:>10}  {:>3}  ", r.shareOfKernelTime * 100.0,
                formatDuration(static_cast<double>(r.totalNs)), detail::baselineTableCells(*b, i),
                formatCount(r.launches), formatDuration(r.averageNs()), r.deviceId);
        else
            numbers = fmt::format("{:>5.1f}%  {:>10}  {:>8}  {:>10}  {:>6}  {:>12}  {:>7}  {:>3}  ",
                r.shareOfKernelTime * 100.0, formatDuration(static_cast<double>(r.totalNs)), formatCount(r.launches),
                formatDuration(r.averageNs()), roofCell(a),
                optionalCell<double>(a.achievedFlopsPerS, [](double v) { return formatRate(v, "FLOP/s"); }),
                optionalCell<double>(dramIntensity(a), [](double v) { return fmt::format("{:.3g}", v); }), r.deviceId);
        fmt::print(out, "{}{}\n", numbers, nameCell(r, textColumns(numbers), options));
        writeWrapped(out, verdictLine(a) + (b ? detail::baselineVerdictNote(*b, i) : std::string()), 9);
    }
}

void writeCsv(std::ostream& out, const KernelReport& report, const detail::ReportBaseline* b)
{
    out << "name,mangled_name,device,device_name,launches,total_time_ns,avg_time_ns,min_time_ns,max_time_ns,"
           "pct_kernel_time,verdict,bound_by,pct_of_roof,achieved_flops_per_s,flops,dram_bytes,ai_dram,reason,short_"
           "name"
        << (b ? detail::baselineCsvHeader() : std::string()) << '\n';
    auto number = [](std::optional<double> v) { return v ? fmt::format("{:.6g}", *v) : std::string(); };
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        const auto& r = report.kernels[i];
        const auto& a = r.analysis;
        auto dram = a.bytesByLevel.find(Resource::DRAM);
        fmt::print(out, "{},{},{},{},{},{},{:.1f},{},{},{:.4f},{},{},{},{},{},{},{},{},{}{}\n", csvField(r.name),
            csvField(r.mangledName), r.deviceId, csvField(r.deviceName), r.launches, r.totalNs, r.averageNs(), r.minNs,
            r.maxNs, r.shareOfKernelTime * 100.0, toString(a.verdict), a.boundBy,
            number(a.boundUtilization ? std::optional<double>(*a.boundUtilization * 100.0) : std::nullopt),
            number(a.achievedFlopsPerS), number(a.flops),
            number(dram == a.bytesByLevel.end() ? std::nullopt : std::optional<double>(dram->second)),
            number(dramIntensity(a)), csvField(a.reason), csvField(r.displayName()),
            b ? detail::baselineCsvCells(*b, i) : std::string());
    }
    if (b)
        detail::writeGoneCsv(out, *b);
}

nlohmann::json optionalJson(std::optional<double> value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// {"DRAM": ..., "L2": ...}: keyed by the resources' names (a JSON object lists its keys in name order).
nlohmann::json byResourceJson(const ResourceMap<double>& figures)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [res, value] : figures)
        out[toString(res)] = value;
    return out;
}

nlohmann::json kernelJson(const KernelSummary& r)
{
    using nlohmann::json;
    const auto& a = r.analysis;
    json utilization = json::object();
    for (const auto& [res, value] : a.utilization)
        utilization[toString(res)] = value;
    json ceilings = json::object();
    for (const auto& [res, used] : a.ceilingsUsed)
        ceilings[toString(res)] = { { "value", used.value }, { "source", toString(used.source) } };
    auto dram = a.bytesByLevel.find(Resource::DRAM);
    return {
        { "name", r.name },
        { "short_name", r.displayName() },
        { "mangled_name", r.mangledName },
        { "device", r.deviceId },
        { "device_name", r.deviceName },
        { "launches", r.launches },
        { "total_time_ns", r.totalNs },
        { "avg_time_ns", r.averageNs() },
        { "min_time_ns", r.minNs },
        { "max_time_ns", r.maxNs },
        { "pct_kernel_time", r.shareOfKernelTime * 100.0 },
        { "verdict", toString(a.verdict) },
        { "bound_by", a.boundBy.empty() ? json(nullptr) : json(a.boundBy) },
        { "reason", a.reason },
        { "pct_of_roof", a.boundUtilization ? json(*a.boundUtilization * 100.0) : json(nullptr) },
        // Where the FLOPs and bytes come from: "counters", "shapes" (the operator's; ROOFLINE.md), or null.
        { "figures_from",
            a.hasFigures() ? json(toString(a.hasCounters ? FigureSource::Counters : a.figures)) : json(nullptr) },
        { "flops", optionalJson(a.flops) },
        { "flops_by_precision", byResourceJson(a.flopsByPrecision) },
        { "bytes", byResourceJson(a.bytesByLevel) },
        { "dram_bytes", dram == a.bytesByLevel.end() ? json(nullptr) : json(dram->second) },
        { "ai_dram", optionalJson(dramIntensity(a)) },
        { "arithmetic_intensity", byResourceJson(a.intensity) },
        { "achieved_flops_per_s", optionalJson(a.achievedFlopsPerS) },
        { "mix_ceiling_flops_per_s", optionalJson(a.mixCeilingFlopsPerS) },
        { "utilization", utilization },
        { "ceilings", ceilings },
        { "graph_level_launches", r.graphLevelLaunches },
        { "tensor_flops_estimated", a.tensorEstimated },
    };
}

// Streamed member by member (jsonstream.h): one kernel row's JSON at a time, whatever the rows.
void writeJson(std::ostream& out, const KernelReport& report, const Totals& totals, const detail::ReportBaseline* b)
{
    using nlohmann::json;
    detail::JsonObjectStream doc(out);
    if (b)
        doc.member("baseline", detail::baselineJson(*b));
    json devices = json::array();
    for (const auto& d : report.devices) {
        devices.push_back({ { "id", d.id }, { "name", d.name }, { "host", d.host }, { "ordinal", d.ordinal },
            { "compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor) }, { "sm_count", d.smCount } });
    }
    doc.member("devices", devices);
    doc.beginArray("kernels");
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        json row = kernelJson(report.kernels[i]);
        if (b)
            detail::addBaselineFields(row, *b, i);
        const auto ncu = report.ncuEstimates.find({ report.kernels[i].nameId, report.kernels[i].deviceId });
        if (ncu != report.ncuEstimates.end())
            row["ncu_estimates"] = detail::ncuEstimatesJson(ncu->second);
        doc.element(row);
    }
    doc.endArray();
    doc.member("ridgeline_version", kVersion);
    doc.member("session",
        { { "path", report.path }, { "schema_version", report.schemaVersion },
            { "status", metaValue(report, "status") }, { "source", metaValue(report, "source") },
            { "created_at", metaValue(report, "created_at") } });
    doc.member("timeline", detail::timelineJson(report.timeline));
    doc.member("timeline_window", detail::timelineWindowJson(report.timelineWindow, report.timelineStep));
    doc.member("profiler_steps", detail::profilerStepsJson(report.steps, report.stepTimelines));
    doc.member("totals",
        { { "kernels", totals.rows }, { "launches", totals.launches }, { "kernel_time_ns", totals.kernelNs } });
    doc.finish();
}

Status addTimeline(SessionReader& reader, const TimelineSelection& selection, KernelReport& report)
{
    auto timeline = analyzeSelectedTimeline(reader, selection);
    if (timeline.hasError())
        return timeline.error();
    auto& t = timeline.value();
    report.timeline = std::move(t.summaries);
    report.timelineWindow = t.window;
    report.timelineStep = t.step;
    report.steps = std::move(t.steps);
    report.stepTimelines = std::move(t.stepSummaries);
    return {};
}

} // namespace

std::optional<ReportNames> reportNamesFromString(std::string_view text)
{
    static constexpr detail::EnumNames<ReportNames, 2> kNames { {
        { ReportNames::Short, "short" },
        { ReportNames::Full, "full" },
    } };
    return detail::valueOf(kNames, text);
}

std::optional<ReportFormat> reportFormatFromString(std::string_view text)
{
    static constexpr detail::EnumNames<ReportFormat, 3> kFormats { {
        { ReportFormat::Table, "table" },
        { ReportFormat::Csv, "csv" },
        { ReportFormat::Json, "json" },
    } };
    return detail::valueOf(kFormats, text);
}

Result<KernelReport> buildKernelReport(SessionReader& reader, const TimelineSelection& timeline)
{
    KernelReport report;
    report.path = reader.path();
    report.schemaVersion = reader.fileSchemaVersion();
    RIDGELINE_TRY(detail::takeValue(reader.meta(), report.meta));
    RIDGELINE_TRY(detail::takeValue(reader.devices(), report.devices));
    RIDGELINE_TRY(detail::takeValue(summarizeKernels(reader), report.kernels));
    RIDGELINE_TRY(addTimeline(reader, timeline, report));
    RIDGELINE_TRY(detail::takeValue(ncuEstimatesByKernel(reader), report.ncuEstimates));
    return report;
}

void writeKernelReport(std::ostream& out, KernelReport report, const ReportOptions& options)
{
    const Totals totals = totalsOf(report.kernels);
    sortKernelSummaries(report.kernels, options.sort);
    // The comparison sees every kernel (new, gone, totals); --top trims its rows with the report's.
    std::optional<detail::ReportBaseline> baseline;
    if (options.baseline)
        baseline.emplace(
            detail::ReportBaseline { *options.baseline, compareKernels(report.kernels, options.baseline->kernels) });
    if (options.top > 0 && report.kernels.size() > options.top) {
        report.kernels.resize(options.top);
        if (baseline)
            baseline->comparison.kernels.resize(options.top);
    }
    if (baseline && options.top > 0 && baseline->comparison.gone.size() > options.top)
        baseline->comparison.gone.resize(options.top);
    const detail::ReportBaseline* b = baseline ? &*baseline : nullptr;
    switch (options.format) {
    case ReportFormat::Table:
        writeTable(out, report, totals, b, options);
        if (b)
            detail::writeBaselineTable(out, *b, options.names == ReportNames::Full);
        detail::writeTimelineTable(out, report.timeline, report.timelineWindow, report.timelineStep, report.steps);
        if (!report.stepTimelines.empty())
            detail::writeStepTable(out, report.steps, report.stepTimelines);
        break;
    case ReportFormat::Csv:
        writeCsv(out, report, b);
        break;
    case ReportFormat::Json:
        writeJson(out, report, totals, b);
        break;
    }
}

} // namespace ridgeline::core
