// SPDX-License-Identifier: MIT
#include "reportbaseline.h"

#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ridgeline::core::detail {

namespace {

const KernelDelta& deltaAt(const ReportBaseline& b, std::size_t row)
{
    return b.comparison.kernels.at(row);
}

std::string comparisonWord(const KernelDelta& d)
{
    return d.isNew() ? "new" : "matched";
}

nlohmann::json optionalPercent(const std::optional<double>& fraction)
{
    return fraction ? nlohmann::json(*fraction * 100.0) : nlohmann::json(nullptr);
}

std::string csvNumber(const std::optional<double>& value)
{
    return value ? fmt::format("{:.6g}", *value) : std::string();
}

std::optional<double> percentOf(const std::optional<double>& fraction)
{
    return fraction ? std::optional<double>(*fraction * 100.0) : std::nullopt;
}

} // namespace

std::string baselineTableHeader()
{
    return fmt::format("  {:>11}  {:>11}  {:>8}", "Baseline", "Δ time", "Δ %");
}

std::string baselineTableCells(const ReportBaseline& b, std::size_t row)
{
    const auto& d = deltaAt(b, row);
    if (d.isNew())
        return fmt::format("  {:>11}  {:>11}  {:>8}", "new", formatDeltaDuration(d.deltaNs), "-");
    return fmt::format("  {:>11}  {:>11}  {:>8}", formatDuration(static_cast<double>(d.baselineTotalNs)),
        formatDeltaDuration(d.deltaNs), formatDeltaPct(d.deltaPct));
}

std::string baselineVerdictNote(const ReportBaseline& b, std::size_t row)
{
    const auto& d = deltaAt(b, row);
    std::string note;
    if (d.verdictChanged())
        note = fmt::format(" Baseline: {}.", verdictText(d.verdictBefore, d.boundByBefore));
    if (d.roofBefore && d.roofAfter)
        note += fmt::format(" Roof: {:.0f} % -> {:.0f} %.", *d.roofBefore * 100.0, *d.roofAfter * 100.0);
    return note;
}

void writeBaselineTable(std::ostream& out, const ReportBaseline& b, bool fullNames)
{
    const auto& t = b.comparison.totals;
    fmt::print(out, "\nCompared with baseline {}: kernel time {} -> {} ({}, {}); launches {} -> {}.\n", b.baseline.path,
        formatDuration(static_cast<double>(t.kernelNsBefore)), formatDuration(static_cast<double>(t.kernelNsAfter)),
        formatDeltaDuration(t.deltaNs()), formatDeltaPct(t.deltaPct()), formatCount(t.launchesBefore),
        formatCount(t.launchesAfter));
    fmt::print(out, "{} kernels matched, {} new, {} gone (kernels pair by name and GPU model, k-th GPU with k-th).\n",
        t.matched, t.added, t.gone);
    if (b.comparison.gone.empty())
        return;
    fmt::print(out, "Gone since the baseline{}:\n", b.comparison.gone.size() < t.gone ? " (top)" : "");
    fmt::print(out, "{:>10}  {:>9}  {:>10}  {:<32}  {:>3}  {}\n", "Baseline", "Launches", "Avg", "Verdict (bound by)",
        "Dev", "Kernel");
    for (std::size_t index : b.comparison.gone) {
        const auto& k = b.baseline.kernels.at(index);
        const auto numbers = fmt::format("{:>10}  {:>9}  {:>10}  {:<32}  {:>3}  ",
            formatDuration(static_cast<double>(k.totalNs)), formatCount(k.launches), formatDuration(k.averageNs()),
            verdictText(k.analysis.verdict, k.analysis.boundBy), k.deviceId);
        // 120 columns, as the kernel table (report.cpp): the name takes what is left.
        const auto room = std::max<std::size_t>(16, 120 - std::min<std::size_t>(120, textColumns(numbers)));
        fmt::print(out, "{}{}\n", numbers, fullNames ? k.name : fitColumns(k.displayName(), room));
    }
}

std::string baselineCsvHeader()
{
    return ",comparison,baseline_launches,baseline_total_time_ns,baseline_avg_time_ns,baseline_verdict,"
           "baseline_bound_by,baseline_pct_of_roof,delta_time_ns,delta_pct";
}

std::string baselineCsvCells(const ReportBaseline& b, std::size_t row)
{
    const auto& d = deltaAt(b, row);
    if (d.isNew())
        return fmt::format(",new,,,,,,,{},", d.deltaNs);
    const auto& before = b.baseline.kernels.at(*d.baseline);
    return fmt::format(",matched,{},{},{:.1f},{},{},{},{},{}", d.baselineLaunches, d.baselineTotalNs,
        d.baselineAverageNs, toString(d.verdictBefore), d.boundByBefore, csvNumber(percentOf(before.analysis.boundUtilization)),
        d.deltaNs, csvNumber(d.deltaPct));
}

void writeGoneCsv(std::ostream& out, const ReportBaseline& b)
{
    // The current session's 19 columns stay empty but for the kernel's names and GPU model.
    for (std::size_t index : b.comparison.gone) {
        const auto& k = b.baseline.kernels.at(index);
        fmt::print(out, "{},{},,{},,,,,,,,,,,,,,,{},gone,{},{},{:.1f},{},{},{},{},{}\n", csvField(k.name),
            csvField(k.mangledName), csvField(comparedDeviceName(k)), csvField(k.displayName()), k.launches, k.totalNs,
            k.averageNs(), toString(k.analysis.verdict), k.analysis.boundBy, csvNumber(percentOf(k.analysis.boundUtilization)),
            -k.totalNs, k.totalNs > 0 ? "-100" : "");
    }
}

void addBaselineFields(nlohmann::json& kernel, const ReportBaseline& b, std::size_t row)
{
    using nlohmann::json;
    const auto& d = deltaAt(b, row);
    kernel["comparison"] = comparisonWord(d);
    kernel["delta_time_ns"] = d.deltaNs;
    kernel["delta_pct"] = d.deltaPct ? json(*d.deltaPct) : json(nullptr);
    if (d.isNew()) {
        kernel["baseline"] = nullptr;
        return;
    }
    const auto& before = b.baseline.kernels.at(*d.baseline);
    kernel["baseline"] = {
        { "device", before.deviceId },
        { "launches", d.baselineLaunches },
        { "total_time_ns", d.baselineTotalNs },
        { "avg_time_ns", d.baselineAverageNs },
        { "verdict", toString(d.verdictBefore) },
        { "bound_by", d.boundByBefore.empty() ? json(nullptr) : json(d.boundByBefore) },
        { "pct_of_roof", optionalPercent(before.analysis.boundUtilization) },
    };
}

nlohmann::json baselineJson(const ReportBaseline& b)
{
    using nlohmann::json;
    const auto& t = b.comparison.totals;
    json gone = json::array();
    for (std::size_t index : b.comparison.gone) {
        const auto& k = b.baseline.kernels.at(index);
        gone.push_back({
            { "name", k.name },
            { "mangled_name", k.mangledName },
            { "device", k.deviceId },
            { "device_name", comparedDeviceName(k) },
            { "launches", k.launches },
            { "total_time_ns", k.totalNs },
            { "avg_time_ns", k.averageNs() },
            { "verdict", toString(k.analysis.verdict) },
            { "bound_by", k.analysis.boundBy.empty() ? json(nullptr) : json(k.analysis.boundBy) },
            { "pct_of_roof", optionalPercent(k.analysis.boundUtilization) },
        });
    }
    return {
        { "path", b.baseline.path },
        { "totals",
            { { "kernels", b.baseline.kernels.size() }, { "launches", t.launchesBefore },
                { "kernel_time_ns", t.kernelNsBefore } } },
        { "delta_kernel_time_ns", t.deltaNs() },
        { "delta_kernel_time_pct", t.deltaPct() ? json(*t.deltaPct()) : json(nullptr) },
        { "matched", t.matched },
        { "new", t.added },
        { "gone_count", t.gone },
        { "gone", gone },
    };
}

} // namespace ridgeline::core::detail
