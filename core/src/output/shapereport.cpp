// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/shapereport.h"

#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/version.h"
#include "tracejson.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <optional>

namespace ridgeline::core {

namespace {

// What a row's figures come to over its GPU time.
struct ShapeRates {
    std::optional<double> flopsPerCall, bytesPerCall, flopsPerS, bytesPerS;
    std::optional<double> nearestRoof; // the highest utilisation: how close the nearest roof is
    std::string nearestResource;
};

ShapeRates shapeRatesOf(const OperatorShapeRow& row)
{
    ShapeRates r;
    if (!row.work || row.calls <= 0)
        return r;
    const double calls = static_cast<double>(row.calls);
    r.flopsPerCall = row.flops / calls;
    r.bytesPerCall = row.bytes / calls;
    if (row.gpuTimeNs > 0) {
        const double seconds = static_cast<double>(row.gpuTimeNs) / 1e9;
        r.flopsPerS = row.flops / seconds;
        r.bytesPerS = row.bytes / seconds;
    }
    const auto& u = row.analysis.utilization;
    const auto top
        = std::max_element(u.begin(), u.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top != u.end()) {
        r.nearestRoof = top->second;
        r.nearestResource = toString(top->first);
    }
    return r;
}

std::size_t shapeRowsShown(const ShapeReport& report, std::size_t top)
{
    const auto& rows = report.shapes.rows;
    return top > 0 && top < rows.size() ? top : rows.size();
}

double shapeModelledShare(const OperatorShapes& s)
{
    return s.kernelTimeNs > 0 ? static_cast<double>(s.modelledTimeNs) / static_cast<double>(s.kernelTimeNs) : 0.0;
}

std::string shapeOrDash(const std::optional<double>& value, const char* unit)
{
    return value ? formatRate(*value, unit) : std::string("-");
}

void writeShapeTable(std::ostream& out, const ShapeReport& report, std::size_t shown)
{
    const OperatorShapes& s = report.shapes;
    fmt::print(out, "{}: {} of kernel time; {} ({:.1f} %) modelled from operator shapes\n", report.path,
        formatDuration(static_cast<double>(s.kernelTimeNs)), formatDuration(static_cast<double>(s.modelledTimeNs)),
        100.0 * shapeModelledShare(s));
    if (s.rows.empty()) {
        fmt::print(out, "No kernel of this session was launched by a PyTorch operator.\n");
        return;
    }
    if (shown < s.rows.size())
        fmt::print(out, "Showing the top {}.\n", shown);
    fmt::print(out, "{:>7}  {:>11}  {:>6}  {:>11}  {:>11}  {:>12}  {:>11}  {:<22}  {:>6}  {}\n", "GPU %", "GPU time",
        "Calls", "FLOP/call", "Bytes/call", "FLOP/s", "B/s", "Verdict", "% roof", "Operator  Input dims  Input types");
    for (std::size_t i = 0; i < shown; ++i) {
        const OperatorShapeRow& row = s.rows[i];
        const ShapeRates r = shapeRatesOf(row);
        const double share
            = s.kernelTimeNs > 0 ? 100.0 * static_cast<double>(row.gpuTimeNs) / static_cast<double>(s.kernelTimeNs) : 0;
        const std::string verdict = row.work ? toString(row.analysis.verdict)
                + (row.analysis.boundBy.empty() ? std::string() : " (" + row.analysis.boundBy + ")")
                                             : std::string("no model");
        fmt::print(out, "{:>6.2f}%  {:>11}  {:>6}  {:>11}  {:>11}  {:>12}  {:>11}  {:<22}  {:>6}  {}  {}  {}\n", share,
            formatDuration(static_cast<double>(row.gpuTimeNs)), formatCount(row.calls), shapeOrDash(r.flopsPerCall, ""),
            shapeOrDash(r.bytesPerCall, "B"), shapeOrDash(r.flopsPerS, "FLOP/s"), shapeOrDash(r.bytesPerS, "B/s"),
            verdict, r.nearestRoof ? fmt::format("{:.0f}%", *r.nearestRoof * 100.0) : std::string("-"), row.name,
            row.inputDims.empty() ? "-" : row.inputDims, row.inputTypes.empty() ? "-" : row.inputTypes);
    }
}

std::string shapeNumber(const std::optional<double>& value)
{
    return value ? fmt::format("{}", *value) : std::string();
}

void writeShapeCsv(std::ostream& out, const ShapeReport& report, std::size_t shown)
{
    out << "name,input_dims,input_types,calls,kernels,gpu_time_ns,flops_per_call,bytes_per_call,model,precision,pipe,"
           "flops_per_s,bytes_per_s,verdict,bound_by,pct_of_roof,nearest_roof,formula,reason\n";
    for (std::size_t i = 0; i < shown; ++i) {
        const OperatorShapeRow& row = report.shapes.rows[i];
        const ShapeRates r = shapeRatesOf(row);
        const OperatorWork* w = row.work ? &*row.work : nullptr;
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csvField(row.name),
            csvField(row.inputDims), csvField(row.inputTypes), row.calls, row.kernels, row.gpuTimeNs,
            shapeNumber(r.flopsPerCall), shapeNumber(r.bytesPerCall), csvField(w ? w->family : ""),
            csvField(w ? w->precision : ""), w && w->pipe ? toString(*w->pipe) : "", shapeNumber(r.flopsPerS),
            shapeNumber(r.bytesPerS), w ? toString(row.analysis.verdict) : "", csvField(w ? row.analysis.boundBy : ""),
            shapeNumber(r.nearestRoof ? std::optional<double>(*r.nearestRoof * 100.0) : std::nullopt),
            csvField(r.nearestResource), csvField(w ? w->formula : ""), csvField(w ? row.analysis.reason : row.reason));
    }
}

nlohmann::json shapeRowJson(const OperatorShapeRow& row)
{
    const ShapeRates r = shapeRatesOf(row);
    const OperatorWork* w = row.work ? &*row.work : nullptr;
    nlohmann::json j = {
        { "name", row.name },
        { "input_dims", detail::traceTextJson(row.inputDims) },
        { "input_types", detail::traceTextJson(row.inputTypes) },
        { "calls", row.calls },
        { "kernels", row.kernels },
        { "gpu_time_ns", row.gpuTimeNs },
        { "flops_per_call", detail::optionalNumberJson(r.flopsPerCall) },
        { "bytes_per_call", detail::optionalNumberJson(r.bytesPerCall) },
        { "model", w ? nlohmann::json(w->family) : nlohmann::json(nullptr) },
        { "precision", w ? nlohmann::json(w->precision) : nlohmann::json(nullptr) },
        { "pipe", w && w->pipe ? nlohmann::json(toString(*w->pipe)) : nlohmann::json(nullptr) },
        { "formula", w ? nlohmann::json(w->formula) : nlohmann::json(nullptr) },
        { "flops_per_s", detail::optionalNumberJson(r.flopsPerS) },
        { "bytes_per_s", detail::optionalNumberJson(r.bytesPerS) },
        { "verdict", toString(w ? row.analysis.verdict : VerdictClass::Unknown) },
        { "bound_by", w ? row.analysis.boundBy : std::string() },
        { "pct_of_roof",
            detail::optionalNumberJson(r.nearestRoof ? std::optional<double>(*r.nearestRoof * 100.0) : std::nullopt) },
        { "nearest_roof", r.nearestResource },
        { "reason", w ? row.analysis.reason : row.reason },
    };
    return j;
}

void writeShapeJson(std::ostream& out, const ShapeReport& report, std::size_t shown)
{
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = 0; i < shown; ++i)
        rows.push_back(shapeRowJson(report.shapes.rows[i]));
    const nlohmann::json document = {
        { "ridgeline_version", kVersion },
        { "session", { { "path", report.path } } },
        { "by", "shape" },
        { "gpu_time_ns", report.shapes.kernelTimeNs },
        { "modelled_gpu_time_ns", report.shapes.modelledTimeNs },
        { "shapes", rows },
    };
    out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace

Result<ShapeReport> buildShapeReport(SessionReader& reader)
{
    auto shapes = modelOperatorShapes(reader);
    if (shapes.hasError())
        return shapes.error();
    return ShapeReport { reader.path(), std::move(shapes).value() };
}

void writeShapeReport(std::ostream& out, const ShapeReport& report, ReportFormat format, std::size_t top)
{
    const std::size_t shown = shapeRowsShown(report, top);
    switch (format) {
    case ReportFormat::Table:
        writeShapeTable(out, report, shown);
        break;
    case ReportFormat::Csv:
        writeShapeCsv(out, report, shown);
        break;
    case ReportFormat::Json:
        writeShapeJson(out, report, shown);
        break;
    }
}

} // namespace ridgeline::core
