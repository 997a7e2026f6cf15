// SPDX-License-Identifier: MIT
#include "ridgeline/core/report.h"

#include "ridgeline/core/sessionreader.h"
#include "ridgeline/core/units.h"
#include "ridgeline/core/version.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
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
        t.kernelNs += r.totalNs;
    }
    return t;
}

void writeTable(std::ostream& out, const KernelReport& report, const Totals& totals)
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
    fmt::print(out, "{:>7}  {:>12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>6}  {}\n", "Time %", "Total", "Launches", "Avg",
        "Min", "Max", "Device", "Kernel");
    for (const auto& r : report.kernels) {
        fmt::print(out, "{:>6.2f}%  {:>12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>6}  {}\n", r.shareOfKernelTime * 100.0,
            formatDuration(static_cast<double>(r.totalNs)), formatCount(r.launches), formatDuration(r.averageNs()),
            formatDuration(static_cast<double>(r.minNs)), formatDuration(static_cast<double>(r.maxNs)), r.deviceId,
            r.name);
    }
}

void writeCsv(std::ostream& out, const KernelReport& report)
{
    out << "name,mangled_name,device,device_name,launches,total_time_ns,avg_time_ns,min_time_ns,max_time_ns,"
           "pct_kernel_time\n";
    for (const auto& r : report.kernels) {
        fmt::print(out, "{},{},{},{},{},{},{:.1f},{},{},{:.4f}\n", csvField(r.name), csvField(r.mangledName),
            r.deviceId, csvField(r.deviceName), r.launches, r.totalNs, r.averageNs(), r.minNs, r.maxNs,
            r.shareOfKernelTime * 100.0);
    }
}

void writeJson(std::ostream& out, const KernelReport& report, const Totals& totals)
{
    using nlohmann::json;
    json devices = json::array();
    for (const auto& d : report.devices) {
        devices.push_back({ { "id", d.id }, { "name", d.name }, { "host", d.host }, { "ordinal", d.ordinal },
            { "compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor) }, { "sm_count", d.smCount } });
    }
    json kernels = json::array();
    for (const auto& r : report.kernels) {
        kernels.push_back({ { "name", r.name }, { "mangled_name", r.mangledName }, { "device", r.deviceId },
            { "device_name", r.deviceName }, { "launches", r.launches }, { "total_time_ns", r.totalNs },
            { "avg_time_ns", r.averageNs() }, { "min_time_ns", r.minNs }, { "max_time_ns", r.maxNs },
            { "pct_kernel_time", r.shareOfKernelTime * 100.0 } });
    }
    const json document = {
        { "ridgeline_version", kVersion },
        { "session",
            { { "path", report.path }, { "schema_version", report.schemaVersion },
                { "status", metaValue(report, "status") }, { "source", metaValue(report, "source") },
                { "created_at", metaValue(report, "created_at") } } },
        { "devices", devices },
        { "totals",
            { { "kernels", totals.rows }, { "launches", totals.launches }, { "kernel_time_ns", totals.kernelNs } } },
        { "kernels", kernels },
    };
    // Invalid UTF-8 in names from foreign files is replaced rather than aborting the report.
    out << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace

std::optional<ReportFormat> reportFormatFromString(std::string_view text)
{
    if (text == "table")
        return ReportFormat::Table;
    if (text == "csv")
        return ReportFormat::Csv;
    if (text == "json")
        return ReportFormat::Json;
    return std::nullopt;
}

Result<KernelReport> buildKernelReport(SessionReader& reader)
{
    KernelReport report;
    report.path = reader.path();
    report.schemaVersion = reader.fileSchemaVersion();
    auto meta = reader.meta();
    if (meta.hasError())
        return meta.error();
    report.meta = std::move(meta).value();
    auto devices = reader.devices();
    if (devices.hasError())
        return devices.error();
    report.devices = std::move(devices).value();
    auto kernels = summarizeKernels(reader);
    if (kernels.hasError())
        return kernels.error();
    report.kernels = std::move(kernels).value();
    return report;
}

void writeKernelReport(std::ostream& out, KernelReport report, const ReportOptions& options)
{
    const Totals totals = totalsOf(report.kernels);
    sortKernelSummaries(report.kernels, options.sort);
    if (options.top > 0 && report.kernels.size() > options.top)
        report.kernels.resize(options.top);
    switch (options.format) {
    case ReportFormat::Table:
        writeTable(out, report, totals);
        break;
    case ReportFormat::Csv:
        writeCsv(out, report);
        break;
    case ReportFormat::Json:
        writeJson(out, report, totals);
        break;
    }
}

} // namespace ridgeline::core
