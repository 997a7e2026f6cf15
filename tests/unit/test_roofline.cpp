// SPDX-License-Identifier: MIT
// Hand-computed roofline cases: every verdict, every bound_by, and the edge cases. The device is
// an H100 SXM-like part with round ceilings; most launches last 1 ms, so a rate is the amount
// times 1000 per second.
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/model/metricnames.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace ridgeline::core;

namespace {

constexpr std::int64_t kOneMs = 1'000'000;

class Roofline : public ::testing::Test {
protected:
    Roofline()
    {
        m_device.id = 0;
        m_device.name = "NVIDIA H100 80GB HBM3";
        m_device.smCount = 132;
        m_device.coreClockKhz = 1'980'000;
        const std::pair<const char*, double> peaks[] = {
            { resource::FP64, 34e12 },
            { resource::FP64Tensor, 67e12 },
            { resource::FP32, 67e12 },
            { resource::FP16, 134e12 },
            { resource::TF32Tensor, 494.7e12 },
            { resource::FP16Tensor, 989e12 },
            { resource::BF16Tensor, 989e12 },
            { resource::FP8Tensor, 1979e12 },
            { resource::INT8Tensor, 1979e12 },
            { resource::DRAM, 3.35e12 },
            { resource::NVLink, 450e9 },
            { resource::PCIe, 64e9 },
        };
        for (const auto& [res, value] : peaks)
            m_ceilings.push_back({ 0, res, value, "", CeilingSource::Datasheet, "test" });
        m_ceilings.push_back({ 0, resource::L2, 10e12, "B/s", CeilingSource::Measured, "test" });
        m_ceilings.push_back({ 0, resource::L1, 30e12, "B/s", CeilingSource::Measured, "test" });
    }

    KernelFacts facts(std::map<std::string, double, std::less<>> metrics, std::int64_t durationNs = kOneMs)
    {
        KernelFacts f;
        f.kernelId = 1;
        f.durationNs = durationNs;
        f.grid = { 1024, 1, 1 };
        f.block = { 256, 1, 1 };
        f.device = &m_device;
        f.metrics = std::move(metrics);
        f.ceilings = m_ceilings;
        return f;
    }

    Device m_device;
    std::vector<Ceiling> m_ceilings;
};

const std::string Ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
const std::string Fadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
const std::string Dfma = "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"; // NERSC's sm__ prefix
const std::string Hfma = "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum";
const std::string Hadd = "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum";
const std::string Dram = "dram__bytes.sum";

} // namespace

TEST_F(Roofline, ComputeBoundFp32)
{
    // 25e9 FFMA = 50e9 FLOPs in 1 ms = 50 TFLOP/s = 74.6 % of 67; DRAM 0.3 TB/s = 9.0 %.
    const auto a = analyzeKernel(facts({ { Ffma, 25e9 }, { Dram, 0.3e9 } }));
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "FP32");
    EXPECT_NEAR(*a.boundUtilization, 50.0 / 67.0, 1e-9);
    EXPECT_DOUBLE_EQ(*a.flops, 50e9);
    EXPECT_NEAR(*a.achievedFlopsPerS, 50e12, 1e3);
    EXPECT_NEAR(a.intensity.at(Resource::DRAM), 50e9 / 0.3e9, 1e-9);
    EXPECT_NEAR(a.utilization.at(Resource::DRAM), 0.3 / 3.35, 1e-9);
    EXPECT_EQ(a.reason, "compute-bound (FP32): 50 TFLOP/s = 75 % of 67 TFLOP/s; DRAM at 9 % of peak");
}

TEST_F(Roofline, ComputeBoundFp64)
{
    // 12e9 DFMA = 24e9 FLOPs -> 24 TFLOP/s = 70.6 % of 34.
    const auto a = analyzeKernel(facts({ { Dfma, 12e9 } }));
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "FP64");
    EXPECT_NEAR(*a.boundUtilization, 24.0 / 34.0, 1e-9);
}

TEST_F(Roofline, ComputeBoundFp16PackedAsNsightComputeCounts)
{
    // HFMA2 counts 4 FLOPs, HADD2 2: 25e9 * 4 + 5e9 * 2 = 110e9 FLOPs -> 110 TFLOP/s = 82.1 % of 134.
    const auto a = analyzeKernel(facts({ { Hfma, 25e9 }, { Hadd, 5e9 } }));
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP16), 110e9);
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "FP16");
    EXPECT_NEAR(*a.boundUtilization, 110.0 / 134.0, 1e-9);
}

TEST_F(Roofline, ComputeBoundTensorHopperCountsEveryTypeOnce)
{
    // FP16 700e9 + BF16 100e9 ops: 700/989 + 100/989 = 80.9 % of the tensor pipe. FP8 is split
    // into a total and its sparsity parts: only the total (500e9 -> 25.3 %) counts.
    const auto a = analyzeKernel(facts({
        { "sm__ops_path_tensor_src_fp16.sum", 700e9 }, { "sm__ops_path_tensor_src_bf16_dst_fp32.sum", 100e9 },
        { "sm__ops_path_tensor_src_fp8.sum", 500e9 }, { "sm__ops_path_tensor_src_fp8_sparsity_on.sum", 500e9 },
        { "sm__ops_path_tensor_src_fp16.sum.peak_sustained", 1e9 }, // not an op count
    }));
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP16Tensor), 700e9);
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::BF16Tensor), 100e9);
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP8Tensor), 500e9);
    EXPECT_DOUBLE_EQ(*a.flops, 1300e9);
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "tensor");
    EXPECT_NEAR(*a.boundUtilization, 800.0 / 989.0 + 500.0 / 1979.0, 1e-9);
}

TEST_F(Roofline, TensorSourceNamesOfEveryChipFamily)
{
    // Ampere/Ada/Blackwell split FP16 by destination; GB100 counts FP8 with FP4/FP6; int1 has no
    // ceiling and is left out. 400e9 + 100e9 FP16 -> 50.6 %; 989.5e9 FP8 -> 50.0 % of 1979.
    const auto a = analyzeKernel(facts({
        { "sm__ops_path_tensor_src_fp16_dst_fp16.sum", 400e9 },
        { "sm__ops_path_tensor_src_fp16_dst_fp32.sum", 100e9 },
        { "sm__ops_path_tensor_src_fp4_fp6_fp8_dst_fp32.sum", 989.5e9 },
        { "sm__ops_path_tensor_src_int1.sum", 1e15 },
    }));
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP16Tensor), 500e9);
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP8Tensor), 989.5e9);
    EXPECT_EQ(a.flopsByPrecision.size(), 2u);
    EXPECT_NEAR(*a.boundUtilization, 500.0 / 989.0 + 989.5 / 1979.0, 1e-9);
    // GB20x names DRAM traffic by operation.
    const auto gb20x
        = analyzeKernel(facts({ { "dram__bytes_op_read.sum", 2e9 }, { "dram__bytes_op_write.sum", 0.91e9 } }));
    EXPECT_DOUBLE_EQ(gb20x.bytesByLevel.at(Resource::DRAM), 2.91e9);
}

TEST_F(Roofline, TensorPipeTimes512OnVoltaAndAmpere)
{
    // 1.5e9 tensor-pipe instructions x 512 = 768e9 FLOPs -> 77.7 % of the FP16 tensor peak.
    const auto a = analyzeKernel(facts({ { "sm__inst_executed_pipe_tensor.sum", 1.5e9 } }));
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(Resource::FP16Tensor), 768e9);
    EXPECT_EQ(a.boundBy, "tensor");
    EXPECT_NEAR(*a.boundUtilization, 768.0 / 989.0, 1e-9);
}

TEST_F(Roofline, Int8TensorOpsLoadThePipeButAreNoFlops)
{
    const auto a = analyzeKernel(facts({ { "sm__ops_path_tensor_src_int8.sum", 1500e9 } }));
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_EQ(a.boundBy, "tensor");
    EXPECT_NEAR(*a.boundUtilization, 1500.0 / 1979.0, 1e-9);
    EXPECT_DOUBLE_EQ(*a.flops, 0.0);
}

TEST_F(Roofline, MemoryBoundDramAsInTheDesign)
{
    // ARCHITECTURE §4's example: 2.91 TB/s = 87 % of 3.35 TB/s; FP32 at 9 % (6.03 TFLOP/s).
    const auto a = analyzeKernel(facts({ { Dram, 2.91e9 }, { Fadd, 6.03e9 } }));
    EXPECT_EQ(a.verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(a.boundBy, "DRAM");
    EXPECT_EQ(a.reason, "memory-bound (DRAM): 2.91 TB/s = 87 % of 3.35 TB/s; FP32 at 9 % of peak");
    EXPECT_NEAR(a.intensity.at(Resource::DRAM), 6.03 / 2.91, 1e-9);
}

TEST_F(Roofline, DramFromReadAndWriteWhenNoTotal)
{
    const auto a = analyzeKernel(facts({ { "dram__bytes_read.sum", 2e9 }, { "dram__bytes_write.sum", 0.91e9 } }));
    EXPECT_DOUBLE_EQ(a.bytesByLevel.at(Resource::DRAM), 2.91e9);
    EXPECT_EQ(a.boundBy, "DRAM");
}

TEST_F(Roofline, MemoryBoundL2AndL1)
{
    // L2 8e9 B in 1 ms = 8 TB/s = 80 % of the measured 10 TB/s; L1 25 TB/s = 83.3 % of 30.
    const auto l2 = analyzeKernel(facts({ { "lts__t_bytes.sum", 8e9 }, { Dram, 1e9 } }));
    EXPECT_EQ(l2.verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(l2.boundBy, "L2");
    EXPECT_NEAR(*l2.boundUtilization, 0.8, 1e-9);
    EXPECT_EQ(l2.ceilingsUsed.at(Resource::L2).source, CeilingSource::Measured);
    const auto l1 = analyzeKernel(facts({ { "l1tex__t_bytes.sum", 25e9 } }));
    EXPECT_EQ(l1.boundBy, "L1");
    EXPECT_NEAR(*l1.boundUtilization, 25.0 / 30.0, 1e-9);
}

TEST_F(Roofline, CommunicationBoundByLinks)
{
    // Link ceilings are per direction: NVLink rx 400e6 B in 1 ms = 400 GB/s = 88.9 % of 450 (tx
    // 100 GB/s does not add to it); PCIe 50 GB/s = 78.1 % of 64.
    const auto nvlink = analyzeKernel(facts({ { "nvlrx__bytes.sum", 400e6 }, { "nvltx__bytes.sum", 100e6 } }));
    EXPECT_EQ(nvlink.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(nvlink.boundBy, "NVLink");
    EXPECT_NEAR(*nvlink.boundUtilization, 400.0 / 450.0, 1e-9);
    const auto pcie = analyzeKernel(facts({ { "pcie__read_bytes.sum", 50e6 } }));
    EXPECT_EQ(pcie.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(pcie.boundBy, "PCIe");
    EXPECT_NEAR(*pcie.boundUtilization, 50.0 / 64.0, 1e-9);
}

TEST_F(Roofline, CollectivesAreCommunicationBoundWhateverTheCounters)
{
    auto f = facts({ { Ffma, 25e9 } });
    f.collective = "AllReduce";
    const auto a = analyzeKernel(f);
    EXPECT_EQ(a.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(a.boundBy, "collective");
    EXPECT_EQ(
        a.reason, "communication-bound: carries the collective AllReduce; message sizes missing, so no bus bandwidth");
    auto noCounters = facts({});
    noCounters.collective = "AllGather";
    EXPECT_EQ(analyzeKernel(noCounters).verdict, VerdictClass::CommunicationBound);
}

TEST_F(Roofline, LatencyBoundLessThanOneWave)
{
    // 66 blocks on 132 SMs; DRAM 1e9 B in 1 ms = 29.9 %.
    auto f = facts({ { Dram, 1e9 } });
    f.grid = { 66, 1, 1 };
    const auto a = analyzeKernel(f);
    EXPECT_EQ(a.verdict, VerdictClass::LatencyBound);
    EXPECT_TRUE(a.boundBy.empty());
    EXPECT_EQ(a.reason,
        "latency-bound: less than one wave (66 blocks on 132 SMs); the busiest resource, DRAM, is at 30 % of peak");
    auto waves = facts({ { Dram, 1e9 }, { "launch__waves_per_multiprocessor", 0.25 } });
    EXPECT_EQ(analyzeKernel(waves).reason.rfind("latency-bound: less than one wave (0.25 waves per SM)", 0), 0u);
}

TEST_F(Roofline, LatencyBoundTooShortOrStalled)
{
    // 1e6 B in 3 µs = 333 GB/s = 10 %.
    const auto shortKernel = analyzeKernel(facts({ { Dram, 1e6 } }, 3'000));
    EXPECT_EQ(shortKernel.verdict, VerdictClass::LatencyBound);
    EXPECT_NE(shortKernel.reason.find("too short to fill the GPU (3.000 µs)"), std::string::npos) << shortKernel.reason;
    const auto stalled = analyzeKernel(facts({ { Dram, 1e9 } }));
    EXPECT_EQ(stalled.verdict, VerdictClass::LatencyBound);
    EXPECT_NE(stalled.reason.find("likely stalls"), std::string::npos) << stalled.reason;
}

TEST_F(Roofline, ExactlyAtTheThresholdIsBound)
{
    // 1 s launches so the rates are exact: 0.6 x ceiling is bound, a hair below is not.
    const std::int64_t oneSecond = 1'000'000'000;
    const auto at = analyzeKernel(facts({ { Dram, 0.6 * 3.35e12 } }, oneSecond));
    EXPECT_EQ(at.verdict, VerdictClass::MemoryBound);
    EXPECT_DOUBLE_EQ(*at.boundUtilization, 0.6);
    const auto below = analyzeKernel(facts({ { Dram, 0.5999 * 3.35e12 } }, oneSecond));
    EXPECT_EQ(below.verdict, VerdictClass::LatencyBound);
}

TEST_F(Roofline, UnknownWithoutCounters)
{
    const auto a = analyzeKernel(facts({}));
    EXPECT_EQ(a.verdict, VerdictClass::Unknown);
    EXPECT_EQ(a.reason, "unknown: no counters for this kernel");
    EXPECT_FALSE(a.flops.has_value());
    // Metrics unrelated to the roofline are not counters for it either.
    EXPECT_EQ(analyzeKernel(facts({ { "launch__registers_per_thread", 32 } })).verdict, VerdictClass::Unknown);
}

// A device's roofs worked out once (deviceRoofs, as an importer of thousands of launches does)
// give a launch without counters the analysis that choosing them per launch gives; a launch with
// counters chooses its own whatever it is handed.
TEST_F(Roofline, DeviceRoofsGiveTheSameAnalysis)
{
    const auto roofs = deviceRoofs(&m_device, m_ceilings);
    EXPECT_EQ(roofs.size(), m_ceilings.size());
    for (const std::int64_t duration : { std::int64_t { 3'000 }, kOneMs }) {
        auto plain = facts({}, duration);
        auto handed = plain;
        handed.ceilings.clear();
        handed.roofs = &roofs;
        const auto a = analyzeKernel(plain), b = analyzeKernel(handed);
        EXPECT_EQ(a.verdict, b.verdict);
        EXPECT_EQ(a.reason, b.reason);
        EXPECT_EQ(a.latencyHint, b.latencyHint);
        ASSERT_EQ(a.ceilingsUsed.size(), b.ceilingsUsed.size());
        for (const auto& [resource, used] : a.ceilingsUsed) {
            EXPECT_EQ(used.value, b.ceilingsUsed.at(resource).value);
            EXPECT_EQ(used.source, b.ceilingsUsed.at(resource).source);
        }
    }
    const ResourceMap<CeilingUsed> none;
    auto counted = facts({ { Dram, 2.5e9 } });
    const auto expected = analyzeKernel(counted);
    counted.roofs = &none; // not used: the launch has counters
    const auto got = analyzeKernel(counted);
    EXPECT_EQ(got.verdict, expected.verdict);
    EXPECT_EQ(got.reason, expected.reason);
}

TEST_F(Roofline, DurationFromCountersWinsAndZeroDurationIsUnknown)
{
    const auto zero = analyzeKernel(facts({ { Dram, 1e9 } }, 0));
    EXPECT_EQ(zero.verdict, VerdictClass::Unknown);
    EXPECT_EQ(zero.reason, "unknown: no duration, so no rates");
    EXPECT_TRUE(zero.utilization.empty());
    // gpu__time_duration.sum (ns) replaces the trace's duration: 2.91e9 B in 1 ms again.
    const auto measured = analyzeKernel(facts({ { Dram, 2.91e9 }, { "gpu__time_duration.sum", 1e6 } }, 0));
    EXPECT_EQ(measured.boundBy, "DRAM");
    EXPECT_DOUBLE_EQ(measured.durationNs, 1e6);
}

TEST_F(Roofline, UnknownGpuHasNoCeilings)
{
    auto f = facts({ { Dram, 2.91e9 }, { Ffma, 1e9 } });
    Device mystery;
    mystery.name = "NVIDIA Mystery GPU";
    f.device = &mystery;
    f.ceilings.clear();
    const auto a = analyzeKernel(f);
    EXPECT_EQ(a.verdict, VerdictClass::Unknown);
    // What did work is named with its rate, so nothing is silently ignored.
    EXPECT_EQ(a.reason,
        "unknown: no ceilings for NVIDIA Mystery GPU to compare the counters with (FP32: 2 TFLOP/s, no ceiling "
        "known; DRAM: 2.91 TB/s, no ceiling known)");
    // The figures that need no ceiling are still there.
    EXPECT_DOUBLE_EQ(*a.flops, 2e9);
    EXPECT_NEAR(a.intensity.at(Resource::DRAM), 2e9 / 2.91e9, 1e-12);
    EXPECT_FALSE(a.mixCeilingFlopsPerS.has_value());
}

TEST_F(Roofline, ZeroBytesAndZeroFlops)
{
    const auto noBytes = analyzeKernel(facts({ { Ffma, 25e9 }, { Dram, 0 } }));
    EXPECT_EQ(noBytes.intensity.count(Resource::DRAM), 0u); // no division by zero
    EXPECT_DOUBLE_EQ(noBytes.utilization.at(Resource::DRAM), 0.0);
    EXPECT_EQ(noBytes.boundBy, "FP32");
    const auto noFlops = analyzeKernel(facts({ { Dram, 2.91e9 } }));
    EXPECT_FALSE(noFlops.flops.has_value());
    EXPECT_FALSE(noFlops.achievedFlopsPerS.has_value());
    EXPECT_TRUE(noFlops.intensity.empty());
    EXPECT_EQ(noFlops.reason, "memory-bound (DRAM): 2.91 TB/s = 87 % of 3.35 TB/s");
}

TEST_F(Roofline, NotANumberIsMissingNotZero)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(analyzeKernel(facts({ { Dram, nan } })).verdict, VerdictClass::Unknown);
    const auto a = analyzeKernel(facts({ { Dram, nan }, { Ffma, 25e9 } }));
    EXPECT_EQ(a.bytesByLevel.count(Resource::DRAM), 0u);
    EXPECT_EQ(a.boundBy, "FP32");
}

TEST_F(Roofline, DatasheetCeilingsScaleWithTheClockTheKernelRanAt)
{
    // At 1.485 GHz instead of the 1.98 GHz boost the FP32 roof is 0.75 x 67 = 50.25 TFLOP/s, so
    // 40 TFLOP/s is 79.6 % (and not 59.7 %, which would read as latency-bound).
    const auto a = analyzeKernel(facts({ { Ffma, 20e9 }, { "sm__cycles_elapsed.avg.per_second", 1.485e9 } }));
    EXPECT_NEAR(a.ceilingsUsed.at(Resource::FP32).value, 50.25e12, 1e3);
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound);
    EXPECT_NEAR(*a.boundUtilization, 40.0 / 50.25, 1e-9);
    // Bandwidth ceilings do not follow the SM clock.
    EXPECT_DOUBLE_EQ(a.ceilingsUsed.at(Resource::DRAM).value, 3.35e12);
}

TEST_F(Roofline, CounterCeilingsBeatMeasuredAndDatasheet)
{
    // 16,896 FFMA per cycle (132 SMs x 128 lanes) x 2 x 1.98 GHz = 66.908 TFLOP/s.
    auto f = facts({ { Ffma, 25e9 }, { "sm__cycles_elapsed.avg.per_second", 1.98e9 },
        { "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 16'896 },
        { "dram__bytes.sum.peak_sustained", 1'000 }, { "dram__cycles_elapsed.avg.per_second", 3.2e9 } });
    auto a = analyzeKernel(f);
    EXPECT_EQ(a.ceilingsUsed.at(Resource::FP32).source, CeilingSource::Counters);
    EXPECT_NEAR(a.ceilingsUsed.at(Resource::FP32).value, 16'896.0 * 2 * 1.98e9, 1.0);
    EXPECT_EQ(a.ceilingsUsed.at(Resource::DRAM).source, CeilingSource::Counters);
    EXPECT_NEAR(a.ceilingsUsed.at(Resource::DRAM).value, 3.2e12, 1.0);
    // The launch's own ceiling at its real clock comes first (ARCHITECTURE §4, docs/ROOFLINE.md);
    // a measured one only stands in where the counters give none.
    f.ceilings.push_back({ 0, resource::FP32, 60e12, "FLOP/s", CeilingSource::Measured, "microbenchmark" });
    f.ceilings.push_back({ 0, resource::FP64, 30e12, "FLOP/s", CeilingSource::Measured, "microbenchmark" });
    a = analyzeKernel(f);
    EXPECT_EQ(a.ceilingsUsed.at(Resource::FP32).source, CeilingSource::Counters);
    EXPECT_NEAR(a.ceilingsUsed.at(Resource::FP32).value, 16'896.0 * 2 * 1.98e9, 1.0);
    EXPECT_EQ(a.ceilingsUsed.at(Resource::FP64).source, CeilingSource::Measured);
    EXPECT_DOUBLE_EQ(a.ceilingsUsed.at(Resource::FP64).value, 30e12);
    // The counter ceilings the device stores (another launch's clock, as the importers keep the
    // first launch's) do not beat the launch's own; they stand in where it has none.
    f.ceilings.push_back({ 0, resource::DRAM, 2.9e12, "B/s", CeilingSource::Counters, "first launch" });
    f.ceilings.push_back({ 0, resource::L2, 7e12, "B/s", CeilingSource::Counters, "first launch" });
    a = analyzeKernel(f);
    EXPECT_NEAR(a.ceilingsUsed.at(Resource::DRAM).value, 3.2e12, 1.0);
    EXPECT_EQ(a.ceilingsUsed.at(Resource::L2).source, CeilingSource::Counters);
    EXPECT_DOUBLE_EQ(a.ceilingsUsed.at(Resource::L2).value, 7e12);
}

TEST_F(Roofline, CombinedPointAgainstTheCeilingOfTheMix)
{
    // 10e9 FP32 FLOPs + 500e9 FP16 tensor FLOPs: at peak they take 10e9/67e12 + 500e9/989e12 s,
    // so the mix's roof is 510e9 / that = 778.9 TFLOP/s; achieved 510 TFLOP/s.
    const auto a = analyzeKernel(facts({ { Ffma, 5e9 }, { "sm__ops_path_tensor_src_fp16.sum", 500e9 } }));
    const double peakSeconds = 10e9 / 67e12 + 500e9 / 989e12;
    EXPECT_NEAR(*a.mixCeilingFlopsPerS, 510e9 / peakSeconds, 1e3);
    EXPECT_NEAR(*a.achievedFlopsPerS, 510e12, 1e3);
    // 50.6 % tensor and 14.9 % FP32: both below 60 %.
    EXPECT_EQ(a.verdict, VerdictClass::LatencyBound);
    EXPECT_NE(a.reason.find("the busiest resource, tensor, is at 51 % of peak"), std::string::npos) << a.reason;
}

TEST_F(Roofline, AboveTheCeilingIsFlagged)
{
    const auto a = analyzeKernel(facts({ { Dram, 4e9 } }));
    EXPECT_EQ(a.boundBy, "DRAM");
    EXPECT_NE(a.reason.find("above its ceiling"), std::string::npos) << a.reason;
}

TEST_F(Roofline, LaunchesAggregateTimeWeighted)
{
    // 1 ms at 90 % DRAM + 3 ms at 50 % = 60 % over 4 ms (memory-bound); a third launch without
    // counters adds its 5 ms to the time but not to the rates.
    const auto first = analyzeKernel(facts({ { Dram, 0.9 * 3.35e12 * 1e-3 } }, kOneMs));
    const auto second = analyzeKernel(facts({ { Dram, 0.5 * 3.35e12 * 3e-3 } }, 3 * kOneMs));
    const auto third = analyzeKernel(facts({}, 5 * kOneMs));
    const KernelAnalysis launches[] = { first, second, third };
    const auto a = aggregateLaunches(launches);
    EXPECT_EQ(a.verdict, VerdictClass::MemoryBound);
    EXPECT_EQ(a.boundBy, "DRAM");
    EXPECT_NEAR(*a.boundUtilization, 0.6, 1e-9);
    EXPECT_DOUBLE_EQ(a.durationNs, 9e6);
    EXPECT_NEAR(a.bytesByLevel.at(Resource::DRAM), 8.04e9, 1.0);
    EXPECT_EQ(a.reason, "memory-bound (DRAM): 2.01 TB/s = 60 % of 3.35 TB/s");

    const KernelAnalysis none[] = { third, third };
    EXPECT_EQ(aggregateLaunches(none).verdict, VerdictClass::Unknown);
    const KernelAnalysis empty[1] = {};
    EXPECT_EQ(aggregateLaunches(std::span(empty, 0)).verdict, VerdictClass::Unknown);
}

TEST(RooflineMemOps, CopiesAndMemsetsByKind)
{
    MemOp op;
    op.bytes = 64 << 20;
    op.startNs = 0;
    op.endNs = 2'000'000; // 64 MiB in 2 ms = 33.6 GB/s
    op.kind = MemOpKind::MemcpyHtoD;
    auto a = analyzeMemOp(op);
    EXPECT_EQ(a.verdict, VerdictClass::CommunicationBound);
    EXPECT_EQ(a.boundBy, "PCIe");
    EXPECT_EQ(a.reason, "communication-bound (PCIe): host-to-device copy of 67108864 bytes at 33.6 GB/s");
    op.kind = MemOpKind::MemcpyDtoH;
    EXPECT_EQ(analyzeMemOp(op).boundBy, "PCIe");
    op.kind = MemOpKind::MemcpyPtoP;
    EXPECT_EQ(analyzeMemOp(op).boundBy, "NVLink");
    op.kind = MemOpKind::MemcpyDtoD;
    EXPECT_EQ(analyzeMemOp(op).verdict, VerdictClass::MemoryBound);
    op.kind = MemOpKind::Memset;
    EXPECT_EQ(analyzeMemOp(op).boundBy, "DRAM");
    op.kind = MemOpKind::MemcpyHtoH;
    EXPECT_EQ(analyzeMemOp(op).verdict, VerdictClass::Unknown);
}
