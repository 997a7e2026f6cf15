// SPDX-License-Identifier: MIT
// The vertical layout of the timeline: bands from top to bottom — a header per rank, a header per
// device (and one for the host threads), then one band per row of each lane. Heights are fixed, so
// the layout changes only with the data; finding the bands in view is a binary search.
#pragma once

#include "ridgeline/core/timeline/timelinelod.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace ridgeline::ui {

struct TimelineBand {
    enum class Kind : std::uint8_t { RankHeader, GroupHeader, Row };
    Kind kind = Kind::Row;
    int y = 0; // content coordinates, 0 = the top of the first band
    int height = 0;
    QString label; // headers; the lane's label on the first row of a lane
    std::uint32_t row = 0; // Row: the TimelineData row
    std::uint32_t lane = 0; // Row: its lane
    bool idle = false; // Row: the idle gaps of a device
    int groupEnd = 0; // idle Row: where the bands of its device end (the idle tint goes down to it)
    int bottom() const { return y + height; }
};

class TimelineLayout {
public:
    static constexpr int kRankHeaderHeight = 22;
    static constexpr int kGroupHeaderHeight = 20;
    static constexpr int kIdleRowHeight = 12;
    static constexpr int kDeviceRowHeight = 20;
    static constexpr int kHostRowHeight = 16;

    void build(const core::TimelineData* data);
    const std::vector<TimelineBand>& bands() const { return m_bands; }
    int height() const { return m_height; }
    // The first band whose bottom is below y (bands().size() when none).
    std::size_t firstBandBelow(int y) const;
    const TimelineBand* bandAt(int y) const;
    const TimelineBand* bandOfRow(std::uint32_t row) const;

private:
    std::vector<TimelineBand> m_bands;
    std::vector<std::size_t> m_bandOfRow;
    int m_height = 0;
};

} // namespace ridgeline::ui
