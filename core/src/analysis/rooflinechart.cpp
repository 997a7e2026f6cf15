// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/rooflinechart.h"

#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "rooflinemetrics.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace ridgeline::core {

namespace {

// A value a log scale can show: positive and finite. A hostile session can hold counters whose
// ratios are infinite; on an axis they would make its range infinite.
bool plottable(double value)
{
    return value > 0 && std::isfinite(value);
}

template <typename List, typename Value> bool contains(const List& list, const Value& value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool isMemoryLevel(std::string_view name)
{
    return contains(resource::Memory, name);
}

bool isFlopRoof(std::string_view name)
{
    return contains(resource::Compute, name) && detail::isFloatingPoint(name);
}

// Ceilings of the chosen devices, identical ones (resource, value, source) merged into one line.
std::vector<RooflineCeilingLine> linesOf(std::span<const Ceiling> best, bool memory)
{
    std::map<std::tuple<std::string, double, int>, RooflineCeilingLine> merged;
    for (const auto& c : best) {
        if (memory ? !isMemoryLevel(c.resource) : !isFlopRoof(c.resource))
            continue;
        auto& line = merged[{ c.resource, c.value, preferenceOf(c.source) }];
        if (line.deviceIds.empty()) {
            line.resource = c.resource;
            line.memory = memory;
            line.value = c.value;
            line.source = c.source;
            line.note = c.note;
            line.label = fmt::format(
                "{} {} ({})", c.resource, formatRate(c.value, memory ? "B/s" : "FLOP/s"), toString(c.source));
        }
        line.deviceIds.push_back(c.deviceId);
    }
    std::vector<RooflineCeilingLine> lines;
    for (auto& [key, line] : merged)
        lines.push_back(std::move(line));
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.value > b.value; });
    return lines;
}

bool shareDevice(const RooflineCeilingLine& a, const RooflineCeilingLine& b)
{
    return std::any_of(a.deviceIds.begin(), a.deviceIds.end(), [&](auto id) { return contains(b.deviceIds, id); });
}

// Every (slope, roof) pair of one device meets at a ridge point; equal ones are listed once.
std::vector<RooflineRidge> ridgesOf(
    const std::vector<RooflineCeilingLine>& memory, const std::vector<RooflineCeilingLine>& compute)
{
    std::vector<RooflineRidge> ridges;
    for (const auto& m : memory) {
        for (const auto& c : compute) {
            if (!shareDevice(m, c))
                continue;
            RooflineRidge r { m.resource, c.resource, c.value / m.value, c.value };
            const bool seen = std::any_of(ridges.begin(), ridges.end(), [&](const RooflineRidge& o) {
                return o.memory == r.memory && o.compute == r.compute && o.intensity == r.intensity
                    && o.flopsPerS == r.flopsPerS;
            });
            if (!seen)
                ridges.push_back(std::move(r));
        }
    }
    return ridges;
}

std::optional<double> ceilingOf(const KernelAnalysis& a, const std::string& res)
{
    const auto known = resourceFromString(res);
    auto it = known ? a.ceilingsUsed.find(*known) : a.ceilingsUsed.end();
    return it == a.ceilingsUsed.end() ? std::nullopt : std::optional<double>(it->second.value);
}

void setRoof(RooflinePoint& p)
{
    if (p.computeCeiling && p.bandwidthCeiling)
        p.attainable = std::min(*p.computeCeiling, *p.bandwidthCeiling * p.intensity);
    else if (p.computeCeiling)
        p.attainable = p.computeCeiling;
    else if (p.bandwidthCeiling)
        p.attainable = *p.bandwidthCeiling * p.intensity;
    if (p.attainable && *p.attainable > 0)
        p.fractionOfRoof = p.flopsPerS / *p.attainable;
}

// Why a kernel with this analysis has no point.
std::string unplottedReason(const KernelAnalysis& a, const std::vector<std::string>& levels)
{
    if (!a.hasFigures())
        return "no hardware counters";
    if (!a.flops || !(*a.flops > 0))
        return "no floating-point work counted (a log scale cannot show zero)";
    if (!a.achievedFlopsPerS || !(*a.achievedFlopsPerS > 0))
        return "no duration, so no FLOP/s";
    const bool infiniteIntensity = std::any_of(levels.begin(), levels.end(), [&](const std::string& level) {
        const auto intensity = detail::intensityAt(a, level);
        return intensity && std::isinf(*intensity);
    });
    if (!std::isfinite(*a.flops) || !std::isfinite(*a.achievedFlopsPerS) || infiniteIntensity)
        return "counter values too large to plot (infinite)";
    std::string names;
    for (const auto& level : levels)
        names += (names.empty() ? "" : "/") + level;
    return fmt::format("no {} traffic counted", names.empty() ? "memory" : names);
}

// Appends the kernel's points; false when it has none.
bool addPoints(
    std::vector<RooflinePoint>& out, std::size_t index, const KernelSummary& row, const RooflineChartOptions& options)
{
    const auto& a = row.analysis;
    if (!a.flops || !plottable(*a.flops) || !a.achievedFlopsPerS || !plottable(*a.achievedFlopsPerS))
        return false;
    const std::size_t before = out.size();
    const double seconds = *a.flops / *a.achievedFlopsPerS; // the launches that were counted
    for (const auto& level : options.levels) {
        const auto intensity = detail::intensityAt(a, level);
        if (!intensity || !plottable(*intensity))
            continue;
        const double bytes = *a.flops / *intensity;
        RooflinePoint base;
        base.kernel = index;
        base.nameId = row.nameId;
        base.deviceId = row.deviceId;
        base.level = level;
        base.timeShare = row.shareOfKernelTime;
        base.bandwidthCeiling = ceilingOf(a, level);
        if (options.mode == RooflinePointMode::Combined) {
            RooflinePoint p = base;
            p.intensity = *intensity;
            p.flopsPerS = *a.achievedFlopsPerS;
            p.computeCeiling = a.mixCeilingFlopsPerS;
            setRoof(p);
            out.push_back(std::move(p));
            continue;
        }
        for (const auto& [precision, ops] : a.flopsByPrecision) {
            if (!detail::isFloatingPoint(precision) || !(ops > 0))
                continue;
            RooflinePoint p = base;
            p.precision = toString(precision);
            p.intensity = ops / bytes;
            p.flopsPerS = ops / seconds;
            if (!plottable(p.intensity) || !plottable(p.flopsPerS))
                continue; // a ratio of hostile counters past what a double holds
            p.computeCeiling = ceilingOf(a, p.precision);
            setRoof(p);
            out.push_back(std::move(p));
        }
    }
    return out.size() > before;
}

void fitAxes(RooflineChart& chart)
{
    auto& ax = chart.axes;
    double topPeak = 0;
    for (const auto& c : chart.compute)
        topPeak = plottable(c.value) ? std::max(topPeak, c.value) : topPeak;
    if (topPeak > 0)
        ax.yMaxLog = std::ceil(std::log10(topPeak) + 0.05);
    for (const auto& p : chart.points)
        ax.yMaxLog = std::max(ax.yMaxLog, std::ceil(std::log10(p.flopsPerS) + 0.05));
    ax.yMinLog = ax.yMaxLog - 6;
    for (const auto& p : chart.points)
        ax.yMinLog = std::min(ax.yMinLog, std::floor(std::log10(p.flopsPerS) - 0.05));
    for (const auto& c : chart.compute) {
        if (plottable(c.value))
            ax.yMinLog = std::min(ax.yMinLog, std::floor(std::log10(c.value) - 0.5));
    }
    for (const auto& r : chart.ridges) {
        if (!plottable(r.intensity))
            continue;
        ax.xMinLog = std::min(ax.xMinLog, std::floor(std::log10(r.intensity) - 0.5));
        ax.xMaxLog = std::max(ax.xMaxLog, std::ceil(std::log10(r.intensity) + 0.5));
    }
    for (const auto& p : chart.points) {
        ax.xMinLog = std::min(ax.xMinLog, std::floor(std::log10(p.intensity) - 0.05));
        ax.xMaxLog = std::max(ax.xMaxLog, std::ceil(std::log10(p.intensity) + 0.05));
    }
}

// Clips each line to the axes: slopes end at the highest roof of their devices, roofs start at
// the highest slope of their devices.
void placeLines(RooflineChart& chart)
{
    const auto& ax = chart.axes;
    for (auto& m : chart.memory) {
        double top = 0;
        for (const auto& c : chart.compute)
            top = shareDevice(m, c) ? std::max(top, c.value) : top;
        m.x0 = std::max(ax.xMin(), ax.yMin() / m.value);
        m.x1 = top > 0 ? std::min(ax.xMax(), top / m.value) : std::min(ax.xMax(), ax.yMax() / m.value);
        m.y0 = m.value * m.x0;
        m.y1 = m.value * m.x1;
    }
    for (auto& c : chart.compute) {
        double fastest = 0;
        for (const auto& m : chart.memory)
            fastest = shareDevice(m, c) ? std::max(fastest, m.value) : fastest;
        c.x0 = fastest > 0 ? std::max(ax.xMin(), c.value / fastest) : ax.xMin();
        c.x1 = ax.xMax();
        c.y0 = c.y1 = c.value;
    }
}

} // namespace

RooflineChart buildRooflineChart(
    std::span<const Ceiling> ceilings, std::span<const KernelSummary> kernels, const RooflineChartOptions& options)
{
    const auto chosen
        = [&](std::int64_t deviceId) { return options.deviceIds.empty() || contains(options.deviceIds, deviceId); };
    std::vector<Ceiling> best;
    for (auto& c : selectCeilings(ceilings)) {
        if (chosen(c.deviceId))
            best.push_back(std::move(c));
    }
    RooflineChart chart;
    chart.memory = linesOf(best, true);
    chart.compute = linesOf(best, false);
    chart.ridges = ridgesOf(chart.memory, chart.compute);

    std::vector<RooflinePoint> points; // in kernel order: the rows are read front to back
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto& row = kernels[i];
        if (!chosen(row.deviceId))
            continue;
        if (!addPoints(points, i, row, options))
            chart.unplotted.push_back({ i, unplottedReason(row.analysis, options.levels) });
    }
    // Largest share first (stable); sorting compact keys, not the points, keeps this cheap at 100 k.
    std::vector<std::pair<double, std::uint32_t>> order(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        order[i] = { -points[i].timeShare, static_cast<std::uint32_t>(i) };
    std::sort(order.begin(), order.end());
    chart.points.reserve(points.size());
    for (const auto& [share, index] : order)
        chart.points.push_back(std::move(points[index]));
    fitAxes(chart);
    placeLines(chart);
    return chart;
}

double rooflinePointRadius(double timeShare)
{
    return 4.0 + 14.0 * std::sqrt(std::clamp(timeShare, 0.0, 1.0));
}

} // namespace ridgeline::core
