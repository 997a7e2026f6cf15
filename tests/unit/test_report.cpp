// SPDX-License-Identifier: MIT
// The kernel report on the small fixture, against figures worked out by hand
// (tests/data/README.md): total kernel time 37,000 ns over 5 rows.
#include "fixtures.h"
#include "output/jsonstream.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ridgeline::core;

namespace {

class Report : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto path = m_dir.file("small.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
        auto reader = SessionReader::open(path);
        ASSERT_TRUE(reader.ok()) << reader.error().message;
        auto report = buildKernelReport(reader.value());
        ASSERT_TRUE(report.ok()) << report.error().message;
        m_report = std::move(report).value();
    }
    std::string write(ReportOptions options)
    {
        std::ostringstream out;
        writeKernelReport(out, m_report, options);
        return out.str();
    }
    ridgeline::testing::TempDir m_dir;
    KernelReport m_report;
};

// Each member of `expected` as `actual` has it (a failure per member missing or different).
void expectMembers(const nlohmann::json& actual, const nlohmann::json& expected)
{
    for (const auto& member : expected.items()) {
        if (actual.contains(member.key()))
            EXPECT_EQ(actual.at(member.key()), member.value()) << member.key();
        else
            ADD_FAILURE() << "no " << member.key();
    }
}

} // namespace

TEST_F(Report, SummariesPerNameAndDevice)
{
    const auto& rows = m_report.kernels;
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].name, "ampere_sgemm_128x64_nn");
    EXPECT_EQ(rows[0].launches, 2);
    EXPECT_EQ(rows[0].totalNs, 24'000);
    EXPECT_DOUBLE_EQ(rows[0].averageNs(), 12'000.0);
    EXPECT_EQ(rows[0].minNs, 10'000);
    EXPECT_EQ(rows[0].maxNs, 14'000);
    EXPECT_NEAR(rows[0].shareOfKernelTime, 24'000.0 / 37'000.0, 1e-12);

    EXPECT_EQ(rows[1].name, "vectorAdd(float const*, float const*, float*, int)");
    EXPECT_EQ(rows[1].mangledName, "_Z9vectorAddPKfS0_Pfi");
    EXPECT_EQ(rows[1].deviceId, 0);
    EXPECT_EQ(rows[1].launches, 3);
    EXPECT_EQ(rows[1].totalNs, 6'000);
    EXPECT_EQ(rows[1].minNs, 1'000);
    EXPECT_EQ(rows[1].maxNs, 3'000);

    EXPECT_EQ(rows[4].name, "vectorAdd(float const*, float const*, float*, int)");
    EXPECT_EQ(rows[4].deviceId, 1);
    EXPECT_EQ(rows[4].totalNs, 500);
    EXPECT_EQ(rows[4].deviceName, "NVIDIA H100 80GB HBM3");
}

TEST_F(Report, SortAndTop)
{
    auto rows = m_report.kernels;
    sortKernelSummaries(rows, KernelSort::Launches);
    EXPECT_EQ(rows[0].launches, 3);
    EXPECT_EQ(rows[1].launches, 2);
    // Ties (one launch each) fall back to name order.
    EXPECT_EQ(rows[2].name.substr(0, 13), "ncclDevKernel");
    EXPECT_EQ(rows[3].name.substr(0, 9), "vectorAdd");
    EXPECT_EQ(rows[4].name, "void cutlass::Kernel<int>(int*)");
    sortKernelSummaries(rows, KernelSort::Name);
    EXPECT_EQ(rows[0].name, "ampere_sgemm_128x64_nn");
    sortKernelSummaries(rows, KernelSort::AverageTime);
    EXPECT_EQ(rows[0].name, "ampere_sgemm_128x64_nn");
    EXPECT_EQ(rows[1].name.substr(0, 13), "ncclDevKernel");
    sortKernelSummaries(rows, KernelSort::MaxTime);
    EXPECT_EQ(rows[1].maxNs, 5'000);

    const auto json = nlohmann::json::parse(write({ ReportFormat::Json, KernelSort::Launches, 2 }));
    ASSERT_EQ(json["kernels"].size(), 2u);
    EXPECT_EQ(json["kernels"][0]["launches"], 3);
    EXPECT_EQ(json["totals"]["kernels"], 5); // totals describe the whole session, not the top N
    EXPECT_EQ(json["totals"]["kernel_time_ns"], 37'000);
}

TEST_F(Report, JsonHasTheDocumentedFields)
{
    const auto json = nlohmann::json::parse(write({ ReportFormat::Json, KernelSort::TotalTime, 0 }));
    ASSERT_TRUE(json.is_object());
    EXPECT_EQ(json["session"]["schema_version"], kSchemaVersion); // the fixture is written by this build
    EXPECT_EQ(json["session"]["status"], "complete");
    EXPECT_EQ(json["session"]["source"], "fixture");
    EXPECT_EQ(json["devices"].size(), 2u);
    const auto& kernels = json["kernels"];
    ASSERT_EQ(kernels.size(), 5u);
    for (const auto& k : kernels) {
        for (const char* field : { "name", "device", "launches", "total_time_ns" })
            EXPECT_TRUE(k.contains(field)) << field;
    }
    EXPECT_EQ(kernels[0]["name"], "ampere_sgemm_128x64_nn");
    EXPECT_EQ(kernels[0]["device"], 0);
    EXPECT_EQ(kernels[0]["launches"], 2);
    EXPECT_EQ(kernels[0]["total_time_ns"], 24'000);
    EXPECT_DOUBLE_EQ(kernels[0]["avg_time_ns"].get<double>(), 12'000.0);
}

TEST_F(Report, CsvHasOneRowPerKernelAndQuotesNames)
{
    const auto csv = write({ ReportFormat::Csv, KernelSort::TotalTime, 0 });
    std::istringstream lines(csv);
    std::string header, line;
    std::getline(lines, header);
    EXPECT_EQ(header.rfind("name,mangled_name,device,device_name,launches,total_time_ns", 0), 0u);
    int rows = 0;
    while (std::getline(lines, line))
        ++rows;
    EXPECT_EQ(rows, 5);
    EXPECT_NE(
        csv.find("\"vectorAdd(float const*, float const*, float*, int)\",_Z9vectorAddPKfS0_Pfi,0,"), std::string::npos);
    EXPECT_NE(csv.find("ampere_sgemm_128x64_nn,ampere_sgemm_128x64_nn,0,NVIDIA H100 80GB HBM3,2,24000,12000.0,"),
        std::string::npos);
}

TEST_F(Report, TableShowsTotalsAndRows)
{
    const auto table = write({ ReportFormat::Table, KernelSort::TotalTime, 1 });
    EXPECT_NE(table.find("8 launches of 5 kernels"), std::string::npos) << table;
    EXPECT_NE(table.find("37.000 µs of kernel time"), std::string::npos) << table;
    EXPECT_NE(table.find("Showing the top 1."), std::string::npos) << table;
    EXPECT_NE(table.find(" 64.9%"), std::string::npos) << table; // 24,000 / 37,000 ns
    EXPECT_EQ(table.find("vectorAdd"), std::string::npos) << "--top 1 shows only sgemm";
}

// The "timeline" array on the small fixture (rank 0; process 1 has rank 0), worked out by hand:
// Device 0: HtoD [0,900), vectorAdd [1000,2000) [3000,5000) [6000,9000), sgemm [10000,20000)
//   [21000,35000), memset [36000,36200). Span 36,200; busy 900+1000+2000+3000+10000+14000+200 =
//   31,100; idle 5,100; compute 30,000; non-compute 1,100 (the copy and the memset); no
//   communication -> overlap null. Gaps: [900,1000) and [2000,3000) are ended by kernels whose
//   launch calls (800, 900) were issued before the gap -> waiting 1,100 in 2 gaps; the four other
//   gaps (1,000 each) are ended by ops without launch calls -> unknown 4,000. Verdicts: HtoD
//   communication-bound 900; the counted vectorAdd launch is memory-bound (2 MiB of DRAM in 1 µs =
//   63 % of 3.35 TB/s), with the memset 1,000 + 200; the rest unknown 29,000. Stream 7 queue:
//   [820,1000) and [915,3000) -> max 2, average (180 + 2085) / 36200.
// Device 1: AllReduce [12000,17000) (a collective), vectorAdd [40000,40500), cutlass [41000,42500).
//   Span 30,500; busy 7,000; idle 23,500; compute 2,000; non-compute 5,000; overlap 0 %.
TEST_F(Report, JsonHasTheTimelinePerRankAndDevice)
{
    const auto json = nlohmann::json::parse(write({ ReportFormat::Json, KernelSort::TotalTime, 0 }));
    EXPECT_TRUE(json["timeline_window"].is_null());
    const auto& timeline = json["timeline"];
    ASSERT_EQ(timeline.size(), 2u);
    for (const auto& t : timeline) {
        for (const char* field :
            { "rank", "device", "kernels", "memcpy", "memset", "collectives", "span_ns", "idle_ns", "compute_ns",
                "non_compute_ns", "comm_comp_overlap_pct", "time_by_verdict_ns", "idle_gaps", "queue_depth" })
            EXPECT_TRUE(t.contains(field)) << field;
    }
    const auto& d0 = timeline[0];
    expectMembers(d0,
        { { "rank", 0 }, { "device", 0 }, { "kernels", 5 }, { "memcpy", 1 }, { "memset", 1 }, { "collectives", 0 },
            { "span_ns", 36'200 }, { "idle_ns", 5'100 }, { "compute_ns", 30'000 }, { "non_compute_ns", 1'100 } });
    EXPECT_TRUE(d0["comm_comp_overlap_pct"].is_null());
    EXPECT_EQ(d0["time_by_verdict_ns"]["communication-bound"], 900);
    EXPECT_EQ(d0["time_by_verdict_ns"]["memory-bound"], 1'200);
    EXPECT_EQ(d0["time_by_verdict_ns"]["unknown"], 29'000);
    EXPECT_EQ(d0["idle_gaps"]["waiting_on_kernel"]["time_ns"], 1'100);
    EXPECT_EQ(d0["idle_gaps"]["waiting_on_kernel"]["count"], 2);
    EXPECT_EQ(d0["idle_gaps"]["host_not_launching"]["time_ns"], 0);
    EXPECT_EQ(d0["idle_gaps"]["unknown"]["time_ns"], 4'000);
    ASSERT_EQ(d0["queue_depth"].size(), 1u);
    EXPECT_EQ(d0["queue_depth"][0]["stream"], 7);
    EXPECT_EQ(d0["queue_depth"][0]["max_depth"], 2);
    EXPECT_DOUBLE_EQ(d0["queue_depth"][0]["avg_depth"].get<double>(), 2'265.0 / 36'200.0);

    const auto& d1 = timeline[1];
    expectMembers(d1,
        { { "rank", 0 }, { "device", 1 }, { "kernels", 2 }, { "collectives", 1 }, { "span_ns", 30'500 },
            { "idle_ns", 23'500 }, { "compute_ns", 2'000 }, { "non_compute_ns", 5'000 } });
    EXPECT_DOUBLE_EQ(d1["comm_comp_overlap_pct"].get<double>(), 0.0);

    const auto table = write({ ReportFormat::Table, KernelSort::TotalTime, 0 });
    EXPECT_NE(table.find("Rank 0 device 0: span 36.200 µs"), std::string::npos) << table;
}

// The streamed JSON is the text nlohmann's dump(2) gives for the same object (members in the order
// dump sorts them): nested objects, arrays of rows, an empty array, invalid UTF-8 replaced.
TEST(JsonObjectStream, WritesWhatDumpWrites)
{
    using nlohmann::json;
    const json row1 = { { "name", "gemm" }, { "dims", { 1, 2, 3 } }, { "nested", { { "x", nullptr } } } };
    const json row2 = { { "name", std::string("bad \xff utf-8") }, { "dims", json::array() } };
    const json expected = { { "a", { { "b", 1 }, { "c", { true, false } } } }, { "empty", json::array() },
        { "rows", { row1, row2 } }, { "z", 2.5 } };
    std::ostringstream out;
    ridgeline::core::detail::JsonObjectStream doc(out);
    doc.member("a", expected["a"]);
    doc.beginArray("empty");
    doc.endArray();
    doc.beginArray("rows");
    doc.element(row1);
    doc.element(row2);
    doc.endArray();
    doc.member("z", 2.5);
    doc.finish();
    EXPECT_EQ(out.str(), expected.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    std::ostringstream none;
    ridgeline::core::detail::JsonObjectStream empty(none);
    empty.finish();
    EXPECT_EQ(none.str(), json::object().dump(2) + "\n");
}
