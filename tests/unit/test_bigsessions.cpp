// SPDX-License-Identifier: MIT
// What sessions of 100 million GPU ops need (issue 38), on small sessions: the kernel summaries read
// in two halves on two readers, memory ops scanned in storage order, and the synthetic GPU-op
// sessions the benchmarks measure (tests/support/gpuopsfixture.h). No timing here: the figures are
// in docs/PERFORMANCE.md.
#include "fixtures.h"
#include "gpuopsfixture.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <tuple>
#include <vector>

// In core's namespace, not with using-directives: the unity build compiles this file with others
// (`testing` is gtest's and Ridgeline's).
namespace ridgeline::core {

namespace {

// Twelve kernels of two names on two devices; with `firstUpperId` they get ids 1..6 and
// firstUpperId..firstUpperId+5, else 1..12.
void writeKernels(const std::string& path, std::int64_t firstUpperId)
{
    WriterOptions options;
    options.replaceExisting = true;
    auto created = SessionWriter::create(path, options);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& w = created.value();
    ASSERT_TRUE(testing::writeTwoRanks(w, "NVIDIA H100", true).ok());
    const auto a = w.internKernelName("kernelA").value();
    const auto b = w.internKernelName("kernelB").value();
    std::vector<Kernel> kernels;
    for (std::int64_t i = 0; i < 12; ++i) {
        Kernel k = testing::kernelRecord(1 + i % 2, i % 2, 7, i % 3 == 0 ? a : b, 1'000 * i, 1'000 * i + 100 + 37 * i);
        k.id = i < 6 || firstUpperId == 0 ? i + 1 : firstUpperId + (i - 6);
        kernels.push_back(k);
    }
    ASSERT_TRUE(w.addKernels(kernels).ok());
    ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());
}

using RowKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

std::map<std::pair<std::string, std::int64_t>, RowKey> figuresOf(const std::vector<KernelSummary>& rows)
{
    std::map<std::pair<std::string, std::int64_t>, RowKey> out;
    for (const auto& r : rows)
        out[{ r.name, r.deviceId }] = { r.launches, r.totalNs, r.minNs, r.maxNs, r.graphLevelLaunches,
            static_cast<std::int64_t>(r.shareOfKernelTime * 1e12) };
    return out;
}

} // namespace

// Ids spread over more than the split threshold: the two halves are read on two readers and added
// up; the rows are those of one scan, in the same order. (A session stores its totals when it is
// written, store/kerneltotals.h; the kernels are scanned when it does not.)
TEST(BigSessions, KernelSummariesOfTwoHalvesEqualOneScan)
{
    testing::TempDir dir;
    const auto split = dir.file("split.ridge");
    const auto dense = dir.file("dense.ridge");
    writeKernels(split, 5'000'000);
    writeKernels(dense, 0);
    // Without the totals the writer stored (test_kerneltotals.cpp): the kernels are read.
    testing::execSql(split, "DELETE FROM stored_summaries");
    testing::execSql(dense, "DELETE FROM stored_summaries");
    auto splitReader = SessionReader::open(split);
    auto denseReader = SessionReader::open(dense);
    ASSERT_TRUE(splitReader.ok() && denseReader.ok());
    const auto range = splitReader.value().kernelIdRange();
    ASSERT_TRUE(range.ok() && range.value());
    EXPECT_EQ(*range.value(), (std::pair<std::int64_t, std::int64_t> { 1, 5'000'005 }));

    const auto halves = summarizeKernels(splitReader.value());
    const auto once = summarizeKernels(denseReader.value());
    ASSERT_TRUE(halves.ok() && once.ok());
    ASSERT_EQ(halves.value().size(), 4u); // two names on two devices
    EXPECT_EQ(figuresOf(halves.value()), figuresOf(once.value()));
    for (std::size_t i = 0; i < once.value().size(); ++i) {
        EXPECT_EQ(halves.value()[i].name, once.value()[i].name);
        EXPECT_EQ(halves.value()[i].deviceId, once.value()[i].deviceId);
    }
    // By hand: kernelA runs as kernels 0, 6 (device 0) and 3, 9 (device 1).
    std::int64_t launches = 0;
    for (const auto& r : halves.value())
        launches += r.launches;
    EXPECT_EQ(launches, 12);
    const auto a0 = std::find_if(halves.value().begin(), halves.value().end(),
        [](const KernelSummary& r) { return r.name == "kernelA" && r.deviceId == 0; });
    ASSERT_NE(a0, halves.value().end());
    EXPECT_EQ(a0->launches, 2);
    EXPECT_EQ(a0->minNs, 100);
    EXPECT_EQ(a0->maxNs, 100 + 37 * 6);
    EXPECT_EQ(a0->totalNs, 100 + 100 + 37 * 6);
}

TEST(BigSessions, KernelIdRangeOfAnEmptyTableIsNone)
{
    testing::TempDir dir;
    const auto path = dir.file("empty.ridge");
    ASSERT_TRUE(testing::writeSyntheticSession(path, { .kernels = 0 }).ok());
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    const auto range = reader.value().kernelIdRange();
    ASSERT_TRUE(range.ok());
    EXPECT_FALSE(range.value().has_value());
    EXPECT_TRUE(summarizeKernels(reader.value()).value().empty());
}

TEST(BigSessions, ASessionInMemoryCannotBeReopened)
{
    testing::TempDir dir;
    const auto path = dir.file("small.ridge");
    ASSERT_TRUE(testing::writeSmallFixture(path).ok());
    auto image = SessionReader::openImage(testing::readBytes(path), "image");
    ASSERT_TRUE(image.ok());
    EXPECT_FALSE(image.value().reopen().ok());
    auto file = SessionReader::open(path);
    ASSERT_TRUE(file.ok());
    auto again = file.value().reopen();
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again.value().counts().value().kernels, file.value().counts().value().kernels);
}

// The narrow memory-op scan holds what memOps() holds of every op, in storage order.
TEST(BigSessions, MemOpPlacementsAreTheMemOps)
{
    testing::TempDir dir;
    const auto path = dir.file("gpuops.ridge");
    testing::GpuOpsSpec spec;
    spec.ops = 5'000;
    spec.ranks = 2;
    ASSERT_TRUE(testing::writeSyntheticGpuOps(path, spec).ok());
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    auto memOps = reader.value().memOps();
    ASSERT_TRUE(memOps.ok());
    std::vector<SessionReader::MemOpPlacement> placements;
    ASSERT_TRUE(reader.value()
                    .forEachMemOpPlacement([&](const SessionReader::MemOpPlacement& m) {
                        placements.push_back(m);
                        return true;
                    })
                    .ok());
    ASSERT_EQ(placements.size(), memOps.value().size());
    std::sort(memOps.value().begin(), memOps.value().end(), [](const MemOp& a, const MemOp& b) { return a.id < b.id; });
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const auto& m = memOps.value()[i];
        const auto& p = placements[i];
        EXPECT_EQ(std::tie(p.id, p.processId, p.deviceId, p.streamId, p.correlationId, p.startNs, p.endNs),
            std::tie(m.id, m.processId, m.deviceId, m.streamId, m.correlationId, m.startNs, m.endNs));
        EXPECT_EQ(p.kind, m.kind);
    }
    int stops = 0;
    ASSERT_TRUE(
        reader.value().forEachMemOpPlacement([&](const SessionReader::MemOpPlacement&) { return ++stops < 3; }).ok());
    EXPECT_EQ(stops, 3);
}

// The generator's sessions: every op where the spec puts it, counted by the timeline analysis
// (which scans memory ops in storage order) as the spec counts them.
TEST(BigSessions, SyntheticGpuOpsAreCountedByTheTimeline)
{
    testing::TempDir dir;
    const auto path = dir.file("gpuops.ridge");
    testing::GpuOpsSpec spec;
    spec.ops = 20'000;
    spec.ranks = 3;
    ASSERT_TRUE(testing::writeSyntheticGpuOps(path, spec).ok());
    const auto expected = testing::gpuOpsCounts(spec);
    EXPECT_EQ(expected.kernels + expected.copies + expected.memsets, spec.ops);
    EXPECT_EQ(expected.copies, spec.ops / spec.copyEvery);

    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    const auto counts = reader.value().counts().value();
    EXPECT_EQ(counts.kernels, expected.kernels);
    EXPECT_EQ(counts.memcpys, expected.copies);
    EXPECT_EQ(counts.memsets, expected.memsets);
    EXPECT_EQ(counts.processes, spec.ranks);
    EXPECT_EQ(counts.devices, spec.ranks * spec.devicesPerRank);
    EXPECT_EQ(reader.value().meta().value().at(metakey::Source), "fixture");

    auto timeline = analyzeSessionTimeline(reader.value());
    ASSERT_TRUE(timeline.ok()) << timeline.error().message;
    ASSERT_EQ(timeline.value().size(), static_cast<std::size_t>(spec.ranks * spec.devicesPerRank));
    std::int64_t kernels = 0, memcpys = 0, memsets = 0;
    for (const auto& s : timeline.value()) {
        kernels += s.kernels;
        memcpys += s.memcpys;
        memsets += s.memsets;
        EXPECT_EQ(s.deviceId / spec.devicesPerRank, s.rank);
        EXPECT_GT(s.busyNs, 0);
        EXPECT_LE(s.busyNs, s.spanNs);
    }
    EXPECT_EQ(kernels, expected.kernels);
    EXPECT_EQ(memcpys, expected.copies);
    EXPECT_EQ(memsets, expected.memsets);
}

// Above 2 M kernel ids the whole-session timeline is read in two parts on two readers (and its ops
// kept stream by stream): the summaries equal those of the same ops with dense ids, read in one.
TEST(BigSessions, TimelineOfTwoPartsEqualsOneScan)
{
    testing::TempDir dir;
    const auto dense = dir.file("dense.ridge");
    const auto split = dir.file("split.ridge");
    testing::GpuOpsSpec spec;
    spec.ops = 30'000;
    spec.ranks = 2;
    ASSERT_TRUE(testing::writeSyntheticGpuOps(dense, spec).ok());
    std::filesystem::copy_file(dense, split);
    testing::execSql(split, "UPDATE kernels SET id = id + 5000000 WHERE id > (SELECT max(id) / 3 FROM kernels)");
    auto a = SessionReader::open(dense);
    auto b = SessionReader::open(split);
    ASSERT_TRUE(a.ok() && b.ok());
    const auto range = b.value().kernelIdRange();
    ASSERT_TRUE(range.ok() && range.value());
    EXPECT_GT(range.value()->second - range.value()->first, 2'000'000);
    const auto once = analyzeSessionTimeline(a.value());
    const auto parts = analyzeSessionTimeline(b.value());
    ASSERT_TRUE(once.ok() && parts.ok());
    ASSERT_EQ(once.value().size(), 4u);
    ASSERT_EQ(parts.value().size(), once.value().size());
    for (std::size_t i = 0; i < once.value().size(); ++i) {
        const auto& x = once.value()[i];
        const auto& y = parts.value()[i];
        EXPECT_EQ(std::tie(x.rank, x.deviceId, x.kernels, x.memcpys, x.memsets, x.collectives, x.startNs, x.endNs,
                      x.spanNs, x.busyNs, x.idleNs, x.computeNs, x.nonComputeNs, x.communicationNs, x.overlapNs),
            std::tie(y.rank, y.deviceId, y.kernels, y.memcpys, y.memsets, y.collectives, y.startNs, y.endNs, y.spanNs,
                y.busyNs, y.idleNs, y.computeNs, y.nonComputeNs, y.communicationNs, y.overlapNs));
        EXPECT_EQ(x.timeByVerdictNs, y.timeByVerdictNs);
        EXPECT_EQ(std::tie(x.idleGaps.unknownNs, x.idleGaps.unknownCount, x.idleGaps.waitingNs),
            std::tie(y.idleGaps.unknownNs, y.idleGaps.unknownCount, y.idleGaps.waitingNs));
        ASSERT_EQ(x.queues.size(), y.queues.size());
        for (std::size_t q = 0; q < x.queues.size(); ++q) {
            EXPECT_EQ(x.queues[q].streamId, y.queues[q].streamId);
            EXPECT_EQ(x.queues[q].launches, y.queues[q].launches);
            EXPECT_EQ(x.queues[q].maxDepth, y.queues[q].maxDepth);
        }
        EXPECT_GT(x.kernels, 0);
        EXPECT_GT(x.memcpys + x.memsets, 0);
    }
}

} // namespace ridgeline::core
