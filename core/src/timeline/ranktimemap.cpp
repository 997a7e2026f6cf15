// SPDX-License-Identifier: MIT
#include "ridgeline/core/timeline/ranktimemap.h"

#include <algorithm>

namespace ridgeline::core {

RankTimeMap::RankTimeMap(TimeWindow window, int bins)
    : m_grid(window, bins)
{ }

TimeWindow RankTimeMap::binWindow(int bin) const
{
    return { m_grid.startOf(bin), m_grid.startOf(bin + 1) };
}

int RankTimeMap::binOf(std::int64_t t) const
{
    return static_cast<int>(std::clamp<std::int64_t>(m_grid.columnOf(t), 0, m_grid.pixels() - 1));
}

std::size_t RankTimeMap::addRow(TimeMapRow row, std::vector<TimeInterval> intervals)
{
    const std::size_t index = m_rows.size();
    m_rows.push_back(std::move(row));
    m_values.resize(m_values.size() + static_cast<std::size_t>(bins()), 0.0);
    double* values = m_values.data() + index * static_cast<std::size_t>(bins());
    std::vector<std::int64_t> covered(static_cast<std::size_t>(bins()), 0);
    std::int64_t total = 0;

    // Clip to the window, sort, and merge overlaps so that time covered twice counts once.
    std::vector<TimeInterval> clipped;
    clipped.reserve(intervals.size());
    for (const auto& i : intervals) {
        const std::int64_t s = std::max(i.startNs, window().startNs);
        const std::int64_t e = std::min(i.endNs, window().endNs);
        if (e > s)
            clipped.push_back({ s, e });
    }
    std::sort(clipped.begin(), clipped.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    std::vector<TimeInterval> merged;
    for (const auto& i : clipped) {
        if (!merged.empty() && i.startNs <= merged.back().endNs)
            merged.back().endNs = std::max(merged.back().endNs, i.endNs);
        else
            merged.push_back(i);
    }
    for (const auto& i : merged) {
        total += i.endNs - i.startNs;
        for (int b = binOf(i.startNs); b < bins(); ++b) {
            const TimeWindow w = binWindow(b);
            if (w.startNs >= i.endNs)
                break;
            covered[static_cast<std::size_t>(b)] += std::min(w.endNs, i.endNs) - std::max(w.startNs, i.startNs);
        }
    }
    for (int b = 0; b < bins(); ++b) {
        const TimeWindow w = binWindow(b);
        const auto length = w.endNs - w.startNs;
        values[b] = length > 0 ? static_cast<double>(covered[static_cast<std::size_t>(b)]) / static_cast<double>(length)
                               : 0.0;
    }
    m_covered.push_back(total);
    return index;
}

double RankTimeMap::value(std::size_t row, int bin) const
{
    if (row >= m_rows.size() || bin < 0 || bin >= bins())
        return 0.0;
    return m_values[row * static_cast<std::size_t>(bins()) + static_cast<std::size_t>(bin)];
}

double RankTimeMap::rowShare(std::size_t row) const
{
    if (row >= m_rows.size())
        return 0.0;
    return static_cast<double>(m_covered[row]) / static_cast<double>(window().endNs - window().startNs);
}

} // namespace ridgeline::core
