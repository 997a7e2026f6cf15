// SPDX-License-Identifier: MIT
// A rank x time heat map as plain data: one row per rank (and device), equal time bins across a
// window, and per cell the share of the bin that the row's intervals cover (0..1; overlapping
// intervals count once). Nsight Systems' `nccl_gpu_time_util_map` recipe draws such a map of
// communication time; the Communication page draws time in collectives with it, and any other
// per-rank figure that is a set of intervals (busy, idle, compute) fits the same map.
#pragma once

#include "ridgeline/core/timeline/timeline.h"
#include "ridgeline/core/timeline/timelinerow.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::core {

struct TimeMapRow {
    std::string label; // "rank 1 · GPU 0"
    int rank = -1; // -1: not part of a job
    std::int64_t deviceId = -1; // -1: none
};

struct TimeInterval {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

class RankTimeMap {
public:
    RankTimeMap() = default;
    // `bins` >= 1 equal bins across `window` (an empty window is made 1 ns long); bin b holds the
    // times PixelGrid(window, bins) puts in column b.
    RankTimeMap(TimeWindow window, int bins);

    // Appends a row covering `intervals` (any order; they may overlap; parts outside the window are
    // cut off). Returns its index.
    std::size_t addRow(TimeMapRow row, std::vector<TimeInterval> intervals);

    const TimeWindow& window() const { return m_grid.window(); }
    int bins() const { return m_grid.pixels(); }
    std::size_t rowCount() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    const TimeMapRow& row(std::size_t index) const { return m_rows[index]; }
    // Share of bin `bin` covered in row `row`, 0..1.
    double value(std::size_t row, int bin) const;
    // Share of the whole window covered in row `row`, 0..1.
    double rowShare(std::size_t row) const;
    // The time bin `bin` covers: [start, end).
    TimeWindow binWindow(int bin) const;
    // The bin holding time t, clamped to [0, bins - 1].
    int binOf(std::int64_t t) const;

private:
    PixelGrid m_grid { { 0, 1 }, 1 };
    std::vector<TimeMapRow> m_rows;
    std::vector<double> m_values; // rows x bins
    std::vector<std::int64_t> m_covered; // per row, ns inside the window
};

} // namespace ridgeline::core
