// SPDX-License-Identifier: MIT
#include "timelinelayout.h"

#include <QCoreApplication>
#include <algorithm>
#include <optional>

namespace ridgeline::ui {

namespace {

QString layoutTr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::TimelineLayout", text);
}

bool isDeviceLane(core::TimelineLaneKind kind)
{
    return kind == core::TimelineLaneKind::Idle || kind == core::TimelineLaneKind::Stream
        || kind == core::TimelineLaneKind::Collectives;
}

QString groupLabel(const core::TimelineData& data, const core::TimelineLane& lane)
{
    if (!isDeviceLane(lane.kind))
        return layoutTr("Host");
    const core::Device* device = data.device(lane.deviceId);
    if (!device)
        return layoutTr("GPU (device %1)").arg(lane.deviceId);
    QString label = layoutTr("GPU %1").arg(device->ordinal);
    if (!device->name.empty())
        label += QStringLiteral(" · ") + QString::fromStdString(device->name);
    if (!device->host.empty())
        label += QStringLiteral(" · ") + QString::fromStdString(device->host);
    return label;
}

} // namespace

void TimelineLayout::build(const core::TimelineData* data)
{
    m_bands.clear();
    m_bandOfRow.clear();
    m_height = 0;
    if (!data)
        return;
    m_bandOfRow.assign(data->rowCount(), 0);
    const auto& lanes = data->lanes();
    const bool ranked = std::any_of(lanes.begin(), lanes.end(), [](const auto& l) { return l.rank >= 0; });
    std::optional<int> rank;
    std::optional<std::int64_t> group; // device id, or -1 for the host
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t openIdle = kNone; // the idle band of the current device
    auto add = [&](TimelineBand band) {
        band.y = m_height;
        m_height += band.height;
        m_bands.push_back(std::move(band));
    };
    auto closeGroup = [&] {
        if (openIdle != kNone)
            m_bands[openIdle].groupEnd = m_height;
        openIdle = kNone;
    };
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const auto& lane = lanes[l];
        const std::int64_t groupKey = isDeviceLane(lane.kind) ? lane.deviceId : -1;
        if (ranked && rank != lane.rank) {
            closeGroup();
            add({ TimelineBand::Kind::RankHeader, 0, kRankHeaderHeight,
                lane.rank >= 0 ? layoutTr("Rank %1").arg(lane.rank) : layoutTr("No rank") });
            group.reset();
        }
        rank = lane.rank;
        if (group != groupKey) {
            closeGroup();
            add({ TimelineBand::Kind::GroupHeader, 0, kGroupHeaderHeight, groupLabel(*data, lane) });
            group = groupKey;
        }
        const bool idle = lane.kind == core::TimelineLaneKind::Idle;
        const int height = idle ? kIdleRowHeight : isDeviceLane(lane.kind) ? kDeviceRowHeight : kHostRowHeight;
        for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
            TimelineBand band { TimelineBand::Kind::Row, 0, height,
                r == lane.firstRow ? QString::fromStdString(lane.label) : QString(), r, l, idle };
            if (idle)
                openIdle = m_bands.size();
            m_bandOfRow[r] = m_bands.size();
            add(std::move(band));
        }
    }
    closeGroup();
}

std::size_t TimelineLayout::firstBandBelow(int y) const
{
    return static_cast<std::size_t>(std::partition_point(m_bands.begin(), m_bands.end(), [&](const TimelineBand& b) {
        return b.bottom() <= y;
    }) - m_bands.begin());
}

const TimelineBand* TimelineLayout::bandAt(int y) const
{
    const std::size_t i = firstBandBelow(y);
    if (i >= m_bands.size() || m_bands[i].y > y)
        return nullptr;
    return &m_bands[i];
}

const TimelineBand* TimelineLayout::bandOfRow(std::uint32_t row) const
{
    return row < m_bandOfRow.size() ? &m_bands[m_bandOfRow[row]] : nullptr;
}

} // namespace ridgeline::ui
