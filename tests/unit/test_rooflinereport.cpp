// SPDX-License-Identifier: MIT
// Verdicts through the whole path: session with counters -> summaries -> `report --format json`.
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

using namespace ridgeline::core;

namespace {

// Four kernels on one H100-like device, 1 ms each, with hand-computed verdicts.
void writeSession(const std::string& path)
{
    auto created = SessionWriter::create(path);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& w = created.value();
    Device d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.smCount = 132;
    d.coreClockKhz = 1'980'000;
    ASSERT_TRUE(w.addDevice(d).ok());
    const Ceiling ceilings[] = { { 0, "DRAM", 3.35e12, "B/s", CeilingSource::Datasheet, "test" },
        { 0, "FP32", 67e12, "FLOP/s", CeilingSource::Datasheet, "test" } };
    ASSERT_TRUE(w.addCeilings(ceilings).ok());
    auto kernel = [&](const char* name, std::int64_t start) {
        Kernel k;
        k.processId = 1;
        k.nameId = w.internKernelName(name).value();
        k.startNs = start;
        k.endNs = start + 1'000'000;
        k.grid = { 1024, 1, 1 };
        auto id = w.addKernels(std::span(&k, 1));
        EXPECT_TRUE(id.ok());
        return id.value();
    };
    const auto stream1 = kernel("stream_triad", 0);
    const auto stream2 = kernel("stream_triad", 2'000'000);
    const auto gemm = kernel("sgemm", 4'000'000);
    const auto nccl = kernel("ncclDevKernel_AllReduce", 6'000'000);
    kernel("no_counters", 8'000'000);
    const MetricValue metrics[] = {
        { stream1, "dram__bytes.sum", 2.91e9, "byte" },
        { stream1, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 6.03e9, "" },
        { stream2, "dram__bytes.sum", 2.91e9, "byte" },
        { stream2, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 6.03e9, "" },
        { gemm, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 25e9, "" },
        { gemm, "dram__bytes.sum", 0.3e9, "byte" },
    };
    ASSERT_TRUE(w.addMetrics(metrics).ok());
    CommOp op;
    op.kernelId = nccl;
    op.processId = 1;
    op.collective = "AllReduce";
    op.startNs = 6'000'000;
    op.endNs = 7'000'000;
    ASSERT_TRUE(w.addCommOps(std::span(&op, 1)).ok());
    ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());
}

nlohmann::json kernelNamed(const nlohmann::json& doc, const std::string& name)
{
    for (const auto& k : doc["kernels"]) {
        if (k["name"] == name)
            return k;
    }
    ADD_FAILURE() << "no kernel " << name;
    return {};
}

// The session of writeSession, written once per test and open.
class RooflineReport : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto path = m_dir.file("roofline.ridge");
        writeSession(path);
        ASSERT_FALSE(HasFatalFailure());
        auto reader = SessionReader::open(path);
        ASSERT_TRUE(reader.ok());
        m_reader.emplace(std::move(reader).value());
    }

    SessionReader& reader() { return *m_reader; }

private:
    ridgeline::testing::TempDir m_dir;
    std::optional<SessionReader> m_reader;
};

} // namespace

TEST_F(RooflineReport, JsonCarriesVerdictsAndTheirNumbers)
{
    auto report = buildKernelReport(reader());
    ASSERT_TRUE(report.ok()) << report.error().message;
    std::ostringstream out;
    writeKernelReport(out, report.value(), { ReportFormat::Json, KernelSort::TotalTime, 0 });
    const auto doc = nlohmann::json::parse(out.str());

    const auto triad = kernelNamed(doc, "stream_triad");
    EXPECT_EQ(triad["launches"], 2);
    EXPECT_EQ(triad["verdict"], "memory-bound");
    EXPECT_EQ(triad["bound_by"], "DRAM");
    EXPECT_EQ(triad["reason"], "memory-bound (DRAM): 2.91 TB/s = 87 % of 3.35 TB/s; FP32 at 9 % of peak");
    EXPECT_NEAR(triad["pct_of_roof"].get<double>(), 100 * 2.91 / 3.35, 1e-9);
    EXPECT_DOUBLE_EQ(triad["flops"].get<double>(), 12.06e9);
    EXPECT_DOUBLE_EQ(triad["dram_bytes"].get<double>(), 5.82e9);
    EXPECT_NEAR(triad["ai_dram"].get<double>(), 6.03 / 2.91, 1e-12);
    EXPECT_NEAR(triad["achieved_flops_per_s"].get<double>(), 6.03e12, 1e3);
    EXPECT_NEAR(triad["utilization"]["DRAM"].get<double>(), 2.91 / 3.35, 1e-12);
    EXPECT_NEAR(triad["utilization"]["FP32"].get<double>(), 6.03 / 67, 1e-12);
    EXPECT_EQ(triad["ceilings"]["DRAM"]["source"], "datasheet");

    const auto gemm = kernelNamed(doc, "sgemm");
    EXPECT_EQ(gemm["verdict"], "compute-bound");
    EXPECT_EQ(gemm["bound_by"], "FP32");

    const auto nccl = kernelNamed(doc, "ncclDevKernel_AllReduce");
    EXPECT_EQ(nccl["verdict"], "communication-bound");
    EXPECT_EQ(nccl["bound_by"], "collective");

    const auto none = kernelNamed(doc, "no_counters");
    EXPECT_EQ(none["verdict"], "unknown");
    EXPECT_TRUE(none["bound_by"].is_null());
    EXPECT_TRUE(none["flops"].is_null());
    EXPECT_TRUE(none["ai_dram"].is_null());
    EXPECT_TRUE(none["utilization"].empty());

    // Every verdict string is one of the five the issue names.
    for (const auto& k : doc["kernels"]) {
        const auto v = k["verdict"].get<std::string>();
        EXPECT_TRUE(v == "compute-bound" || v == "memory-bound" || v == "communication-bound" || v == "latency-bound"
            || v == "unknown")
            << v;
    }
}

TEST_F(RooflineReport, TableShowsVerdictAndReason)
{
    std::ostringstream out;
    writeKernelReport(out, buildKernelReport(reader()).value(), {});
    const auto table = out.str();
    EXPECT_NE(table.find("memory-bound (DRAM)"), std::string::npos) << table;
    EXPECT_NE(table.find("87 %"), std::string::npos) << table;
    EXPECT_NE(table.find("6.03 TFLOP/s"), std::string::npos) << table;
    EXPECT_NE(table.find("communication-bound: carries the collective AllReduce"), std::string::npos) << table;
}

TEST_F(RooflineReport, AnalyzeSessionVisitsEveryLaunchInStartOrder)
{
    std::vector<std::pair<std::int64_t, std::string>> seen;
    const auto status = analyzeSession(reader(),
        [&](const Kernel& kernel, const KernelAnalysis& a) { seen.emplace_back(kernel.startNs, toString(a.verdict)); });
    ASSERT_TRUE(status.ok()) << status.error().message;
    const std::vector<std::pair<std::int64_t, std::string>> expected { { 0, "memory-bound" },
        { 2'000'000, "memory-bound" }, { 4'000'000, "compute-bound" }, { 6'000'000, "communication-bound" },
        { 8'000'000, "unknown" } };
    EXPECT_EQ(seen, expected);
}
