// SPDX-License-Identifier: MIT
// Importing real Nsight Compute reports (tests/data/ncu/nersc-gpp/, RTX 4060 Laptop GPU, see the
// README there). Expected numbers are read off the files with `protoc --decode_raw` (the
// comments give them) or computed here from values so read; none comes from the importer.
#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

std::string report(int n)
{
    return testDataPath("ncu/nersc-gpp/output" + std::to_string(n) + ".ncu-rep");
}

struct Imported {
    std::vector<core::Kernel> kernels;
    std::map<std::int64_t, core::KernelName> names;
    std::vector<core::Device> devices;
    std::map<std::int64_t, std::map<std::string, core::MetricValue>> metrics; // by kernel id, name
    std::map<std::int64_t, core::KernelAnalysis> analyses;
    std::map<std::string, std::string> meta;
    std::vector<core::Ceiling> ceilings;
    collectors::ImportSummary summary;
};

Imported readSession(const std::string& session, collectors::ImportSummary summary)
{
    Imported out;
    out.summary = std::move(summary);
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    if (!reader.ok())
        return out;
    auto& r = reader.value();
    out.kernels = r.kernels().value();
    auto names = r.kernelNames();
    EXPECT_TRUE(names.ok());
    for (const auto& name : names.value())
        out.names[name.id] = name;
    out.devices = r.devices().value();
    out.meta = r.meta().value();
    out.ceilings = r.ceilings().value();
    for (const auto& k : out.kernels) {
        auto metrics = r.metrics(k.id);
        EXPECT_TRUE(metrics.ok());
        for (const auto& m : metrics.value())
            out.metrics[k.id][m.name] = m;
    }
    EXPECT_TRUE(core::analyzeSession(r, [&](const core::Kernel& k, const core::KernelAnalysis& a) {
        out.analyses[k.id] = a;
    }).ok());
    return out;
}

class NcuRepImport : public ::testing::Test {
protected:
    Imported import(const std::vector<std::string>& reports)
    {
        const auto session = m_dir.file("rep" + std::to_string(m_count++) + ".ridge");
        auto summary = collectors::importNcuRep(reports, session, false);
        EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message);
        if (!summary.ok())
            return {};
        return readSession(session, summary.value());
    }
    double metric(const Imported& s, std::int64_t kernelId, const std::string& name)
    {
        const auto& byName = s.metrics.at(kernelId);
        const auto it = byName.find(name);
        EXPECT_NE(it, byName.end()) << name;
        return it == byName.end() ? std::nan("") : it->second.value;
    }

    TempDir m_dir;
    int m_count = 0;
};

// `protoc --decode_raw` of output1.ncu-rep: 12 blocks; block 2 and block 11 each announce one
// result (BlockHeader field 2 = 1), the others none.
TEST_F(NcuRepImport, ResultsKernelNamesAndLaunches)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.kernels.size(), 2U);
    EXPECT_EQ(s.summary.kernels, 2);
    // ProfileResult fields 5 (mangled) and 7 (demangled) of the two results.
    EXPECT_EQ(s.names.at(s.kernels[0].nameId).raw, "sigma_gpp_gpu_34_gpu");
    EXPECT_EQ(s.names.at(s.kernels[0].nameId).demangled, "sigma_gpp_gpu_34");
    EXPECT_EQ(s.names.at(s.kernels[1].nameId).raw, "sigma_gpp_gpu_34_gpu__red");
    EXPECT_EQ(s.names.at(s.kernels[1].nameId).demangled, "sigma_gpp_gpu_34");
    // Fields 10 and 11: grid (65535, 1, 1) and (4, 1, 1), block (128, 1, 1) and (256, 1, 1);
    // field 22 context 1, field 23 stream 13.
    EXPECT_EQ(s.kernels[0].grid, (core::Dim3 { 65535, 1, 1 }));
    EXPECT_EQ(s.kernels[0].block, (core::Dim3 { 128, 1, 1 }));
    EXPECT_EQ(s.kernels[1].grid, (core::Dim3 { 4, 1, 1 }));
    EXPECT_EQ(s.kernels[1].block, (core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(s.kernels[0].contextId, 1);
    EXPECT_EQ(s.kernels[0].streamId, 13);
    // launch__registers_per_thread 92, launch__shared_mem_per_block_dynamic 4096, static: an
    // empty value message (0).
    EXPECT_EQ(s.kernels[0].registersPerThread, 92);
    EXPECT_EQ(s.kernels[0].dynamicSharedBytes, 4096);
    EXPECT_EQ(s.kernels[0].staticSharedBytes, 0);
    EXPECT_EQ(s.meta.at("source"), "import:ncu-rep");
    // Recognised by its "NVR\0" magic, whatever the file is called.
    EXPECT_EQ(collectors::detectFileFormat(report(1)).value(), collectors::FileFormat::NsightComputeReport);
}

TEST_F(NcuRepImport, DeviceFromTheDeviceAttributes)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.devices.size(), 1U);
    const auto& d = s.devices.front();
    // device__attribute_display_name, _compute_capability_major/minor, _multiprocessor_count,
    // _clock_rate and _memory_clock_rate (kHz), _total_memory, _global_memory_bus_width, _l2_cache_size.
    EXPECT_EQ(d.name, "NVIDIA GeForce RTX 4060 Laptop GPU");
    EXPECT_EQ(d.ccMajor, 8);
    EXPECT_EQ(d.ccMinor, 9);
    EXPECT_EQ(d.smCount, 24);
    EXPECT_EQ(d.coreClockKhz, 2010000);
    EXPECT_EQ(d.memoryClockKhz, 8001000);
    EXPECT_EQ(d.memoryBytes, 8318484480);
    EXPECT_EQ(d.memoryBusWidthBits, 128);
    EXPECT_EQ(d.l2CacheBytes, 33554432);
    EXPECT_EQ(d.ordinal, 0); // launch__device_id: an empty value message
}

TEST_F(NcuRepImport, TimesAreTheDurationsBackToBack)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.kernels.size(), 2U);
    // gpu__time_duration.sum: double 30492203776 and 101792 (ns).
    EXPECT_EQ(s.kernels[0].durationNs(), 30492203776);
    EXPECT_EQ(s.kernels[1].durationNs(), 101792);
    EXPECT_EQ(s.kernels[0].startNs, 0);
    EXPECT_EQ(s.kernels[1].startNs, 30492203776 + collectors::ncu::kSyntheticGapNs);
    EXPECT_NE(s.meta.at("timeline").find("synthetic"), std::string::npos);
}

TEST_F(NcuRepImport, EveryMetricIsStoredInBaseUnits)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.kernels.size(), 2U);
    // 329 metric results per result, 3 of them text (launch__func_cache_config,
    // device__attribute_confidential_computing_mode, device__attribute_display_name: the last one
    // names the device), plus the 5 counts derived from rates (below): 331 stored per result.
    EXPECT_EQ(s.metrics.at(s.kernels[0].id).size(), 331U);
    EXPECT_EQ(s.summary.metrics, 2 * 331);
    const auto& m = s.metrics.at(s.kernels[0].id);
    EXPECT_DOUBLE_EQ(m.at("dram__bytes.sum.per_second").value, 17696341670.939251);
    EXPECT_EQ(m.at("dram__bytes.sum.per_second").unit, "byte/s");
    EXPECT_EQ(m.at("gpu__time_duration.sum").unit, "ns");
    EXPECT_DOUBLE_EQ(m.at("sm__cycles_elapsed.avg.per_second").value, 1619999996.1152911);
    EXPECT_EQ(m.at("sm__cycles_elapsed.avg.per_second").unit, "Hz");
    EXPECT_DOUBLE_EQ(m.at("launch__waves_per_multiprocessor").value, 546.125);
    EXPECT_DOUBLE_EQ(m.at("device__attribute_max_threads_per_multiprocessor").value, 1536);
    EXPECT_DOUBLE_EQ(m.at("launch__device_id").value, 0);
}

// The report has FP64 instruction rates per elapsed cycle and DRAM bytes per second; counts are
// rate x duration (x the SMSP clock for per-cycle rates), Nsight Compute's own definitions.
TEST_F(NcuRepImport, Fp64FlopsAndDramBytesFromTheRates)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.kernels.size(), 2U);
    const auto id = s.kernels[0].id;
    const double seconds = 30492203776e-9;
    const double smspClock = 1619999996.1152911; // smsp__cycles_elapsed.avg.per_second
    const double dadd = 3.2022100011856831; // smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed
    const double dmul = 16.256282937708527;
    const double dfma = 16.555009990249953;
    const double dramPerSecond = 17696341670.939251; // dram__bytes.sum.per_second
    EXPECT_NEAR(metric(s, id, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"), dadd * smspClock * seconds, 1);
    EXPECT_NEAR(metric(s, id, "dram__bytes.sum"), dramPerSecond * seconds, 1);

    const auto& a = s.analyses.at(id);
    const double flops = (dadd + dmul + 2 * dfma) * smspClock * seconds; // about 2.597e12
    ASSERT_TRUE(a.flopsByPrecision.contains(core::Resource::FP64));
    EXPECT_NEAR(a.flopsByPrecision.at(core::Resource::FP64), flops, flops * 1e-12);
    ASSERT_TRUE(a.bytesByLevel.contains(core::Resource::DRAM));
    EXPECT_NEAR(a.bytesByLevel.at(core::Resource::DRAM), dramPerSecond * seconds, 1);
    EXPECT_TRUE(a.hasCounters);
    // The ceilings come from the counters: dfma peak 48 per cycle x 2 FLOPs x SM clock.
    EXPECT_NE(a.verdict, core::VerdictClass::Unknown);
}

// output1.csv and output1.ncu-rep are two ncu runs of the same program (gpp.x, same input):
// same kernel, same device, same long-launch time and FP64 work.
TEST_F(NcuRepImport, AgreesWithTheCsvOfTheSameProgram)
{
    const auto rep = import({ report(1) });
    const auto csvSession = m_dir.file("csv.ridge");
    auto csvSummary = collectors::importNcuCsv(testDataPath("ncu/nersc-gpp/output1.csv"), csvSession, false);
    ASSERT_TRUE(csvSummary.ok()) << csvSummary.error().message;
    const auto csv = readSession(csvSession, csvSummary.value());
    ASSERT_EQ(csv.kernels.size(), 1U);
    ASSERT_EQ(rep.kernels.size(), 2U);
    // The CSV names the kernel by ncu's display name: the report's demangled name.
    EXPECT_EQ(csv.names.at(csv.kernels[0].nameId).demangled, rep.names.at(rep.kernels[0].nameId).demangled);
    ASSERT_EQ(csv.devices.size(), 1U);
    ASSERT_EQ(rep.devices.size(), 1U);
    // The details page names no GPU: the same device is the same index and compute capability.
    EXPECT_EQ(csv.devices[0].ordinal, rep.devices[0].ordinal);
    EXPECT_EQ(csv.devices[0].ccMajor, rep.devices[0].ccMajor);
    EXPECT_EQ(csv.devices[0].ccMinor, rep.devices[0].ccMinor);
    // CSV: 49,398,007,062.67 cycles / 1,619,999,997.89 Hz = 30.4926 s; report: 30.4922 s.
    const double csvNs = static_cast<double>(csv.kernels[0].durationNs());
    const double repNs = static_cast<double>(rep.kernels[0].durationNs());
    EXPECT_NEAR(repNs, csvNs, csvNs * 1e-3);
    EXPECT_NEAR(repNs, 30.49e9, 0.01e9);
    // Instruction counts do not depend on the run: the rates x clock x time give the CSV's counts.
    const double csvFlops = csv.analyses.at(csv.kernels[0].id).flopsByPrecision.at(core::Resource::FP64);
    const double repFlops = rep.analyses.at(rep.kernels[0].id).flopsByPrecision.at(core::Resource::FP64);
    EXPECT_NEAR(repFlops, csvFlops, csvFlops * 1e-9); // in fact equal: 2,596,746,282,959 FLOPs
}

// The roofs of a report are its peak_sustained figures x the unit's clock, as Nsight Compute draws
// them. Read off output1.ncu-rep (first result): dram__bytes.sum.peak_sustained 32 B/cycle x
// dram__cycles_elapsed.avg.per_second 7,993,005,232.1 Hz = 255.78 GB/s (the RTX 4060 Laptop's
// 256 GB/s); derived__lts__lts2xbar_bytes.sum.peak_sustained 1,024 B/cycle x lts clock
// 1,619,919,298.6 Hz = 1.659 TB/s; derived__l1tex__lsu_writeback_bytes_mem_lg.sum.peak_sustained
// 3,072 B/cycle x l1tex clock 1,619,999,996.1 Hz = 4.977 TB/s; dfma 48 inst/cycle x 2 FLOP x SM
// clock 1,619,999,996.1 Hz = 155.5 GFLOP/s.
TEST_F(NcuRepImport, CounterCeilingsArePeakSustainedTimesClock)
{
    const auto s = import({ report(1) });
    ASSERT_EQ(s.kernels.size(), 2U);
    const auto& used = s.analyses.at(s.kernels[0].id).ceilingsUsed;
    const std::map<core::Resource, double> expected { { core::Resource::DRAM, 32 * 7'993'005'232.10566 },
        { core::Resource::L2, 1024 * 1'619'919'298.64637 }, { core::Resource::L1, 3072 * 1'619'999'996.11529 },
        { core::Resource::FP64, 48 * 2 * 1'619'999'996.11529 } };
    for (const auto& [resource, value] : expected) {
        const auto it = used.find(resource);
        ASSERT_NE(it, used.end()) << core::toString(resource);
        EXPECT_EQ(it->second.source, core::CeilingSource::Counters) << core::toString(resource);
        EXPECT_NEAR(it->second.value, value, value * 1e-9) << core::toString(resource);
    }
}

// The report's GPU, "NVIDIA GeForce RTX 4060 Laptop GPU" (CC 8.9, 24 SMs), is in the catalogue: its
// datasheet ceilings come with the session (256 GB/s: 16 Gbps GDDR6 x 128 bits), no warning says
// otherwise, and the counter ceilings still win (CounterCeilingsArePeakSustainedTimesClock).
TEST_F(NcuRepImport, TheRtx4060LaptopGpuIsInTheCatalogue)
{
    const auto s = import({ report(1) });
    for (const auto& w : s.summary.warnings)
        EXPECT_EQ(w.text.find("Ridgeline's catalogue"), std::string::npos) << w.text;
    const auto dram = std::find_if(s.ceilings.begin(), s.ceilings.end(),
        [](const auto& c) { return c.resource == "DRAM" && c.source == core::CeilingSource::Datasheet; });
    ASSERT_NE(dram, s.ceilings.end());
    EXPECT_DOUBLE_EQ(dram->value, 256e9);
    EXPECT_NE(dram->note.find("data-check.eu"), std::string::npos) << dram->note;
    // The device keeps the clock its report gives (2,010 MHz), not the catalogue's 2,370 MHz.
    ASSERT_EQ(s.devices.size(), 1U);
    EXPECT_EQ(s.devices.front().coreClockKhz, 2010000);
}

TEST_F(NcuRepImport, SeveralReportsMakeOneSession)
{
    const auto s = import({ report(0), report(1), report(2) });
    ASSERT_EQ(s.kernels.size(), 6U);
    EXPECT_EQ(s.devices.size(), 1U); // the same GPU (host 127.0.0.1, device 0) in all three
    // output0's long launch: gpu__time_duration.sum 49949994624 ns; output2's 30493258752 ns.
    EXPECT_EQ(s.kernels[0].durationNs(), 49949994624);
    EXPECT_EQ(s.kernels[4].durationNs(), 30493258752);
    for (std::size_t i = 1; i < s.kernels.size(); ++i)
        EXPECT_GT(s.kernels[i].startNs, s.kernels[i - 1].endNs);
}

} // namespace
