// SPDX-License-Identifier: MIT
// The three exports (Perfetto JSON, CSV tables, HTML) on the small fixture and on hostile names.
#include "fixtures.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>
#include <sstream>

using namespace ridgeline::core;
using nlohmann::json;

namespace {

constexpr const char* kHostile = "<script>alert(1)</script>";
constexpr const char* kQuoted = "weird, \"quoted\"\nkernel";

SessionReader openSession(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    return std::move(reader).value();
}

json perfettoOf(const std::string& path)
{
    auto reader = openSession(path);
    std::ostringstream out;
    const auto written = writePerfettoTrace(reader, out);
    EXPECT_TRUE(written.ok()) << written.error().message;
    return json::parse(out.str());
}

Kernel kernelAt(std::int64_t nameId, std::int64_t stream, std::int64_t start, std::int64_t end)
{
    Kernel k;
    k.processId = 1;
    k.streamId = stream;
    k.nameId = nameId;
    k.startNs = start;
    k.endNs = end;
    return k;
}

// Kernels overlapping on one stream, hostile names, and a clock far from zero when `base` is large.
void writeOverlapSession(const std::string& path, std::int64_t base = 0)
{
    WriterOptions options;
    options.replaceExisting = true;
    auto created = SessionWriter::create(path, options);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& w = created.value();
    ASSERT_TRUE(w.setMeta(metakey::Source, std::string("fixture ") + kHostile).ok());
    Device d;
    d.name = kHostile;
    ASSERT_TRUE(w.addDevice(d).ok());
    Process p;
    p.id = 1;
    p.pid = 77;
    ASSERT_TRUE(w.addProcess(p).ok());
    auto hostile = w.internKernelName(kHostile);
    auto quoted = w.internKernelName(kQuoted);
    ASSERT_TRUE(hostile.ok() && quoted.ok());
    const Kernel kernels[] = {
        kernelAt(hostile.value(), 7, base + 0, base + 10'000),
        kernelAt(quoted.value(), 7, base + 2'001, base + 4'999), // overlaps the first: lane 2
        kernelAt(hostile.value(), 7, base + 5'000, base + 12'000), // overlaps the first, not the second: lane 2
        kernelAt(quoted.value(), 7, base + 11'000, base + 11'001), // overlaps the third, not the first: lane 1
        kernelAt(hostile.value(), 9, base + 3, base + 7),
    };
    ASSERT_TRUE(w.addKernels(kernels).ok());
    const NvtxRange ranges[] = {
        { 0, 1, 77, "d", "outer", base + 0, base + 100, 0, 0 },
        { 0, 1, 77, "d", "inner", base + 10, base + 20, 0, 0 }, // nests: same lane
        { 0, 1, 77, "d", "crossing", base + 50, base + 150, 0, 0 }, // overlaps without nesting: lane 2
    };
    ASSERT_TRUE(w.addNvtxRanges(ranges).ok());
    ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());
}

// Complete events per (pid, tid), sorted by start.
std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<double, double>>> slicesByTrack(const json& doc)
{
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<double, double>>> tracks;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "X")
            tracks[{ e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>() }].emplace_back(
                e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>());
    }
    for (auto& [key, slices] : tracks)
        std::sort(slices.begin(), slices.end());
    return tracks;
}

std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames(const json& doc)
{
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> names;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "thread_name")
            names[{ e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>() }] = e["args"]["name"];
    }
    return names;
}

// RFC 4180 records (quoted fields may hold commas, quotes and newlines).
std::vector<std::vector<std::string>> parseCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                rows.back().back() += text[++i];
            else if (c == '"')
                quoted = false;
            else
                rows.back().back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\n') {
            rows.emplace_back(1);
        } else {
            rows.back().back() += c;
        }
    }
    if (rows.back().size() == 1 && rows.back().front().empty())
        rows.pop_back();
    return rows;
}

class Exporters : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_small = m_dir.file("small.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_small).ok());
    }
    ridgeline::testing::TempDir m_dir;
    std::string m_small;
};

} // namespace

TEST_F(Exporters, PerfettoEventsHaveTheFieldsTheirPhaseNeeds)
{
    const auto doc = perfettoOf(m_small);
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    ASSERT_TRUE(doc["traceEvents"].is_array());
    std::map<std::string, int> phases;
    std::map<std::int64_t, int> flowEnds;
    for (const auto& e : doc["traceEvents"]) {
        ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e;
        const auto ph = e["ph"].get<std::string>();
        ++phases[ph];
        for (const char* key : { "name", "pid", "tid" })
            EXPECT_TRUE(e.contains(key)) << key << " in " << e;
        if (ph == "X") {
            EXPECT_TRUE(e["ts"].is_number() && e["dur"].is_number()) << e;
            EXPECT_GE(e["dur"].get<double>(), 0.0) << e;
            EXPECT_TRUE(e["args"].is_object()) << e;
        } else if (ph == "M") {
            EXPECT_TRUE(e["args"].is_object()) << e;
            const auto name = e["name"].get<std::string>();
            EXPECT_TRUE(name == "process_name" || name == "process_sort_index" || name == "thread_name"
                || name == "thread_sort_index")
                << name;
        } else if (ph == "s" || ph == "f") {
            EXPECT_TRUE(e.contains("id") && e.contains("ts") && e.contains("cat")) << e;
            flowEnds[e["id"].get<std::int64_t>()] += ph == "s" ? 1 : 10;
            if (ph == "f") {
                EXPECT_EQ(e["bp"], "e");
            }
        } else {
            ADD_FAILURE() << "unexpected phase " << ph;
        }
    }
    // 8 kernels + 2 memops + 3 API calls + 1 NVTX range.
    EXPECT_EQ(phases["X"], 8 + 2 + 3 + 1);
    // cudaMemcpyAsync and two cudaLaunchKernel calls have their GPU op: one start and one end each.
    EXPECT_EQ(flowEnds.size(), 3u);
    for (const auto& [id, ends] : flowEnds)
        EXPECT_EQ(ends, 11) << id;
    EXPECT_EQ(doc["metadata"]["verdict_colours"]["memory-bound"], traceColourForVerdict(VerdictClass::MemoryBound));
}

TEST_F(Exporters, PerfettoTimesAreExactMicroseconds)
{
    auto reader = openSession(m_small);
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    std::map<std::int64_t, Kernel> byId;
    for (const auto& k : kernels.value())
        byId[k.id] = k;
    const auto doc = perfettoOf(m_small);
    int checked = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "X" || e["cat"] != "kernel")
            continue;
        const auto& k = byId.at(e["args"]["kernel_id"].get<std::int64_t>());
        EXPECT_EQ(e["ts"].get<double>(), static_cast<double>(k.startNs) / 1000.0);
        EXPECT_EQ(e["dur"].get<double>(), static_cast<double>(k.durationNs()) / 1000.0);
        ++checked;
    }
    EXPECT_EQ(checked, 8);
    EXPECT_EQ(doc["metadata"]["time_base_ns"], 0);
}

TEST_F(Exporters, PerfettoKernelsCarryTheirVerdict)
{
    const auto doc = perfettoOf(m_small);
    std::set<std::string> verdicts;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "X" || e["cat"] != "kernel")
            continue;
        for (const char* key : { "verdict", "bound_by", "reason", "grid", "block", "correlation" })
            EXPECT_TRUE(e["args"].contains(key)) << key << " in " << e;
        const auto verdict = e["args"]["verdict"].get<std::string>();
        verdicts.insert(verdict);
        EXPECT_EQ(e["cname"], traceColourForVerdict(verdictClassFromString(verdict)));
        EXPECT_EQ(e["args"]["grid"], "1024x1x1");
    }
    // The counted vectorAdd launch, the NCCL kernel, and the rest without counters.
    EXPECT_EQ(verdicts, (std::set<std::string> { "memory-bound", "communication-bound", "unknown" }));
    EXPECT_STREQ(traceColourForVerdict(VerdictClass::ComputeBound), "terrible");
    EXPECT_STREQ(traceColourForVerdict(VerdictClass::Unknown), "generic_work");
}

TEST_F(Exporters, PerfettoSplitsOverlapsIntoLanesAndNestsNvtx)
{
    const auto path = m_dir.file("overlap.ridge");
    writeOverlapSession(path);
    const auto doc = perfettoOf(path);
    const auto names = threadNames(doc);
    const auto tracks = slicesByTrack(doc);
    std::map<std::string, std::size_t> slicesByName;
    for (const auto& [key, slices] : tracks) {
        const auto& name = names.at(key);
        slicesByName[name] = slices.size();
        for (std::size_t i = 1; i < slices.size(); ++i) {
            if (name.rfind("NVTX", 0) == 0) { // nesting is allowed, partial overlap is not
                EXPECT_TRUE(slices[i].first >= slices[i - 1].second || slices[i].second <= slices[i - 1].second)
                    << name;
            } else {
                EXPECT_GE(slices[i].first, slices[i - 1].second) << name;
            }
        }
    }
    EXPECT_EQ(slicesByName["stream 7"], 2u);
    EXPECT_EQ(slicesByName["stream 7 (lane 2)"], 2u);
    EXPECT_EQ(slicesByName["stream 9"], 1u);
    EXPECT_EQ(slicesByName["NVTX: thread 77"], 2u);
    EXPECT_EQ(slicesByName["NVTX: thread 77 (lane 2)"], 1u);
}

TEST_F(Exporters, PerfettoKeepsNanosecondsOfEpochClocks)
{
    const std::int64_t base = 1'763'700'000'123'456'789;
    const auto path = m_dir.file("epoch.ridge");
    writeOverlapSession(path, base);
    const auto doc = perfettoOf(path);
    const auto timeBase = doc["metadata"]["time_base_ns"].get<std::int64_t>();
    EXPECT_EQ(timeBase, 1'763'700'000'000'000'000);
    bool found = false;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "X" && e["cat"] == "kernel" && e["args"]["start_ns"] == base + 2'001) {
            EXPECT_EQ(e["ts"].get<double>(), static_cast<double>(base + 2'001 - timeBase) / 1000.0);
            EXPECT_EQ(e["dur"].get<double>(), 2.998);
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

TEST_F(Exporters, CsvOneFilePerTableWithEveryRow)
{
    auto reader = openSession(m_small);
    const auto dir = m_dir.file("csv");
    auto written = writeCsvTables(reader, dir);
    ASSERT_TRUE(written.ok()) << written.error().message;
    EXPECT_EQ(written.value().size(), csvTableNames().size());
    auto counts = reader.counts();
    auto meta = reader.meta();
    ASSERT_TRUE(counts.ok() && meta.ok());
    const auto& c = counts.value();
    const std::map<std::string, std::int64_t> expected = { { "meta", static_cast<std::int64_t>(meta.value().size()) },
        { "devices", c.devices }, { "ceilings", c.ceilings }, { "processes", c.processes }, { "threads", c.threads },
        { "kernel_names", c.kernelNames }, { "kernels", c.kernels }, { "kernel_metrics", c.metrics },
        { "memops", c.memcpys + c.memsets }, { "api_calls", c.apiCalls }, { "nvtx_ranges", c.nvtxRanges },
        { "comm_ops", c.commOps }, { "verdicts", c.verdicts }, { "ncu_rules", c.ncuRules } };
    ASSERT_EQ(expected.size(), csvTableNames().size());
    for (const auto& table : csvTableNames()) {
        const auto rows = parseCsv(ridgeline::testing::readBytes(dir + "/" + table + ".csv"));
        ASSERT_FALSE(rows.empty()) << table;
        EXPECT_EQ(static_cast<std::int64_t>(rows.size()) - 1, expected.at(table)) << table;
        for (const auto& row : rows)
            EXPECT_EQ(row.size(), rows.front().size()) << table;
    }
    EXPECT_EQ(c.kernels, 8);
    const auto kernels = parseCsv(ridgeline::testing::readBytes(dir + "/kernels.csv"));
    const auto& header = kernels.front();
    const auto column = [&](const char* name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    EXPECT_EQ(kernels[1][column("name")], "vectorAdd(float const*, float const*, float*, int)");
    EXPECT_EQ(kernels[1][column("verdict")], "memory-bound");
    EXPECT_EQ(kernels[1][column("start_ns")], "1000");
    const auto metrics = parseCsv(ridgeline::testing::readBytes(dir + "/kernel_metrics.csv"));
    EXPECT_EQ(metrics[1][1], "vectorAdd(float const*, float const*, float*, int)");
}

TEST_F(Exporters, CsvQuotesNamesWithCommasQuotesAndNewlines)
{
    const auto path = m_dir.file("overlap.ridge");
    writeOverlapSession(path);
    auto reader = openSession(path);
    const auto dir = m_dir.file("csv");
    ASSERT_TRUE(writeCsvTables(reader, dir).ok());
    const auto names = parseCsv(ridgeline::testing::readBytes(dir + "/kernel_names.csv"));
    ASSERT_EQ(names.size(), 3u);
    EXPECT_EQ(names[2][1], kQuoted);
    const auto kernels = parseCsv(ridgeline::testing::readBytes(dir + "/kernels.csv"));
    ASSERT_EQ(kernels.size(), 6u);
    for (const auto& row : kernels)
        EXPECT_EQ(row.size(), kernels.front().size());
}

TEST_F(Exporters, HtmlIsOnePageWithOneChartAndEscapesNames)
{
    const auto path = m_dir.file("overlap.ridge");
    writeOverlapSession(path);
    for (const auto& session : { m_small, path }) {
        auto reader = openSession(session);
        std::ostringstream out;
        const auto written = writeHtmlReport(reader, out);
        ASSERT_TRUE(written.ok()) << written.error().message;
        const auto html = out.str();
        auto count = [&](const std::string& needle) {
            std::size_t n = 0;
            for (auto at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1))
                ++n;
            return n;
        };
        EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
        EXPECT_EQ(count("<svg"), 1u);
        EXPECT_EQ(count("</svg>"), 1u);
        EXPECT_EQ(count("</html>"), 1u);
        EXPECT_EQ(count("<script"), 0u) << session;
        EXPECT_EQ(count("<link"), 0u);
        EXPECT_EQ(count("src="), 0u);
        EXPECT_EQ(count("<table"), count("</table>"));
        EXPECT_EQ(count("<tr>"), count("</tr>"));
        if (session == path) {
            EXPECT_GE(count("&lt;script&gt;alert(1)&lt;/script&gt;"), 2u);
        } else {
            EXPECT_NE(html.find("ampere_sgemm_128x64_nn"), std::string::npos);
            EXPECT_NE(html.find("memory-bound"), std::string::npos);
            EXPECT_NE(html.find("Timeline summary"), std::string::npos);
        }
    }
    EXPECT_EQ(htmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST_F(Exporters, AtomicWriteLeavesNothingOnFailure)
{
    const auto target = m_dir.file("out.json");
    auto failed = writeFileAtomically(target, [](std::ostream& out) -> Status {
        out << "half";
        return makeError(ErrorCode::BadFile, "reading failed");
    });
    ASSERT_TRUE(failed.hasError());
    EXPECT_EQ(failed.error().code, ErrorCode::BadFile);
    auto unwritable
        = writeFileAtomically(m_dir.file("missing/dir/out.json"), [](std::ostream&) -> Status { return {}; });
    ASSERT_TRUE(unwritable.hasError());
    EXPECT_EQ(unwritable.error().code, ErrorCode::Io);
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(m_dir.path()))
        ++entries;
    EXPECT_EQ(entries, 1u); // small.ridge only
    ASSERT_TRUE(writeFileAtomically(target, [](std::ostream& out) -> Status {
        out << "whole";
        return {};
    }).ok());
    EXPECT_EQ(ridgeline::testing::readBytes(target), "whole");
}

TEST_F(Exporters, HtmlGpuTimeSpanIsAUtcDateOnAnEpochClock)
{
    // The fixture's ops run from 0 to 42,500 ns (tests/data/README.md); shifted onto an epoch clock
    // by 1661203463063943000 ns, i.e. 1661203463 s = 2022-08-22 21:24:23 UTC (date -u -d @1661203463).
    const auto path = m_dir.file("epoch.ridge");
    ridgeline::testing::writeBytes(path, ridgeline::testing::readBytes(m_small));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    for (const char* table : { "kernels", "memops", "comm_ops", "api_calls", "nvtx_ranges" }) {
        const auto sql = std::string("UPDATE ") + table
            + " SET start_ns = start_ns + 1661203463063943000, end_ns = end_ns + 1661203463063943000";
        ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    }
    sqlite3_close(db);
    for (const auto& [session, expected] :
        { std::pair<std::string, std::string> { path,
              "42.500 µs, from 2022-08-22 21:24:23.063943000 UTC to 2022-08-22 21:24:23.063985500 UTC" },
            { m_small, "after the capture clock's origin" } }) {
        auto reader = openSession(session);
        std::ostringstream out;
        ASSERT_TRUE(writeHtmlReport(reader, out).ok());
        EXPECT_NE(out.str().find(expected), std::string::npos) << out.str().substr(0, 3000);
    }
}
