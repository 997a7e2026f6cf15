// SPDX-License-Identifier: MIT
// Importing the hand-written Nsight Compute CSV fixtures of tests/data/ncu/ (see the README
// there): values read back from the session in base units, launch configuration, timeline,
// devices and ceilings. Verdict values are tested with the roofline, not here.
#include "gpuidentity.h"
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <tuple>

using namespace ridgeline;
using collectors::ImportSummary;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

class NcuCsvImport : public ::testing::Test {
protected:
    ImportSummary import(const std::string& fixture)
    {
        auto summary = collectors::importNcuCsv(testDataPath("ncu/" + fixture), m_session, false);
        EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message);
        auto reader = core::SessionReader::open(m_session);
        EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
        if (reader.ok())
            m_reader.emplace(std::move(reader).value());
        return summary.ok() ? summary.value() : ImportSummary {};
    }
    std::map<std::string, core::MetricValue> metrics(std::int64_t kernelId)
    {
        std::map<std::string, core::MetricValue> byName;
        auto all = m_reader->metrics(kernelId);
        EXPECT_TRUE(all.ok());
        for (auto& m : all.value())
            byName.emplace(m.name, m);
        return byName;
    }
    void expectMetric(std::int64_t kernelId, const std::string& name, double value, const std::string& unit)
    {
        SCOPED_TRACE(name);
        const auto all = metrics(kernelId);
        const auto it = all.find(name);
        ASSERT_NE(it, all.end());
        EXPECT_DOUBLE_EQ(it->second.value, value);
        EXPECT_EQ(it->second.unit, unit);
    }
    bool hasMetric(std::int64_t kernelId, const std::string& name) { return metrics(kernelId).contains(name); }
    std::vector<core::Kernel> kernels() { return m_reader->kernels().value(); }
    std::string meta(const std::string& key)
    {
        auto all = m_reader->meta().value();
        return all.contains(key) ? all[key] : std::string("<absent>");
    }

    TempDir m_dir;
    std::string m_session = m_dir.file("imported.ridge");
    std::optional<core::SessionReader> m_reader;
};

bool contains(const collectors::ImportWarnings& warnings, const std::string& words,
    collectors::WarningKind kind = collectors::WarningKind::Other)
{
    return std::any_of(warnings.begin(), warnings.end(),
        [&](const auto& w) { return w.kind == kind && w.text.find(words) != std::string::npos; });
}

} // namespace

TEST_F(NcuCsvImport, RawPageWithRooflineMetrics)
{
    const auto summary = import("raw-roofline.csv");
    EXPECT_EQ(summary.kernels, 3);
    EXPECT_EQ(summary.metrics, 3 * 26); // every numeric column; the device name is an attribute
    EXPECT_EQ(summary.skippedColumns, 0);
    EXPECT_TRUE(summary.warnings.empty()) << summary.warnings.front().text;

    // Base units: usecond -> ns, Mbyte -> byte, Tbyte/second -> byte/s, cycle/nsecond -> Hz.
    expectMetric(1, "gpu__time_duration.sum", 1'500'000, "ns");
    expectMetric(1, "dram__bytes.sum", 268'440'000, "byte");
    expectMetric(1, "dram__bytes.sum.per_second", 0.18e12, "byte/s");
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 1.75e9, "Hz");
    expectMetric(1, "dram__cycles_elapsed.avg.per_second", 2.62e9, "Hz");
    expectMetric(1, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 34'359'738'368, "inst");
    expectMetric(1, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 16'777'216, "inst");
    expectMetric(1, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 16'896, "inst/cycle");
    expectMetric(1, "launch__registers_per_thread", 128, "register/thread");
    expectMetric(2, "dram__bytes.sum", 1'610'610'000, "byte");
    expectMetric(3, "gpu__time_duration.sum", 12'250, "ns");

    const auto k = kernels();
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(k[0].grid, (core::Dim3 { 64, 32, 1 }));
    EXPECT_EQ(k[0].block, (core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(k[0].registersPerThread, 128);
    EXPECT_EQ(k[1].grid, (core::Dim3 { 32768, 1, 1 }));
    EXPECT_EQ(k[2].block, (core::Dim3 { 1024, 1, 1 }));
    EXPECT_EQ(k[0].streamId, 7);
    EXPECT_EQ(k[0].contextId, 1);
    // Synthetic timeline: ID order, 1 µs between the end of one kernel and the start of the next.
    EXPECT_EQ(k[0].startNs, 0);
    EXPECT_EQ(k[0].endNs, 1'500'000);
    EXPECT_EQ(k[1].startNs, 1'501'000);
    EXPECT_EQ(k[1].endNs, 2'101'000);
    EXPECT_EQ(k[2].startNs, 2'102'000);
    EXPECT_EQ(k[2].endNs, 2'114'250);
    EXPECT_EQ(k[2].correlationId, 2); // the ncu ID

    auto names = m_reader->kernelNames().value();
    ASSERT_EQ(names.size(), 3u);
    EXPECT_EQ(names[0].raw, "void gemm_kernel<float, 128, 64>(float const*, float const*, float*, int, int, int)");
    auto processes = m_reader->processes().value();
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].pid, 24601);
    EXPECT_EQ(processes[0].command, "sgemm_bench");

    EXPECT_EQ(meta("source"), "import:ncu-csv");
    EXPECT_EQ(meta("origin"), "raw-roofline.csv");
    EXPECT_EQ(meta("status"), "complete");
    EXPECT_EQ(meta("ncu_page"), "raw");
    EXPECT_EQ(meta("warning"), "<absent>");
    EXPECT_NE(meta("timeline").find("synthetic"), std::string::npos);
    EXPECT_EQ(m_reader->verdicts().value().size(), 3u);
}

TEST_F(NcuCsvImport, KnownGpuGetsItsDatasheetCeilings)
{
    import("raw-roofline.csv");
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(ridgeline::testing::gpuIdentity(devices[0]), std::make_tuple(0, "NVIDIA H100 80GB HBM3", 9, 0, 132));
    EXPECT_EQ(devices[0].host, "127.0.0.1");

    const auto* spec = collectors::findGpu("NVIDIA H100 80GB HBM3", 9, 0, 132);
    ASSERT_NE(spec, nullptr);
    const auto expected = collectors::datasheetCeilings(*spec, 0);
    const auto ceilings = m_reader->ceilings(0).value();
    // The catalogue's figures, and those the counters give (FFMA and DFMA peaks x SM clock, DRAM
    // bytes per cycle x DRAM clock): 16,896 x 2 x 1.75 GHz, 8,448 x 2 x 1.75 GHz, 1,279.39 x 2.62 GHz.
    ASSERT_EQ(ceilings.size(), expected.size() + 3);
    std::map<std::string, double> fromCounters;
    for (const auto& c : ceilings) {
        if (c.source == core::CeilingSource::Counters)
            fromCounters[c.resource] = c.value;
        else
            EXPECT_EQ(c.source, core::CeilingSource::Datasheet) << c.resource;
    }
    EXPECT_NEAR(fromCounters.at("FP32"), 16'896 * 2 * 1.75e9, 1.0);
    EXPECT_NEAR(fromCounters.at("FP64"), 8'448 * 2 * 1.75e9, 1.0);
    EXPECT_NEAR(fromCounters.at("DRAM"), 1'279.39 * 2.62e9, 1.0);
}

TEST_F(NcuCsvImport, NerscMetricSetWithoutDurationOrDeviceName)
{
    const auto summary = import("raw-nersc.csv");
    EXPECT_EQ(summary.kernels, 2);
    expectMetric(1, "dram__bytes.sum", 0.75e9, "byte");
    expectMetric(1, "lts__t_bytes.sum", 1.5e9, "byte");
    expectMetric(1, "l1tex__t_bytes.sum", 3e9, "byte");
    expectMetric(1, "sm__inst_executed_pipe_tensor.sum", 12'207'031, "inst");
    expectMetric(1, "sm__cycles_elapsed.avg", 1'530'000, "cycle");
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 1.53e9, "Hz");
    expectMetric(2, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 1'048'576, "inst");
    EXPECT_FALSE(hasMetric(1, "gpu__time_duration.sum")); // never invented

    // Duration = sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second (NERSC's formula).
    const auto k = kernels();
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].durationNs(), 1'000'000);
    EXPECT_EQ(k[1].startNs, 1'001'000);
    EXPECT_EQ(k[1].durationNs(), 50'000);
    EXPECT_TRUE(contains(summary.warnings, "sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second"));

    // Device and CC columns, but no name: no ceilings, and a warning saying why.
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].ccMajor, 7);
    EXPECT_EQ(devices[0].name, "unknown GPU");
    EXPECT_TRUE(m_reader->ceilings().value().empty());
    EXPECT_TRUE(contains(summary.warnings, "does not name GPU 0 (CC 7.0)", collectors::WarningKind::UnnamedGpu));
    EXPECT_NE(meta("warning").find("does not name GPU 0"), std::string::npos);
}

// No device name, but CC 8.6 and launch__sm_count 80 (raw-unnamed-a10g.csv, hand-written): only
// the A10G has both in the catalogue (the A10 has 72 SMs, the A40 and RTX A6000 84), so its datasheet
// ceilings are used, and the warning says which entry was taken and why. The device stays unnamed:
// `--gpu` may still name it.
TEST_F(NcuCsvImport, UnnamedGpuMatchedByComputeCapabilityAndSmCount)
{
    const auto summary = import("raw-unnamed-a10g.csv");
    EXPECT_EQ(summary.kernels, 1);
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].name, "unknown GPU");
    EXPECT_EQ(devices[0].smCount, 80);
    EXPECT_TRUE(contains(summary.warnings,
        "GPU 0: no GPU name in the file; CC 8.6 with 80 SMs matched \"NVIDIA A10G\", the only catalogue entry with "
        "both",
        collectors::WarningKind::UnnamedGpu));
    EXPECT_FALSE(contains(summary.warnings, "no datasheet ceilings", collectors::WarningKind::UnnamedGpu));
    // The A10G's DRAM figure (600 GB/s), from the datasheet catalogue.
    const auto ceilings = m_reader->ceilings().value();
    const auto dram = std::find_if(ceilings.begin(), ceilings.end(),
        [](const auto& c) { return c.resource == "DRAM" && c.source == core::CeilingSource::Datasheet; });
    ASSERT_NE(dram, ceilings.end());
    EXPECT_DOUBLE_EQ(dram->value, 600e9);
}

TEST_F(NcuCsvImport, OlderColumnSetAndUnknownGpu)
{
    const auto summary = import("raw-old-columns.csv");
    EXPECT_EQ(summary.kernels, 2);
    EXPECT_EQ(summary.skippedColumns, 1); // launch__func_cache_config: "CachePreferNone"
    EXPECT_TRUE(contains(summary.warnings, "\"launch__func_cache_config\""));
    expectMetric(1, "dram__bytes_read.sum", 784'380, "byte");
    expectMetric(1, "gpu__time_duration.sum", 5'216, "ns");
    expectMetric(2, "gpu__time_duration.sum", 5'184, "ns");

    // No (x, y, z) columns: the totals, in x, and a warning.
    const auto k = kernels();
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].grid, (core::Dim3 { 196, 1, 1 }));
    EXPECT_EQ(k[0].block, (core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(k[0].registersPerThread, 16);
    EXPECT_TRUE(contains(summary.warnings, "no (x, y, z) launch sizes"));

    EXPECT_TRUE(m_reader->ceilings().value().empty());
    EXPECT_TRUE(contains(summary.warnings, "\"NVIDIA Example GPU (test fixture)\" is not in Ridgeline's catalogue"));
    EXPECT_NE(meta("warning").find("not in Ridgeline's catalogue"), std::string::npos);
}

TEST_F(NcuCsvImport, DetailsPagePivotedToKernels)
{
    const auto summary = import("details.csv");
    EXPECT_EQ(summary.kernels, 2);
    EXPECT_EQ(summary.skippedColumns, 1); // Function Cache Configuration
    EXPECT_EQ(meta("ncu_page"), "details");

    // Labels kept as they are, and under the counter the section file names.
    expectMetric(1, "details:GPU Speed Of Light Throughput/Duration", 1'500'000, "ns");
    expectMetric(1, "gpu__time_duration.sum", 1'500'000, "ns");
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 1.75e9, "Hz");
    expectMetric(1, "dram__cycles_elapsed.avg.per_second", 2.62e9, "Hz");
    expectMetric(1, "gpc__cycles_elapsed.max", 2'625'112, "cycle");
    expectMetric(1, "launch__waves_per_multiprocessor", 3.88, "");
    expectMetric(1, "launch__grid_size", 2'048, "");
    expectMetric(1, "launch__shared_mem_per_block_static", 16'380, "byte/block");
    // "Memory Throughput" means different counters in different sections.
    expectMetric(1, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 21.68, "%");
    expectMetric(1, "dram__bytes.sum.per_second", 178.96e9, "byte/s");
    // `--metrics` rows carry counter names.
    expectMetric(1, "dram__bytes.sum", 268'440'000, "byte");
    expectMetric(1, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 34'359'738'368, "inst");
    EXPECT_FALSE(hasMetric(1, "sm__cycles_elapsed.avg")); // "Elapsed Cycles" is gpc__cycles_elapsed.max

    expectMetric(2, "gpu__time_duration.sum", 600'000, "ns");
    expectMetric(2, "dram__bytes.sum", 1.61e9, "byte");
    EXPECT_FALSE(hasMetric(2, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")); // n/a

    const auto k = kernels();
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].grid, (core::Dim3 { 64, 32, 1 }));
    EXPECT_EQ(k[0].registersPerThread, 128);
    EXPECT_EQ(k[0].staticSharedBytes, 16'380);
    EXPECT_EQ(k[1].startNs, 1'501'000);
    EXPECT_EQ(k[1].endNs, 2'101'000);
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(devices[0].smCount, 132); // from "# SMs"
    EXPECT_FALSE(m_reader->ceilings(0).value().empty());
}

TEST_F(NcuCsvImport, DetailsRowsWithoutTheEmptyRuleColumnsAndShortUnits)
{
    const auto summary = import("details-short-rows.csv");
    EXPECT_EQ(summary.kernels, 1);
    EXPECT_EQ(summary.skippedColumns, 1); // Cluster Scheduling Policy
    expectMetric(1, "gpu__time_duration.sum", 406'240, "ns");
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 1'239'496'049.13, "Hz");
    expectMetric(1, "launch__shared_mem_per_block_dynamic", 205'696, "byte/block");
    const auto k = kernels();
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].grid, (core::Dim3 { 9, 32, 1 }));
    EXPECT_EQ(k[0].block, (core::Dim3 { 384, 1, 1 }));
    EXPECT_EQ(k[0].registersPerThread, 168);
    EXPECT_EQ(k[0].dynamicSharedBytes, 205'696);
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].ccMajor, 10);
    EXPECT_EQ(devices[0].smCount, 148);
}

TEST_F(NcuCsvImport, OlderDetailsPage)
{
    const auto summary = import("details-old-columns.csv");
    EXPECT_EQ(summary.kernels, 1);
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 1'410'230'000, "Hz"); // "GPU Speed Of Light", cycle/usecond
    expectMetric(1, "gpu__time_duration.sum", 5'220, "ns");
    const auto k = kernels();
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].grid, (core::Dim3 { 196, 1, 1 }));
    EXPECT_EQ(k[0].durationNs(), 5'220);
}

TEST_F(NcuCsvImport, ProfilerMessagesAndProgramOutputBeforeTheHeader)
{
    const auto summary = import("prof-preamble.csv");
    EXPECT_EQ(summary.kernels, 2);
    expectMetric(2, "gpu__time_duration.sum", 8'380, "ns");
    EXPECT_EQ(meta("origin"), "prof-preamble.csv (==PROF== Connected to process 18830 (/home/user/bench/saxpy))");
    const auto devices = m_reader->devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].host, "gpu-node-7");
    EXPECT_FALSE(m_reader->ceilings(0).value().empty()) << "NVIDIA L40S is in the catalogue";
}

TEST_F(NcuCsvImport, ThousandsSeparatorsAndNotAvailable)
{
    const auto summary = import("separators-na.csv");
    EXPECT_EQ(summary.kernels, 3);
    EXPECT_EQ(summary.metrics, 4 + 3 + 2);
    expectMetric(1, "dram__bytes.sum", 1'215'000'000, "byte");
    expectMetric(1, "dram__bytes.sum.per_second", 1.215e12, "byte/s");
    expectMetric(1, "sm__cycles_elapsed.avg.per_second", 2.52e9, "Hz");
    EXPECT_FALSE(hasMetric(1, "lts__t_bytes.sum")); // n/a is absent, not 0
    EXPECT_FALSE(hasMetric(2, "dram__bytes.sum"));
    expectMetric(2, "lts__t_bytes.sum", 1'024'000, "byte");
    expectMetric(2, "gpu__time_duration.sum", 12'345, "ns");
    EXPECT_FALSE(hasMetric(3, "gpu__time_duration.sum"));

    const auto k = kernels();
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(k[2].startNs, 1'000'000 + 1'000 + 12'345 + 1'000);
    EXPECT_EQ(k[2].durationNs(), 0);
    EXPECT_TRUE(contains(summary.warnings, "1 kernel has no duration"));
}
