// SPDX-License-Identifier: MIT
// The SVG roofline of the HTML report: log-log axes with decade ticks, roofs, kernel points. The
// figures come from the roofline view-model (rooflinechart.h) that the desktop app draws too.
#include "exporthtml.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"
#include "ridgeline/core/output/exporters.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::detail {

namespace {

constexpr double kWidth = 920, kHeight = 540;
constexpr double kLeft = 110, kRight = 210, kTop = 30, kBottom = 60;
constexpr std::size_t kMaxLabel = 36;

std::string shortened(const std::string& text)
{
    if (text.size() <= kMaxLabel)
        return text;
    std::size_t cut = kMaxLabel - 1;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return text.substr(0, cut) + "…";
}

std::string intensityTick(int decade)
{
    if (decade >= -3 && decade <= 4) {
        const double value = std::pow(10.0, decade);
        return decade < 0 ? fmt::format("{:.{}f}", value, -decade) : fmt::format("{:.0f}", value);
    }
    return fmt::format("1e{}", decade);
}

// Pixel positions of log10 values.
struct Axes {
    RooflineAxes range;
    double x(double lx) const
    {
        return kLeft + (lx - range.xMinLog) / (range.xMaxLog - range.xMinLog) * (kWidth - kLeft - kRight);
    }
    double y(double ly) const
    {
        return kTop + (range.yMaxLog - ly) / (range.yMaxLog - range.yMinLog) * (kHeight - kTop - kBottom);
    }
};

std::string gridAndAxes(const Axes& ax)
{
    const auto& r = ax.range;
    std::string svg;
    for (int d = static_cast<int>(r.xMinLog); d <= static_cast<int>(r.xMaxLog); ++d) {
        const double x = ax.x(d);
        svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" class="grid"/>)"
                           R"(<text x="{0:.1f}" y="{3}" class="tick" text-anchor="middle">{4}</text>)"
                           "\n",
            x, kTop, kHeight - kBottom, kHeight - kBottom + 18, intensityTick(d));
    }
    for (int d = static_cast<int>(r.yMinLog); d <= static_cast<int>(r.yMaxLog); ++d) {
        const double y = ax.y(d);
        svg += fmt::format(R"(<line x1="{1}" y1="{0:.1f}" x2="{2}" y2="{0:.1f}" class="grid"/>)"
                           R"(<text x="{3}" y="{4:.1f}" class="tick" text-anchor="end">{5}</text>)"
                           "\n",
            y, kLeft, kWidth - kRight, kLeft - 6, y + 4, formatRate(std::pow(10.0, d), "FLOP/s"));
    }
    svg += fmt::format(R"(<text x="{}" y="{}" class="axis" text-anchor="middle">)"
                       "Arithmetic intensity (FLOP per DRAM byte, log scale)</text>\n",
        (kLeft + kWidth - kRight) / 2, kHeight - 14);
    svg += fmt::format(R"svg(<text x="18" y="{0}" class="axis" text-anchor="middle" transform="rotate(-90 18 {0})">)svg"
                       "Performance (FLOP/s, log scale)</text>\n",
        (kTop + kHeight - kBottom) / 2);
    return svg;
}

// Memory slopes (y = bandwidth × x) up to the highest compute roof, then the flat roofs.
std::string roofs(const Axes& ax, const RooflineChart& chart)
{
    std::string svg;
    for (const auto& m : chart.memory) {
        if (!(m.x0 < m.x1))
            continue;
        const double x0 = std::log10(m.x0), x1 = std::log10(m.x1), lb = std::log10(m.value);
        svg += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="roof mem"/>)"
                           "\n",
            ax.x(x0), ax.y(x0 + lb), ax.x(x1), ax.y(x1 + lb));
        const double lx = x0 + 0.12 * (x1 - x0);
        const double angle = -std::atan2(ax.y(0) - ax.y(1), ax.x(1) - ax.x(0)) * 180.0 / M_PI;
        svg += fmt::format(
            R"svg(<text x="{0:.1f}" y="{1:.1f}" class="rooflabel" transform="rotate({2:.1f} {0:.1f} {1:.1f})">)svg"
            "{3} {4}</text>\n",
            ax.x(lx), ax.y(lx + lb) - 6, angle, htmlEscape(m.resource), formatRate(m.value, "B/s"));
    }
    double lastLabelY = -1e9;
    for (const auto& c : chart.compute) {
        const double y = ax.y(std::log10(c.value));
        const bool tensor = isTensorPipe(c.resource);
        svg += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="roof comp{}"/>)"
                           "\n",
            ax.x(std::log10(c.x0)), y, ax.x(std::log10(c.x1)), y, tensor ? " tensor" : "");
        const double labelY = std::max(y + 4, lastLabelY + 13);
        lastLabelY = labelY;
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="rooflabel">{} {}</text>)"
                           "\n",
            ax.x(ax.range.xMaxLog) + 6, labelY, htmlEscape(c.resource), formatRate(c.value, "FLOP/s"));
    }
    return svg;
}

} // namespace

RooflineChart htmlRooflineChart(
    const std::vector<Ceiling>& ceilings, const std::vector<KernelSummary>& rows, std::int64_t deviceId)
{
    RooflineChartOptions options;
    options.deviceIds = { deviceId };
    options.levels = { resource::DRAM };
    return buildRooflineChart(ceilings, rows, options);
}

std::string rooflineSvg(const std::vector<Ceiling>& ceilings, const std::vector<KernelSummary>& rows,
    std::int64_t deviceId, const std::string& title)
{
    return rooflineSvg(htmlRooflineChart(ceilings, rows, deviceId), rows, title);
}

std::string rooflineSvg(const RooflineChart& chart, const std::vector<KernelSummary>& rows, const std::string& title)
{
    const Axes ax { chart.axes };
    std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" )"
                                  R"(viewBox="0 0 {0} {1}" role="img" aria-label="Roofline chart">)"
                                  "\n<title>{2}</title>\n",
        kWidth, kHeight, htmlEscape(title));
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" stroke="#888"/>)"
                       "\n",
        kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
    svg += gridAndAxes(ax);
    if (chart.empty()) {
        svg += fmt::format(R"(<text x="{}" y="{}" class="note" text-anchor="middle">)"
                           "No ceilings and no kernels with counters: nothing to draw.</text>\n</svg>\n",
            (kLeft + kWidth - kRight) / 2, (kTop + kHeight - kBottom) / 2);
        return svg;
    }
    svg += roofs(ax, chart);

    // Kernels, largest first (the chart's order) so that small points stay visible on top.
    const auto& r = ax.range;
    for (const auto& p : chart.points) {
        const auto& row = rows[p.kernel];
        const double x = ax.x(std::log10(p.intensity)), y = ax.y(std::log10(p.flopsPerS));
        const double radius = rooflinePointRadius(p.timeShare);
        const auto& a = row.analysis;
        // Figures from operator shapes (not counted) are hollow: a ring in the verdict's colour.
        const bool hollow = a.figures == FigureSource::Shapes;
        const std::string paint = hollow
            ? fmt::format(R"(fill="none" stroke="{}" stroke-width="2")", htmlColourForVerdict(a.verdict))
            : fmt::format(R"(fill="{}" fill-opacity="0.75" stroke="#222")", htmlColourForVerdict(a.verdict));
        svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" {}>)"
                           "<title>{}: {} at {:.3g} FLOP/B{}; {}</title></circle>\n",
            x, y, radius, paint, htmlEscape(row.name), formatRate(p.flopsPerS, "FLOP/s"), p.intensity,
            hollow ? " (from shapes)" : "", htmlEscape(a.reason));
        // Labels of points in the right part of the plot go to their left, clear of the roof labels.
        const bool left = x > ax.x(r.xMinLog + 0.6 * (r.xMaxLog - r.xMinLog));
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="pointlabel" text-anchor="{}">{}</text>)"
                           "\n",
            left ? x - radius - 3 : x + radius + 3, y + 4, left ? "end" : "start", htmlEscape(shortened(row.name)));
    }
    svg += "</svg>\n";
    return svg;
}

} // namespace ridgeline::core::detail
