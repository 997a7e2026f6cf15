// SPDX-License-Identifier: MIT
// Collectives of the real Kineto traces of tests/data/kineto/ (README there). Every expected figure
// is computed here from the trace's own arguments with zlib + nlohmann::json, not by the importer.
#include "gunzip.h"
#include "tracefilterranks.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"
#include "tracejson.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

core::CollectiveReport reportOf(const std::vector<std::string>& sessions)
{
    std::vector<core::SessionReader> readers;
    for (const auto& s : sessions) {
        auto r = core::SessionReader::open(s);
        EXPECT_TRUE(r.ok()) << r.error().message;
        readers.push_back(std::move(r).value());
    }
    std::vector<core::SessionReader*> pointers;
    for (auto& r : readers)
        pointers.push_back(&r);
    auto report = core::buildCollectiveReport(pointers);
    EXPECT_TRUE(report.ok()) << report.error().message;
    return std::move(report).value();
}

} // namespace

TEST(CollectiveTraces, BusBandwidthOfNcclDataFromItsOwnArguments)
{
    const auto path = testDataPath("kineto/nccl_parser_config/nccl_data.json.gz");
    TempDir dir;
    ASSERT_TRUE(collectors::importKineto({ path }, dir.file("s.ridge"), false).ok());

    // (collective, S) -> calls, summed ns. Float is 4 bytes, Long 8; two ranks, so the all-reduce
    // factor 2(n-1)/n and the broadcast factor are both 1: busbw = algbw = S x calls / time.
    const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path));
    const int n = doc["distributedInfo"]["world_size"].get<int>();
    ASSERT_EQ(n, 2);
    std::map<std::pair<std::string, std::int64_t>, std::pair<std::int64_t, std::int64_t>> expected;
    for (const auto& ev : doc["traceEvents"]) {
        if (!ridgeline::testing::isNcclKernelEvent(ev))
            continue;
        const auto& a = ev["args"];
        const std::int64_t size = a["dtype"] == "Float" ? 4 : a["dtype"] == "Long" ? 8 : 0;
        ASSERT_GT(size, 0);
        ASSERT_EQ(a["Group size"].get<int>(), n);
        const std::int64_t bytes = a["In msg nelems"].get<std::int64_t>() * size;
        auto& e = expected[{ a["Collective name"].get<std::string>(), bytes }];
        e.first += 1;
        e.second += ridgeline::testing::microsToNs(ev["dur"]); // the importer's end = start + duration
    }
    ASSERT_GT(expected.size(), 2u);

    const auto report = reportOf({ dir.file("s.ridge") });
    ASSERT_EQ(report.rows.size(), expected.size());
    int broadcasts = 0;
    for (const auto& row : report.rows) {
        const auto it = expected.find({ row.collective, row.bytes });
        ASSERT_NE(it, expected.end()) << row.collective << " " << row.bytes;
        const auto [calls, timeNs] = it->second;
        EXPECT_EQ(row.calls, calls);
        EXPECT_EQ(row.timeNs, timeNs);
        const double algbw = static_cast<double>(row.bytes * calls) / (static_cast<double>(timeNs) / 1e9);
        const double factor = row.collective == "allreduce" ? 2.0 * (n - 1) / n : 1.0;
        ASSERT_TRUE(row.algBytesPerS && row.busBytesPerS);
        EXPECT_NEAR(*row.algBytesPerS, algbw, algbw * 1e-9);
        EXPECT_NEAR(*row.busBytesPerS, algbw * factor, algbw * 1e-9);
        // The trace's "NVIDIA A100-PG509-200" (a board name) is matched loosely to the A100 SXM4 40GB:
        // its datasheet NVLink, 600 GB/s bidirectional = 300 GB/s per direction, not an inferred one.
        EXPECT_EQ(row.link.name, "NVLink");
        EXPECT_FALSE(row.link.inferred);
        EXPECT_NEAR(*row.pctOfLink, algbw * factor / 300e9 * 100.0, 1e-9);
        EXPECT_NE(row.reason.find("of NVLink 300 GB/s"), std::string::npos) << row.reason;
        EXPECT_EQ(row.reason.find("NVLink assumed"), std::string::npos) << row.reason;
        broadcasts += row.collective == "broadcast";
    }
    EXPECT_EQ(broadcasts, 2);
    // One rank in the file: nothing to match across ranks.
    EXPECT_TRUE(report.ranks.instances.empty());

    // The kernel report's verdict of the NCCL kernels cites the same numbers.
    auto reader = core::SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    auto kernels = core::summarizeKernels(reader.value());
    ASSERT_TRUE(kernels.ok());
    int nccl = 0;
    for (const auto& k : kernels.value()) {
        if (k.name.rfind("ncclKernel", 0) != 0)
            continue;
        ++nccl;
        EXPECT_EQ(k.analysis.verdict, core::VerdictClass::CommunicationBound);
        EXPECT_NE(k.analysis.reason.find("busbw"), std::string::npos) << k.analysis.reason;
    }
    EXPECT_EQ(nccl, 2); // the all-reduce and the broadcast kernel
    // The verdicts the importer stored say the same.
    auto comms = reader.value().commOps();
    auto stored = reader.value().verdicts();
    ASSERT_TRUE(comms.ok() && stored.ok());
    std::set<std::int64_t> commKernels;
    for (const auto& op : comms.value())
        commKernels.insert(*op.kernelId);
    int storedNccl = 0;
    for (const auto& v : stored.value()) {
        if (!commKernels.contains(v.kernelId))
            continue;
        ++storedNccl;
        EXPECT_NE(v.reason.find("busbw"), std::string::npos) << v.reason;
    }
    EXPECT_EQ(storedNccl, static_cast<int>(commKernels.size()));
}

TEST(CollectiveTraces, PerRankWaitOfTheTwoRankPair)
{
    const std::string paths[]
        = { testDataPath(ridgeline::testing::kTraceFilterRank0), testDataPath(ridgeline::testing::kTraceFilterRank1) };
    // Independently: the k-th NCCL kernel of each rank is one instance (no process group, no Seq
    // in these traces); a rank waits latest start - its start; the latest starter arrives last.
    const auto starts = ridgeline::testing::traceFilterNcclStarts();
    ASSERT_EQ(starts[0].size(), starts[1].size());
    const auto waits = ridgeline::testing::twoRankWaits(starts);
    const auto& wait = waits.waitNs;
    const auto& last = waits.lastArrivals;
    ASSERT_GT(wait[0] + wait[1], 0);

    auto check = [&](const core::CollectiveReport& report) {
        EXPECT_EQ(report.ranks.instances.size(), starts[0].size());
        ASSERT_EQ(report.ranks.ranks.size(), 2u);
        for (const auto& w : report.ranks.ranks) {
            ASSERT_TRUE(w.rank == 0 || w.rank == 1);
            EXPECT_EQ(w.waitNs, wait[w.rank]) << "rank " << w.rank;
            EXPECT_EQ(w.lastArrivals, last[w.rank]) << "rank " << w.rank;
        }
        const int slow = last[1] > last[0] ? 1 : 0;
        EXPECT_EQ(report.ranks.ranks.front().rank, slow);
        ASSERT_EQ(report.rows.size(), 1u);
        // SendRecv kernels without arguments: the label stays, sizes are said to be missing, and
        // the rank that makes the other wait is named.
        EXPECT_NE(report.rows[0].reason.find("message sizes missing"), std::string::npos) << report.rows[0].reason;
        EXPECT_NE(report.rows[0].reason.find("waiting for rank " + std::to_string(slow)), std::string::npos)
            << report.rows[0].reason;
    };
    TempDir dir;
    // One merged multi-rank session...
    ASSERT_TRUE(ridgeline::testing::importTraceFilterRanks(dir.file("both.ridge")));
    check(reportOf({ dir.file("both.ridge") }));
    // ... and one session per rank, analysed together.
    ASSERT_TRUE(collectors::importKineto({ paths[0] }, dir.file("r0.ridge"), false).ok());
    ASSERT_TRUE(collectors::importKineto({ paths[1] }, dir.file("r1.ridge"), false).ok());
    check(reportOf({ dir.file("r0.ridge"), dir.file("r1.ridge") }));

    std::ostringstream json;
    core::writeCollectiveReport(json, reportOf({ dir.file("both.ridge") }), core::ReportFormat::Json);
    const auto parsed = nlohmann::json::parse(json.str());
    EXPECT_EQ(parsed["ranks"].size(), 2u);
    EXPECT_EQ(parsed["instances"].size(), starts[0].size());
    EXPECT_TRUE(parsed["collectives"][0]["busbw_Bps"].is_null());
}

namespace {

// A hand-written two-event Kineto trace of one rank (synthetic, not a real trace): all-gathers of
// 1,024 Float elements in, 2,048 out (2 ranks) in process group "0", with their `Seq`.
std::string syntheticRank(int rank, const std::vector<std::pair<int, int>>& seqAndStartUs)
{
    nlohmann::json events = nlohmann::json::array();
    for (const auto& [seq, ts] : seqAndStartUs) {
        events.push_back({ { "ph", "X" }, { "cat", "kernel" }, { "name", "ncclDevKernel_AllGather_RING_LL(int)" },
            { "pid", 0 }, { "tid", 7 }, { "ts", ts }, { "dur", 10 },
            { "args",
                { { "device", 0 }, { "stream", 7 }, { "Collective name", "_allgather_base" }, { "In msg nelems", 1024 },
                    { "Out msg nelems", 2048 }, { "Group size", 2 }, { "dtype", "Float" },
                    { "Process Group Name", "0" }, { "Seq", seq } } } });
    }
    const nlohmann::json doc
        = { { "distributedInfo", { { "rank", rank }, { "world_size", 2 } } }, { "traceEvents", events } };
    return doc.dump();
}

} // namespace

TEST(CollectiveTraces, SeqMatchesInstancesWhenARankMissesOne)
{
    TempDir dir;
    // Rank 1's trace starts after instance 5: by order its first kernel would pair with rank 0's
    // instance 5; by Seq it is instance 6, 4 µs after rank 0's.
    ridgeline::testing::writeBytes(dir.file("r0.json"), syntheticRank(0, { { 5, 100 }, { 6, 200 } }));
    ridgeline::testing::writeBytes(dir.file("r1.json"), syntheticRank(1, { { 6, 204 } }));
    ASSERT_TRUE(
        collectors::importKineto({ dir.file("r0.json"), dir.file("r1.json") }, dir.file("s.ridge"), false).ok());
    const auto report = reportOf({ dir.file("s.ridge") });
    ASSERT_EQ(report.ranks.instances.size(), 1u);
    const auto& instance = report.ranks.instances[0];
    EXPECT_EQ(instance.index, 6);
    EXPECT_EQ(instance.startSkewNs, 4'000);
    EXPECT_EQ(instance.lastRank, 1);
    // S of an all-gather is the whole output: 2,048 x 4 bytes.
    ASSERT_EQ(report.rows.size(), 1u);
    EXPECT_EQ(report.rows[0].bytes, 8'192);
    EXPECT_EQ(report.rows[0].calls, 3);
}
