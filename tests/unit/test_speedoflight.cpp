// SPDX-License-Identifier: MIT
// Nsight Compute's Speed of Light deciding the class (docs/ROOFLINE.md, "Verdict"), the counter
// ceilings of L2, L1 and tensor work worked out by hand from the metric names Nsight Compute's
// hierarchical roofline sections use, NCCL kernels by name, and the agreement with ncu's own class
// on every launch of the real A100 files.
#include "gunzip.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace ridgeline;
using namespace ridgeline::core;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

const std::string Sm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
const std::string Mem = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
const std::string DramPct = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
const std::string L2Pct = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
const std::string L1Pct = "l1tex__throughput.avg.pct_of_peak_sustained_elapsed";

KernelFacts sol(double sm, double mem, double dram, double l2, double l1)
{
    KernelFacts f;
    f.durationNs = 1'000'000;
    f.metrics = { { Sm, sm }, { Mem, mem }, { DramPct, dram }, { L2Pct, l2 }, { L1Pct, l1 } };
    return f;
}

TEST(SpeedOfLight, DecidesTheClassAsNcuDoes)
{
    // No GPU named, no ceilings: ncu's own throughputs still give the class.
    auto a = analyzeKernel(sol(44, 81, 20, 35, 81));
    EXPECT_EQ(a.verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(a.boundBy, "L1"); // the busiest memory unit
    EXPECT_EQ(a.reason, "memory-bound (L1): 81 % of peak; SM 44 %");
    a = analyzeKernel(sol(70, 70, 70, 10, 10)); // SM >= memory: compute
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "SM");
    a = analyzeKernel(sol(61, 75, 75, 10, 10));
    EXPECT_EQ(a.verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(a.boundBy, "DRAM");
    a = analyzeKernel(sol(59.9, 59.9, 59.9, 1, 1));
    EXPECT_EQ(a.verdict, VerdictClass::LatencyBound);
    EXPECT_NE(a.reason.find("SM 60 %, memory 60 % of peak, both under 60 %"), std::string::npos) << a.reason;
}

TEST(SpeedOfLight, CountsDoNotOverruleIt)
{
    // FP-only utilisation would call this latency-bound (no FP work); the SM was busy with
    // other pipes (integer, load/store), which ncu's SM throughput sees.
    auto f = sol(85, 30, 30, 20, 25);
    f.metrics["dram__bytes.sum"] = 1e6;
    EXPECT_EQ(analyzeKernel(f).verdict, VerdictClass::ComputeBound);
}

// SM >= 60 % but little floating point (docs/ROOFLINE.md "Verdict"): a pipe at FLOP utilisation u
// is busy for at most 2u of its cycles (an add fills an FMA's slot for 1 FLOP), so below SM / 2 the
// SM throughput was set by other work. 1 ms launches against an FP32 roof of 19.5 TFLOP/s.
KernelFacts solFp32(double sm, double mem, double ffma)
{
    auto f = sol(sm, mem, mem, 10, 10);
    f.metrics["sm__sass_thread_inst_executed_op_ffma_pred_on.sum"] = ffma;
    f.ceilings = { { 0, "FP32", 19.5e12, "FLOP/s", CeilingSource::Datasheet, "test" } };
    return f;
}

TEST(SpeedOfLight, SmBoundWithoutFloatingPoint)
{
    // 1e8 FFMA = 2e8 FLOP in 1 ms = 0.2 TFLOP/s = 1.03 % of 19.5 TFLOP/s; 2 x 1.03 % < 65 %.
    auto a = analyzeKernel(solFp32(65, 59, 1e8));
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "SM");
    EXPECT_DOUBLE_EQ(*a.boundUtilization, 0.65);
    EXPECT_EQ(a.reason,
        "compute-bound (SM, not floating point: issue, integer or load/store work): SM 65 % of peak; FP32 1 %; memory "
        "59 %");
    // The rule's edge, SM 70 %: FP32 at 36 % (3.51e9 FFMA = 7.02e9 FLOP in 1 ms = 7.02 TFLOP/s) could
    // be a pipe busy 72 % of the time: FP32 named. At 34 % (3.315e9 FFMA) it could be 68 % at most.
    a = analyzeKernel(solFp32(70, 50, 3.51e9));
    EXPECT_EQ(a.boundBy, "FP32");
    EXPECT_EQ(a.reason, "compute-bound (FP32): SM 70 % of peak; memory 50 %");
    a = analyzeKernel(solFp32(70, 50, 3.315e9));
    EXPECT_EQ(a.boundBy, "SM");
    EXPECT_NE(a.reason.find("SM 70 % of peak; FP32 34 %; memory 50 %"), std::string::npos) << a.reason;
}

TEST(SpeedOfLight, SmBoundNeedsTheFloatingPointCounted)
{
    // Every FP counter at zero: no floating-point work, which needs no ceiling to say.
    auto f = sol(80, 30, 30, 20, 25);
    for (const char* op : { "fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma" })
        f.metrics[std::string("sm__sass_thread_inst_executed_op_") + op + "_pred_on.sum"] = 0;
    auto a = analyzeKernel(f);
    EXPECT_EQ(a.boundBy, "SM");
    EXPECT_EQ(a.reason,
        "compute-bound (SM, not floating point: issue, integer or load/store work): SM 80 % of peak; no "
        "floating-point work; memory 30 %");
    // FP32 work but no FP32 roof: its pipe cannot be weighed, so nothing is ruled out.
    f.metrics["sm__sass_thread_inst_executed_op_ffma_pred_on.sum"] = 1e8;
    a = analyzeKernel(f);
    EXPECT_EQ(a.boundBy, "SM");
    EXPECT_EQ(a.reason, "compute-bound (SM): SM 80 % of peak; memory 30 %");
    // No FP counters at all (DecidesTheClassAsNcuDoes): "compute-bound (SM)" as before.
    EXPECT_EQ(analyzeKernel(sol(70, 70, 70, 10, 10)).reason, "compute-bound (SM): SM 70 % of peak; memory 70 %");
}

TEST(SpeedOfLight, AggregatedTimeWeighted)
{
    // 1 ms memory-bound at 90 % + 3 ms at 40 %: memory 52.5 %, SM 20 % -> latency-bound.
    auto one = sol(20, 90, 90, 10, 10), two = sol(20, 40, 40, 10, 10);
    two.durationNs = 3'000'000;
    const KernelAnalysis launches[] = { analyzeKernel(one), analyzeKernel(two) };
    const auto kernel = aggregateLaunches(launches);
    EXPECT_EQ(kernel.verdict, VerdictClass::LatencyBound);
    EXPECT_NEAR(kernel.speedOfLight.at("Memory"), (0.9 * 1 + 0.4 * 3) / 4, 1e-12);
}

TEST(SpeedOfLight, NcclKernelsByNameAreCommunication)
{
    KernelFacts f;
    f.durationNs = 5000;
    f.name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
    f.metrics = { { Sm, 10 }, { Mem, 10 } };
    const auto a = analyzeKernel(f);
    EXPECT_EQ(a.verdict, VerdictClass::CommunicationBound);
    EXPECT_NE(a.reason.find("NCCL kernel"), std::string::npos) << a.reason;
    f.name = "ampere_sgemm_128x64_tn";
    EXPECT_EQ(analyzeKernel(f).verdict, VerdictClass::LatencyBound);
}

// Values as output1.ncu-rep (nersc-gpp, RTX 4060 Laptop) holds them, worked out by hand:
// L2 = derived__lts__lts2xbar_bytes.sum.peak_sustained x lts clock; L1 = the lsu writeback cycles
// x 128 B x l1tex clock; tensor = per-type ops per cycle x SM clock, or pipe instructions x 512.
TEST(CounterCeilings, L2L1AndTensorFromPeaksTimesClocks)
{
    std::map<std::string, double, std::less<>> m {
        { "lts__lts2xbar_cycles_active.sum.peak_sustained", 48 },
        { "lts__cycles_elapsed.avg.per_second", 1.62e9 },
        { "l1tex__lsu_writeback_active_mem_lg.sum.peak_sustained", 24 },
        { "l1tex__cycles_elapsed.avg.per_second", 1.62e9 },
        { "sm__cycles_elapsed.avg.per_second", 1.62e9 },
        { "sm__inst_executed_pipe_tensor.sum.peak_sustained", 96 },
    };
    std::map<std::string, double> byResource;
    for (const auto& c : ceilingsFromCounters(m, 0))
        byResource[c.resource] = c.value;
    EXPECT_DOUBLE_EQ(byResource.at("L2"), 48 * 32 * 1.62e9);
    EXPECT_DOUBLE_EQ(byResource.at("L1"), 24 * 128 * 1.62e9);
    EXPECT_DOUBLE_EQ(byResource.at("FP16_tensor"), 96 * 512 * 1.62e9);
    // The derived byte peak wins over the cycle form; per-type tensor peaks over the pipe form.
    m["derived__lts__lts2xbar_bytes.sum.peak_sustained"] = 1500;
    m["sm__ops_path_tensor_src_bf16_dst_fp32.sum.peak_sustained"] = 1024 * 66;
    byResource.clear();
    for (const auto& c : ceilingsFromCounters(m, 0))
        byResource[c.resource] = c.value;
    EXPECT_DOUBLE_EQ(byResource.at("L2"), 1500 * 1.62e9);
    EXPECT_DOUBLE_EQ(byResource.at("BF16_tensor"), 1024 * 66 * 1.62e9);
    EXPECT_FALSE(byResource.contains("FP16_tensor"));
}

TEST(CounterCeilings, DramFromNcuThroughput)
{
    // 3,670,272 bytes in 45,920 ns at 4.02 % of peak (first launch of linear-nsight1381):
    // peak = 3,670,272 / 45,920e-9 / 0.0402 = 1.988 TB/s.
    std::map<std::string, double, std::less<>> m { { "dram__bytes.sum", 3'670'272 },
        { "gpu__time_duration.sum", 45'920 }, { DramPct, 4.02 } };
    const auto ceilings = ceilingsFromCounters(m, 0);
    ASSERT_EQ(ceilings.size(), 1u);
    EXPECT_EQ(ceilings[0].resource, "DRAM");
    EXPECT_NEAR(ceilings[0].value, 3'670'272 / 45'920e-9 / 0.0402, 1.0);
}

TEST(Verdicts, WorkWithoutACeilingIsNamed)
{
    KernelFacts f;
    f.durationNs = 1'000'000;
    f.metrics = { { "dram__bytes.sum", 1e9 }, { "lts__t_bytes.sum", 9.8e9 } };
    f.ceilings = { { 0, "DRAM", 2e12, "B/s", CeilingSource::Datasheet, "test" } };
    const auto a = analyzeKernel(f);
    EXPECT_EQ(a.verdict, VerdictClass::LatencyBound); // DRAM at 50 %
    EXPECT_NE(a.reason.find("L2: 9.8 TB/s, no ceiling known"), std::string::npos) << a.reason;
    EXPECT_EQ(a.reason.find("no unit is busy"), std::string::npos) << a.reason;
}

// ---- Agreement with ncu's own Speed of Light on the real A100 files ----

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            fields.emplace_back();
        else if (c != '\r')
            fields.back() += c;
    }
    return fields;
}

double csvNumber(std::string text)
{
    std::erase(text, ',');
    return std::stod(text);
}

// ncu's class per launch (SOLBottleneck: 60 % threshold), from the file's own percentages.
struct NcuClass {
    std::string verdict;
    double top = 0; // max(SM, memory), for the grey zone
};

std::vector<NcuClass> ncuClasses(const std::string& path)
{
    const std::string text
        = path.ends_with(".gz") ? ridgeline::testing::gunzipFile(path) : ridgeline::testing::readBytes(path);
    std::istringstream in(text);
    std::string line;
    std::map<std::string, std::size_t> column;
    std::map<std::string, std::map<std::string, double>> byId;
    std::vector<std::string> order;
    while (std::getline(in, line)) {
        if (line.empty() || line.starts_with("=="))
            continue;
        auto f = split(line);
        if (column.empty()) {
            if (f[0] == "ID")
                for (std::size_t i = 0; i < f.size(); ++i)
                    column.emplace(f[i], i);
            continue;
        }
        const auto& name = f[column.at("Metric Name")];
        if (name != Sm && name != Mem)
            continue;
        if (!byId.contains(f[0]))
            order.push_back(f[0]);
        byId[f[0]][name] = csvNumber(f[column.at("Metric Value")]);
    }
    std::vector<NcuClass> out;
    for (const auto& id : order) {
        const double sm = byId[id][Sm], mem = byId[id][Mem];
        const char* v = (sm >= 60 && sm >= mem) ? "compute-bound" : mem >= 60 ? "memory-bound" : "latency-bound";
        out.push_back({ v, std::max(sm, mem) });
    }
    return out;
}

class SolAgreement : public ::testing::TestWithParam<const char*> { };

TEST_P(SolAgreement, VerdictsMatchNcuOutsideTheGreyZone)
{
    const auto path = testDataPath(std::string("ncu/leleucas/") + GetParam());
    const auto expected = ncuClasses(path);
    ASSERT_FALSE(expected.empty());
    TempDir dir;
    collectors::ImportRequest request;
    request.inputs = { path };
    request.output = dir.file("sol.ridge");
    ASSERT_TRUE(collectors::importFiles(request).ok());
    auto reader = SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok());
    auto kernels = reader.value().kernels().value();
    std::sort(kernels.begin(), kernels.end(), [](auto& a, auto& b) { return a.startNs < b.startNs; });
    std::map<std::int64_t, std::string> verdictOf;
    const auto verdicts = reader.value().verdicts().value();
    for (const auto& v : verdicts)
        verdictOf[v.kernelId] = toString(v.verdict);
    ASSERT_EQ(kernels.size(), expected.size());
    int compared = 0, agreed = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (expected[i].top >= 40 && expected[i].top < 60)
            continue; // the grey zone
        ++compared;
        agreed += verdictOf[kernels[i].id] == expected[i].verdict ? 1 : 0;
    }
    ASSERT_GT(compared, 0);
    EXPECT_GE(agreed, 0.98 * compared) << agreed << " of " << compared << " launches agree";
}

INSTANTIATE_TEST_SUITE_P(RealA100, SolAgreement,
    ::testing::Values("linear-nsight1381.csv.gz", "dropout-nsight162.csv", "attention-bert_nsight.csv"),
    [](const auto& param) {
        std::string name = param.param;
        std::replace_if(
            name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
        return name;
    });

// The bundled example (resources/examples, an import of linear-nsight1381.csv.gz named as an
// A100 SXM4 80GB: FP32 roof 19.5 TFLOP/s), worked out from its kernels and metrics tables.
TEST(SpeedOfLight, SmBoundOnTheBundledA100Example)
{
    auto reader = SessionReader::open(testDataPath("../../resources/examples/a100-linear-ncu.ridge"));
    ASSERT_TRUE(reader.ok());
    const auto rows = summarizeKernels(reader.value()).value();
    const auto row = [&](std::string_view prefix, std::int64_t launches) -> const KernelSummary& {
        const auto it = std::find_if(rows.begin(), rows.end(),
            [&](const auto& r) { return r.name.starts_with(prefix) && r.launches == launches; });
        EXPECT_NE(it, rows.end()) << prefix;
        return *it;
    };
    // The float add (BinaryFunctor<..., AddFunctor<float>>), 587 launches, 24,413,472 ns: SM
    // 64.96 % and memory 58.76 % time-weighted; 8,203,928,256 FLOP (fadd + fmul + 2 ffma) /
    // 24.413472 ms = 336 GFLOP/s = 1.72 % of 19.5 TFLOP/s, far under 64.96 % / 2.
    const auto& add = row("void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<float, float, "
                          "float, at::native::AddFunctor<float> >",
        587);
    EXPECT_EQ(add.analysis.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(add.analysis.boundBy, "SM");
    EXPECT_NEAR(*add.analysis.boundUtilization, 0.6496, 1e-4);
    EXPECT_EQ(add.analysis.reason,
        "compute-bound (SM, not floating point: issue, integer or load/store work): SM 65 % of peak; FP32 2 %; memory "
        "59 %; "
        "AI 0.292 FLOP/B (DRAM), 57 % of the DRAM roof");
    // ampere_sgemm_128x32_sliced1x4_tn, 21 launches, 2,410,368 ns: SM 65.76 %; 24,098,742,272 FLOP
    // / 2.410368 ms = 51.27 % of the FP32 roof, whose pipe can be what kept the SM 65.76 % busy.
    const auto& sgemm = row("ampere_sgemm_128x32_sliced1x4_tn", 21);
    EXPECT_EQ(sgemm.analysis.boundBy, "FP32");
    EXPECT_TRUE(sgemm.analysis.reason.starts_with("compute-bound (FP32): SM 66 % of peak; memory 48 %"))
        << sgemm.analysis.reason;
}

} // namespace

namespace {

// `import --gpu`: an unnamed device takes the name and its datasheet ceilings; a bad name is
// refused before anything is written.
TEST(ImportGpu, NamesTheUnnamedDevice)
{
    TempDir dir;
    collectors::ImportRequest request;
    request.inputs = { testDataPath("ncu/leleucas/dropout-nsight162.csv") };
    request.output = dir.file("named.ridge");
    request.gpuName = "A100-SXM4-80GB";
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    for (const auto& w : imported.value().warnings) {
        EXPECT_NE(w.kind, collectors::WarningKind::UnnamedGpu) << w.text;
        EXPECT_EQ(w.text.find("does not name GPU"), std::string::npos) << w.text;
    }
    auto reader = SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok());
    const auto devices = reader.value().devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].name, "NVIDIA A100 SXM4 80GB");
    EXPECT_EQ(devices[0].smCount, 108);
    // The session's own warning (About, `check`) no longer says the GPU is unnamed; the rest stays.
    const auto meta = reader.value().meta().value();
    EXPECT_EQ(meta.at("warning").find("does not name GPU"), std::string::npos) << meta.at("warning");
    EXPECT_NE(meta.at("warning").find("no (x, y, z) launch sizes"), std::string::npos) << meta.at("warning");
    std::map<std::string, double> datasheet;
    const auto ceilings = reader.value().ceilings().value();
    for (const auto& c : ceilings)
        if (c.source == CeilingSource::Datasheet)
            datasheet[c.resource] = c.value;
    EXPECT_DOUBLE_EQ(datasheet.at("FP32"), 19.5e12);
    EXPECT_DOUBLE_EQ(datasheet.at("L2"), 5120 * 1.41e9);

    request.output = dir.file("bad.ridge");
    request.gpuName = "Mystery Accelerator";
    auto refused = collectors::importFiles(request);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("not a GPU Ridgeline knows"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(request.output));
}

// A PyTorch trace without deviceProperties: its "does not describe GPU" warning is answered by
// `--gpu` like ncu's, by its kind. The trace is made here: one kernel on GPU 0, nothing else.
TEST(ImportGpu, AnswersAKinetoTraceThatDescribesNoGpu)
{
    TempDir dir;
    const std::string trace = dir.file("no-device-properties.json");
    std::ofstream(trace) << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
        "ts": 10, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 1}}]})";
    collectors::ImportRequest request;
    request.inputs = { trace };
    request.output = dir.file("plain.ridge");
    auto plain = collectors::importFiles(request);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    const auto unnamed
        = [](const collectors::ImportWarning& w) { return w.kind == collectors::WarningKind::UnnamedGpu; };
    EXPECT_EQ(std::count_if(plain.value().warnings.begin(), plain.value().warnings.end(), unnamed), 1);

    request.output = dir.file("named.ridge");
    request.gpuName = "H100-SXM5-80GB";
    auto named = collectors::importFiles(request);
    ASSERT_TRUE(named.ok()) << named.error().message;
    EXPECT_EQ(std::count_if(named.value().warnings.begin(), named.value().warnings.end(), unnamed), 0);
    auto reader = SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().devices().value().at(0).smCount, 132);
    const auto meta = reader.value().meta().value();
    EXPECT_TRUE(!meta.contains("warning") || meta.at("warning").find("does not describe GPU") == std::string::npos)
        << meta.at("warning");
}

} // namespace
