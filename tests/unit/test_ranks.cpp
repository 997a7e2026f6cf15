// SPDX-License-Identifier: MIT
// Reports over many ranks (issue 19): rank summaries of the real two-rank trace_filter pair checked
// against the timeline analysis and against the traces themselves (zlib + nlohmann::json, not the
// importer), their storage in the session, the cluster reduction worked by hand, and four shifted
// copies of the real ranks in which the late rank must be found.
#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/cluster/clustermap.h"
#include "ridgeline/core/cluster/clusterreport.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"
#include "testutil.h"
#include "tracejson.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <zlib.h>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

const char* kRank[] = { "kineto/trace_filter/sampled_rank-0.json.gz", "kineto/trace_filter/sampled_rank-1.json.gz" };

std::vector<core::RankSummary> summariesOf(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    auto made = core::summarizeRanks(reader.value());
    EXPECT_TRUE(made.ok()) << made.error().message;
    return std::move(made).value();
}

// The trace's text with rank `rank` and every "ts" moved by `offsetUs`: what make_ranks.py does.
std::string shifted(const std::string& text, int rank, std::int64_t offsetUs)
{
    std::string out;
    out.reserve(text.size() + 4096);
    const std::string key = "\"ts\": ";
    std::size_t at = 0;
    bool rankDone = false;
    while (at < text.size()) {
        const auto ts = text.find(key, at);
        const auto rk = rankDone ? std::string::npos : text.find("\"rank\": ", at);
        const auto next = std::min(ts, rk);
        if (next == std::string::npos) {
            out.append(text, at);
            break;
        }
        const bool isTs = next == ts;
        const auto digits = next + (isTs ? key.size() : 8);
        out.append(text, at, digits - at);
        auto end = digits;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
            ++end;
        const auto value = std::stoll(text.substr(digits, end - digits));
        out += std::to_string(isTs ? value + offsetUs : rank);
        rankDone = rankDone || !isTs;
        at = end;
    }
    return out;
}

core::RankCollective collective(std::int64_t seq, std::int64_t start)
{
    return { "0", "allreduce", seq, start, start + 50 };
}

core::RankSummary rankWith(int rank, std::int64_t span, std::vector<core::RankCollective> collectives)
{
    core::RankSummary s;
    s.rank = rank;
    s.session = "r" + std::to_string(rank) + ".ridge";
    s.spanNs = span;
    s.collectives = std::move(collectives);
    return s;
}

} // namespace

TEST(RankSummaries, OfTheRealPairMatchTheTimelineAndTheTraces)
{
    TempDir dir;
    for (int r = 0; r < 2; ++r) {
        SCOPED_TRACE(r);
        const auto session = dir.file("r" + std::to_string(r) + ".ridge");
        ASSERT_TRUE(collectors::importKineto({ testDataPath(kRank[r]) }, session, false).ok());
        const auto summaries = summariesOf(session);
        ASSERT_EQ(summaries.size(), 1u);
        const auto& s = summaries.front();
        EXPECT_EQ(s.rank, r);

        // The timeline figures are the timeline analysis' (tested against HTA elsewhere), summed.
        auto reader = core::SessionReader::open(session);
        auto timelines = core::analyzeSessionTimeline(reader.value());
        ASSERT_TRUE(timelines.ok());
        std::int64_t span = 0, busy = 0, idle = 0, compute = 0, comm = 0, overlap = 0, kernels = 0;
        for (const auto& t : timelines.value()) {
            EXPECT_EQ(t.rank, r);
            span += t.spanNs, busy += t.busyNs, idle += t.idleNs, compute += t.computeNs;
            comm += t.communicationNs, overlap += t.overlapNs, kernels += t.kernels;
        }
        EXPECT_EQ(s.spanNs, span);
        EXPECT_EQ(s.busyNs, busy);
        EXPECT_EQ(s.idleNs, idle);
        EXPECT_EQ(s.computeNs, compute);
        EXPECT_EQ(s.communicationNs, comm);
        EXPECT_EQ(s.overlapNs, overlap);
        EXPECT_EQ(s.kernels, kernels);
        EXPECT_GT(s.busyNs, 0);

        // The activity bins hold the same time (one GPU: the device's busy time is the rank's).
        ASSERT_EQ(s.devices, 1);
        const auto& a = s.activity;
        ASSERT_EQ(a.busyNs.size(), static_cast<std::size_t>(core::kRankActivityBins));
        EXPECT_EQ(a.startNs, s.startNs);
        EXPECT_GE(a.startNs + a.binNs * core::kRankActivityBins, s.endNs);
        EXPECT_LT(a.startNs + a.binNs * (core::kRankActivityBins - 1), s.endNs);
        std::int64_t binnedBusy = 0, binnedComm = 0;
        for (std::size_t b = 0; b < a.busyNs.size(); ++b) {
            EXPECT_LE(a.busyNs[b], a.binNs);
            EXPECT_LE(a.communicationNs[b], a.busyNs[b]);
            binnedBusy += a.busyNs[b];
            binnedComm += a.communicationNs[b];
        }
        EXPECT_EQ(binnedBusy, s.busyNs);
        EXPECT_EQ(binnedComm, s.communicationNs);

        // Top kernels and collectives from the trace itself.
        // NCCL kernels by name (these traces' kernels carry no "Collective name" argument).
        const auto trace = nlohmann::json::parse(ridgeline::testing::gunzipFile(testDataPath(kRank[r])));
        std::map<std::string, std::pair<std::int64_t, std::int64_t>> byName; // short name -> time, launches
        std::size_t collectives = 0;
        for (const auto& ev : trace["traceEvents"]) {
            if (ev.value("cat", "") != "kernel" || !ev.contains("dur"))
                continue;
            auto& k = byName[core::shortKernelName(ev["name"].get<std::string>())];
            k.first += ridgeline::testing::microsToNs(ev["dur"]);
            ++k.second;
            collectives += ridgeline::testing::isNcclKernelEvent(ev) ? 1U : 0U;
        }
        std::vector<std::pair<std::int64_t, std::string>> ranked;
        for (const auto& [name, k] : byName)
            ranked.push_back({ -k.first, name });
        std::sort(ranked.begin(), ranked.end());
        ASSERT_EQ(s.topKernels.size(), 5u);
        for (std::size_t i = 0; i < 5; ++i) {
            EXPECT_EQ(s.topKernels[i].name, ranked[i].second);
            EXPECT_EQ(s.topKernels[i].timeNs, -ranked[i].first);
            EXPECT_EQ(s.topKernels[i].launches, byName[ranked[i].second].second);
        }
        EXPECT_EQ(s.collectives.size(), collectives);
        EXPECT_GT(collectives, 0u);
    }
    // A merged session gives the same two summaries.
    ASSERT_TRUE(
        core::mergeSessions({ dir.file("r0.ridge"), dir.file("r1.ridge") }, dir.file("both.ridge"), false).ok());
    const auto merged = summariesOf(dir.file("both.ridge"));
    ASSERT_EQ(merged.size(), 2u);
    EXPECT_EQ(merged[0], summariesOf(dir.file("r0.ridge")).front());
    EXPECT_EQ(merged[1], summariesOf(dir.file("r1.ridge")).front());
}

TEST(RankSummaries, JsonRoundTripsAndRefusesOtherVersions)
{
    auto s = rankWith(7, 1234, { collective(3, 100), { "pg \"x\"", "all_to_all", -1, 5, 9 } });
    s.host = "node-07";
    s.topKernels = { { "ampere_sgemm_128x64_tn", 999, 3 } };
    s.devices = 2;
    s.activity = core::binRankActivity({ { 100, 150 }, { 5, 9 } }, { { 100, 150 } }, 3);
    auto back = core::rankSummaryFromJson(core::rankSummaryJson(s));
    ASSERT_TRUE(back.ok()) << back.error().message;
    s.session.clear(); // not stored
    EXPECT_EQ(back.value(), s);
    auto json = nlohmann::json::parse(core::rankSummaryJson(s));
    json["version"] = core::kRankSummaryVersion + 1;
    EXPECT_FALSE(core::rankSummaryFromJson(json.dump()).ok());
    json["version"] = core::kRankSummaryVersion;
    json["collectives"] = nlohmann::json::array({ nlohmann::json::array({ 1, 2 }) });
    EXPECT_FALSE(core::rankSummaryFromJson(json.dump()).ok());
    EXPECT_FALSE(core::rankSummaryFromJson("{\"version\": 1").ok());
    EXPECT_FALSE(core::rankSummaryFromJson("[]").ok());
}

TEST(RankSummaries, AreStoredInTheSessionAndReadBack)
{
    TempDir dir;
    const auto session = dir.file("r0.ridge");
    ASSERT_TRUE(collectors::importKineto({ testDataPath(kRank[0]) }, session, false).ok());
    const auto made = summariesOf(session);
    {
        auto reader = core::SessionReader::open(session);
        auto none = core::storedRankSummaries(reader.value());
        ASSERT_TRUE(none.ok());
        EXPECT_FALSE(none.value().has_value());
    }
    ASSERT_TRUE(core::storeRankSummaries(session, made).ok());
    auto reader = core::SessionReader::open(session);
    auto stored = core::storedRankSummaries(reader.value());
    ASSERT_TRUE(stored.ok() && stored.value().has_value());
    EXPECT_EQ(*stored.value(), made);
    auto gathered = core::gatherRankSummaries({ session });
    EXPECT_EQ(gathered.fromStored, 1u);
    ASSERT_EQ(gathered.ranks.size(), 1u);
    EXPECT_EQ(gathered.ranks[0].session, session);

    // An older file is brought to this schema first: the v2 test session keeps its 840 values.
    const auto old = dir.file("v2.ridge");
    std::filesystem::copy_file(testDataPath("sessions/v2-a100-40.ridge"), old);
    ASSERT_TRUE(core::storeRankSummaries(old, summariesOf(old)).ok());
    auto upgraded = core::SessionReader::open(old);
    ASSERT_TRUE(upgraded.ok()) << upgraded.error().message;
    EXPECT_EQ(upgraded.value().fileSchemaVersion(), core::kSchemaVersion);
    EXPECT_EQ(upgraded.value().counts().value().metrics, 840);
    EXPECT_TRUE(core::storedRankSummaries(upgraded.value()).value().has_value());
    // Not a session: one sentence, the file untouched.
    const auto text = dir.file("x.ridge");
    std::ofstream(text) << "not a session";
    auto refused = core::storeRankSummaries(text, made);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(ridgeline::testing::readBytes(text), "not a session");
}

TEST(ClusterReport, SlowRankWaitsAndColumnsWorkedByHand)
{
    // Two instances of one allreduce: rank 2 starts last in both.
    std::vector<core::RankSummary> ranks { rankWith(0, 10, { collective(1, 100), collective(2, 1000) }),
        rankWith(1, 20, { collective(1, 150), collective(2, 1000) }),
        rankWith(2, 30, { collective(1, 400), collective(2, 1300) }) };
    const auto report = core::buildClusterReport(ranks);
    ASSERT_EQ(report.ranks.size(), 3u);
    EXPECT_EQ(report.instances, 2);
    EXPECT_EQ(report.sessions, 3);
    ASSERT_EQ(report.slowRanks.size(), 1u);
    EXPECT_EQ(report.slowRanks[0].rank, 2);
    EXPECT_EQ(report.slowRanks[0].instances, 2);
    EXPECT_EQ(report.slowRanks[0].lateNs, (400 - 100) + (1300 - 1000));
    // Waits: the latest start minus each rank's own, summed.
    EXPECT_EQ(report.ranks[0].commWaitNs, (400 - 100) + (1300 - 1000));
    EXPECT_EQ(report.ranks[1].commWaitNs, (400 - 150) + (1300 - 1000));
    EXPECT_EQ(report.ranks[2].commWaitNs, 0);
    EXPECT_EQ(report.ranks[2].lastArrivals, 2);
    const auto& span = report.cluster.front();
    EXPECT_EQ(span.column, "span_ns");
    EXPECT_DOUBLE_EQ(span.mean, 20.0);
    EXPECT_NEAR(span.stddev, std::sqrt(200.0 / 3.0), 1e-12);
    EXPECT_EQ(span.minRank, 0);
    EXPECT_EQ(span.min, 10);
    EXPECT_EQ(span.maxRank, 2);
    EXPECT_EQ(span.max, 30);
    // A rank found twice keeps its first row and says so.
    ranks.push_back(rankWith(1, 99, {}));
    const auto twice = core::buildClusterReport(ranks);
    EXPECT_EQ(twice.ranks.size(), 3u);
    EXPECT_EQ(twice.ranks[1].summary.spanNs, 20);
    ASSERT_FALSE(twice.warnings.empty());
}

TEST(ClusterReport, FindsTheLateRankAmongShiftedCopiesOfTheRealRanks)
{
    TempDir dir;
    const std::string text = ridgeline::testing::gunzipFile(testDataPath(kRank[0]));
    std::vector<std::string> sessions;
    for (int r = 0; r < 4; ++r) {
        const auto trace = dir.file("rank-" + std::to_string(r) + ".json");
        // Copies of the real rank 0 only: the real pair's own clocks differ by tens of ms at their
        // collectives, which would hide a 2 ms lateness (make_ranks.py makes its late rank 500 ms late).
        std::ofstream(trace) << shifted(text, r, (r % 7) * 40 + (r == 2 ? 2000 : 0));
        sessions.push_back(dir.file("rank-" + std::to_string(r) + ".ridge"));
        ASSERT_TRUE(collectors::importKineto({ trace }, sessions.back(), false).ok());
    }
    auto gathered = core::gatherRankSummaries(sessions, { 2, true, 5 });
    ASSERT_TRUE(gathered.failures.empty());
    ASSERT_EQ(gathered.ranks.size(), 4u);
    const auto report = core::buildClusterReport(std::move(gathered.ranks));
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(report.ranks[static_cast<std::size_t>(r)].summary.rank, r);

    // Independently: each instance from the sessions' own collectives, keyed by process group and
    // Seq, or (these traces record no Seq) by the collective's place in its rank's start order.
    std::map<std::pair<std::string, std::int64_t>, std::vector<std::pair<std::int64_t, int>>> instances;
    for (int r = 0; r < 4; ++r) {
        auto reader = core::SessionReader::open(sessions[static_cast<std::size_t>(r)]);
        auto ops = reader.value().commOps().value();
        std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
        std::map<std::string, std::int64_t> order;
        for (const auto& op : ops) {
            const auto place = order[op.processGroup]++;
            instances[{ op.processGroup, op.seq >= 0 ? op.seq : place }].push_back({ op.startNs, r });
        }
    }
    std::map<int, std::int64_t> late;
    std::map<int, std::int64_t> times;
    for (auto& [key, starts] : instances) {
        if (starts.size() < 2)
            continue;
        std::sort(starts.begin(), starts.end());
        if (starts.back().first == starts[starts.size() - 2].first)
            continue; // no single rank started last
        late[starts.back().second] += starts.back().first - starts.front().first;
        ++times[starts.back().second];
    }
    ASSERT_FALSE(report.slowRanks.empty());
    EXPECT_EQ(report.slowRanks[0].rank, 2);
    for (const auto& s : report.slowRanks) {
        EXPECT_EQ(s.lateNs, late[s.rank]) << s.rank;
        EXPECT_EQ(s.instances, times[s.rank]) << s.rank;
    }
    EXPECT_EQ(report.slowRanks.size(), late.size());
}

// Busy (0,10) and (5,15) make one span (0,15); with (30,40) the rank spans 40 ns, so 4 bins of 10:
// busy 10, 5, 0, 10; the collective (5,12) puts 5 ns in the first bin and 2 in the second.
TEST(RankActivity, BinsTheUnionOfTheSpansWorkedByHand)
{
    const auto a = core::binRankActivity({ { 30, 40 }, { 0, 10 }, { 5, 15 } }, { { 5, 12 } }, 4);
    EXPECT_EQ(a.startNs, 0);
    EXPECT_EQ(a.binNs, 10);
    EXPECT_EQ(a.busyNs, (std::vector<std::int64_t> { 10, 5, 0, 10 }));
    EXPECT_EQ(a.communicationNs, (std::vector<std::int64_t> { 5, 2, 0, 0 }));
    // 41 ns over 4 bins: bins of 11 cover it (the last bin is partly past the end).
    const auto b = core::binRankActivity({ { 0, 41 } }, {}, 4);
    EXPECT_EQ(b.binNs, 11);
    EXPECT_EQ(b.busyNs, (std::vector<std::int64_t> { 11, 11, 11, 8 }));
    EXPECT_EQ(core::binRankActivity({}, {}, 4), core::RankActivity {});
    EXPECT_EQ(core::binRankActivity({ { 5, 5 }, { 9, 3 } }, {}, 4), core::RankActivity {}); // no time busy
    // An instant before the first busy span still starts the rank's span (as on the timeline).
    const auto c = core::binRankActivity({ { 0, 0 }, { 20, 40 } }, {}, 4);
    EXPECT_EQ(c.startNs, 0);
    EXPECT_EQ(c.busyNs, (std::vector<std::int64_t> { 0, 0, 10, 10 }));
    // Hostile times saturate instead of overflowing.
    const auto wide = core::binRankActivity(
        { { std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max() } }, {}, 100);
    EXPECT_EQ(wide.busyNs.size(), 100u);
    EXPECT_GT(wide.binNs, 0);
}

// Two ranks drawn on one map of 4 bins over [0, 40): rank 0's bins as binned by hand above, rank 1
// busy over [20, 40) with 5 ns of a collective at 20.
TEST(ClusterMap, DrawsEachRanksActivityOnOneWindow)
{
    core::ClusterReport report;
    core::RankRow r0, r1;
    r0.summary.rank = 0;
    r0.summary.host = "node-a";
    r0.summary.endNs = 40;
    r0.summary.activity = core::binRankActivity({ { 30, 40 }, { 0, 10 }, { 5, 15 } }, { { 5, 12 } }, 4);
    r1.summary.rank = 1;
    r1.summary.startNs = 20;
    r1.summary.endNs = 40;
    r1.summary.activity = core::binRankActivity({ { 20, 40 } }, { { 20, 25 } }, 2);
    report.ranks = { r0, r1 };

    const auto busy = core::clusterActivityMap(report, core::ClusterMapValue::Busy, 4);
    ASSERT_EQ(busy.rowCount(), 2u);
    EXPECT_EQ(busy.row(0).label, "rank 0 · node-a");
    EXPECT_EQ(busy.row(1).rank, 1);
    EXPECT_EQ(busy.window().startNs, 0);
    EXPECT_EQ(busy.window().endNs, 40);
    const double busy0[] = { 1.0, 0.5, 0.0, 1.0 }, busy1[] = { 0.0, 0.0, 1.0, 1.0 };
    for (int b = 0; b < 4; ++b) {
        EXPECT_DOUBLE_EQ(busy.value(0, b), busy0[b]) << b;
        EXPECT_DOUBLE_EQ(busy.value(1, b), busy1[b]) << b;
    }
    const auto comm = core::clusterActivityMap(report, core::ClusterMapValue::Communication, 4);
    EXPECT_DOUBLE_EQ(comm.value(0, 0), 0.5);
    EXPECT_DOUBLE_EQ(comm.value(0, 1), 0.2);
    EXPECT_DOUBLE_EQ(comm.value(1, 2), 0.5);
    EXPECT_DOUBLE_EQ(comm.value(1, 3), 0.0);
    // Idle: the rest of each bin within the rank's own span, nothing outside it.
    const auto idle = core::clusterActivityMap(report, core::ClusterMapValue::Idle, 4);
    const double idle0[] = { 0.0, 0.5, 1.0, 0.0 };
    for (int b = 0; b < 4; ++b) {
        EXPECT_DOUBLE_EQ(idle.value(0, b), idle0[b]) << b;
        EXPECT_DOUBLE_EQ(idle.value(1, b), 0.0) << b;
    }
    EXPECT_TRUE(core::clusterActivityMap(core::ClusterReport {}, core::ClusterMapValue::Busy, 4).empty());
}
