// SPDX-License-Identifier: MIT
// What the Communication page and the roofline page draw of collectives, in core: the rank x time
// map (time in collectives per rank), an instance's ops found on the timeline, and the chart of bus
// bandwidth against the link. On the real Kineto traces of tests/data/kineto/; every expected figure
// is worked out here from the trace's own events with zlib + nlohmann::json.
#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/collectivechart.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/ranktimemap.h"
#include "ridgeline/core/timeline/timelinecollectives.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "testutil.h"
#include "tracefilterranks.h"
#include "tracejson.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace ridgeline;
using namespace ridgeline::testing;

namespace {

// [start, end) of every NCCL kernel of a trace, as the importer reads them (end = ts + dur).
std::vector<core::TimeInterval> ncclIntervals(const std::string& path)
{
    std::vector<core::TimeInterval> out;
    const auto doc = nlohmann::json::parse(gunzipFile(path));
    for (const auto& ev : doc["traceEvents"]) {
        if (isNcclKernelEvent(ev))
            out.push_back({ microsToNs(ev["ts"]), microsToNs(ev["ts"]) + microsToNs(ev["dur"]) });
    }
    return out;
}

// Nanoseconds of [lo, hi) covered by the union of `intervals`, by brute force over sorted edges.
std::int64_t coveredNs(std::vector<core::TimeInterval> intervals, std::int64_t lo, std::int64_t hi)
{
    std::sort(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    std::int64_t covered = 0, reach = lo;
    for (const auto& i : intervals) {
        const std::int64_t s = std::max(i.startNs, reach), e = std::min(i.endNs, hi);
        if (e > s) {
            covered += e - s;
            reach = e;
        }
    }
    return covered;
}

core::CollectiveReport reportOf(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok());
    core::SessionReader* readers[] = { &reader.value() };
    auto report = core::buildCollectiveReport(readers);
    EXPECT_TRUE(report.ok());
    return std::move(report).value();
}

core::TimelineData timelineOf(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok());
    auto data = core::loadTimelineData(reader.value());
    EXPECT_TRUE(data.ok());
    return std::move(data).value();
}

} // namespace

TEST(RankTimeMap, CellsAreTheShareOfEachBinCoveredOnce)
{
    // Window [0, 40) in 4 bins of 10 ns; [0,10) and [5,15) overlap, [30,45) runs past the window.
    core::RankTimeMap map({ 0, 40 }, 4);
    map.addRow({ "rank 0 · GPU 0", 0, 0 }, { { 5, 15 }, { 0, 10 }, { 30, 45 } });
    map.addRow({ "rank 1 · GPU 1", 1, 1 }, {});
    ASSERT_EQ(map.rowCount(), 2u);
    EXPECT_DOUBLE_EQ(map.value(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(map.value(0, 1), 0.5);
    EXPECT_DOUBLE_EQ(map.value(0, 2), 0.0);
    EXPECT_DOUBLE_EQ(map.value(0, 3), 1.0);
    EXPECT_DOUBLE_EQ(map.rowShare(0), 25.0 / 40.0);
    EXPECT_DOUBLE_EQ(map.rowShare(1), 0.0);
    EXPECT_EQ(map.binWindow(1).startNs, 10);
    EXPECT_EQ(map.binWindow(1).endNs, 20);
    EXPECT_EQ(map.binOf(-5), 0);
    EXPECT_EQ(map.binOf(39), 3);
    EXPECT_EQ(map.binOf(400), 3);
    EXPECT_EQ(map.value(5, 0), 0.0); // out of range reads 0
    // Uneven bins: 3 bins over 10 ns split at 4 and 7 (PixelGrid's columns); an op inside one bin.
    core::RankTimeMap uneven({ 100, 110 }, 3);
    uneven.addRow({ "x", -1, -1 }, { { 104, 106 } });
    EXPECT_EQ(uneven.binWindow(0).endNs, 104);
    EXPECT_EQ(uneven.binWindow(2).startNs, 107);
    EXPECT_DOUBLE_EQ(uneven.value(0, 1), 2.0 / 3.0);
}

TEST(CollectiveViews, TimeInCollectivesPerRankOfTheTwoRankPair)
{
    const std::string paths[] = { testDataPath(kTraceFilterRank0), testDataPath(kTraceFilterRank1) };
    TempDir dir;
    ASSERT_TRUE(importTraceFilterRanks(dir.file("s.ridge")));
    const auto data = timelineOf(dir.file("s.ridge"));
    constexpr int kBins = 97;
    const auto map = core::collectiveTimeMap(data, kBins);
    ASSERT_EQ(map.rowCount(), 2u);
    EXPECT_EQ(map.window().startNs, data.extent().startNs);
    EXPECT_EQ(map.window().endNs, data.extent().endNs);
    for (std::size_t r = 0; r < 2; ++r) {
        const int rank = map.row(r).rank;
        ASSERT_TRUE(rank == 0 || rank == 1);
        EXPECT_NE(map.row(r).label.find("rank " + std::to_string(rank)), std::string::npos) << map.row(r).label;
        const auto intervals = ncclIntervals(paths[rank]);
        ASSERT_EQ(intervals.size(), 10u);
        const auto w = map.window();
        const auto total = coveredNs(intervals, w.startNs, w.endNs);
        ASSERT_GT(total, 0);
        EXPECT_NEAR(map.rowShare(r), static_cast<double>(total) / static_cast<double>(w.endNs - w.startNs), 1e-12);
        // Every bin's share, against the union worked out over that bin alone.
        for (int b = 0; b < kBins; ++b) {
            const auto bin = map.binWindow(b);
            const double expected = static_cast<double>(coveredNs(intervals, bin.startNs, bin.endNs))
                / static_cast<double>(bin.endNs - bin.startNs);
            EXPECT_NEAR(map.value(r, b), expected, 1e-12) << "rank " << rank << " bin " << b;
        }
    }
}

TEST(CollectiveViews, EveryInstanceMemberIsFoundOnItsRanksCollectivesLane)
{
    TempDir dir;
    ASSERT_TRUE(importTraceFilterRanks(dir.file("s.ridge")));
    const auto data = timelineOf(dir.file("s.ridge"));
    const auto report = reportOf(dir.file("s.ridge"));
    ASSERT_EQ(report.ranks.instances.size(), 10u);
    int found = 0;
    for (const auto& instance : report.ranks.instances) {
        for (const auto& m : instance.members) {
            const auto ref = core::findCollectiveOp(data, m.rank, m.opId, m.startNs);
            ASSERT_TRUE(ref.has_value()) << "rank " << m.rank << " op " << m.opId;
            const auto& lane = data.laneOfRow(ref->row);
            EXPECT_EQ(lane.kind, core::TimelineLaneKind::Collectives);
            EXPECT_EQ(lane.rank, m.rank);
            EXPECT_EQ(data.row(ref->row).sourceId(ref->index), m.opId);
            EXPECT_EQ(data.row(ref->row).startNs(ref->index), m.startNs);
            // Not on the other rank's lanes.
            EXPECT_FALSE(core::findCollectiveOp(data, 1 - m.rank, m.opId, m.startNs).has_value());
            ++found;
        }
    }
    EXPECT_EQ(found, 20);
    EXPECT_FALSE(core::findCollectiveOp(data, 0, 999'999, report.ranks.instances[0].members[0].startNs));
}

TEST(CollectiveViews, ChartPlacesEachCollectiveByItsBusBandwidthUnderTheLink)
{
    const auto path = testDataPath("kineto/nccl_parser_config/nccl_data.json.gz");
    TempDir dir;
    ASSERT_TRUE(collectors::importKineto({ path }, dir.file("s.ridge"), false).ok());
    // Independently: (collective, S) -> busbw; two ranks, so both factors are 1 (nccl-tests).
    const auto doc = nlohmann::json::parse(gunzipFile(path));
    std::map<std::pair<std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>> calls; // -> calls, ns
    for (const auto& ev : doc["traceEvents"]) {
        if (!isNcclKernelEvent(ev))
            continue;
        const auto& a = ev["args"];
        const std::int64_t size = a["dtype"] == "Float" ? 4 : 8;
        auto& c = calls[{ a["Collective name"].get<std::string>(), a["In msg nelems"].get<std::int64_t>() * size }];
        c.first += 1;
        c.second += microsToNs(ev["dur"]);
    }
    const auto report = reportOf(dir.file("s.ridge"));
    const auto chart = core::buildCollectiveChart(report.rows);
    ASSERT_EQ(chart.points.size(), calls.size());
    EXPECT_EQ(chart.withoutSizes, 0u);
    double shares = 0;
    for (const auto& p : chart.points) {
        const auto it = calls.find({ p.collective, static_cast<std::int64_t>(p.bytes) });
        ASSERT_NE(it, calls.end()) << p.collective << " " << p.bytes;
        const double busbw
            = p.bytes * static_cast<double>(it->second.first) / (static_cast<double>(it->second.second) / 1e9);
        EXPECT_NEAR(p.busBytesPerS, busbw, busbw * 1e-9);
        EXPECT_EQ(p.link, "NVLink");
        ASSERT_TRUE(p.pctOfLink.has_value());
        EXPECT_NEAR(*p.pctOfLink, busbw / 300e9 * 100.0, 1e-9);
        EXPECT_EQ(report.rows[p.row].collective, p.collective);
        EXPECT_NE(p.label.find("of NVLink 300 GB/s"), std::string::npos) << p.label;
        // Inside the axes.
        EXPECT_GE(p.bytes, chart.axes.xMin());
        EXPECT_LE(p.bytes, chart.axes.xMax());
        EXPECT_GE(p.busBytesPerS, chart.axes.yMin());
        EXPECT_LE(p.busBytesPerS, chart.axes.yMax());
        shares += p.timeShare;
    }
    EXPECT_NEAR(shares, 1.0, 1e-12);
    for (std::size_t i = 1; i < chart.points.size(); ++i)
        EXPECT_GE(chart.points[i - 1].timeShare, chart.points[i].timeShare);
    // One roof: NVLink of an A100 at 300 GB/s per direction, from the datasheet (the trace's
    // "NVIDIA A100-PG509-200" is matched loosely to the A100 SXM4 40GB).
    ASSERT_EQ(chart.roofs.size(), 1u);
    EXPECT_EQ(chart.roofs[0].link, "NVLink");
    EXPECT_DOUBLE_EQ(chart.roofs[0].bytesPerS, 300e9);
    EXPECT_FALSE(chart.roofs[0].inferred);
    EXPECT_EQ(chart.roofs[0].label, "NVLink 300 GB/s");
    EXPECT_LE(300e9, chart.axes.yMax());
}

TEST(CollectiveViews, ChartOfCollectivesWithoutSizesIsEmpty)
{
    TempDir dir;
    ASSERT_TRUE(importTraceFilterRanks(dir.file("s.ridge")));
    const auto report = reportOf(dir.file("s.ridge"));
    ASSERT_EQ(report.rows.size(), 1u);
    const auto chart = core::buildCollectiveChart(report.rows);
    EXPECT_TRUE(chart.empty());
    EXPECT_TRUE(chart.roofs.empty());
    EXPECT_EQ(chart.withoutSizes, 1u);
}
