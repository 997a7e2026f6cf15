// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/collectivechart.h"

#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::core {

namespace {

std::string pointLabel(const CollectiveRow& row)
{
    std::string label = fmt::format("{} {}: busbw {}", row.collective, formatBytes(static_cast<double>(row.bytes)),
        formatRate(*row.busBytesPerS, "B/s"));
    if (row.pctOfLink)
        label += fmt::format(" = {:.{}f} % of {} {}", *row.pctOfLink, *row.pctOfLink < 1 ? 1 : 0, row.link.name,
            formatRate(row.link.bytesPerS, "B/s"));
    return label;
}

} // namespace

CollectiveChart buildCollectiveChart(std::span<const CollectiveRow> rows)
{
    CollectiveChart chart;
    double plottedNs = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (!row.busBytesPerS || !(*row.busBytesPerS > 0) || row.bytes <= 0) {
            ++chart.withoutSizes;
            continue;
        }
        CollectiveChartPoint p;
        p.row = i;
        p.collective = row.collective;
        p.bytes = static_cast<double>(row.bytes);
        p.busBytesPerS = *row.busBytesPerS;
        p.timeShare = static_cast<double>(row.timeNs);
        p.link = row.link.bytesPerS > 0 ? row.link.name : std::string();
        p.pctOfLink = row.pctOfLink;
        p.verdict = verdictClassFromString(row.verdict);
        p.label = pointLabel(row);
        plottedNs += p.timeShare;
        chart.points.push_back(std::move(p));
        if (row.link.bytesPerS > 0) {
            const bool seen = std::any_of(chart.roofs.begin(), chart.roofs.end(), [&](const auto& r) {
                return r.link == row.link.name && r.bytesPerS == row.link.bytesPerS;
            });
            if (!seen)
                chart.roofs.push_back({ row.link.name, row.link.bytesPerS, row.link.inferred,
                    fmt::format("{} {}{}", row.link.name, formatRate(row.link.bytesPerS, "B/s"),
                        row.link.inferred ? " (inferred)" : "") });
        }
    }
    for (auto& p : chart.points)
        p.timeShare = plottedNs > 0 ? p.timeShare / plottedNs : 0.0;
    std::stable_sort(chart.points.begin(), chart.points.end(),
        [](const auto& a, const auto& b) { return a.timeShare > b.timeShare; });
    std::stable_sort(
        chart.roofs.begin(), chart.roofs.end(), [](const auto& a, const auto& b) { return a.bytesPerS > b.bytesPerS; });

    // Decades around every point and roof, at least two wide on each axis.
    if (!chart.points.empty()) {
        double xLo = chart.points.front().bytes, xHi = xLo;
        double yLo = chart.points.front().busBytesPerS, yHi = yLo;
        for (const auto& p : chart.points) {
            xLo = std::min(xLo, p.bytes);
            xHi = std::max(xHi, p.bytes);
            yLo = std::min(yLo, p.busBytesPerS);
            yHi = std::max(yHi, p.busBytesPerS);
        }
        for (const auto& r : chart.roofs) {
            yLo = std::min(yLo, r.bytesPerS);
            yHi = std::max(yHi, r.bytesPerS);
        }
        auto& a = chart.axes;
        a.xMinLog = std::floor(std::log10(xLo));
        a.xMaxLog = std::max(std::ceil(std::log10(xHi)), a.xMinLog + 2);
        a.yMinLog = std::floor(std::log10(yLo));
        // Room above the highest roof for its label.
        a.yMaxLog = std::max(std::ceil(std::log10(yHi * 2)), a.yMinLog + 2);
    }
    return chart;
}

} // namespace ridgeline::core
