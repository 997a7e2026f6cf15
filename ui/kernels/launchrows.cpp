// SPDX-License-Identifier: MIT
#include "launchrows.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace ridgeline::ui {

namespace {

using core::TimelineData;
using core::TimelineItemKind;
using core::TimelineRow;

// The kernel summary of a timeline name on a device, memoised per device by name index.
class SummaryLookup {
public:
    SummaryLookup(const TimelineData& timeline, const std::vector<core::KernelSummary>& summaries)
        : m_timeline(timeline)
    {
        for (std::size_t i = 0; i < summaries.size(); ++i)
            m_summaryOf.emplace(std::pair(summaries[i].nameId, summaries[i].deviceId), static_cast<std::int32_t>(i));
    }

    // The memo of one device, for of(): references stay valid as devices are added.
    std::vector<std::int32_t>& memoOf(std::int64_t deviceId) { return m_memo[deviceId]; }

    // The summary of item `i` of `row` (a row of a Stream lane on `deviceId`); -1 when the item
    // is not a kernel launch or its kernel has no summary on that device.
    std::int32_t of(const TimelineRow& row, std::size_t i, std::int64_t deviceId, std::vector<std::int32_t>& memo) const
    {
        const auto kind = row.kind(i);
        const auto nameIndex = row.nameIndex(i);
        if ((kind != TimelineItemKind::Kernel && kind != TimelineItemKind::Collective) || row.sourceId(i) < 0
            || nameIndex < 0)
            return -1;
        const auto n = static_cast<std::size_t>(nameIndex);
        if (n >= memo.size())
            memo.resize(n + 1, kUnknown);
        if (memo[n] == kUnknown) {
            const auto it = m_summaryOf.find(std::pair(m_timeline.kernelNameId(nameIndex), deviceId));
            memo[n] = it == m_summaryOf.end() ? -1 : it->second;
        }
        return memo[n];
    }

private:
    static constexpr std::int32_t kUnknown = -2;
    const TimelineData& m_timeline;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> m_summaryOf;
    std::unordered_map<std::int64_t, std::vector<std::int32_t>> m_memo;
};

// One Stream row being merged: its next launch.
struct Cursor {
    std::int64_t startNs = 0;
    std::uint32_t row = 0;
    std::uint32_t index = 0;
    std::int32_t summary = -1;
    std::int64_t deviceId = -1;
    std::vector<std::int32_t>* memo = nullptr;
};

// Min-heap order: earliest start first, then the lower row (indices of one row are in order).
bool later(const Cursor& a, const Cursor& b)
{
    return a.startNs != b.startNs ? a.startNs > b.startNs : a.row > b.row;
}

class Poll {
public:
    explicit Poll(const std::function<bool()>& cancelled)
        : m_cancelled(cancelled)
    { }
    // True once the caller cancelled; asks at the first item and every 65536 after it.
    bool stop()
    {
        if (m_stopped || !m_cancelled || (m_seen++ % 65536) != 0)
            return m_stopped;
        m_stopped = m_cancelled();
        return m_stopped;
    }
    bool stopped() const { return m_stopped; }

private:
    const std::function<bool()>& m_cancelled;
    std::size_t m_seen = 0;
    bool m_stopped = false;
};

} // namespace

core::Result<std::vector<LaunchRow>> launchRows(const core::TimelineData& timeline,
    const std::vector<core::KernelSummary>& summaries, const std::function<bool()>& cancelled)
{
    SummaryLookup lookup(timeline, summaries);
    Poll poll(cancelled);
    // Each Stream row is in start order: count its launches and find its first one.
    std::vector<Cursor> heap;
    std::size_t total = 0;
    for (std::size_t r = 0; r < timeline.rowCount(); ++r) {
        const auto& lane = timeline.laneOfRow(r);
        if (lane.kind != core::TimelineLaneKind::Stream)
            continue;
        const auto& row = timeline.row(r);
        auto& memo = lookup.memoOf(lane.deviceId);
        std::optional<Cursor> first;
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (poll.stop())
                break;
            const auto summary = lookup.of(row, i, lane.deviceId, memo);
            if (summary < 0)
                continue;
            ++total;
            if (!first) {
                first = Cursor { row.startNs(i), static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(i), summary,
                    lane.deviceId, &memo };
            }
        }
        if (first)
            heap.push_back(*first);
    }
    std::make_heap(heap.begin(), heap.end(), later);

    // Merge the rows: the launches come out in start order.
    std::vector<LaunchRow> rows;
    rows.reserve(total);
    while (!heap.empty() && !poll.stop()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor& c = heap.back();
        rows.push_back({ { c.row, c.index }, c.summary });
        const auto& row = timeline.row(c.row);
        std::size_t i = c.index + 1;
        std::int32_t summary = -1;
        while (i < row.size() && (summary = lookup.of(row, i, c.deviceId, *c.memo)) < 0)
            ++i;
        if (i == row.size()) {
            heap.pop_back();
            continue;
        }
        c.startNs = row.startNs(i);
        c.index = static_cast<std::uint32_t>(i);
        c.summary = summary;
        std::push_heap(heap.begin(), heap.end(), later);
    }
    if (poll.stopped())
        return core::makeError(core::ErrorCode::InvalidArgument, "Listing the launches was cancelled.");
    return rows;
}

} // namespace ridgeline::ui
