// SPDX-License-Identifier: MIT
// Collectives in the exports and in the Nsight Systems import: the HTML report's collectives table
// and ranks' waits, the Perfetto trace's arrows between the ranks' kernels of one instance, and the
// NCCL kernels of an nsys export as collective ops. Expected figures come from the inputs themselves
// (the Kineto JSON with zlib + nlohmann::json, the export with plain SQL), not from the importer.
#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"
#include "tracefilterranks.h"
#include "tracejson.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <tuple>

using namespace ridgeline;
using namespace ridgeline::testing;

namespace {

std::int64_t sqlCount(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    std::int64_t value = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            value = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return value;
}

std::string twoRankSession(const TempDir& dir)
{
    const auto path = dir.file("both.ridge");
    EXPECT_TRUE(importTraceFilterRanks(path));
    return path;
}

template <typename Write> std::string exportOf(const std::string& session, Write write)
{
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok());
    std::ostringstream out;
    EXPECT_TRUE(write(reader.value(), out).ok());
    return out.str();
}

} // namespace

TEST(CollectiveExports, HtmlReportNamesTheRankThatMakesTheOthersWait)
{
    const auto starts = traceFilterNcclStarts();
    ASSERT_EQ(starts[0].size(), starts[1].size());
    const auto waits = twoRankWaits(starts);
    const auto& last = waits.lastArrivals;
    const int slow = last[1] > last[0] ? 1 : 0;
    ASSERT_GT(last[slow], 0);
    TempDir dir;
    const auto html = exportOf(twoRankSession(dir), [](auto& r, auto& o) { return core::writeHtmlReport(r, o); });
    EXPECT_NE(html.find("<h2>Collectives</h2>"), std::string::npos);
    EXPECT_NE(html.find(fmt::format("<b>Rank {} makes the others wait</b>: it starts last in {} of {} instances", slow,
                  last[slow], starts[0].size())),
        std::string::npos);
    // The other rank's wait, as the table shows it.
    const int other = 1 - slow;
    const std::string row
        = fmt::format("<tr><td class=\"num\">{}</td><td class=\"num\">{} of {}</td><td class=\"num\">{}</td>", other,
            last[other], starts[0].size(), core::formatDuration(static_cast<double>(waits.waitNs[other])));
    EXPECT_NE(html.find(row), std::string::npos) << row;
    // SendRecv without arguments: one row, sizes missing.
    EXPECT_NE(html.find("message sizes missing"), std::string::npos);
    EXPECT_EQ(html.find("No collectives in this session"), std::string::npos);
}

TEST(CollectiveExports, HtmlReportGivesBusBandwidthAgainstTheLink)
{
    TempDir dir;
    ASSERT_TRUE(collectors::importKineto(
        { testDataPath("kineto/nccl_parser_config/nccl_data.json.gz") }, dir.file("s.ridge"), false)
                    .ok());
    const auto html = exportOf(dir.file("s.ridge"), [](auto& r, auto& o) { return core::writeHtmlReport(r, o); });
    const auto begin = html.find("<h2>Collectives</h2>");
    ASSERT_NE(begin, std::string::npos);
    const auto section = html.substr(begin, html.find("<h3>Across ranks</h3>", begin) - begin);
    // One row per (collective, S) of the trace, each with the datasheet link of the A100 the trace's
    // "NVIDIA A100-PG509-200" is matched to loosely (not an inferred one).
    const auto doc = nlohmann::json::parse(gunzipFile(testDataPath("kineto/nccl_parser_config/nccl_data.json.gz")));
    std::set<std::pair<std::string, std::int64_t>> groups;
    for (const auto& ev : doc["traceEvents"]) {
        if (isNcclKernelEvent(ev))
            groups.insert(
                { ev["args"]["Collective name"].get<std::string>(), ev["args"]["In msg nelems"].get<std::int64_t>() });
    }
    std::size_t rows = 0, links = 0;
    for (auto at = section.find("<tr><td>"); at != std::string::npos; at = section.find("<tr><td>", at + 1))
        ++rows;
    for (auto at = section.find("<td>NVLink 300 GB/s</td>"); at != std::string::npos;
         at = section.find("<td>NVLink 300 GB/s</td>", at + 1))
        ++links;
    EXPECT_EQ(section.find("(inferred)"), std::string::npos);
    EXPECT_EQ(rows, groups.size());
    EXPECT_EQ(links, groups.size());
    EXPECT_NE(section.find("busbw"), std::string::npos);
    EXPECT_NE(html.find("One rank (or no instance seen on two ranks)"), std::string::npos);
}

TEST(CollectiveExports, PerfettoLinksEachInstanceAcrossRanksWithOneFlow)
{
    const auto starts = traceFilterNcclStarts();
    TempDir dir;
    const auto session = twoRankSession(dir);
    const auto doc
        = nlohmann::json::parse(exportOf(session, [](auto& r, auto& o) { return core::writePerfettoTrace(r, o); }));
    // Kernel slices by (pid, tid, ts); the rank of each host process ("... [rank 1]"), and of each GPU
    // process through the launch arrows (host call -> GPU op).
    std::map<std::tuple<std::int64_t, std::int64_t, double>, std::string> slices;
    std::map<std::int64_t, int> rankOfPid;
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> launches; // id -> (host pid, GPU pid)
    for (const auto& e : doc["traceEvents"]) {
        if (e.value("ph", "") == "X" && e.value("cat", "") == "kernel")
            slices[{ e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>(), e["ts"].get<double>() }]
                = e["name"].get<std::string>();
        if (e.value("ph", "") == "M" && e.value("name", "") == "process_name") {
            const auto name = e["args"]["name"].get<std::string>();
            for (int r = 0; r < 2; ++r) {
                if (name.find(fmt::format("[rank {}]", r)) != std::string::npos)
                    rankOfPid[e["pid"].get<std::int64_t>()] = r;
            }
        }
        if (e.value("cat", "") == "correlation")
            (e.value("ph", "") == "s" ? launches[e["id"].get<std::int64_t>()].first
                                      : launches[e["id"].get<std::int64_t>()].second)
                = e["pid"].get<std::int64_t>();
    }
    ASSERT_EQ(rankOfPid.size(), 2u);
    for (const auto& [id, ends] : launches) {
        if (rankOfPid.contains(ends.first))
            rankOfPid.emplace(ends.second, rankOfPid.at(ends.first));
    }
    std::map<std::int64_t, std::vector<nlohmann::json>> flows; // id -> its events
    for (const auto& e : doc["traceEvents"]) {
        if ((e.value("ph", "") == "s" || e.value("ph", "") == "t" || e.value("ph", "") == "f")
            && e.value("cat", "") == "collective")
            flows[e["id"].get<std::int64_t>()].push_back(e);
    }
    ASSERT_EQ(flows.size(), starts[0].size()); // one per instance
    std::vector<std::pair<double, std::int64_t>> skews; // (start of the flow, skew in ns)
    std::int64_t lastOnRank1 = 0;
    for (const auto& [id, events] : flows) {
        EXPECT_FALSE(launches.contains(id)) << "flow id " << id << " is also a launch arrow's";
        ASSERT_EQ(events.size(), 2u); // two ranks: a start and an end
        const auto& s = events[0]["ph"] == "s" ? events[0] : events[1];
        const auto& f = events[0]["ph"] == "f" ? events[0] : events[1];
        ASSERT_EQ(s["ph"], "s");
        ASSERT_EQ(f["ph"], "f");
        EXPECT_EQ(f["bp"], "e");
        EXPECT_EQ(s["name"], "collective instance");
        // Both ends sit on NCCL kernel slices, of the two ranks' GPUs.
        for (const auto* end : { &s, &f }) {
            const auto slice = slices.find(
                { (*end)["pid"].get<std::int64_t>(), (*end)["tid"].get<std::int64_t>(), (*end)["ts"].get<double>() });
            ASSERT_NE(slice, slices.end()) << *end;
            EXPECT_EQ(slice->second.rfind("ncclKernel", 0), 0u) << slice->second;
        }
        const auto sRank = rankOfPid.find(s["pid"].get<std::int64_t>());
        const auto fRank = rankOfPid.find(f["pid"].get<std::int64_t>());
        ASSERT_TRUE(sRank != rankOfPid.end() && fRank != rankOfPid.end());
        EXPECT_NE(sRank->second, fRank->second);
        lastOnRank1 += fRank->second == 1;
        skews.emplace_back(
            s["ts"].get<double>(), std::llround((f["ts"].get<double>() - s["ts"].get<double>()) * 1000.0));
    }
    // Independently: the instances in which rank 1 starts last (on a tie the order is by rank), and
    // each instance's start skew, in time order.
    std::int64_t expected = 0;
    for (std::size_t i = 0; i < starts[0].size(); ++i)
        expected += starts[1][i] >= starts[0][i];
    EXPECT_EQ(lastOnRank1, expected);
    std::sort(skews.begin(), skews.end());
    for (std::size_t i = 0; i < skews.size(); ++i)
        EXPECT_EQ(skews[i].second, std::abs(starts[1][i] - starts[0][i])) << "instance " << i;
}

TEST(CollectiveExports, NsysNcclKernelsBecomeCollectiveOps)
{
    // A real export (tests/data/nsys/concurrent-kernels.sqlite) with the names of one of its two
    // kernels replaced by those of a real NCCL 2.19+ kernel: the file stays real but for the names
    // (no export in tests/data has NCCL kernels).
    TempDir dir;
    const auto exportPath = dir.file("nccl.sqlite");
    std::filesystem::copy_file(testDataPath("nsys/concurrent-kernels.sqlite"), exportPath);
    ridgeline::testing::execSql(exportPath,
        "UPDATE StringIds SET value = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)' "
        "WHERE value = 'test1(double *, unsigned long long, unsigned long long)';"
        "UPDATE StringIds SET value = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL' WHERE value = 'test1';"
        "UPDATE StringIds SET value = '_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE' "
        "WHERE id IN (SELECT mangledName FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = "
        "(SELECT id FROM StringIds WHERE value = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'))");
    // Counted with plain SQL on the export: its kernels whose short name is now the NCCL one.
    const std::int64_t inExport = sqlCount(exportPath,
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
        "WHERE s.value = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'");
    auto summary = collectors::importNsysSqlite(exportPath, dir.file("s.ridge"), false);
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    auto reader = core::SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    auto kernels = reader.value().kernels();
    auto names = reader.value().kernelNames();
    auto ops = reader.value().commOps();
    auto verdicts = reader.value().verdicts();
    ASSERT_TRUE(kernels.ok() && names.ok() && ops.ok() && verdicts.ok());
    std::map<std::int64_t, std::string> nameOf;
    for (const auto& n : names.value())
        nameOf[n.id] = n.demangled;
    std::map<std::int64_t, core::Kernel> byId;
    std::int64_t expected = 0;
    for (const auto& k : kernels.value()) {
        byId[k.id] = k;
        expected += nameOf[k.nameId].rfind("ncclDevKernel_AllReduce", 0) == 0;
    }
    ASSERT_GT(expected, 0);
    EXPECT_EQ(expected, inExport);
    ASSERT_LT(expected, static_cast<std::int64_t>(kernels.value().size())); // test0 stays an ordinary kernel
    EXPECT_EQ(summary.value().commOps, expected);
    ASSERT_EQ(static_cast<std::int64_t>(ops.value().size()), expected);
    std::set<std::int64_t> commKernels;
    for (const auto& op : ops.value()) {
        ASSERT_TRUE(op.kernelId.has_value());
        const auto& k = byId.at(*op.kernelId);
        EXPECT_EQ(nameOf[k.nameId].rfind("ncclDevKernel_AllReduce", 0), 0u);
        EXPECT_EQ(op.collective, "AllReduce");
        EXPECT_EQ(op.algorithm, "Ring");
        EXPECT_EQ(op.protocol, "LL");
        EXPECT_EQ(op.dataType, "f32");
        EXPECT_EQ(op.bytes, 0); // no sizes in the names
        EXPECT_EQ(op.startNs, k.startNs);
        EXPECT_EQ(op.endNs, k.endNs);
        EXPECT_EQ(op.deviceId, k.deviceId);
        EXPECT_EQ(op.processId, k.processId);
        commKernels.insert(k.id);
    }
    for (const auto& v : verdicts.value()) {
        if (commKernels.contains(v.kernelId)) {
            EXPECT_EQ(v.verdict, core::VerdictClass::CommunicationBound);
            EXPECT_NE(v.reason.find("message sizes missing"), std::string::npos) << v.reason;
        } else {
            EXPECT_NE(v.verdict, core::VerdictClass::CommunicationBound);
        }
    }
}
