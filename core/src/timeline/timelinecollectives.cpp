// SPDX-License-Identifier: MIT
#include "ridgeline/core/timeline/timelinecollectives.h"

#include "timelinesearch.h"

#include <fmt/format.h>

namespace ridgeline::core {

namespace {

std::string laneLabel(const TimelineData& data, const TimelineLane& lane)
{
    const Device* device = data.device(lane.deviceId);
    const std::string gpu = device ? fmt::format("GPU {}", device->ordinal) : fmt::format("device {}", lane.deviceId);
    return lane.rank >= 0 ? fmt::format("rank {} · {}", lane.rank, gpu) : gpu;
}

} // namespace

RankTimeMap collectiveTimeMap(const TimelineData& data, int bins)
{
    RankTimeMap map(data.extent(), bins);
    for (const auto& lane : data.lanes()) {
        if (lane.kind != TimelineLaneKind::Collectives)
            continue;
        std::vector<TimeInterval> intervals;
        for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
            const auto& row = data.row(r);
            for (std::size_t i = 0; i < row.size(); ++i)
                intervals.push_back({ row.startNs(i), row.endNs(i) });
        }
        map.addRow({ laneLabel(data, lane), lane.rank, lane.deviceId }, std::move(intervals));
    }
    return map;
}

std::optional<TimelineGpuOpRef> findCollectiveOp(
    const TimelineData& data, int rank, std::int64_t commOpId, std::int64_t startNs)
{
    for (const auto& lane : data.lanes()) {
        if (lane.kind != TimelineLaneKind::Collectives || (rank >= 0 && lane.rank != rank))
            continue;
        if (auto found = detail::itemStartingAt(data, lane, startNs, commOpId))
            return found;
    }
    return std::nullopt;
}

} // namespace ridgeline::core
