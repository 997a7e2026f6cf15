// SPDX-License-Identifier: MIT
// The kernel totals a session stores when it is finished (store/kerneltotals.h, schema v8): they
// equal a scan of the kernels whatever the times; a session edited by another tool, one whose writer
// failed part-way, an older one and one with rows no launches can give are scanned instead; `check`
// reports stored totals that differ from the kernels.
#include "fixtures.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"
#include "testutil.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <vector>

// In core's namespace, not with using-directives: the unity build compiles this file with others.
namespace ridgeline::core {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// Three names on two devices, with hostile times (an end before its start, durations that
// overflow a sum), and graph-level kernels marked after they were written (one marked twice, one
// unmarked again).
void writeKernels(const std::string& path)
{
    WriterOptions options;
    options.replaceExisting = true;
    auto created = SessionWriter::create(path, options);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& w = created.value();
    ASSERT_TRUE(testing::writeTwoRanks(w, "NVIDIA H100", true).ok());
    const std::int64_t names[] = { w.internKernelName("kernelA").value(), w.internKernelName("kernelB").value(),
        w.internKernelName("kernelC").value() };
    std::vector<Kernel> kernels;
    for (std::int64_t i = 0; i < 30; ++i)
        kernels.push_back(testing::kernelRecord(1 + i % 2, i % 2, 7, names[i % 3], 1'000 * i, 1'000 * i + 10 * i));
    kernels[4].endNs = kernels[4].startNs - 50; // ends before it starts: 0 ns
    kernels[5].startNs = 0; // kernelC on device 1: two durations near INT64_MAX, saturating
    kernels[5].endNs = kMax;
    kernels[11].startNs = 1;
    kernels[11].endNs = kMax;
    kernels[7].graphRangeKernels = 3;
    ASSERT_TRUE(w.addKernels(std::span(kernels).first(20)).ok());
    ASSERT_TRUE(w.addKernels(std::span(kernels).subspan(20)).ok());
    const std::int64_t marked[] = { 1, 2, 3, 2 };
    ASSERT_TRUE(w.setGraphRangeKernels(marked, 4).ok());
    const std::int64_t unmarked[] = { 8 }; // kernels[7], marked when written
    ASSERT_TRUE(w.setGraphRangeKernels(unmarked, 0).ok());
    ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());
}

std::map<std::pair<std::int64_t, std::int64_t>, KernelTotals> byKey(const std::vector<KernelTotals>& rows)
{
    std::map<std::pair<std::int64_t, std::int64_t>, KernelTotals> out;
    for (const auto& r : rows)
        EXPECT_TRUE(out.emplace(std::pair { r.nameId, r.deviceId }, r).second) << "one row per name and device";
    return out;
}

// What a scan of the kernels gives, worked out here without KernelTotalsBuilder.
std::map<std::pair<std::int64_t, std::int64_t>, KernelTotals> scanned(SessionReader& reader)
{
    std::map<std::pair<std::int64_t, std::int64_t>, KernelTotals> out;
    EXPECT_TRUE(reader
                    .forEachKernelTiming([&](const SessionReader::KernelTiming& k) {
                        const std::int64_t d = std::max<std::int64_t>(saturatingSub(k.endNs, k.startNs), 0);
                        auto [it, fresh] = out.try_emplace(
                            { k.nameId, k.deviceId }, KernelTotals { k.nameId, k.deviceId, 0, 0, 0, d, d });
                        auto& t = it->second;
                        t.launches += 1;
                        t.graphLevelLaunches += k.graphRangeKernels > 0 ? 1 : 0;
                        t.totalNs = saturatingAdd(t.totalNs, d);
                        t.minNs = std::min(t.minNs, d);
                        t.maxNs = std::max(t.maxNs, d);
                    })
                    .ok());
    return out;
}

std::optional<std::vector<KernelTotals>> storedOf(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto stored = reader.value().storedKernelTotals();
    EXPECT_TRUE(stored.ok()) << stored.error().message;
    return stored.value();
}

std::int64_t warningsOf(const std::string& path, const std::string& kind)
{
    auto check = checkSession(path);
    EXPECT_TRUE(check.ok()) << check.error().message;
    for (const auto& w : check.value().warnings)
        if (w.kind == kind)
            return w.count;
    return 0;
}

} // namespace

TEST(KernelTotals, StoredWhenFinishedEqualToAScan)
{
    testing::TempDir dir;
    const auto path = dir.file("totals.ridge");
    writeKernels(path);
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    auto stored = reader.value().storedKernelTotals();
    ASSERT_TRUE(stored.ok()) << stored.error().message;
    ASSERT_TRUE(stored.value().has_value());
    const auto rows = byKey(*stored.value());
    EXPECT_EQ(rows, scanned(reader.value()));
    EXPECT_EQ(rows.size(), 6u); // three names on two devices
    // By hand: kernelC on device 1 is kernels 5, 11, 17, 23, 29; two of them last INT64_MAX - 0 and - 1.
    const auto c1 = std::find_if(rows.begin(), rows.end(),
        [](const auto& r) { return r.second.deviceId == 1 && r.second.launches == 5 && r.second.totalNs == kMax; });
    ASSERT_NE(c1, rows.end());
    EXPECT_EQ(c1->second.minNs, 170);
    EXPECT_EQ(c1->second.maxNs, kMax);
    std::int64_t graphLevel = 0;
    for (const auto& [key, r] : rows)
        graphLevel += r.graphLevelLaunches;
    EXPECT_EQ(graphLevel, 3); // kernels 1, 2 and 3; kernel 8 unmarked again
    EXPECT_EQ(warningsOf(path, "stale_kernel_totals"), 0);
}

// The kernel table reads the stored rows; with them forgotten it scans, to the same rows in the same
// order.
TEST(KernelTotals, SummariesFromThemEqualSummariesOfAScan)
{
    testing::TempDir dir;
    const auto path = dir.file("totals.ridge");
    writeKernels(path);
    auto fromStored = SessionReader::open(path);
    ASSERT_TRUE(fromStored.ok());
    const auto a = summarizeKernels(fromStored.value());
    ASSERT_TRUE(a.ok()) << a.error().message;
    testing::execSql(path, "DELETE FROM stored_summaries");
    ASSERT_FALSE(storedOf(path).has_value());
    auto fromScan = SessionReader::open(path);
    ASSERT_TRUE(fromScan.ok());
    const auto b = summarizeKernels(fromScan.value());
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_EQ(a.value().size(), b.value().size());
    for (std::size_t i = 0; i < a.value().size(); ++i) {
        const auto& x = a.value()[i];
        const auto& y = b.value()[i];
        EXPECT_EQ(std::tie(x.nameId, x.deviceId, x.name, x.launches, x.graphLevelLaunches, x.totalNs, x.minNs, x.maxNs),
            std::tie(y.nameId, y.deviceId, y.name, y.launches, y.graphLevelLaunches, y.totalNs, y.minNs, y.maxNs));
        EXPECT_EQ(x.shareOfKernelTime, y.shareOfKernelTime);
    }
}

// Another SQLite tool changing the kernels (a script, the sqlite3 shell) makes the session forget
// its totals: the kernel table then shows the kernels as they are.
TEST(KernelTotals, EditsByAnotherToolForgetThem)
{
    const char* edits[] = {
        "UPDATE kernels SET end_ns = end_ns + 1000 WHERE id = 3",
        "UPDATE kernels SET name_id = (SELECT min(id) FROM kernel_names) WHERE id = 2",
        "UPDATE kernels SET graph_range_kernels = 9 WHERE id = 10",
        "DELETE FROM kernels WHERE id = 4",
        "INSERT INTO kernels SELECT id + 100, process_id, device_id, context_id, stream_id, correlation_id, name_id, "
        "start_ns, end_ns, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, "
        "dynamic_shared, "
        "graph_id, graph_node_id, graph_range_kernels FROM kernels WHERE id = 1",
    };
    for (const char* edit : edits) {
        testing::TempDir dir;
        const auto path = dir.file("edited.ridge");
        writeKernels(path);
        testing::execSql(path, edit);
        EXPECT_FALSE(storedOf(path).has_value()) << edit;
        EXPECT_EQ(warningsOf(path, "stale_kernel_totals"), 0) << edit;
    }
    // An edit of other columns keeps them: they do not count there.
    testing::TempDir dir;
    const auto path = dir.file("kept.ridge");
    writeKernels(path);
    testing::execSql(path, "UPDATE kernels SET registers = 99");
    EXPECT_TRUE(storedOf(path).has_value());
}

// Stored rows that no launches can give (a hostile or damaged file) are not read; rows that could
// be true but differ from the kernels are read, and `check` says so.
TEST(KernelTotals, ImplausibleRowsAreNotReadAndCheckReportsStaleOnes)
{
    const char* implausible[] = {
        "UPDATE kernel_totals SET launches = 0 WHERE name_id = (SELECT min(name_id) FROM kernel_totals)",
        "UPDATE kernel_totals SET graph_level_launches = launches + 1",
        "UPDATE kernel_totals SET min_ns = -1",
        "UPDATE kernel_totals SET max_ns = min_ns - 1",
        "UPDATE kernel_totals SET total_ns = max_ns - 1 WHERE max_ns > 0",
    };
    for (const char* damage : implausible) {
        testing::TempDir dir;
        const auto path = dir.file("damaged.ridge");
        writeKernels(path);
        testing::execSql(path, damage);
        EXPECT_FALSE(storedOf(path).has_value()) << damage;
        EXPECT_GE(warningsOf(path, "stale_kernel_totals"), 1) << damage;
    }
    testing::TempDir dir;
    const auto path = dir.file("stale.ridge");
    writeKernels(path);
    testing::execSql(path,
        "UPDATE kernel_totals SET launches = launches + 1, total_ns = total_ns + 5 WHERE total_ns < 1000000;"
        "INSERT INTO kernel_totals VALUES(999, 0, 1, 0, 7, 7, 7)");
    const auto stored = storedOf(path);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->size(), 7u);
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    const auto rows = summarizeKernels(reader.value());
    ASSERT_TRUE(rows.ok());
    EXPECT_TRUE(std::any_of(rows.value().begin(), rows.value().end(),
        [](const KernelSummary& r) { return r.nameId == 999 && r.name == "<unnamed kernel>"; }));
    EXPECT_EQ(
        warningsOf(path, "stale_kernel_totals"), 6); // five rows changed (all but kernelC's on device 1), one added
}

// A write of kernels that failed inside a batch may have left some of them: no totals are stored.
TEST(KernelTotals, AFailedWriteStoresNone)
{
    testing::TempDir dir;
    const auto path = dir.file("failed.ridge");
    auto created = SessionWriter::create(path);
    ASSERT_TRUE(created.ok());
    auto& w = created.value();
    ASSERT_TRUE(testing::writeTwoRanks(w, "NVIDIA H100", true).ok());
    const auto name = w.internKernelName("kernelA").value();
    ASSERT_TRUE(w.beginBatch().ok());
    Kernel first = testing::kernelRecord(1, 0, 7, name, 0, 100);
    first.id = 5;
    ASSERT_TRUE(w.addKernels(std::span(&first, 1)).ok());
    std::vector<Kernel> again { testing::kernelRecord(1, 0, 7, name, 200, 300), first }; // id 5 twice
    again[0].id = 6;
    EXPECT_FALSE(w.addKernels(again).ok());
    ASSERT_TRUE(w.commitBatch().ok());
    ASSERT_TRUE(w.finish(SessionStatus::Partial).ok());
    EXPECT_FALSE(storedOf(path).has_value());
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    const auto rows = summarizeKernels(reader.value());
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows.value().size(), 1u);
    EXPECT_EQ(rows.value()[0].launches, 2); // what the batch kept: kernels 5 and 6
}

// Sessions written before v8 have none; a merge of sessions stores those of the merged kernels.
TEST(KernelTotals, OlderSessionsAreScannedAndMergesStoreTheirs)
{
    auto older = SessionReader::open(testing::testDataPath("sessions/v7-kineto-inference.ridge"));
    ASSERT_TRUE(older.ok()) << older.error().message;
    EXPECT_EQ(older.value().fileSchemaVersion(), 7);
    auto none = older.value().storedKernelTotals();
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none.value().has_value());
    const auto rows = summarizeKernels(older.value());
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows.value().size(), 4u); // the four kernels of the trace, each its own name

    testing::TempDir dir;
    const auto a = dir.file("a.ridge");
    const auto b = dir.file("b.ridge");
    const auto merged = dir.file("merged.ridge");
    writeKernels(a);
    writeKernels(b);
    ASSERT_TRUE(mergeSessions({ a, b }, merged, false).ok());
    auto reader = SessionReader::open(merged);
    ASSERT_TRUE(reader.ok());
    auto stored = reader.value().storedKernelTotals();
    ASSERT_TRUE(stored.ok() && stored.value().has_value());
    EXPECT_EQ(byKey(*stored.value()), scanned(reader.value()));
    std::int64_t launches = 0;
    for (const auto& r : *stored.value())
        launches += r.launches;
    EXPECT_EQ(launches, 60);
}

} // namespace ridgeline::core
