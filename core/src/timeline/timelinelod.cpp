// SPDX-License-Identifier: MIT
#include "ridgeline/core/timeline/timelinelod.h"

#include "timelinesearch.h"

#include <algorithm>
#include <array>
#include <limits>

namespace ridgeline::core {

namespace {

constexpr std::array<const char*, 6> kLaneKindNames { "idle", "stream", "collectives", "host thread", "NVTX",
    "operators" };

bool isDeviceOpLane(TimelineLaneKind kind)
{
    return kind == TimelineLaneKind::Stream;
}

} // namespace

const char* toString(TimelineLaneKind kind)
{
    const auto i = static_cast<std::size_t>(kind);
    return i < kLaneKindNames.size() ? kLaneKindNames[i] : "?";
}

const TimelineLane& TimelineData::laneOfRow(std::size_t row) const
{
    return m_lanes[m_laneOfRow[row]];
}

const Device* TimelineData::device(std::int64_t deviceId) const
{
    auto it = std::find_if(m_devices.begin(), m_devices.end(), [&](const Device& d) { return d.id == deviceId; });
    return it == m_devices.end() ? nullptr : &*it;
}

std::string_view TimelineData::name(std::int32_t nameIndex) const
{
    if (nameIndex < 0 || static_cast<std::size_t>(nameIndex) >= m_names.size())
        return {};
    return m_names[static_cast<std::size_t>(nameIndex)];
}

std::int64_t TimelineData::kernelNameId(std::int32_t nameIndex) const
{
    if (nameIndex < 0 || static_cast<std::size_t>(nameIndex) >= m_kernelNameIds.size())
        return -1;
    return m_kernelNameIds[static_cast<std::size_t>(nameIndex)];
}

std::size_t TimelineData::itemCount() const
{
    std::size_t n = 0;
    for (const auto& r : m_rows)
        n += r.size();
    return n;
}

std::size_t TimelineData::memoryBytes() const
{
    std::size_t bytes = sizeof(TimelineData);
    for (const auto& r : m_rows)
        bytes += r.memoryBytes();
    bytes += (m_rows.capacity() - m_rows.size()) * sizeof(TimelineRow);
    for (const auto& l : m_lanes)
        bytes += l.label.capacity();
    bytes += m_lanes.capacity() * sizeof(TimelineLane) + m_laneOfRow.capacity() * sizeof(std::uint32_t);
    for (const auto& n : m_names)
        bytes += n.capacity();
    bytes += m_names.capacity() * sizeof(std::string) + m_kernelNameIds.capacity() * sizeof(std::int64_t);
    bytes += m_devices.capacity() * sizeof(Device);
    return bytes;
}

TimelineMarks TimelineData::launchesOf(std::int64_t kernelNameId, std::int64_t deviceId) const
{
    TimelineMarks marks;
    if (kernelNameId < 0)
        return marks;
    std::vector<std::int32_t> wanted; // name indices carrying this kernel name (one, in practice)
    for (std::size_t i = 0; i < m_kernelNameIds.size(); ++i) {
        if (m_kernelNameIds[i] == kernelNameId)
            wanted.push_back(static_cast<std::int32_t>(i));
    }
    if (wanted.empty())
        return marks;
    marks.byRow.resize(m_rows.size());
    std::int64_t earliestStart = std::numeric_limits<std::int64_t>::max();
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const auto& lane = laneOfRow(r);
        if (!isDeviceOpLane(lane.kind) || (deviceId >= 0 && lane.deviceId != deviceId))
            continue;
        const auto& row = m_rows[r];
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto item = row.item(i);
            if (std::find(wanted.begin(), wanted.end(), item.nameIndex) == wanted.end())
                continue;
            marks.byRow[r].push_back(static_cast<std::uint32_t>(i));
            ++marks.count;
            if (item.startNs < earliestStart) {
                earliestStart = item.startNs;
                marks.earliest = TimelineGpuOpRef { static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(i) };
            }
        }
    }
    return marks;
}

std::optional<TimelineGpuOpRef> TimelineData::findKernel(std::int64_t kernelId) const
{
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (!isDeviceOpLane(laneOfRow(r).kind))
            continue;
        const auto& row = m_rows[r];
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto item = row.item(i);
            if (item.sourceId == kernelId
                && (item.kind == TimelineItemKind::Kernel || item.kind == TimelineItemKind::Collective))
                return TimelineGpuOpRef { static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(i) };
        }
    }
    return std::nullopt;
}

std::optional<TimelineGpuOpRef> TimelineData::findHostItem(TimelineLaneKind kind, std::int64_t processId,
    std::int64_t threadId, std::int64_t startNs, std::int64_t sourceId) const
{
    for (const auto& lane : m_lanes) {
        if (lane.kind != kind || lane.processId != processId || lane.threadId != threadId)
            continue;
        if (auto found = detail::itemStartingAt(*this, lane, startNs, sourceId))
            return found;
    }
    return std::nullopt;
}

std::optional<TimelineGpuOpRef> detail::itemStartingAt(
    const TimelineData& data, const TimelineLane& lane, std::int64_t startNs, std::int64_t sourceId)
{
    for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
        // itemAt gives the last item starting at or before startNs: walk back over the items that
        // start on the same ns (instants, or identical times in µs traces).
        const auto& row = data.row(r);
        for (auto index = row.itemAt(startNs); index && row.startNs(*index) == startNs; --*index) {
            if (row.sourceId(*index) == sourceId)
                return TimelineGpuOpRef { r, *index };
            if (*index == 0)
                break;
        }
    }
    return std::nullopt;
}

std::int32_t TimelineDataBuilder::addName(std::string_view name, std::int64_t kernelNameId)
{
    // Kernel names are told apart by their id (two mangled names may demangle alike).
    if (kernelNameId >= 0) {
        if (auto it = m_kernelNameIndex.find(kernelNameId); it != m_kernelNameIndex.end())
            return it->second;
    } else if (auto it = m_nameIndex.find(std::string(name)); it != m_nameIndex.end()) {
        return it->second;
    }
    const auto index = static_cast<std::int32_t>(m_data.m_names.size());
    m_data.m_names.emplace_back(name);
    m_data.m_kernelNameIds.push_back(kernelNameId);
    if (kernelNameId >= 0)
        m_kernelNameIndex.emplace(kernelNameId, index);
    else
        m_nameIndex.emplace(std::string(name), index);
    return index;
}

void TimelineDataBuilder::addLane(TimelineLane lane, std::vector<TimelineItem> items)
{
    addLane(std::move(lane), layoutRows(items));
}

void TimelineDataBuilder::addLane(TimelineLane lane, std::vector<TimelineRow> rows)
{
    std::erase_if(rows, [](const TimelineRow& r) { return r.empty(); });
    if (rows.empty())
        return;
    lane.firstRow = static_cast<std::uint32_t>(m_data.m_rows.size());
    lane.rowCount = static_cast<std::uint32_t>(rows.size());
    auto& extent = m_data.m_extent;
    for (auto& row : rows) {
        const std::int64_t start = row.startNs(0);
        const std::int64_t end = row.endNs(row.size() - 1); // ends are in order within a row
        const bool first = m_data.m_rows.empty();
        extent.startNs = first ? start : std::min(extent.startNs, start);
        extent.endNs = first ? end : std::max(extent.endNs, end);
        m_data.m_laneOfRow.push_back(static_cast<std::uint32_t>(m_data.m_lanes.size()));
        m_data.m_rows.push_back(std::move(row));
    }
    m_data.m_lanes.push_back(std::move(lane));
}

TimelineData TimelineDataBuilder::finish()
{
    m_data.m_rows.shrink_to_fit();
    m_data.m_lanes.shrink_to_fit();
    m_data.m_laneOfRow.shrink_to_fit();
    m_data.m_names.shrink_to_fit();
    m_data.m_kernelNameIds.shrink_to_fit();
    m_nameIndex.clear();
    m_kernelNameIndex.clear();
    return std::move(m_data);
}

} // namespace ridgeline::core
