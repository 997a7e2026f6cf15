// SPDX-License-Identifier: MIT
// The whole session's timeline analysis stored in the session (analysis/storedtimeline.h, schema
// v9): on real traces it equals a scan, field by field; edits by another tool, `amend`, other
// verdicts, damaged rows and older files are scanned instead; windows are always scanned; `check`
// reports a stored analysis that differs from the ops.
#include "importedtrace.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/store/sessionamend.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"
#include "testutil.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

// In core's namespace, not with using-directives: the unity build compiles this file with others.
namespace ridgeline::core {

namespace {

// Real traces with what the analysis has to get right: operators' shapes (so verdicts beyond
// "unknown"), collectives carried by kernels, launches with host gaps and queues, several streams.
const char* const kTraces[] = {
    "kineto/tracelens-qwen-h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
    "kineto/nccl_parser_config/nccl_data.json.gz",
    "kineto/vllm-b200/eager_trace.json.gz",
};

// A scan, whatever is stored: the timeline layer's analysis with the analysis' verdicts.
std::vector<TimelineSummary> scan(SessionReader& reader, const TimelineSelection& selection = {})
{
    auto result = analyzeSessionTimeline(reader, kernelVerdicts, selection);
    EXPECT_TRUE(result.ok()) << result.error().message;
    return result.ok() ? result.value() : std::vector<TimelineSummary> {};
}

// What report, exports and the app get (stored when it can be).
std::vector<TimelineSummary> analysed(const std::string& path, const TimelineSelection& selection = {})
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto result = analyzeSessionTimeline(reader.value(), selection);
    EXPECT_TRUE(result.ok()) << result.error().message;
    return result.ok() ? result.value() : std::vector<TimelineSummary> {};
}

std::vector<std::string> texts(const std::vector<TimelineSummary>& summaries)
{
    std::vector<std::string> out;
    for (const auto& s : summaries)
        out.push_back(std::to_string(s.rank) + "/" + std::to_string(s.deviceId) + " " + timelineSummaryJson(s));
    return out;
}

std::uint64_t verdictsKeyOf(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto verdicts = kernelVerdicts(reader.value());
    EXPECT_TRUE(verdicts.ok());
    return verdicts.ok() ? timelineVerdictsKey(verdicts.value()) : 0;
}

bool isStored(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto verdicts = kernelVerdicts(reader.value());
    EXPECT_TRUE(verdicts.ok());
    auto stored = storedTimelineSummaries(reader.value(), timelineVerdictsKey(verdicts.value()));
    EXPECT_TRUE(stored.ok()) << stored.error().message;
    return stored.ok() && stored.value().has_value();
}

std::vector<TimelineSummary> scanOf(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    return scan(reader.value());
}

std::int64_t staleWarnings(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto warnings = checkStoredTimeline(reader.value());
    EXPECT_TRUE(warnings.ok()) << warnings.error().message;
    std::int64_t count = 0;
    for (const auto& w : warnings.value())
        count += w.kind == "stale_timeline_summaries" ? w.count : 0;
    return count;
}

// A copy of the qwen trace imported with its analysis stored (imported and stored once per test
// process, then copied for each edit).
std::string storedQwen(testing::TempDir& dir)
{
    static const auto original = [] {
        auto imported = testing::importKinetoTrace(kTraces[0]);
        imported->reader.reset();
        EXPECT_TRUE(storeTimelineSummaries(imported->dir.file("s.ridge")).ok());
        return imported;
    }();
    const auto path = dir.file("stored.ridge");
    std::filesystem::copy_file(original->dir.file("s.ridge"), path);
    return path;
}

// A copy of that session after `sql` (another tool's edit, or damage): it is scanned, not read, and
// the answer is the scan's.
std::string scannedAfter(testing::TempDir& dir, const std::string& sql)
{
    const auto path = storedQwen(dir);
    testing::execSql(path, sql);
    EXPECT_FALSE(isStored(path)) << sql;
    EXPECT_EQ(texts(analysed(path)), texts(scanOf(path))) << sql;
    return path;
}

} // namespace

// Stored, then read back: every field of every rank and device as the scan gives it, on traces
// that exercise verdicts, collectives, idle gap causes and queues.
TEST(StoredTimeline, EqualsTheScanOnRealTraces)
{
    bool verdicts = false, collectives = false, hostGaps = false, queues = false;
    for (const char* trace : kTraces) {
        auto imported = testing::importKinetoTrace(trace);
        ASSERT_TRUE(imported->reader) << trace;
        const auto path = imported->dir.file("s.ridge");
        const auto scanned = scan(*imported->reader);
        ASSERT_FALSE(scanned.empty()) << trace;
        imported->reader.reset(); // storing writes the file
        EXPECT_FALSE(isStored(path)) << trace << ": an import this small stores none";
        ASSERT_TRUE(storeTimelineSummariesIfLarge(path).ok());
        EXPECT_FALSE(isStored(path)) << trace;
        ASSERT_TRUE(storeTimelineSummaries(path).ok()) << trace;
        ASSERT_TRUE(isStored(path)) << trace;
        EXPECT_EQ(texts(analysed(path)), texts(scanned)) << trace;
        EXPECT_EQ(staleWarnings(path), 0) << trace;
        for (const auto& s : scanned) {
            verdicts = verdicts || s.timeByVerdictNs[static_cast<std::size_t>(VerdictClass::Unknown)] < s.busyNs;
            collectives = collectives || s.collectives > 0;
            hostGaps = hostGaps || s.idleGaps.hostNotLaunchingCount > 0;
            queues = queues || !s.queues.empty();
        }
    }
    EXPECT_TRUE(verdicts && collectives && hostGaps && queues) << "the traces exercise every part of the analysis";
}

// Another SQLite tool changing any table the analysis reads makes the session forget it; one that
// changes a table it does not read (names of threads) keeps it. The edits leave every verdict as it
// was, so that the triggers, not the verdicts' key, are what the test sees.
TEST(StoredTimeline, EditsByAnotherToolForgetIt)
{
    const char* edits[] = {
        "UPDATE kernels SET stream_id = stream_id + 1000 WHERE id = (SELECT min(id) FROM kernels)",
        "DELETE FROM memops WHERE id = (SELECT min(id) FROM memops)",
        "UPDATE api_calls SET end_ns = start_ns + (end_ns - start_ns) / 2",
        "UPDATE processes SET rank = 7",
        ("INSERT INTO comm_ops(process_id, device_id, collective, start_ns, end_ns) "
         "SELECT process_id, device_id, 'allreduce', start_ns, end_ns FROM kernels LIMIT 1"),
    };
    testing::TempDir unedited;
    const auto key = verdictsKeyOf(storedQwen(unedited));
    for (const char* edit : edits) {
        testing::TempDir dir;
        EXPECT_EQ(verdictsKeyOf(scannedAfter(dir, edit)), key) << edit;
    }
    testing::TempDir dir;
    const auto path = storedQwen(dir);
    testing::execSql(path, "UPDATE threads SET name = 'renamed'");
    EXPECT_TRUE(isStored(path));
}

// Ridgeline's own connections run no triggers: `amend` (a rank from Slurm, new ceilings) drops it.
TEST(StoredTimeline, AmendDropsIt)
{
    testing::TempDir dir;
    const auto path = storedQwen(dir);
    SessionAmendment amendment;
    amendment.defaultRank = 3;
    ASSERT_TRUE(amendSession(path, amendment).ok());
    EXPECT_FALSE(isStored(path));
    const auto after = analysed(path);
    ASSERT_FALSE(after.empty());
    EXPECT_EQ(after.front().rank, 3);
}

// Verdicts other than those it was made with (here a far lower DRAM ceiling that another tool put
// in, which no trigger watches) give another key: the analysis is scanned with the new verdicts.
TEST(StoredTimeline, OtherVerdictsAreScanned)
{
    testing::TempDir dir;
    const auto path = storedQwen(dir);
    std::uint64_t before = 0;
    {
        auto reader = SessionReader::open(path);
        ASSERT_TRUE(reader.ok());
        before = timelineVerdictsKey(kernelVerdicts(reader.value()).value());
    }
    testing::execSql(path,
        "INSERT OR REPLACE INTO ceilings(device_id, resource, source, value, unit) "
        "SELECT id, 'DRAM', 'measured', 1e9, 'B/s' FROM devices");
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    const auto verdicts = kernelVerdicts(reader.value());
    ASSERT_TRUE(verdicts.ok());
    ASSERT_NE(timelineVerdictsKey(verdicts.value()), before) << "the new ceiling changes some verdict";
    EXPECT_FALSE(isStored(path));
    EXPECT_EQ(texts(analysed(path)), texts(scanOf(path)));
}

// Rows that cannot be read, or cannot be an analysis, are not read (a scan instead); a row that
// could be one but differs from the ops is read, and `check` says so. A window is always scanned.
TEST(StoredTimeline, DamagedRowsAreScannedAndCheckReportsStaleOnes)
{
    const char* damage[] = {
        "UPDATE timeline_summaries SET data = 'not json'",
        "UPDATE timeline_summaries SET data = json_set(data, '$.busy_ns', -5)",
        "UPDATE timeline_summaries SET data = json_set(data, '$.idle_ns', 1)",
        "UPDATE timeline_summaries SET data = json_remove(data, '$.queues')",
        "UPDATE timeline_summaries SET data = json_set(data, '$.time_by_verdict_ns', json('[1,2]'))",
        "UPDATE stored_summaries SET version = 999 WHERE name = 'timeline'",
        "UPDATE timeline_summaries SET rank = 1e12",
    };
    for (const char* d : damage) {
        testing::TempDir dir;
        EXPECT_EQ(staleWarnings(scannedAfter(dir, d)), 0) << d;
    }
    testing::TempDir dir;
    const auto path = storedQwen(dir);
    testing::execSql(path,
        "UPDATE timeline_summaries SET data = json_set(data, '$.compute_ns', json_extract(data, '$.compute_ns') - 1)");
    ASSERT_TRUE(isStored(path));
    const auto stale = analysed(path);
    const auto actual = scanOf(path);
    ASSERT_EQ(stale.size(), actual.size());
    ASSERT_FALSE(stale.empty());
    EXPECT_EQ(stale.front().computeNs, actual.front().computeNs - 1);
    EXPECT_EQ(staleWarnings(path), static_cast<std::int64_t>(actual.size()));
    // A window reads the ops, not the stored rows.
    const TimeWindow window { actual.front().startNs, actual.front().endNs + 1 };
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(texts(analysed(path, { window, std::nullopt })), texts(scan(reader.value(), { window, std::nullopt })));
}

// A session older than v9 has none and is scanned; storing brings it to the current schema first.
TEST(StoredTimeline, OlderSessionsAreMigratedWhenStored)
{
    testing::TempDir dir;
    const auto path = dir.file("v7.ridge");
    std::filesystem::copy_file(testing::testDataPath("sessions/v7-kineto-inference.ridge"), path);
    EXPECT_FALSE(isStored(path));
    const auto before = scanOf(path);
    ASSERT_TRUE(storeTimelineSummaries(path).ok());
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().fileSchemaVersion(), kSchemaVersion);
    EXPECT_TRUE(isStored(path));
    EXPECT_EQ(texts(analysed(path)), texts(before));
}

// Capture stores the analysis the rank summaries were made from (one scan for both): it is the
// scan's, with the key of the verdicts it used.
TEST(StoredTimeline, RankSummariesHandOnTheirAnalysis)
{
    auto imported = testing::importKinetoTrace(kTraces[1]);
    ASSERT_TRUE(imported->reader);
    const auto path = imported->dir.file("s.ridge");
    TimelineToStore timeline;
    ASSERT_TRUE(summarizeRanks(*imported->reader, 5, &timeline).ok());
    const auto scanned = scan(*imported->reader);
    EXPECT_EQ(texts(timeline.summaries), texts(scanned));
    EXPECT_EQ(timeline.verdictsKey, timelineVerdictsKey(kernelVerdicts(*imported->reader).value()));
    imported->reader.reset();
    ASSERT_TRUE(storeTimelineSummaries(path, timeline).ok());
    EXPECT_TRUE(isStored(path));
    EXPECT_EQ(texts(analysed(path)), texts(scanned));
}

} // namespace ridgeline::core
