// SPDX-License-Identifier: MIT
// The kernel report on the small fixture, against figures worked out by hand
// (tests/data/README.md): total kernel time 37,000 ns over 5 rows.
#include "fixtures.h"
#include "ridgeline/core/report.h"
#include "ridgeline/core/sessionreader.h"
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
    EXPECT_EQ(json["session"]["schema_version"], 1);
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
    EXPECT_NE(table.find(" 64.86%"), std::string::npos) << table;
    EXPECT_EQ(table.find("vectorAdd"), std::string::npos) << "--top 1 shows only sgemm";
}
