// SPDX-License-Identifier: MIT
// Timeline analysis (core/include/ridgeline/core/timeline/timeline.h): every figure against values worked
// out by hand in the comments, first on plain ops, then through a session file.
#include "fixtures.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"
#include "testutil.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <tuple>
#include <vector>

using namespace ridgeline::core;

namespace {

TimelineGpuOp op(std::int64_t start, std::int64_t end, std::int64_t stream, GpuOpKind kind = GpuOpKind::Kernel,
    VerdictClass verdict = VerdictClass::Unknown)
{
    TimelineGpuOp o;
    o.startNs = start;
    o.endNs = end;
    o.streamId = stream;
    o.kind = kind;
    o.verdict = verdict;
    return o;
}

TimelineGpuOp launched(TimelineGpuOp o, std::int64_t launchStart, std::int64_t launchEnd)
{
    o.launchStartNs = launchStart;
    o.launchEndNs = launchEnd;
    return o;
}

// A stream's queue: stream, launches and maximum depth exactly, the average depth to double precision.
void expectQueue(const StreamQueueDepth& queue, std::int64_t streamId, std::int64_t launches, std::int64_t maxDepth,
    double averageDepth)
{
    EXPECT_EQ(queue.streamId, streamId);
    EXPECT_EQ(queue.launches, launches);
    EXPECT_EQ(queue.maxDepth, maxDepth);
    EXPECT_DOUBLE_EQ(queue.averageDepth, averageDepth);
}

// Which device a summary is of, and what it counts: (rank, device, kernels, collectives, memsets, memcpys).
std::tuple<int, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t> countsOf(const TimelineSummary& s)
{
    return { s.rank, s.deviceId, s.kernels, s.collectives, s.memsets, s.memcpys };
}

// Where its time goes: (span, idle, compute, non-compute), in ns.
std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t> timesOf(const TimelineSummary& s)
{
    return { s.spanNs, s.idleNs, s.computeNs, s.nonComputeNs };
}

std::int64_t verdictNs(const TimelineSummary& s, VerdictClass v)
{
    return s.timeByVerdictNs[static_cast<std::size_t>(v)];
}

// Stream 1: [0,100) and [200,300); stream 2: [50,150). Given out of order on purpose.
std::vector<TimelineGpuOp> twoStreams()
{
    return { op(200, 300, 1, GpuOpKind::Kernel, VerdictClass::ComputeBound),
        op(50, 150, 2, GpuOpKind::Kernel, VerdictClass::MemoryBound),
        op(0, 100, 1, GpuOpKind::Kernel, VerdictClass::ComputeBound) };
}

} // namespace

TEST(Timeline, EmptyHasNoSpanAndNoOverlap)
{
    std::vector<TimelineGpuOp> ops;
    const auto s = analyzeTimeline(ops);
    EXPECT_EQ(s.spanNs, 0);
    EXPECT_EQ(s.idleNs, 0);
    EXPECT_EQ(s.computeNs, 0);
    EXPECT_EQ(s.kernels + s.memcpys + s.memsets + s.collectives, 0);
    EXPECT_FALSE(s.commCompOverlapPct.has_value());
    EXPECT_TRUE(s.queues.empty());
}

TEST(Timeline, OverlappingKernelsOnTwoStreams)
{
    auto ops = twoStreams();
    const auto s = analyzeTimeline(ops);
    // span 0..300; union [0,150) + [200,300) = 250; idle 50; all of it compute.
    EXPECT_EQ(s.kernels, 3);
    EXPECT_EQ(s.startNs, 0);
    EXPECT_EQ(s.endNs, 300);
    EXPECT_EQ(s.spanNs, 300);
    EXPECT_EQ(s.busyNs, 250);
    EXPECT_EQ(s.idleNs, 50);
    EXPECT_EQ(s.computeNs, 250);
    EXPECT_EQ(s.nonComputeNs, 0);
    EXPECT_EQ(s.communicationNs, 0);
    EXPECT_FALSE(s.commCompOverlapPct.has_value()) << "no communication -> null";
    // Each verdict's own union: compute-bound [0,100)+[200,300) = 200, memory-bound [50,150) = 100;
    // 300 in all, more than the 250 busy, because [50,100) counts for both.
    EXPECT_EQ(verdictNs(s, VerdictClass::ComputeBound), 200);
    EXPECT_EQ(verdictNs(s, VerdictClass::MemoryBound), 100);
    EXPECT_EQ(verdictNs(s, VerdictClass::Unknown), 0);
    // The gap [150,200) is ended by an op without a launch call.
    EXPECT_EQ(s.idleGaps.unknownNs, 50);
    EXPECT_EQ(s.idleGaps.unknownCount, 1);
}

TEST(Timeline, CollectiveOverlappingHalfOfAComputeKernel)
{
    // Compute [0,100); collective [50,150); a copy [200,250).
    std::vector<TimelineGpuOp> ops { op(0, 100, 1),
        op(50, 150, 2, GpuOpKind::Collective, VerdictClass::CommunicationBound),
        op(200, 250, 1, GpuOpKind::Memcpy, VerdictClass::CommunicationBound) };
    const auto s = analyzeTimeline(ops);
    EXPECT_EQ(s.kernels, 1);
    EXPECT_EQ(s.collectives, 1);
    EXPECT_EQ(s.memcpys, 1);
    EXPECT_EQ(s.spanNs, 250);
    EXPECT_EQ(s.busyNs, 200); // [0,150) + [200,250)
    EXPECT_EQ(s.idleNs, 50);
    EXPECT_EQ(s.computeNs, 100);
    EXPECT_EQ(s.nonComputeNs, 100); // [100,150) collective only + [200,250) copy
    EXPECT_EQ(s.communicationNs, 100);
    EXPECT_EQ(s.overlapNs, 50);
    ASSERT_TRUE(s.commCompOverlapPct.has_value());
    EXPECT_DOUBLE_EQ(*s.commCompOverlapPct, 50.0);
    EXPECT_EQ(verdictNs(s, VerdictClass::CommunicationBound), 150);
    EXPECT_EQ(verdictNs(s, VerdictClass::Unknown), 100);
}

TEST(Timeline, CollectiveWithoutComputeOverlapsZeroPercent)
{
    std::vector<TimelineGpuOp> ops { op(0, 100, 1), op(100, 200, 2, GpuOpKind::Collective) };
    const auto s = analyzeTimeline(ops);
    ASSERT_TRUE(s.commCompOverlapPct.has_value());
    EXPECT_DOUBLE_EQ(*s.commCompOverlapPct, 0.0);
    EXPECT_EQ(s.idleNs, 0); // touching ops leave no gap
}

TEST(Timeline, IdleGapsByCauseAndQueueDepth)
{
    // One stream. A [0,100) launched at -50..-40. Gap [100,300): B's launch call starts at 150,
    // after the gap began -> host not launching (200). Gap [400,500): C was launched at 50..60,
    // before the gap -> waiting on a kernel (100). Gap [600,700): D has no launch call -> unknown (100).
    std::vector<TimelineGpuOp> ops { launched(op(0, 100, 1), -50, -40), launched(op(300, 400, 1), 150, 160),
        launched(op(500, 600, 1), 50, 60), op(700, 750, 1) };
    const auto s = analyzeTimeline(ops);
    EXPECT_EQ(s.spanNs, 750);
    EXPECT_EQ(s.idleNs, 400);
    EXPECT_EQ(s.idleGaps.hostNotLaunchingNs, 200);
    EXPECT_EQ(s.idleGaps.hostNotLaunchingCount, 1);
    EXPECT_EQ(s.idleGaps.waitingNs, 100);
    EXPECT_EQ(s.idleGaps.waitingCount, 1);
    EXPECT_EQ(s.idleGaps.unknownNs, 100);
    EXPECT_EQ(s.idleGaps.unknownCount, 1);
    // Queued: A [-40,0) lies before the span (0); B [160,300) = 140; C [60,500) = 440. Both queued
    // over [160,300) -> max 2; average (140 + 440) / 750.
    ASSERT_EQ(s.queues.size(), 1u);
    expectQueue(s.queues[0], 1, 3, 2, 580.0 / 750.0);
}

TEST(Timeline, BackToBackLaunchesDoNotStack)
{
    // X queued [0,10), Y queued [10,20): one leaves as the next arrives -> depth 1.
    std::vector<TimelineGpuOp> ops { launched(op(10, 20, 3), -5, 0), launched(op(20, 30, 3), 5, 10) };
    const auto s = analyzeTimeline(ops, TimeWindow { 0, 30 });
    ASSERT_EQ(s.queues.size(), 1u);
    EXPECT_EQ(s.queues[0].maxDepth, 1);
    EXPECT_DOUBLE_EQ(s.queues[0].averageDepth, 20.0 / 30.0);
}

TEST(Timeline, WindowClipsOps)
{
    auto ops = twoStreams();
    // [50,250): [50,100), [50,150), [200,250) -> span 200, busy 100 + 50, idle 50.
    const auto s = analyzeTimeline(ops, TimeWindow { 50, 250 });
    EXPECT_EQ(s.kernels, 3);
    EXPECT_EQ(s.startNs, 50);
    EXPECT_EQ(s.endNs, 250);
    EXPECT_EQ(s.spanNs, 200);
    EXPECT_EQ(s.busyNs, 150);
    EXPECT_EQ(s.idleNs, 50);
    EXPECT_EQ(s.computeNs, 150);
    EXPECT_EQ(verdictNs(s, VerdictClass::ComputeBound), 100); // [50,100) + [200,250)

    // [150,200) touches two ops but overlaps none.
    auto again = twoStreams();
    const auto none = analyzeTimeline(again, TimeWindow { 150, 200 });
    EXPECT_EQ(none.kernels, 0);
    EXPECT_EQ(none.spanNs, 0);
}

TEST(Timeline, InputOrderDoesNotMatter)
{
    // 600 ops on 3 streams with gaps, launched 50 ns ahead; summaries must match whether the ops
    // come in start order, stream by stream (3 runs: merged) or reversed (600 runs: sorted).
    std::vector<TimelineGpuOp> byStream;
    for (int s = 0; s < 3; ++s) {
        for (int i = 0; i < 200; ++i) {
            const std::int64_t start = i * 100 + s * 30 + (i % 7) * 5;
            byStream.push_back(
                launched(op(start, start + 40 + s * 10, s, s == 2 ? GpuOpKind::Collective : GpuOpKind::Kernel,
                             static_cast<VerdictClass>(i % 5)),
                    start - 50, start - 45));
        }
    }
    auto sorted = byStream;
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const TimelineGpuOp& a, const TimelineGpuOp& b) { return a.startNs < b.startNs; });
    std::vector<TimelineGpuOp> reversed(sorted.rbegin(), sorted.rend());
    const auto expected = analyzeTimeline(sorted);
    for (auto* input : { &byStream, &reversed }) {
        const auto s = analyzeTimeline(*input);
        EXPECT_EQ(s.spanNs, expected.spanNs);
        EXPECT_EQ(s.busyNs, expected.busyNs);
        EXPECT_EQ(s.computeNs, expected.computeNs);
        EXPECT_EQ(s.overlapNs, expected.overlapNs);
        EXPECT_EQ(s.timeByVerdictNs, expected.timeByVerdictNs);
        EXPECT_EQ(s.idleGaps.waitingNs, expected.idleGaps.waitingNs);
        ASSERT_EQ(s.queues.size(), 3u);
        for (std::size_t q = 0; q < 3; ++q) {
            EXPECT_EQ(s.queues[q].maxDepth, expected.queues[q].maxDepth);
            EXPECT_DOUBLE_EQ(s.queues[q].averageDepth, expected.queues[q].averageDepth);
        }
    }
    EXPECT_GT(expected.overlapNs, 0);
    EXPECT_EQ(expected.collectives, 200);
}

TEST(Timeline, OpsThatStartTogetherAreTakenStreamByStream)
{
    // Stream 2 runs [0,10). At 20 two ops end the gap at once: stream 5's was launched at 15, after
    // the GPU went idle (the host was late), stream 3's at 5, before (it waited). Ties go by stream,
    // lowest first, so the gap is stream 3's to explain, in every order the ops may come in.
    const std::vector<TimelineGpuOp> ops { launched(op(0, 10, 2), -5, -4), launched(op(20, 30, 5), 15, 16),
        launched(op(20, 25, 3), 5, 6) };
    std::vector<std::size_t> order { 0, 1, 2 };
    do {
        std::vector<TimelineGpuOp> input;
        for (std::size_t i : order)
            input.push_back(ops[i]);
        const auto s = analyzeTimeline(input);
        EXPECT_EQ(s.idleGaps.waitingCount, 1);
        EXPECT_EQ(s.idleGaps.waitingNs, 10);
        EXPECT_EQ(s.idleGaps.hostNotLaunchingCount, 0);
    } while (std::next_permutation(order.begin(), order.end()));

    // The same with 300 streams whose first ops all start at 1,000 after a gap: merged as 300 runs
    // (stream by stream), as one run sorted by start only (the order of the file), and sorted
    // (reversed), the answer is the lowest stream's: waiting (launched at 5), 990 ns. Their second
    // ops start at 2,001.. 2,300, stream 1's first, ending the next gap (1,050 to 2,001): waiting too.
    std::vector<TimelineGpuOp> byStream { launched(op(0, 10, 0), -5, -4) };
    for (std::int64_t stream = 1; stream <= 300; ++stream) {
        const std::int64_t launch = stream == 1 ? 5 : 500; // only stream 1's was issued before the gap
        byStream.push_back(launched(op(1'000, 1'050, stream), launch, launch + 1));
        byStream.push_back(launched(op(2'000 + stream, 2'010 + stream, stream), launch, launch + 1));
    }
    auto byStart = byStream;
    std::stable_sort(byStart.begin(), byStart.end(),
        [](const TimelineGpuOp& a, const TimelineGpuOp& b) { return a.startNs < b.startNs; });
    std::reverse(byStart.begin() + 1, byStart.begin() + 301); // ties in the file: highest stream first
    std::vector<TimelineGpuOp> reversed(byStart.rbegin(), byStart.rend());
    for (auto* input : { &byStream, &byStart, &reversed }) {
        const auto s = analyzeTimeline(*input);
        EXPECT_EQ(s.idleGaps.waitingCount, 2);
        EXPECT_EQ(s.idleGaps.hostNotLaunchingCount, 0); // 1 when a tie went to another stream
        EXPECT_EQ(s.idleGaps.waitingNs, 990 + 951);
    }
}

TEST(Timeline, ParseTimeWindow)
{
    auto w = parseTimeWindow("1000:2000");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().startNs, 1000);
    EXPECT_EQ(w.value().endNs, 2000);
    w = parseTimeWindow("1.5ms:2ms");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().startNs, 1'500'000);
    EXPECT_EQ(w.value().endNs, 2'000'000);
    w = parseTimeWindow("10us:1s");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().startNs, 10'000);
    EXPECT_EQ(w.value().endNs, 1'000'000'000);
    EXPECT_EQ(parseTimeWindow("5ns:6ns").value().endNs, 6);
    // Epoch-ns bounds are exact (through a double, 1661203463063943000 became ...942912).
    w = parseTimeWindow("1661203463063943000:1661203463063943001");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().startNs, 1661203463063943000);
    EXPECT_EQ(w.value().endNs, 1661203463063943001);
    // Decimals with a unit, worked digit by digit: 1661203463.063943001 s = ...063943001 ns.
    EXPECT_EQ(parseTimeWindow("0:1661203463.063943001s").value().endNs, 1661203463063943001);
    EXPECT_EQ(parseTimeWindow("0:1661203463063.943001ms").value().endNs, 1661203463063943001);
    EXPECT_EQ(parseTimeWindow("0:1661203463063943.001us").value().endNs, 1661203463063943001);
    EXPECT_EQ(parseTimeWindow("0:.5us").value().endNs, 500);
    EXPECT_EQ(parseTimeWindow("0:1.0005us").value().endNs, 1001); // 1000.5 ns, half rounds away
    EXPECT_EQ(parseTimeWindow("0:1.0004999us").value().endNs, 1000);
    EXPECT_EQ(parseTimeWindow("-2ms:-1.5ms").value().startNs, -2'000'000);
    EXPECT_EQ(parseTimeWindow("0:9223372036854775807").value().endNs, std::numeric_limits<std::int64_t>::max());
    for (const char* bad : { "", "1000", "2000:1000", "5:5", "a:b", "1:2h", ":5", "1ms:", "0:9223372036854775808",
             "0:9223372036.854775808s", "0:1e9", "0:1.", "0:.", "0:1.2.3", "0:--1", "0: 5", "0:ms", "0:0x10" }) {
        auto r = parseTimeWindow(bad);
        ASSERT_TRUE(r.hasError()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    }
}

// A session with two ranks on two devices (values worked out in the comments below).
class TimelineSession : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_path = m_dir.file("timeline.ridge");
        WriterOptions options;
        options.replaceExisting = true;
        auto created = SessionWriter::create(m_path, options);
        ASSERT_TRUE(created.ok()) << created.error().message;
        SessionWriter& w = created.value();
        ASSERT_TRUE(w.setMeta("source", "fixture").ok());
        ASSERT_TRUE(ridgeline::testing::writeTwoRanks(w, "test GPU", false).ok());
        auto compute = w.internKernelName("compute");
        auto nccl = w.internKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
        ASSERT_TRUE(compute.ok() && nccl.ok());
        using ridgeline::testing::kernelRecord;
        const Kernel kernels[] = {
            kernelRecord(1, 0, 7, compute.value(), 1000, 2000, 1),
            kernelRecord(1, 0, 9, nccl.value(), 1500, 2500, 2), // a collective: a comm_ops row names it
            kernelRecord(1, 0, 7, compute.value(), 5000, 6000, 3),
            kernelRecord(2, 1, 7, compute.value(), 1000, 3000, 1),
        };
        auto first = w.addKernels(kernels);
        ASSERT_TRUE(first.ok());
        MemOp memset;
        memset.processId = 1;
        memset.deviceId = 0;
        memset.streamId = 7;
        memset.correlationId = 4;
        memset.kind = MemOpKind::Memset;
        memset.bytes = 1024;
        memset.startNs = 4000;
        memset.endNs = 4500;
        ASSERT_TRUE(w.addMemOps(std::span<const MemOp>(&memset, 1)).ok());
        const ApiCall calls[] = {
            { 0, 1, 100, "runtime", "cudaLaunchKernel", 1, 900, 950, 0 },
            { 0, 1, 100, "runtime", "cudaLaunchKernel", 2, 960, 970, 0 },
            { 0, 1, 100, "runtime", "cudaLaunchKernel", 3, 4600, 4610, 0 },
            { 0, 1, 100, "runtime", "cudaMemsetAsync", 4, 2000, 2010, 0 },
            { 0, 2, 101, "runtime", "cudaLaunchKernel", 1, 500, 600, 0 },
        };
        ASSERT_TRUE(w.addApiCalls(calls).ok());
        CommOp carried;
        carried.kernelId = first.value() + 1;
        carried.processId = 1;
        carried.deviceId = 0;
        carried.collective = "AllReduce";
        carried.startNs = 1500;
        carried.endNs = 2500;
        CommOp standalone; // no kernel: a GPU op of its own
        standalone.processId = 2;
        standalone.deviceId = 1;
        standalone.collective = "AllReduce";
        standalone.startNs = 3500;
        standalone.endNs = 4000;
        const CommOp comms[] = { carried, standalone };
        ASSERT_TRUE(w.addCommOps(comms).ok());
        const NvtxRange ranges[] = {
            { 0, 1, 100, "default", "ProfilerStep#1", 0, 2200, 0, 0 },
            { 0, 1, 100, "default", "ProfilerStep#2", 2200, 7000, 0, 0 },
        };
        ASSERT_TRUE(w.addNvtxRanges(ranges).ok());
        ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());
    }

    std::vector<TimelineSummary> analyse(const TimelineSelection& selection = {})
    {
        auto reader = SessionReader::open(m_path);
        EXPECT_TRUE(reader.ok());
        auto result = analyzeSessionTimeline(reader.value(), selection);
        EXPECT_TRUE(result.ok()) << result.error().message;
        return result.ok() ? result.value() : std::vector<TimelineSummary> {};
    }

    ridgeline::testing::TempDir m_dir;
    std::string m_path;
};

TEST_F(TimelineSession, WholeSessionPerRankAndDevice)
{
    const auto all = analyse();
    ASSERT_EQ(all.size(), 2u);
    // Rank 0, device 0: compute [1000,2000) and [5000,6000), collective [1500,2500), memset [4000,4500).
    const auto& r0 = all[0];
    EXPECT_EQ(countsOf(r0), std::make_tuple(0, 0, 2, 1, 1, 0));
    EXPECT_EQ(timesOf(r0), std::make_tuple(5000, 2000, 2000, 1000)); // span 1000 .. 6000
    EXPECT_EQ(r0.busyNs, 3000); // 1500 + 500 + 1000
    EXPECT_EQ(r0.communicationNs, 1000);
    ASSERT_TRUE(r0.commCompOverlapPct.has_value());
    EXPECT_DOUBLE_EQ(*r0.commCompOverlapPct, 50.0); // [1500,2000) of [1500,2500)
    EXPECT_EQ(verdictNs(r0, VerdictClass::CommunicationBound), 1000);
    EXPECT_EQ(verdictNs(r0, VerdictClass::MemoryBound), 500); // the memset
    EXPECT_EQ(verdictNs(r0, VerdictClass::Unknown), 2000); // no counters
    // Gap [2500,4000) ended by the memset, issued at 2000 -> waiting. Gap [4500,5000) ended by a
    // kernel launched at 4600 -> host not launching.
    EXPECT_EQ(r0.idleGaps.waitingNs, 1500);
    EXPECT_EQ(r0.idleGaps.hostNotLaunchingNs, 500);
    EXPECT_EQ(r0.idleGaps.unknownNs, 0);
    // Stream 7: queued [950,1000) (before the span), [2010,4000) = 1990, [4610,5000) = 390.
    // Stream 9: queued [970,1500) clipped to [1000,1500) = 500.
    ASSERT_EQ(r0.queues.size(), 2u);
    expectQueue(r0.queues[0], 7, 3, 1, 2380.0 / 5000.0);
    EXPECT_EQ(r0.queues[1].streamId, 9);
    EXPECT_DOUBLE_EQ(r0.queues[1].averageDepth, 500.0 / 5000.0);

    // Rank 1, device 1: compute [1000,3000), a collective without kernel [3500,4000).
    const auto& r1 = all[1];
    EXPECT_EQ(countsOf(r1), std::make_tuple(1, 1, 1, 1, 0, 0)); // no memsets, no copies
    EXPECT_EQ(timesOf(r1), std::make_tuple(3000, 500, 2000, 500));
    ASSERT_TRUE(r1.commCompOverlapPct.has_value());
    EXPECT_DOUBLE_EQ(*r1.commCompOverlapPct, 0.0);
    EXPECT_EQ(r1.idleGaps.unknownNs, 500); // ended by the collective, which has no launch call
}

TEST_F(TimelineSession, ProfilerStepChoosesTheWindow)
{
    auto reader = SessionReader::open(m_path);
    ASSERT_TRUE(reader.ok());
    auto window = profilerStepWindow(reader.value(), 2);
    ASSERT_TRUE(window.ok());
    EXPECT_EQ(window.value().startNs, 2200);
    EXPECT_EQ(window.value().endNs, 7000);
    auto missing = profilerStepWindow(reader.value(), 99);
    ASSERT_TRUE(missing.hasError());
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);

    TimelineSelection step;
    step.step = 2;
    const auto all = analyse(step);
    ASSERT_EQ(all.size(), 2u);
    // Rank 0 from 2200: collective [2200,2500), memset [4000,4500), compute [5000,6000).
    EXPECT_EQ(all[0].kernels, 1);
    EXPECT_EQ(all[0].collectives, 1);
    EXPECT_EQ(all[0].spanNs, 3800);
    EXPECT_EQ(all[0].busyNs, 1800);
    EXPECT_EQ(all[0].idleNs, 2000);
    EXPECT_EQ(all[0].computeNs, 1000);
    EXPECT_EQ(all[0].communicationNs, 300);
    EXPECT_DOUBLE_EQ(all[0].commCompOverlapPct.value_or(-1), 0.0);
    // Rank 1: compute [2200,3000), collective [3500,4000).
    EXPECT_EQ(all[1].spanNs, 1800);
    EXPECT_EQ(all[1].idleNs, 500);

    // Step 1 is [0,2200): rank 1's kernel [1000,3000) is clipped to [1000,2200).
    step.step = 1;
    const auto first = analyse(step);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0].spanNs, 1200); // 1000 .. 2200
    EXPECT_DOUBLE_EQ(first[0].commCompOverlapPct.value_or(-1), 500.0 / 700.0 * 100.0);
    EXPECT_EQ(first[1].computeNs, 1200);
}

TEST_F(TimelineSession, UnknownStepAndEmptyWindowAreErrors)
{
    auto reader = SessionReader::open(m_path);
    ASSERT_TRUE(reader.ok());
    TimelineSelection step;
    step.step = 7;
    auto unknown = analyzeSessionTimeline(reader.value(), step);
    ASSERT_TRUE(unknown.hasError());
    EXPECT_EQ(unknown.error().code, ErrorCode::NotFound);
    TimelineSelection empty;
    empty.window = TimeWindow { 10, 10 };
    auto bad = analyzeSessionTimeline(reader.value(), empty);
    ASSERT_TRUE(bad.hasError());
    EXPECT_EQ(bad.error().code, ErrorCode::InvalidArgument);
}
