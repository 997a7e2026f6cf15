// SPDX-License-Identifier: MIT
// The SVG roofline of the HTML report: log-log axes with decade ticks, roofs, kernel points.
#include "exporthtml.h"
#include "ridgeline/core/exporters.h"
#include "ridgeline/core/metricnames.h"
#include "ridgeline/core/units.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace ridgeline::core::detail {

namespace {

constexpr double kWidth = 920, kHeight = 540;
constexpr double kLeft = 110, kRight = 210, kTop = 30, kBottom = 60;
constexpr std::size_t kMaxLabel = 36;

bool isOneOf(const std::string& name, const auto& list)
{
    return std::find(list.begin(), list.end(), std::string_view(name)) != list.end();
}

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

struct Axes {
    double xlo = -2, xhi = 3, ylo = 9, yhi = 15; // log10 of FLOP/byte and FLOP/s
    double x(double lx) const { return kLeft + (lx - xlo) / (xhi - xlo) * (kWidth - kLeft - kRight); }
    double y(double ly) const { return kTop + (yhi - ly) / (yhi - ylo) * (kHeight - kTop - kBottom); }
};

struct Point {
    double intensity, flops, share;
    const KernelSummary* row;
};

} // namespace

std::vector<Ceiling> bestCeilings(const std::vector<Ceiling>& ceilings)
{
    std::map<std::string, Ceiling> best;
    for (const auto& c : ceilings) {
        if (!(c.value > 0) || !std::isfinite(c.value))
            continue;
        auto [it, added] = best.try_emplace(c.resource, c);
        const auto& held = it->second;
        if (!added
            && (preferenceOf(c.source) < preferenceOf(held.source)
                || (c.source == held.source && c.value > held.value)))
            it->second = c;
    }
    std::vector<Ceiling> out;
    for (auto& [name, c] : best)
        out.push_back(std::move(c));
    return out;
}

std::string rooflineSvg(const std::vector<Ceiling>& ceilings, const std::vector<KernelSummary>& rows,
    std::int64_t deviceId, const std::string& title)
{
    std::vector<Ceiling> memory, compute;
    for (auto& c : bestCeilings(ceilings)) {
        if (c.deviceId != deviceId)
            continue;
        if (isOneOf(c.resource, resource::Memory))
            memory.push_back(c);
        else if (isOneOf(c.resource, resource::Compute))
            compute.push_back(c);
    }
    auto byValue = [](const Ceiling& a, const Ceiling& b) { return a.value > b.value; };
    std::sort(memory.begin(), memory.end(), byValue);
    std::sort(compute.begin(), compute.end(), byValue);

    std::vector<Point> points;
    for (const auto& r : rows) {
        const auto& a = r.analysis;
        auto ai = a.intensity.find(resource::DRAM);
        if (r.deviceId != deviceId || !a.achievedFlopsPerS || ai == a.intensity.end() || !(*a.achievedFlopsPerS > 0)
            || !(ai->second > 0))
            continue;
        points.push_back({ ai->second, *a.achievedFlopsPerS, r.shareOfKernelTime, &r });
    }

    Axes ax;
    const double topPeak = compute.empty() ? 0 : compute.front().value;
    const double topBandwidth = memory.empty() ? 0 : memory.front().value;
    if (topPeak > 0)
        ax.yhi = std::ceil(std::log10(topPeak) + 0.05);
    for (const auto& p : points)
        ax.yhi = std::max(ax.yhi, std::ceil(std::log10(p.flops) + 0.05));
    ax.ylo = ax.yhi - 6;
    for (const auto& p : points)
        ax.ylo = std::min(ax.ylo, std::floor(std::log10(p.flops) - 0.05));
    if (topPeak > 0) {
        for (const auto& m : memory)
            ax.xhi = std::max(ax.xhi, std::ceil(std::log10(topPeak / m.value) + 0.5));
    }
    for (const auto& p : points) {
        ax.xlo = std::min(ax.xlo, std::floor(std::log10(p.intensity) - 0.05));
        ax.xhi = std::max(ax.xhi, std::ceil(std::log10(p.intensity) + 0.05));
    }

    std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" )"
                                  R"(viewBox="0 0 {0} {1}" role="img" aria-label="Roofline chart">)"
                                  "\n<title>{2}</title>\n",
        kWidth, kHeight, htmlEscape(title));
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" stroke="#888"/>)"
                       "\n",
        kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
    // Decade grid and tick labels.
    for (int d = static_cast<int>(ax.xlo); d <= static_cast<int>(ax.xhi); ++d) {
        const double x = ax.x(d);
        svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" class="grid"/>)"
                           R"(<text x="{0:.1f}" y="{3}" class="tick" text-anchor="middle">{4}</text>)"
                           "\n",
            x, kTop, kHeight - kBottom, kHeight - kBottom + 18, intensityTick(d));
    }
    for (int d = static_cast<int>(ax.ylo); d <= static_cast<int>(ax.yhi); ++d) {
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

    if (memory.empty() && compute.empty() && points.empty()) {
        svg += fmt::format(R"(<text x="{}" y="{}" class="note" text-anchor="middle">)"
                           "No ceilings and no kernels with counters: nothing to draw.</text>\n</svg>\n",
            (kLeft + kWidth - kRight) / 2, (kTop + kHeight - kBottom) / 2);
        return svg;
    }

    // Memory slopes (y = bandwidth × x) up to the highest compute roof, then the flat roofs.
    const double roofTop = topPeak > 0 ? std::log10(topPeak) : ax.yhi;
    for (const auto& m : memory) {
        const double lb = std::log10(m.value);
        const double x0 = std::max(ax.xlo, ax.ylo - lb), x1 = std::min(ax.xhi, roofTop - lb);
        if (!(x0 < x1))
            continue;
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
    for (const auto& c : compute) {
        const double lp = std::log10(c.value);
        if (lp < ax.ylo)
            continue;
        const double x0 = topBandwidth > 0 ? std::max(ax.xlo, lp - std::log10(topBandwidth)) : ax.xlo;
        const double y = ax.y(lp);
        const bool tensor = c.resource.find("tensor") != std::string::npos;
        svg += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" class="roof comp{}"/>)"
                           "\n",
            ax.x(x0), y, ax.x(ax.xhi), y, tensor ? " tensor" : "");
        const double labelY = std::max(y + 4, lastLabelY + 13);
        lastLabelY = labelY;
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="rooflabel">{} {}</text>)"
                           "\n",
            ax.x(ax.xhi) + 6, labelY, htmlEscape(c.resource), formatRate(c.value, "FLOP/s"));
    }

    // Kernels, largest first so that small points stay visible on top.
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.share > b.share; });
    for (const auto& p : points) {
        const double x = ax.x(std::log10(p.intensity)), y = ax.y(std::log10(p.flops));
        const double radius = 4 + 14 * std::sqrt(std::clamp(p.share, 0.0, 1.0));
        const auto& a = p.row->analysis;
        svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}" fill-opacity="0.75" stroke="#222">)"
                           "<title>{}: {} at {:.3g} FLOP/B; {}</title></circle>\n",
            x, y, radius, htmlColourForVerdict(a.verdict), htmlEscape(p.row->name), formatRate(p.flops, "FLOP/s"),
            p.intensity, htmlEscape(a.reason));
        // Labels of points in the right part of the plot go to their left, clear of the roof labels.
        const bool left = x > ax.x(ax.xlo + 0.6 * (ax.xhi - ax.xlo));
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" class="pointlabel" text-anchor="{}">{}</text>)"
                           "\n",
            left ? x - radius - 3 : x + radius + 3, y + 4, left ? "end" : "start", htmlEscape(shortened(p.row->name)));
    }
    svg += "</svg>\n";
    return svg;
}

} // namespace ridgeline::core::detail
