// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/opportunityreport.h"

#include "ncuestimatesjson.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/version.h"
#include "tracejson.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

namespace ridgeline::core {

namespace {

std::string opportunityTime(std::int64_t ns)
{
    return formatDuration(static_cast<double>(ns));
}

double opportunityPercent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::size_t opportunityShown(std::size_t size, std::size_t top)
{
    return top > 0 && top < size ? top : size;
}

std::string opportunityVerdict(const Opportunity& row)
{
    return toString(row.verdict) + (row.boundBy.empty() ? std::string() : " (" + row.boundBy + ")");
}

// "aten::addmm [[768],[788,768],...]": an operator row with its input dims.
std::string opportunityLabel(const Opportunity& row)
{
    return row.inputDims.empty() ? row.name : row.name + "  " + row.inputDims;
}

void writeOpportunityTable(std::ostream& out, const OpportunityReport& report, std::size_t top)
{
    const Opportunities& o = report.opportunities;
    fmt::print(out, "{}: {} of GPU time (kernels, copies and memsets)\n", report.path, opportunityTime(o.gpuTimeNs));
    if (o.rows.empty()) {
        fmt::print(out, "No GPU time has figures and a roof: nothing can be ranked (see the reasons below).\n");
    } else {
        fmt::print(out,
            "At its roofs the GPU would do this work in {}; it took {}: {} recoverable ({:.1f} % of GPU time).\n",
            opportunityTime(o.timeAtRoofNs), opportunityTime(o.rankedTimeNs), opportunityTime(o.recoverableNs),
            opportunityPercent(o.recoverableNs, o.gpuTimeNs));
        fmt::print(out,
            "The rows cover {} ({:.1f} %) of the GPU time; the rest has no roof and is listed after them.\n",
            opportunityTime(o.rankedTimeNs), 100.0 * o.coverage());
        const std::size_t shown = opportunityShown(o.rows.size(), top);
        if (shown < o.rows.size())
            fmt::print(out, "Showing the top {} of {}.\n", shown, o.rows.size());
        fmt::print(out, "\n{:>3}  {:>11}  {:>11}  {:>11}  {:>6}  {:<6}  {:<24}  {:<10}  {}\n", "#", "Recoverable",
            "GPU time", "At roof", "Calls", "Kind", "Verdict", "Limited by", "Name");
        for (std::size_t i = 0; i < shown; ++i) {
            const Opportunity& row = o.rows[i];
            fmt::print(out, "{:>3}  {:>11}  {:>11}  {:>11}  {:>6}  {:<6}  {:<24}  {:<10}  {}\n", i + 1,
                opportunityTime(row.recoverableNs), opportunityTime(row.gpuTimeNs), opportunityTime(row.timeAtRoofNs),
                formatCount(row.calls), toString(row.kind), opportunityVerdict(row), row.limitedBy,
                opportunityLabel(row));
            if (!row.advice.empty())
                fmt::print(out, "     {}\n", row.advice.front());
            for (const auto& e : row.ncuEstimates)
                if (e.speedupPct)
                    fmt::print(out, "     ncu estimates: {} {}\n", e.name, ncuSpeedupText(e));
        }
    }
    if (o.unranked.empty())
        return;
    const std::int64_t apart = o.unrankedTimeNs;
    const std::size_t shown = opportunityShown(o.unranked.size(), top);
    fmt::print(out, "\nNo roof for {} ({:.1f} % of GPU time){}:\n", opportunityTime(apart),
        opportunityPercent(apart, o.gpuTimeNs), shown < o.unranked.size() ? fmt::format(", the top {}", shown) : "");
    fmt::print(out, "{:>11}  {:>6}  {:<6}  {}\n", "GPU time", "Calls", "Kind", "Name: why");
    for (std::size_t i = 0; i < shown; ++i) {
        const UnrankedTime& u = o.unranked[i];
        fmt::print(out, "{:>11}  {:>6}  {:<6}  {}: {}\n", opportunityTime(u.gpuTimeNs), formatCount(u.calls),
            toString(u.kind), u.name, u.reason);
    }
}

std::string opportunityNumber(const std::optional<double>& value)
{
    return value ? fmt::format("{}", *value) : std::string();
}

std::string joinedAdvice(const std::vector<std::string>& advice)
{
    std::string out;
    for (const auto& a : advice)
        out += (out.empty() ? "" : " | ") + a;
    return out;
}

void writeOpportunityCsv(std::ostream& out, const OpportunityReport& report, std::size_t top)
{
    const Opportunities& o = report.opportunities;
    out << "rank,kind,name,input_dims,input_types,device,calls,gpu_time_ns,time_at_roof_ns,recoverable_ns,verdict,"
           "bound_by,limited_by,flops,bytes,memory_level,compute_roof_flops_per_s,memory_roof_bytes_per_s,advice,"
           "reason\n";
    const std::size_t shown = opportunityShown(o.rows.size(), top);
    for (std::size_t i = 0; i < shown; ++i) {
        const Opportunity& r = o.rows[i];
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", i + 1, toString(r.kind),
            csvField(r.name), csvField(r.inputDims), csvField(r.inputTypes), r.deviceId, r.calls, r.gpuTimeNs,
            r.timeAtRoofNs, r.recoverableNs, toString(r.verdict), csvField(r.boundBy), r.limitedBy, r.flops, r.bytes,
            r.memoryLevel, opportunityNumber(r.computeRoof), opportunityNumber(r.memoryRoof),
            csvField(joinedAdvice(r.advice)), csvField(r.analysis.reason));
    }
    const std::size_t apart = opportunityShown(o.unranked.size(), top);
    for (std::size_t i = 0; i < apart; ++i) {
        const UnrankedTime& u = o.unranked[i];
        fmt::print(out, ",{},{},,,{},{},{},,,unranked,,,,,,,,,{}\n", toString(u.kind), csvField(u.name), u.deviceId,
            u.calls, u.gpuTimeNs, csvField(u.reason));
    }
}

nlohmann::json opportunityKernelsJson(const OpportunityReport& report, const std::vector<OpportunityKernel>& kernels)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& k : kernels) {
        const auto name = report.kernelNames.find(k.nameId);
        out.push_back({ { "name", name == report.kernelNames.end() ? std::string() : name->second },
            { "device", k.deviceId }, { "launches", k.launches }, { "gpu_time_ns", k.timeNs } });
    }
    return out;
}

nlohmann::json opportunityRowJson(const OpportunityReport& report, const Opportunity& r)
{
    nlohmann::json j = {
        { "name", r.name },
        { "kind", toString(r.kind) },
    };
    if (r.kind == OpportunityKind::Operator) {
        j["input_dims"] = detail::traceTextJson(r.inputDims);
        j["input_types"] = detail::traceTextJson(r.inputTypes);
    } else if (r.kind == OpportunityKind::Kernel) {
        j["full_name"] = r.fullName;
    }
    j.update({
        { "device", r.deviceId },
        { "calls", r.calls },
        { "gpu_time_ns", r.gpuTimeNs },
        { "time_at_roof_ns", r.timeAtRoofNs },
        { "recoverable_ns", r.recoverableNs },
        { "verdict", toString(r.verdict) },
        { "bound_by", r.boundBy },
        { "limited_by", r.limitedBy },
        { "flops", r.flops },
        { "bytes", r.bytes },
        { "memory_level", r.memoryLevel },
        { "roof",
            { { "compute_flops_per_s", detail::optionalNumberJson(r.computeRoof) },
                { "memory_bytes_per_s", detail::optionalNumberJson(r.memoryRoof) } } },
        { "roof_times_ns",
            { { "compute", r.roofTimes.computeNs }, { "memory", r.roofTimes.memoryNs },
                { "throughput", r.roofTimes.throughputNs }, { "link", r.roofTimes.linkNs } } },
        { "figures_share", r.figuresShare },
        { "over_roof", r.overRoof },
        { "reason", r.analysis.reason },
        { "advice", r.advice },
        { "kernels", opportunityKernelsJson(report, r.kernels) },
    });
    if (!r.ncuEstimates.empty())
        j["ncu_estimates"] = detail::ncuEstimatesJson(r.ncuEstimates);
    return j;
}

void writeOpportunityJson(std::ostream& out, const OpportunityReport& report, std::size_t top)
{
    const Opportunities& o = report.opportunities;
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = 0; i < opportunityShown(o.rows.size(), top); ++i)
        rows.push_back(opportunityRowJson(report, o.rows[i]));
    nlohmann::json apart = nlohmann::json::array();
    for (std::size_t i = 0; i < opportunityShown(o.unranked.size(), top); ++i) {
        const UnrankedTime& u = o.unranked[i];
        apart.push_back({ { "name", u.name }, { "kind", toString(u.kind) }, { "device", u.deviceId },
            { "calls", u.calls }, { "gpu_time_ns", u.gpuTimeNs }, { "reason", u.reason },
            { "kernels", opportunityKernelsJson(report, u.kernels) } });
    }
    const nlohmann::json document = {
        { "ridgeline_version", kVersion },
        { "session", { { "path", report.path } } },
        { "gpu_time_ns", o.gpuTimeNs },
        { "ranked_gpu_time_ns", o.rankedTimeNs },
        { "unranked_gpu_time_ns", o.unrankedTimeNs },
        { "time_at_roof_ns", o.timeAtRoofNs },
        { "recoverable_ns", o.recoverableNs },
        { "opportunities", rows },
        { "unranked", apart },
    };
    out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace

Result<OpportunityReport> buildOpportunityReport(SessionReader& reader)
{
    auto found = findOpportunities(reader);
    if (found.hasError())
        return found.error();
    auto names = reader.kernelNames();
    if (names.hasError())
        return names.error();
    OpportunityReport report { reader.path(), std::move(found).value(), {} };
    for (const auto& n : names.value())
        report.kernelNames[n.id] = shortKernelName(n.demangled.empty() ? n.raw : n.demangled);
    return report;
}

void writeOpportunityReport(std::ostream& out, const OpportunityReport& report, ReportFormat format, std::size_t top)
{
    switch (format) {
    case ReportFormat::Table:
        writeOpportunityTable(out, report, top);
        break;
    case ReportFormat::Csv:
        writeOpportunityCsv(out, report, top);
        break;
    case ReportFormat::Json:
        writeOpportunityJson(out, report, top);
        break;
    }
}

} // namespace ridgeline::core
