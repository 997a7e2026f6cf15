// SPDX-License-Identifier: MIT
// Level-of-detail rows (core/include/ridgeline/core/timeline/timelinerow.h) on plain items: every LOD result
// is compared with a brute-force grouping of the raw ops worked out here, at several zoom levels.
#include "ridgeline/core/timeline/timelinerow.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

using namespace ridgeline::core;

namespace {

TimelineItem item(std::int64_t start, std::int64_t end, TimelineItemKind kind = TimelineItemKind::Kernel,
    VerdictClass verdict = VerdictClass::Unknown, std::int64_t source = -1)
{
    return { start, end, source, -1, kind, verdict };
}

// Non-overlapping ops with random durations and gaps (some zero-length, some long).
std::vector<TimelineItem> randomRow(std::size_t n, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> gap(0, 400), dur(0, 300), cls(0, 99), verdict(0, 4), kind(0, 3);
    std::vector<TimelineItem> items;
    std::int64_t t = 1000;
    for (std::size_t i = 0; i < n; ++i) {
        t += gap(rng);
        std::int64_t d = dur(rng);
        if (cls(rng) < 3)
            d *= 200; // a long op now and then
        items.push_back(item(t, t + d, static_cast<TimelineItemKind>(kind(rng)),
            static_cast<VerdictClass>(verdict(rng)), static_cast<std::int64_t>(i)));
        t += d;
    }
    return items;
}

// The reference: the column of an op is that of max(start, window start), floor division written
// out in plain int64 (the test's times and pixel counts are small enough not to overflow).
std::vector<LodItem> bruteForceLod(const std::vector<TimelineItem>& items, TimeWindow w, int pixels)
{
    std::map<std::int64_t, std::vector<std::size_t>> byColumn;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& it = items[i];
        const bool inWindow = it.startNs < w.endNs && (it.endNs > w.startNs || it.startNs >= w.startNs);
        if (!inWindow)
            continue;
        const std::int64_t t = std::max(it.startNs, w.startNs);
        byColumn[(t - w.startNs) * pixels / (w.endNs - w.startNs)].push_back(i);
    }
    std::vector<LodItem> out;
    for (const auto& [column, ops] : byColumn) {
        LodItem li;
        li.first = static_cast<std::uint32_t>(ops.front());
        li.count = static_cast<std::uint32_t>(ops.size());
        li.startNs = items[ops.front()].startNs;
        li.endNs = items[ops.front()].endNs;
        std::array<std::int64_t, kVerdictClassCount> byVerdict {};
        std::array<std::int64_t, kTimelineItemKindCount> byKind {};
        for (const auto i : ops) {
            li.startNs = std::min(li.startNs, items[i].startNs);
            li.endNs = std::max(li.endNs, items[i].endNs);
            byVerdict[static_cast<std::size_t>(items[i].verdict)] += items[i].endNs - items[i].startNs + 1;
            byKind[static_cast<std::size_t>(items[i].kind)] += items[i].endNs - items[i].startNs + 1;
        }
        // Ties go to the lower enum value.
        li.verdict
            = static_cast<VerdictClass>(std::max_element(byVerdict.begin(), byVerdict.end()) - byVerdict.begin());
        li.kind = static_cast<TimelineItemKind>(std::max_element(byKind.begin(), byKind.end()) - byKind.begin());
        if (ops.size() == 1) {
            li.verdict = items[ops.front()].verdict;
            li.kind = items[ops.front()].kind;
        }
        out.push_back(li);
    }
    return out;
}

void expectSameLod(const std::vector<LodItem>& got, const std::vector<LodItem>& want)
{
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(got[i].first, want[i].first);
        EXPECT_EQ(got[i].count, want[i].count);
        EXPECT_EQ(got[i].startNs, want[i].startNs);
        EXPECT_EQ(got[i].endNs, want[i].endNs);
        EXPECT_EQ(got[i].kind, want[i].kind);
        EXPECT_EQ(got[i].verdict, want[i].verdict);
    }
}

std::size_t opsInWindow(const std::vector<TimelineItem>& items, TimeWindow w)
{
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), [&](const TimelineItem& it) {
        return it.startNs < w.endNs && (it.endNs > w.startNs || it.startNs >= w.startNs);
    }));
}

} // namespace

TEST(PixelGrid, StartOfIsTheFirstNsOfEachColumn)
{
    for (const auto& [w, pixels] : { std::pair { TimeWindow { 0, 1000 }, 7 }, { TimeWindow { -50, 13 }, 640 },
             { TimeWindow { 1'000'000'007, 1'000'999'999 }, 1920 } }) {
        const PixelGrid grid(w, pixels);
        for (std::int64_t c = 0; c <= pixels; ++c) {
            const std::int64_t s = grid.startOf(c);
            EXPECT_GE(grid.columnOf(s), c);
            EXPECT_LT(grid.columnOf(s - 1), c);
        }
        EXPECT_EQ(grid.columnOf(w.startNs), 0);
        // With more pixels than ns some columns hold no ns at all.
        if (w.endNs - w.startNs >= pixels)
            EXPECT_EQ(grid.columnOf(w.endNs - 1), pixels - 1);
        else
            EXPECT_LT(grid.columnOf(w.endNs - 1), pixels);
        EXPECT_EQ(grid.columnOf(w.endNs), pixels);
        EXPECT_LT(grid.columnOf(w.startNs - 1), 0);
        // Far outside the window (the 128-bit path): still exact floors.
        const std::int64_t length = w.endNs - w.startNs;
        EXPECT_EQ(grid.columnOf(w.startNs - 10 * length), -10 * pixels);
        EXPECT_EQ(grid.columnOf(w.endNs + 10 * length), 11 * pixels);
        EXPECT_EQ(grid.columnOf(w.startNs - 10 * length - 1), -10 * pixels - (pixels + length - 1) / length);
    }
}

TEST(PixelGrid, HugeTimesDoNotOverflow)
{
    const PixelGrid grid({ 0, 4'000'000'000'000'000'000 }, 4000);
    EXPECT_EQ(grid.columnOf(2'000'000'000'000'000'000), 2000);
    EXPECT_EQ(grid.columnOf(INT64_MAX), 9223);
    EXPECT_EQ(grid.startOf(4000), 4'000'000'000'000'000'000);
    // Windows beyond ±(2^62 - 1) are clamped so that their length fits in int64.
    const PixelGrid all({ INT64_MIN, INT64_MAX }, 10);
    const std::int64_t limit = (std::int64_t { 1 } << 62) - 1;
    EXPECT_EQ(all.window().startNs, -limit);
    EXPECT_EQ(all.window().endNs, limit);
    EXPECT_EQ(all.columnOf(0), 5);
}

TEST(TimelineRowLod, MatchesBruteForceAtSeveralZoomLevels)
{
    const auto items = randomRow(20'000, 7);
    const auto row = TimelineRow::fromSorted(items);
    const std::int64_t s = items.front().startNs, e = items.back().endNs, len = e - s;
    const std::vector<std::pair<TimeWindow, int>> views {
        { { s, e }, 1000 }, // everything: many ops per pixel
        { { s, e }, 3 }, { { s + len / 3, s + len / 3 + len / 50 }, 800 }, // a few ops per pixel
        { { s + len / 2, s + len / 2 + 3000 }, 1200 }, // zoomed in: pixels wider than ops' gaps
        { { s + len / 2 + 7, s + len / 2 + 40 }, 500 }, // one op or less across the view
        { { s - 5000, s + 100'000 }, 640 }, // starts before the first op
        { { e - 50'000, e + 9000 }, 640 }, // ends after the last
        { { e + 10, e + 1000 }, 100 }, // nothing in view
    };
    for (const auto& [w, pixels] : views) {
        SCOPED_TRACE(::testing::Message() << "window " << w.startNs << ".." << w.endNs << " on " << pixels << " px");
        std::vector<LodItem> got;
        row.lod(PixelGrid(w, pixels), got);
        expectSameLod(got, bruteForceLod(items, w, pixels));
        EXPECT_LE(got.size(), static_cast<std::size_t>(pixels));
        std::size_t total = 0;
        for (const auto& li : got)
            total += li.count;
        EXPECT_EQ(total, opsInWindow(items, w));
    }
}

TEST(TimelineRowLod, AtMostOneItemPerPixelColumn)
{
    const auto items = randomRow(50'000, 11);
    const auto row = TimelineRow::fromSorted(items);
    const TimeWindow w { items.front().startNs, items.back().endNs };
    const PixelGrid grid(w, 700);
    std::vector<LodItem> got;
    row.lod(grid, got);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got.size(), 700U); // this row is dense enough to fill every column
    std::int64_t previous = -1;
    for (const auto& li : got) {
        const std::int64_t column = grid.columnOf(std::max(li.startNs, w.startNs));
        EXPECT_GT(column, previous);
        previous = column;
    }
}

TEST(TimelineRowLod, OneLongOpIsOneItemAcrossManyColumns)
{
    const std::vector<TimelineItem> items { item(0, 10), item(100, 900, TimelineItemKind::Memcpy), item(950, 960) };
    const auto row = TimelineRow::fromSorted(items);
    std::vector<LodItem> got;
    row.lod(PixelGrid({ 0, 1000 }, 100), got);
    ASSERT_EQ(got.size(), 3U);
    EXPECT_EQ(got[1].count, 1U);
    EXPECT_EQ(got[1].startNs, 100);
    EXPECT_EQ(got[1].endNs, 900);
    EXPECT_EQ(got[1].kind, TimelineItemKind::Memcpy);
}

TEST(TimelineRowLod, MergedItemCarriesTheDominantVerdictByTime)
{
    // In one 100 ns pixel: 3 short compute-bound ops (3 x 6 ns) and one longer memory-bound op (40 ns).
    const std::vector<TimelineItem> items { item(0, 5, TimelineItemKind::Kernel, VerdictClass::ComputeBound),
        item(10, 15, TimelineItemKind::Kernel, VerdictClass::ComputeBound),
        item(20, 25, TimelineItemKind::Kernel, VerdictClass::ComputeBound),
        item(30, 69, TimelineItemKind::Memcpy, VerdictClass::MemoryBound) };
    const auto row = TimelineRow::fromSorted(items);
    std::vector<LodItem> got;
    row.lod(PixelGrid({ 0, 1000 }, 10), got);
    ASSERT_EQ(got.size(), 1U);
    EXPECT_EQ(got[0].count, 4U);
    EXPECT_EQ(got[0].verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(got[0].kind, TimelineItemKind::Memcpy);
    EXPECT_EQ(got[0].startNs, 0);
    EXPECT_EQ(got[0].endNs, 69);
}

TEST(TimelineRowLod, EmptyRowAndOneOp)
{
    std::vector<LodItem> got;
    TimelineRow().lod(PixelGrid({ 0, 100 }, 10), got);
    EXPECT_TRUE(got.empty());
    const std::vector<TimelineItem> one { item(40, 41, TimelineItemKind::Kernel, VerdictClass::LatencyBound, 9) };
    const auto row = TimelineRow::fromSorted(one);
    row.lod(PixelGrid({ 0, 100 }, 10), got);
    ASSERT_EQ(got.size(), 1U);
    EXPECT_EQ(got[0].count, 1U);
    EXPECT_EQ(got[0].first, 0U);
    EXPECT_EQ(got[0].verdict, VerdictClass::LatencyBound);
    EXPECT_EQ(row.item(0).sourceId, 9);
    got.clear();
    row.lod(PixelGrid({ 41, 100 }, 10), got); // the op ends where the window starts
    EXPECT_TRUE(got.empty());
}

TEST(TimelineRowLod, SubsetCountsOnlyTheSubset)
{
    const auto items = randomRow(5000, 3);
    const auto row = TimelineRow::fromSorted(items);
    std::vector<std::uint32_t> subset;
    for (std::uint32_t i = 0; i < items.size(); i += 7)
        subset.push_back(i);
    const TimeWindow w { items[1000].startNs, items[4000].startNs };
    std::vector<LodItem> got;
    row.lod(PixelGrid(w, 300), subset, got);
    EXPECT_LE(got.size(), 300U);
    std::vector<TimelineItem> picked;
    for (const auto i : subset)
        picked.push_back(items[i]);
    std::size_t total = 0;
    for (const auto& li : got) {
        total += li.count;
        EXPECT_EQ(li.first % 7, 0U);
    }
    EXPECT_EQ(total, opsInWindow(picked, w));
}

TEST(TimelineRowColumns, EachFieldReadsBackAsStored)
{
    const std::vector<TimelineItem> items {
        { 10, 20, 101, 3, TimelineItemKind::Kernel, VerdictClass::MemoryBound },
        { 20, 25, -1, 0, TimelineItemKind::Memcpy, VerdictClass::Unknown },
        { 30, 30, 7, -1, TimelineItemKind::Collective, VerdictClass::CommunicationBound },
    };
    const auto row = TimelineRow::fromSorted(items);
    ASSERT_EQ(row.size(), items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        EXPECT_EQ(row.sourceId(i), items[i].sourceId) << i;
        EXPECT_EQ(row.nameIndex(i), items[i].nameIndex) << i;
        EXPECT_EQ(row.kind(i), items[i].kind) << i;
        EXPECT_EQ(row.item(i).verdict, items[i].verdict) << i; // the kind shares its byte with the verdict
    }
}

TEST(TimelineRowHitTest, FindsTheOpUnderAPointOrTheNearestWithinTolerance)
{
    const std::vector<TimelineItem> items { item(100, 200), item(300, 300), item(400, 500) };
    const auto row = TimelineRow::fromSorted(items);
    EXPECT_EQ(row.itemAt(150), 0U);
    EXPECT_EQ(row.itemAt(100), 0U);
    EXPECT_FALSE(row.itemAt(200).has_value()); // ends are exclusive
    EXPECT_EQ(row.itemAt(200, 5), 0U);
    EXPECT_EQ(row.itemAt(300), 1U); // an instant
    EXPECT_EQ(row.itemAt(290, 20), 1U);
    EXPECT_EQ(row.itemAt(380, 30), 2U);
    EXPECT_FALSE(row.itemAt(350, 30).has_value());
    EXPECT_FALSE(row.itemAt(0, 50).has_value());
    EXPECT_EQ(row.itemAt(520, 50), 2U);
    EXPECT_FALSE(TimelineRow().itemAt(0, 1000).has_value());
}

TEST(LayoutRows, OverlappingOpsGoToFurtherRowsAndNestedRangesToTheirDepth)
{
    // A [0,100) holds B [10,40) which holds C [20,30); D [50,60) is in A; E [55,120) overlaps A and D.
    std::vector<TimelineItem> items { item(50, 60, TimelineItemKind::NvtxRange), item(0, 100), item(20, 30),
        item(10, 40), item(55, 120) };
    const auto rows = layoutRows(items);
    ASSERT_EQ(rows.size(), 3U);
    ASSERT_EQ(rows[0].size(), 1U);
    EXPECT_EQ(rows[0].startNs(0), 0);
    ASSERT_EQ(rows[1].size(), 2U);
    EXPECT_EQ(rows[1].startNs(0), 10);
    EXPECT_EQ(rows[1].startNs(1), 50);
    ASSERT_EQ(rows[2].size(), 2U);
    EXPECT_EQ(rows[2].startNs(0), 20);
    EXPECT_EQ(rows[2].startNs(1), 55);
    for (const auto& r : rows) {
        for (std::size_t i = 1; i < r.size(); ++i)
            EXPECT_LE(r.endNs(i - 1), r.startNs(i));
    }
}

TEST(LayoutRows, SameStartPutsTheLongerOneFirst)
{
    std::vector<TimelineItem> items { item(0, 10), item(0, 100) };
    const auto rows = layoutRows(items);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0].endNs(0), 100);
    EXPECT_EQ(rows[1].endNs(0), 10);
    std::vector<TimelineItem> none;
    EXPECT_TRUE(layoutRows(none).empty());
}

TEST(IdleGaps, AreTheHolesInTheUnionOfTheRows)
{
    std::vector<TimelineRow> rows;
    std::vector<TimelineItem> all;
    for (std::uint32_t s = 0; s < 4; ++s) {
        auto items = randomRow(2000, 100 + s);
        rows.push_back(TimelineRow::fromSorted(items));
        all.insert(all.end(), items.begin(), items.end());
    }
    std::vector<const TimelineRow*> busy;
    for (const auto& r : rows)
        busy.push_back(&r);
    const auto gaps = idleGaps(busy);
    // Reference: mark every ns of the span as busy or not.
    std::int64_t lo = all.front().startNs, hi = all.front().endNs;
    for (const auto& it : all) {
        lo = std::min(lo, it.startNs);
        hi = std::max(hi, it.endNs);
    }
    std::vector<bool> covered(static_cast<std::size_t>(hi - lo), false);
    for (const auto& it : all) {
        for (std::int64_t t = it.startNs; t < it.endNs; ++t)
            covered[static_cast<std::size_t>(t - lo)] = true;
    }
    std::int64_t idleRef = 0, idleGot = 0;
    for (const bool c : covered)
        idleRef += c ? 0 : 1;
    for (const auto& g : gaps) {
        EXPECT_EQ(g.kind, TimelineItemKind::IdleGap);
        EXPECT_LT(g.startNs, g.endNs);
        for (std::int64_t t = g.startNs; t < g.endNs; ++t)
            EXPECT_FALSE(covered[static_cast<std::size_t>(t - lo)]) << t;
        idleGot += g.endNs - g.startNs;
    }
    EXPECT_EQ(idleGot, idleRef);
    EXPECT_GT(idleGot, 0);
}
