// SPDX-License-Identifier: MIT
// One row of a timeline lane, stored as columns, with the level-of-detail query that drawing uses
// (ARCHITECTURE §5): for a window drawn on N pixel columns it returns at most one item per
// column, a single op when it is alone in its column or a merged "N ops" item otherwise, in
// O(columns · log n) — never a walk over the ops in view — so every zoom level paints in the
// same time. The pixel maths (PixelGrid) is exact integer arithmetic, shared with the tests.
#pragma once

#include "ridgeline/core/timeline/timeline.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ridgeline::core {

// Operator: a PyTorch operator (cpu_op or python_function) on its host thread (issue 17).
enum class TimelineItemKind : std::uint8_t { Kernel, Collective, Memcpy, Memset, ApiCall, NvtxRange, IdleGap, Operator };
inline constexpr std::size_t kTimelineItemKindCount = 8;
const char* toString(TimelineItemKind kind);

// One item as loaded, before it is stored in a row.
struct TimelineItem {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0; // >= startNs; == startNs for an instant (an NVTX mark)
    std::int64_t sourceId = -1; // kernels.id, memops.id, comm_ops.id, api_calls.id, nvtx_ranges.id, operator id; -1: none
    std::int32_t nameIndex = -1; // into TimelineData's names; -1: none
    TimelineItemKind kind = TimelineItemKind::Kernel;
    VerdictClass verdict = VerdictClass::Unknown;
};

// The pixel columns of a view of `window` that is `pixels` wide: column c covers
// [startOf(c), startOf(c + 1)); columnOf(t) = floor((t - window.start) · pixels / window length).
class PixelGrid {
public:
    // An empty window or pixels < 1 is made one ns / one pixel wide.
    PixelGrid(TimeWindow window, int pixels);

    const TimeWindow& window() const { return m_window; }
    int pixels() const { return m_pixels; }
    // Negative before the window, >= pixels() after it.
    std::int64_t columnOf(std::int64_t t) const;
    // The first ns that lies in column c or after it.
    std::int64_t startOf(std::int64_t column) const;
    double nsPerPixel() const;

private:
    TimeWindow m_window;
    int m_pixels;
};

// What the view draws for one pixel column (or a run of columns, for a long op).
struct LodItem {
    std::int64_t startNs = 0; // the op's; merged: the first op's start
    std::int64_t endNs = 0; // the op's; merged: the latest end of the ops merged
    std::uint32_t first = 0; // row index of the op, or of the first op merged
    std::uint32_t count = 0; // ops in the item; 1: a single op
    // The op's; merged: the kind and the verdict holding the most time among the ops (each op
    // weighs its duration + 1 ns so that instants count; ties go to the lower enum value).
    TimelineItemKind kind = TimelineItemKind::Kernel;
    VerdictClass verdict = VerdictClass::Unknown;
};

// Items that never overlap (each ends at or before the next one starts), in start order.
class TimelineRow {
public:
    TimelineRow() = default;
    // `items` must be sorted by start and must not overlap (layoutRows makes such rows).
    static TimelineRow fromSorted(std::span<const TimelineItem> items);

    std::size_t size() const { return m_start.size(); }
    bool empty() const { return m_start.empty(); }
    std::int64_t startNs(std::size_t i) const { return m_start[i]; }
    std::int64_t endNs(std::size_t i) const { return m_end[i]; }
    std::int64_t sourceId(std::size_t i) const { return m_source[i]; }
    std::int32_t nameIndex(std::size_t i) const { return m_name[i]; }
    TimelineItemKind kind(std::size_t i) const { return static_cast<TimelineItemKind>(m_style[i] & 0x0FU); }
    TimelineItem item(std::size_t i) const;

    // Appends the level of detail of `grid` to `out`: one LodItem per pixel column that holds the
    // start of an op overlapping the window (an op that began before the window counts in column 0),
    // in time order; every op in the window is in exactly one item. At most grid.pixels() items.
    void lod(const PixelGrid& grid, std::vector<LodItem>& out) const;
    // The same over a subset of the row (ascending indices, e.g. the launches of one kernel); the
    // items carry the first op's kind and verdict.
    void lod(const PixelGrid& grid, std::span<const std::uint32_t> subset, std::vector<LodItem>& out) const;

    // The op under time t, or else the nearest one at most `toleranceNs` away (hovering).
    std::optional<std::uint32_t> itemAt(std::int64_t t, std::int64_t toleranceNs = 0) const;
    std::size_t memoryBytes() const;

private:
    static constexpr std::size_t kBlock = 32; // ops per stored prefix sum
    static constexpr std::size_t kCategories = kVerdictClassCount + kTimelineItemKindCount;
    using Sums = std::array<std::int64_t, kCategories>;
    void addRange(std::size_t from, std::size_t to, Sums& sums, std::int64_t sign) const;
    Sums prefix(std::size_t end) const; // per category, the weight of ops [0, end)
    struct PrefixCache {
        std::size_t index = static_cast<std::size_t>(-1);
        Sums sums {};
    };
    LodItem merged(std::size_t first, std::size_t last, PrefixCache& cache) const; // ops [first, last)
    // The first op at or after `from` that starts at or after t.
    std::size_t firstStartingAt(std::size_t from, std::int64_t t) const;
    void prefetch(std::size_t i) const; // the cache lines the walk will read around op i

    std::vector<std::int64_t> m_start;
    std::vector<std::int64_t> m_end;
    std::vector<std::int64_t> m_source;
    std::vector<std::int32_t> m_name;
    std::vector<std::uint8_t> m_style; // kind | verdict << 4
    std::vector<std::int64_t> m_blockSums; // kCategories per block: prefix weight up to min(kBlock·b, size)
    std::vector<std::int64_t> m_blockStart; // start of op kBlock·b: a dense index for the searches
};

// Splits items into rows in which no two overlap: first fit in start order (the longer first when
// two start together), so nested ranges land on their nesting depth. Sorts `items`; clamps times to
// ±2^61 ns and ends to at least their start (only broken files have anything else).
std::vector<TimelineRow> layoutRows(std::vector<TimelineItem>& items);

// The idle gaps of a device: the stretches between its first op's start and its last op's end in
// which no op of `busy` (the rows of its streams) runs, as IdleGap items in time order.
std::vector<TimelineItem> idleGaps(std::span<const TimelineRow* const> busy);

} // namespace ridgeline::core
