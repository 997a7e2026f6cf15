// SPDX-License-Identifier: MIT
// Rows from loose items: overlapping ops spread over rows (nesting depth), and a device's idle gaps.
#include "ridgeline/core/timeline/timelinerow.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>

namespace ridgeline::core {

namespace {

// Times outside ±2^61 ns (±73 years) come only from broken or hostile files; clamping them keeps
// every duration and every sum of durations within a row inside int64.
constexpr std::int64_t kTimeLimit = std::int64_t { 1 } << 61;

void sanitize(std::vector<TimelineItem>& items)
{
    for (auto& it : items) {
        it.startNs = std::clamp(it.startNs, -kTimeLimit, kTimeLimit);
        it.endNs = std::clamp(it.endNs, it.startNs, kTimeLimit);
    }
}

} // namespace

std::vector<TimelineRow> layoutRows(std::vector<TimelineItem>& items)
{
    sanitize(items);
    auto order = [](const TimelineItem& a, const TimelineItem& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    };
    if (!std::is_sorted(items.begin(), items.end(), order))
        std::stable_sort(items.begin(), items.end(), order);
    // Common case first: nothing overlaps, one row, no copy.
    bool overlaps = false;
    for (std::size_t i = 1; i < items.size() && !overlaps; ++i)
        overlaps = items[i].startNs < items[i - 1].endNs;
    std::vector<TimelineRow> rows;
    if (items.empty())
        return rows;
    if (!overlaps) {
        rows.push_back(TimelineRow::fromSorted(items));
        return rows;
    }
    std::vector<std::vector<TimelineItem>> parts;
    std::vector<std::int64_t> rowEnd;
    for (const auto& it : items) {
        std::size_t r = 0;
        while (r < rowEnd.size() && rowEnd[r] > it.startNs)
            ++r;
        if (r == rowEnd.size()) {
            parts.emplace_back();
            rowEnd.push_back(0);
        }
        parts[r].push_back(it);
        rowEnd[r] = std::max(it.endNs, it.startNs);
    }
    rows.reserve(parts.size());
    for (auto& part : parts) {
        rows.push_back(TimelineRow::fromSorted(part));
        std::vector<TimelineItem>().swap(part);
    }
    return rows;
}

std::vector<TimelineItem> idleGaps(std::span<const TimelineRow* const> busy)
{
    // A k-way merge of the rows by start (each row is sorted), sweeping the union of the ops.
    struct Head {
        std::int64_t startNs;
        std::size_t row;
        std::size_t index;
        bool operator>(const Head& o) const { return startNs > o.startNs; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    for (std::size_t r = 0; r < busy.size(); ++r) {
        if (!busy[r]->empty())
            heads.push({ busy[r]->startNs(0), r, 0 });
    }
    std::vector<TimelineItem> gaps;
    std::optional<std::int64_t> coveredUntil;
    while (!heads.empty()) {
        const Head h = heads.top();
        heads.pop();
        const TimelineRow& row = *busy[h.row];
        if (coveredUntil && h.startNs > *coveredUntil) {
            TimelineItem gap;
            gap.startNs = *coveredUntil;
            gap.endNs = h.startNs;
            gap.kind = TimelineItemKind::IdleGap;
            gaps.push_back(gap);
        }
        coveredUntil = std::max(coveredUntil.value_or(row.endNs(h.index)), row.endNs(h.index));
        if (h.index + 1 < row.size())
            heads.push({ row.startNs(h.index + 1), h.row, h.index + 1 });
    }
    return gaps;
}

} // namespace ridgeline::core
