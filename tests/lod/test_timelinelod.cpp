// SPDX-License-Identifier: MIT
// The timeline LOD data loaded from session files (core/include/ridgeline/core/timeline/timelinelod.h):
// lanes per rank, device, stream, collectives and host thread, rows for overlapping ops, launches of
// a kernel, cancellation, and the bundled two-rank example.
#include "fixtures.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "tempdir.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ridgeline::core;

namespace {

using ridgeline::testing::kernelRecord;
using Spans = std::vector<std::pair<std::int64_t, std::int64_t>>; // [start, end) in ns

class LodSession : public ::testing::Test {
protected:
    // Writes a session with the given kernels (and whatever `more` adds), reads its timeline.
    template <typename More = void (*)(SessionWriter&, std::int64_t)>
    TimelineData load(
        const std::vector<Kernel>& kernels, More more = [](SessionWriter&, std::int64_t) {})
    {
        const std::string path = m_dir.file("s" + std::to_string(m_count++) + ".ridge");
        auto created = SessionWriter::create(path);
        EXPECT_TRUE(created.ok());
        SessionWriter& w = created.value();
        EXPECT_TRUE(w.setMeta("source", "fixture").ok());
        EXPECT_TRUE(ridgeline::testing::writeTwoRanks(w, "test GPU", true).ok());
        EXPECT_EQ(w.internKernelName("gemm").value(), 1);
        EXPECT_EQ(w.internKernelName("ncclDevKernel_AllReduce").value(), 2);
        std::int64_t first = 0;
        if (!kernels.empty())
            first = w.addKernels(kernels).value();
        more(w, first);
        EXPECT_TRUE(w.finish(SessionStatus::Complete).ok());
        auto reader = SessionReader::open(path);
        EXPECT_TRUE(reader.ok());
        auto data = loadTimelineData(reader.value());
        EXPECT_TRUE(data.ok()) << data.error().message;
        return std::move(data).value();
    }

    static std::vector<const TimelineLane*> lanesOf(const TimelineData& d, TimelineLaneKind kind)
    {
        std::vector<const TimelineLane*> out;
        for (const auto& l : d.lanes()) {
            if (l.kind == kind)
                out.push_back(&l);
        }
        return out;
    }

    // The [start, end) spans of the one GPU idle lane (none, with a failure, where there is not one).
    static Spans idleGaps(const TimelineData& d)
    {
        Spans out;
        const auto idle = lanesOf(d, TimelineLaneKind::Idle);
        EXPECT_EQ(idle.size(), 1U);
        if (idle.size() != 1U)
            return out;
        const auto& gaps = d.row(idle[0]->firstRow);
        for (std::size_t i = 0; i < gaps.size(); ++i)
            out.emplace_back(gaps.startNs(i), gaps.endNs(i));
        return out;
    }

    ridgeline::testing::TempDir m_dir;
    int m_count = 0;
};

} // namespace

TEST_F(LodSession, EmptySessionHasNoLanes)
{
    const auto d = load({});
    EXPECT_TRUE(d.lanes().empty());
    EXPECT_EQ(d.rowCount(), 0U);
    EXPECT_EQ(d.gpuOpCount(), 0U);
    EXPECT_EQ(d.extent().startNs, 0);
    EXPECT_EQ(d.extent().endNs, 0);
    EXPECT_TRUE(d.launchesOf(1).empty());
    EXPECT_FALSE(d.findKernel(1).has_value());
    EXPECT_EQ(d.devices().size(), 2U);
}

TEST_F(LodSession, OneKernelIsOneStreamLaneWithoutIdleGaps)
{
    const auto d = load({ kernelRecord(1, 0, 7, 1, 1000, 2000) });
    ASSERT_EQ(d.lanes().size(), 1U); // an idle lane with no gaps is left out
    const auto& lane = d.lanes()[0];
    EXPECT_EQ(lane.kind, TimelineLaneKind::Stream);
    EXPECT_EQ(lane.rank, 0);
    EXPECT_EQ(lane.deviceId, 0);
    EXPECT_EQ(lane.streamId, 7);
    EXPECT_EQ(lane.label, "Stream 7");
    ASSERT_EQ(lane.rowCount, 1U);
    const auto& row = d.row(lane.firstRow);
    ASSERT_EQ(row.size(), 1U);
    EXPECT_EQ(d.name(row.item(0).nameIndex), "gemm");
    EXPECT_EQ(d.kernelNameId(row.item(0).nameIndex), 1);
    EXPECT_EQ(d.extent().startNs, 1000);
    EXPECT_EQ(d.extent().endNs, 2000);
    EXPECT_EQ(d.gpuOpCount(), 1U);
    std::vector<LodItem> lod;
    row.lod(PixelGrid(d.extent(), 800), lod);
    ASSERT_EQ(lod.size(), 1U);
    EXPECT_EQ(lod[0].count, 1U);
    EXPECT_EQ(lod[0].kind, TimelineItemKind::Kernel);
}

TEST_F(LodSession, OpsOverlappingOnAStreamGetASecondRow)
{
    // Stream 7 holds [0,100) and [50,150) (an imported trace can overlap), then [200,300).
    const auto d = load(
        { kernelRecord(1, 0, 7, 1, 0, 100), kernelRecord(1, 0, 7, 1, 50, 150), kernelRecord(1, 0, 7, 1, 200, 300) });
    const auto streams = lanesOf(d, TimelineLaneKind::Stream);
    ASSERT_EQ(streams.size(), 1U);
    ASSERT_EQ(streams[0]->rowCount, 2U);
    EXPECT_EQ(d.row(streams[0]->firstRow).size(), 2U);
    EXPECT_EQ(d.row(streams[0]->firstRow + 1).size(), 1U);
    EXPECT_EQ(d.row(streams[0]->firstRow + 1).startNs(0), 50);
    // The idle gap [150, 200): the union of both rows is busy elsewhere.
    EXPECT_EQ(idleGaps(d), (Spans { { 150, 200 } }));
}

TEST_F(LodSession, LanesPerRankDeviceStreamCollectivesAndHostThreads)
{
    const auto d = load({ kernelRecord(1, 0, 7, 1, 1000, 2000), kernelRecord(1, 0, 9, 2, 1500, 2500),
                            kernelRecord(1, 0, 7, 1, 5000, 6000), kernelRecord(2, 1, 7, 1, 1000, 3000) },
        [](SessionWriter& w, std::int64_t first) {
            MemOp copy;
            copy.processId = 1;
            copy.deviceId = 0;
            copy.streamId = 7;
            copy.kind = MemOpKind::MemcpyHtoD;
            copy.startNs = 3000;
            copy.endNs = 3500;
            EXPECT_TRUE(w.addMemOps(std::span<const MemOp>(&copy, 1)).ok());
            CommOp carried;
            carried.kernelId = first + 1;
            carried.processId = 1;
            carried.deviceId = 0;
            carried.collective = "AllReduce";
            carried.bytes = 1 << 20;
            carried.startNs = 1500;
            carried.endNs = 2500;
            CommOp standalone;
            standalone.processId = 2;
            standalone.deviceId = 1;
            standalone.collective = "AllGather";
            standalone.startNs = 3000;
            standalone.endNs = 4000;
            const CommOp comms[] = { carried, standalone };
            EXPECT_TRUE(w.addCommOps(comms).ok());
            const Thread threads[] = { { 0, 1, 100, "python" } };
            EXPECT_TRUE(w.addThreads(threads).ok());
            const ApiCall calls[] = { { 0, 1, 100, "runtime", "cudaLaunchKernel", 1, 900, 950, 0 },
                { 0, 1, 100, "driver", "cuLaunchKernel", 1, 910, 940, 0 }, // nested in the runtime call
                { 0, 2, 201, "runtime", "cudaLaunchKernel", 1, 500, 600, 0 } };
            EXPECT_TRUE(w.addApiCalls(calls).ok());
            const NvtxRange ranges[] = { { 0, 1, 100, "default", "step", 0, 7000, 0, 0 },
                { 0, 1, 100, "default", "forward", 100, 3000, 0, 0 } };
            EXPECT_TRUE(w.addNvtxRanges(ranges).ok());
        });
    std::vector<std::string> labels;
    for (const auto& l : d.lanes())
        labels.push_back(std::to_string(l.rank) + ":" + l.label);
    const std::vector<std::string> expected { "0:GPU idle", "0:Stream 7", "0:Stream 9", "0:Collectives",
        "0:Thread 100 (python)", "0:NVTX · thread 100", "1:Stream 7", "1:Collectives", "1:Thread 201" };
    EXPECT_EQ(labels, expected);
    // Rank 0's device 0 is idle over [2500, 3000) and [3500, 5000); rank 1's device 1 never
    // (its kernel and its collective without a kernel touch).
    EXPECT_EQ(idleGaps(d), (Spans { { 2500, 3000 }, { 3500, 5000 } }));
    // The NCCL kernel is a collective on its stream; its comm op is on the collectives lane.
    const auto& stream9 = d.row(d.lanes()[2].firstRow);
    EXPECT_EQ(stream9.item(0).kind, TimelineItemKind::Collective);
    EXPECT_EQ(stream9.item(0).verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(d.name(d.row(d.lanes()[3].firstRow).item(0).nameIndex), "AllReduce 1.0 MiB");
    // The copy is on stream 7 of device 0 between the two kernels.
    const auto& stream7 = d.row(d.lanes()[1].firstRow);
    ASSERT_EQ(stream7.size(), 3U);
    EXPECT_EQ(stream7.item(1).kind, TimelineItemKind::Memcpy);
    EXPECT_EQ(d.name(stream7.item(1).nameIndex), "Memcpy HtoD");
    // Nested API calls and NVTX ranges go one row deeper.
    EXPECT_EQ(d.lanes()[4].rowCount, 2U);
    EXPECT_EQ(d.lanes()[5].rowCount, 2U);
    EXPECT_EQ(d.name(d.row(d.lanes()[5].firstRow + 1).item(0).nameIndex), "forward");
    // 4 kernels, 1 copy, 1 collective without a kernel.
    EXPECT_EQ(d.gpuOpCount(), 6U);

    // Launches of "gemm": 2 on rank 0's device 0, 1 on rank 1's device 1.
    const auto all = d.launchesOf(1);
    EXPECT_EQ(all.count, 3U);
    ASSERT_TRUE(all.earliest.has_value());
    EXPECT_EQ(d.row(all.earliest->row).startNs(all.earliest->index), 1000);
    EXPECT_EQ(d.launchesOf(1, 1).count, 1U);
    EXPECT_EQ(d.launchesOf(2).count, 1U);
    EXPECT_TRUE(d.launchesOf(99).empty());
    // The third kernel written has id first + 2: stream 7's op at 5000.
    const auto third = d.row(d.lanes()[1].firstRow).item(2);
    const auto found = d.findKernel(third.sourceId);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(d.row(found->row).startNs(found->index), 5000);
    EXPECT_EQ(&d.laneOfRow(found->row), &d.lanes()[1]);
}

TEST_F(LodSession, ProgressRunsToOneAndCancelStops)
{
    std::vector<Kernel> kernels;
    for (int i = 0; i < 200; ++i)
        kernels.push_back(kernelRecord(1, 0, 7, 1, i * 100, i * 100 + 50));
    const auto d = load(kernels);
    EXPECT_EQ(d.gpuOpCount(), 200U);

    const std::string path = m_dir.file("s0.ridge");
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    std::vector<double> seen;
    auto loaded = loadTimelineData(reader.value(), [&](double f) {
        seen.push_back(f);
        return true;
    });
    ASSERT_TRUE(loaded.ok());
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.front(), 0.0);
    EXPECT_EQ(seen.back(), 1.0);

    for (std::size_t stopAt = 0; stopAt < seen.size(); ++stopAt) {
        std::size_t calls = 0;
        auto cancelled = loadTimelineData(reader.value(), [&](double) { return calls++ < stopAt; });
        ASSERT_TRUE(cancelled.hasError()) << stopAt;
        EXPECT_EQ(cancelled.error().message, "Loading the timeline was cancelled.");
    }
}

TEST_F(LodSession, BrokenTimesAreClampedNotOverflowed)
{
    // A hand-edited or corrupt file: an end before its start, times at the ends of int64.
    const auto d = load({ kernelRecord(1, 0, 7, 1, 500, 100), kernelRecord(1, 0, 7, 1, INT64_MIN + 1, INT64_MAX),
        kernelRecord(1, 0, 8, 1, INT64_MAX - 10, INT64_MAX) });
    EXPECT_EQ(d.gpuOpCount(), 3U);
    const std::int64_t limit = std::int64_t { 1 } << 61;
    EXPECT_EQ(d.extent().startNs, -limit);
    EXPECT_EQ(d.extent().endNs, limit);
    std::size_t total = 0;
    for (std::size_t r = 0; r < d.rowCount(); ++r) {
        const auto& row = d.row(r);
        for (std::size_t i = 0; i < row.size(); ++i) {
            EXPECT_LE(row.startNs(i), row.endNs(i));
            EXPECT_LE(-limit, row.startNs(i));
            EXPECT_LE(row.endNs(i), limit);
        }
        std::vector<LodItem> items;
        row.lod(PixelGrid({ d.extent().startNs, d.extent().endNs + 1 }, 1000), items); // an instant sits at the end
        row.lod(PixelGrid({ INT64_MIN, INT64_MAX }, 1000), items);
        for (const auto& it : items)
            total += it.count;
        EXPECT_TRUE(row.itemAt(row.startNs(0)).has_value());
        EXPECT_TRUE(row.itemAt(INT64_MIN, INT64_MAX).has_value()); // far away, but within tolerance
        EXPECT_FALSE(row.itemAt(INT64_MAX, 0).has_value());
    }
    EXPECT_EQ(total, 2 * d.itemCount());
}

TEST(LodExample, BundledTwoRankSession)
{
    auto reader = SessionReader::open(RIDGELINE_EXAMPLE_SESSION);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto loaded = loadTimelineData(reader.value());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    const auto& d = loaded.value();
    const auto counts = reader.value().counts().value();
    const auto comms = reader.value().commOps().value();
    const auto standalone = std::count_if(comms.begin(), comms.end(), [](const CommOp& c) { return !c.kernelId; });
    EXPECT_EQ(d.gpuOpCount(), static_cast<std::size_t>(counts.kernels + counts.memcpys + counts.memsets + standalone));

    // Two ranks, each with its devices' lanes before its host threads; ranks in order.
    std::set<int> ranks;
    int previousRank = -1;
    std::size_t streamOps = 0, apiCalls = 0, ranges = 0, operators = 0;
    for (const auto& lane : d.lanes()) {
        EXPECT_GE(lane.rank, previousRank);
        previousRank = lane.rank;
        ranks.insert(lane.rank);
        std::size_t items = 0;
        for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r)
            items += d.row(r).size();
        if (lane.kind == TimelineLaneKind::Stream)
            streamOps += items;
        else if (lane.kind == TimelineLaneKind::HostThread)
            apiCalls += items;
        else if (lane.kind == TimelineLaneKind::Nvtx)
            ranges += items;
        else if (lane.kind == TimelineLaneKind::Operators)
            operators += items;
    }
    EXPECT_EQ(ranks, (std::set<int> { 0, 1 }));
    EXPECT_EQ(streamOps, static_cast<std::size_t>(counts.kernels + counts.memcpys + counts.memsets));
    EXPECT_EQ(apiCalls, static_cast<std::size_t>(counts.apiCalls));
    EXPECT_EQ(ranges, static_cast<std::size_t>(counts.nvtxRanges));
    EXPECT_EQ(operators, static_cast<std::size_t>(counts.operators)); // every PyTorch operator, once
    EXPECT_GT(operators, 0U);

    // Every row at full zoom-out and zoomed in: at most one item per pixel, counts add up.
    const auto e = d.extent();
    for (const auto& [w, pixels] : { std::pair { e, 1200 },
             { TimeWindow { e.startNs + (e.endNs - e.startNs) / 3, e.startNs + (e.endNs - e.startNs) / 3 + 200'000 },
                 900 } }) {
        const PixelGrid grid(w, pixels);
        for (std::size_t r = 0; r < d.rowCount(); ++r) {
            std::vector<LodItem> items;
            d.row(r).lod(grid, items);
            EXPECT_LE(items.size(), static_cast<std::size_t>(pixels));
            std::size_t total = 0, inWindow = 0;
            for (const auto& li : items)
                total += li.count;
            for (std::size_t i = 0; i < d.row(r).size(); ++i) {
                const auto s = d.row(r).startNs(i), en = d.row(r).endNs(i);
                inWindow += (s < w.endNs && (en > w.startNs || s >= w.startNs)) ? 1 : 0;
            }
            EXPECT_EQ(total, inWindow);
        }
    }
    const double bytesPerOp = static_cast<double>(d.memoryBytes()) / static_cast<double>(d.gpuOpCount());
    RecordProperty("bytes_per_gpu_op", std::to_string(bytesPerOp));
    EXPECT_GT(d.memoryBytes(), d.itemCount() * 29); // the columns alone are 29 bytes per item
}
