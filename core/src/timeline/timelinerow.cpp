// SPDX-License-Identifier: MIT
#include "ridgeline/core/timeline/timelinerow.h"

#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <array>
#include <limits>

namespace ridgeline::core {

namespace {

__extension__ using Int128 = __int128;

constexpr std::array<const char*, kTimelineItemKindCount> kKindNames { "kernel", "collective", "memcpy", "memset",
    "API call", "NVTX range", "idle gap", "operator" };

std::uint8_t styleOf(TimelineItemKind kind, VerdictClass verdict)
{
    return static_cast<std::uint8_t>(static_cast<unsigned>(kind) | (static_cast<unsigned>(verdict) << 4U));
}
TimelineItemKind kindOf(std::uint8_t style)
{
    return static_cast<TimelineItemKind>(style & 0x0FU);
}
VerdictClass verdictOf(std::uint8_t style)
{
    return static_cast<VerdictClass>(style >> 4U);
}

// The first i in [from, n) with pred(i), pred being false then true; n when none. Galloping from
// `from`: the answer is usually near, and its neighbourhood cached.
template <typename Pred> std::size_t gallop(std::size_t from, std::size_t n, Pred pred)
{
    std::size_t lo = from, hi = from, step = 1;
    while (hi < n && !pred(hi)) {
        lo = hi + 1;
        hi = lo + step;
        step *= 2;
    }
    hi = std::min(hi, n);
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (pred(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// floor(a / b) for b > 0.
std::int64_t floorDiv(Int128 a, Int128 b)
{
    Int128 q = a / b;
    if (a % b != 0 && a < 0)
        --q;
    return static_cast<std::int64_t>(q);
}

} // namespace

const char* toString(TimelineItemKind kind)
{
    const auto i = static_cast<std::size_t>(kind);
    return i < kKindNames.size() ? kKindNames[i] : "?";
}

PixelGrid::PixelGrid(TimeWindow window, int pixels)
    : m_window(window)
    , m_pixels(std::max(pixels, 1))
{
    // Within ±(2^62 - 1) the window's length fits in int64 (item times are within ±2^61).
    constexpr std::int64_t limit = (std::int64_t { 1 } << 62) - 1;
    m_window.startNs = std::clamp(m_window.startNs, -limit, limit - 1);
    m_window.endNs = std::clamp(m_window.endNs, -limit, limit);
    if (m_window.endNs <= m_window.startNs)
        m_window.endNs = m_window.startNs + 1;
}

std::int64_t PixelGrid::columnOf(std::int64_t t) const
{
    // 64-bit arithmetic when it cannot overflow (windows shorter than ~50 days on 2000 pixels and t
    // near the window); 128-bit otherwise.
    const std::int64_t length = saturatingSub(m_window.endNs, m_window.startNs);
    std::int64_t offset = 0;
    if (length <= std::numeric_limits<std::int64_t>::max() / 4 / m_pixels
        && !__builtin_sub_overflow(t, m_window.startNs, &offset) && offset >= -length && offset <= 2 * length) {
        const std::int64_t scaled = offset * m_pixels;
        return scaled >= 0 ? scaled / length : -((-scaled + length - 1) / length);
    }
    return floorDiv((Int128(t) - m_window.startNs) * m_pixels, Int128(length));
}

std::int64_t PixelGrid::startOf(std::int64_t column) const
{
    // The smallest t with columnOf(t) >= column: start + ceil(column · length / pixels).
    const std::int64_t length = saturatingSub(m_window.endNs, m_window.startNs);
    if (column >= 0 && column <= 2 * static_cast<std::int64_t>(m_pixels)
        && length <= std::numeric_limits<std::int64_t>::max() / 4 / m_pixels)
        return m_window.startNs + (column * length + m_pixels - 1) / m_pixels;
    return m_window.startNs - floorDiv(-(Int128(column) * length), m_pixels);
}

double PixelGrid::nsPerPixel() const
{
    return static_cast<double>(saturatingSub(m_window.endNs, m_window.startNs)) / m_pixels;
}

TimelineRow TimelineRow::fromSorted(std::span<const TimelineItem> items)
{
    TimelineRow row;
    const std::size_t n = items.size();
    row.m_start.reserve(n);
    row.m_end.reserve(n);
    row.m_source.reserve(n);
    row.m_name.reserve(n);
    row.m_style.reserve(n);
    const std::size_t blocks = (n + kBlock - 1) / kBlock + 1;
    row.m_blockSums.assign(blocks * kCategories, 0);
    row.m_blockStart.reserve(blocks - 1);
    Sums running {};
    for (std::size_t i = 0; i < n; ++i) {
        if (i % kBlock == 0)
            row.m_blockStart.push_back(items[i].startNs);
        if (i % kBlock == 0)
            std::copy(running.begin(), running.end(),
                row.m_blockSums.begin() + static_cast<std::ptrdiff_t>(i / kBlock * kCategories));
        const auto& it = items[i];
        row.m_start.push_back(it.startNs);
        row.m_end.push_back(std::max(it.endNs, it.startNs));
        row.m_source.push_back(it.sourceId);
        row.m_name.push_back(it.nameIndex);
        row.m_style.push_back(styleOf(it.kind, it.verdict));
        const std::int64_t weight = saturatingAdd(saturatingSub(row.m_end.back(), it.startNs), 1);
        running[static_cast<std::size_t>(it.verdict)] += weight;
        running[kVerdictClassCount + static_cast<std::size_t>(it.kind)] += weight;
    }
    std::copy(running.begin(), running.end(), row.m_blockSums.end() - static_cast<std::ptrdiff_t>(kCategories));
    return row;
}

TimelineItem TimelineRow::item(std::size_t i) const
{
    return { m_start[i], m_end[i], m_source[i], m_name[i], kindOf(m_style[i]), verdictOf(m_style[i]) };
}

void TimelineRow::addRange(std::size_t from, std::size_t to, Sums& sums, std::int64_t sign) const
{
    for (std::size_t i = from; i < to; ++i) {
        const std::int64_t weight = sign * (m_end[i] - m_start[i] + 1);
        sums[static_cast<std::size_t>(verdictOf(m_style[i]))] += weight;
        sums[kVerdictClassCount + static_cast<std::size_t>(kindOf(m_style[i]))] += weight;
    }
}

TimelineRow::Sums TimelineRow::prefix(std::size_t end) const
{
    // From the nearer stored block boundary: at most kBlock / 2 ops are read.
    std::size_t block = end / kBlock;
    const std::size_t lastBlock = m_blockSums.size() / kCategories - 1;
    if (end % kBlock > kBlock / 2 && block + 1 <= lastBlock)
        ++block;
    Sums sums {};
    std::copy_n(m_blockSums.begin() + static_cast<std::ptrdiff_t>(block * kCategories), kCategories, sums.begin());
    const std::size_t boundary = std::min(block * kBlock, size());
    if (boundary <= end)
        addRange(boundary, end, sums, 1);
    else
        addRange(end, boundary, sums, -1);
    return sums;
}

LodItem TimelineRow::merged(std::size_t first, std::size_t last, PrefixCache& cache) const
{
    Sums sums {};
    if (last - first <= kBlock) {
        addRange(first, last, sums, 1);
    } else {
        // Columns follow one another: this column's start is usually the previous one's end.
        const Sums a = cache.index == first ? cache.sums : prefix(first);
        cache.sums = prefix(last);
        cache.index = last;
        sums = cache.sums;
        for (std::size_t c = 0; c < kCategories; ++c)
            sums[c] -= a[c];
    }
    const auto verdictEnd = sums.begin() + static_cast<std::ptrdiff_t>(kVerdictClassCount);
    LodItem item;
    item.startNs = m_start[first];
    item.endNs = m_end[last - 1]; // the rows do not overlap, so ends are in order too
    item.first = static_cast<std::uint32_t>(first);
    item.count = static_cast<std::uint32_t>(last - first);
    item.verdict = static_cast<VerdictClass>(std::max_element(sums.begin(), verdictEnd) - sums.begin());
    item.kind = static_cast<TimelineItemKind>(std::max_element(verdictEnd, sums.end()) - verdictEnd);
    return item;
}

void TimelineRow::prefetch(std::size_t i) const
{
    // The block of starts the search will bisect (kBlock · 8 bytes: 4 cache lines), and the rest.
    const std::size_t block = i / kBlock * kBlock;
    for (std::size_t j = block; j < std::min(block + kBlock, size()); j += 8)
        __builtin_prefetch(&m_start[j]);
    __builtin_prefetch(&m_end[i]);
    __builtin_prefetch(&m_style[i]);
    __builtin_prefetch(&m_blockSums[i / kBlock * kCategories]);
    __builtin_prefetch(&m_blockSums[i / kBlock * kCategories + 8]);
    __builtin_prefetch(&m_blockStart[i / kBlock]);
}

std::size_t TimelineRow::firstStartingAt(std::size_t from, std::int64_t t) const
{
    const std::size_t n = size();
    if (from >= n || m_start[from] >= t)
        return from;
    // Gallop over the block starts (a dense array, 1/kBlock of the ops), then search one block.
    const std::size_t blocks = m_blockStart.size();
    const std::size_t b0 = from / kBlock + 1;
    const std::size_t b = gallop(b0, blocks, [&](std::size_t i) { return m_blockStart[i] >= t; });
    const std::size_t lo = b > b0 ? std::max(from + 1, (b - 1) * kBlock + 1) : from + 1;
    const std::size_t hi = b < blocks ? b * kBlock : n;
    return static_cast<std::size_t>(std::lower_bound(m_start.begin() + static_cast<std::ptrdiff_t>(lo),
                                        m_start.begin() + static_cast<std::ptrdiff_t>(hi), t)
        - m_start.begin());
}

namespace {

// The level-of-detail walk over positions [0, n) of a sorted, non-overlapping sequence; start(k)
// and end(k) give the times of position k, next(from, t) the first position >= from whose start is
// >= t; emit(first, last) receives each column's positions.
template <typename Start, typename End, typename Next, typename Emit>
void walkColumns(const PixelGrid& grid, std::size_t n, Start start, End end, Next next, Emit emit)
{
    const std::int64_t t0 = grid.window().startNs;
    const std::int64_t t1 = grid.window().endNs;
    // The first op overlapping the window, or an instant at its start.
    std::size_t k = std::min(gallop(0, n, [&](std::size_t i) { return end(i) > t0; }),
        gallop(0, n, [&](std::size_t i) { return start(i) >= t0; }));
    while (k < n && start(k) < t1) {
        const std::int64_t column = start(k) <= t0 ? 0 : grid.columnOf(start(k));
        const std::size_t j = next(k + 1, grid.startOf(column + 1));
        emit(k, j);
        k = j;
    }
}

} // namespace

void TimelineRow::lod(const PixelGrid& grid, std::vector<LodItem>& out) const
{
    PrefixCache cache;
    walkColumns(
        grid, size(), [this](std::size_t i) { return m_start[i]; }, [this](std::size_t i) { return m_end[i]; },
        [this](std::size_t from, std::int64_t t) { return firstStartingAt(from, t); },
        [&](std::size_t first, std::size_t last) {
            // Zoomed out, each column starts far from the last one: fetch where the next column
            // probably ends while this one is worked out (the walk waits on memory, not on arithmetic).
            if (const std::size_t ahead = 2 * last - first; last - first > kBlock && ahead < size())
                prefetch(ahead);
            if (last - first == 1) {
                out.push_back({ m_start[first], m_end[first], static_cast<std::uint32_t>(first), 1,
                    kindOf(m_style[first]), verdictOf(m_style[first]) });
            } else {
                out.push_back(merged(first, last, cache));
            }
        });
}

void TimelineRow::lod(const PixelGrid& grid, std::span<const std::uint32_t> subset, std::vector<LodItem>& out) const
{
    const auto start = [&](std::size_t k) { return m_start[subset[k]]; };
    walkColumns(
        grid, subset.size(), start, [&](std::size_t k) { return m_end[subset[k]]; },
        [&](std::size_t from, std::int64_t t) {
            return gallop(from, subset.size(), [&](std::size_t k) { return start(k) >= t; });
        },
        [&](std::size_t first, std::size_t last) {
            const std::uint32_t i = subset[first];
            out.push_back({ m_start[i], m_end[subset[last - 1]], i, static_cast<std::uint32_t>(last - first),
                kindOf(m_style[i]), verdictOf(m_style[i]) });
        });
}

std::optional<std::uint32_t> TimelineRow::itemAt(std::int64_t t, std::int64_t toleranceNs) const
{
    t = std::clamp(t, -(std::int64_t { 1 } << 62), std::int64_t { 1 } << 62); // item times are within ±2^61
    // The last op starting at or before t, and the one after it.
    const auto after = std::upper_bound(m_start.begin(), m_start.end(), t);
    const auto next = static_cast<std::size_t>(after - m_start.begin());
    std::optional<std::uint32_t> best;
    std::int64_t bestDistance = std::numeric_limits<std::int64_t>::max();
    if (next > 0) {
        const std::size_t i = next - 1;
        // Ends are exclusive: the last ns of an op is end - 1; an instant is at its start.
        bestDistance = t < m_end[i] || (m_start[i] == m_end[i] && t == m_start[i]) ? 0 : t - (m_end[i] - 1);
        best = static_cast<std::uint32_t>(i);
    }
    if (next < size() && m_start[next] - t < bestDistance) {
        bestDistance = m_start[next] - t;
        best = static_cast<std::uint32_t>(next);
    }
    if (!best || bestDistance > toleranceNs)
        return std::nullopt;
    return best;
}

std::size_t TimelineRow::memoryBytes() const
{
    return m_start.capacity() * sizeof(std::int64_t) + m_end.capacity() * sizeof(std::int64_t)
        + m_source.capacity() * sizeof(std::int64_t) + m_name.capacity() * sizeof(std::int32_t) + m_style.capacity()
        + m_blockSums.capacity() * sizeof(std::int64_t) + m_blockStart.capacity() * sizeof(std::int64_t)
        + sizeof(TimelineRow);
}

} // namespace ridgeline::core
