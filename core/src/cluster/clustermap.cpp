// SPDX-License-Identifier: MIT
#include "ridgeline/core/cluster/clustermap.h"

#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace ridgeline::core {

namespace {

// The rank's time of `value` as spans, one per activity bin.
std::vector<TimeInterval> spansOf(const RankSummary& rank, ClusterMapValue value)
{
    const auto& a = rank.activity;
    std::vector<TimeInterval> out;
    std::int64_t binStart = a.startNs;
    for (std::size_t b = 0; b < a.busyNs.size(); ++b, binStart = saturatingAdd(binStart, a.binNs)) {
        const std::int64_t binEnd = std::min(saturatingAdd(binStart, a.binNs), rank.endNs);
        switch (value) {
        case ClusterMapValue::Busy:
            out.push_back({ binStart, saturatingAdd(binStart, a.busyNs[b]) });
            break;
        case ClusterMapValue::Communication:
            out.push_back({ binStart, saturatingAdd(binStart, a.communicationNs[b]) });
            break;
        case ClusterMapValue::Idle:
            out.push_back({ std::min(saturatingAdd(binStart, a.busyNs[b]), binEnd), binEnd });
            break;
        }
    }
    return out;
}

} // namespace

RankTimeMap clusterActivityMap(const ClusterReport& report, ClusterMapValue value, int bins)
{
    std::int64_t start = std::numeric_limits<std::int64_t>::max(), end = std::numeric_limits<std::int64_t>::min();
    for (const auto& row : report.ranks) {
        if (row.summary.activity.binNs <= 0)
            continue;
        start = std::min(start, row.summary.activity.startNs);
        end = std::max(end, row.summary.endNs);
    }
    if (start > end)
        return {};
    RankTimeMap map({ start, std::max(end, saturatingAdd(start, 1)) }, std::max(bins, 1));
    for (const auto& row : report.ranks) {
        const auto& s = row.summary;
        TimeMapRow label {
            s.host.empty() ? fmt::format("rank {}", s.rank) : fmt::format("rank {} · {}", s.rank, s.host), s.rank, -1
        };
        map.addRow(std::move(label), s.activity.binNs > 0 ? spansOf(s, value) : std::vector<TimeInterval> {});
    }
    return map;
}

} // namespace ridgeline::core
