// SPDX-License-Identifier: MIT
// core::compareKernels on hand-built summaries: the matching rule, deltas, new and gone kernels.
#include "ridgeline/core/analysis/kernelcompare.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;

namespace {

KernelSummary kernel(const std::string& name, const std::string& device, std::int64_t deviceId, std::int64_t totalNs,
    std::int64_t launches = 1)
{
    KernelSummary row;
    row.name = name;
    row.mangledName = name;
    row.deviceName = device;
    row.deviceId = deviceId;
    row.totalNs = totalNs;
    row.launches = launches;
    return row;
}

const std::string& baselineName(const KernelComparison& c, std::span<const KernelSummary> baseline, std::size_t row)
{
    static const std::string none = "<new>";
    const auto& d = c.kernels.at(row);
    return d.baseline ? baseline[*d.baseline].name : none;
}

} // namespace

TEST(KernelCompare, DeltasOfMatchedNewAndGoneKernels)
{
    const std::vector<KernelSummary> before { kernel("gemm", "H100", 0, 10'000, 4), kernel("softmax", "H100", 0, 2'000),
        kernel("dropout", "H100", 0, 700), kernel("layernorm", "H100", 0, 300) };
    const std::vector<KernelSummary> after { kernel("softmax", "H100", 0, 3'000), kernel("gemm", "H100", 0, 7'500, 5),
        kernel("flash_attn", "H100", 0, 1'000) };
    const auto c = compareKernels(after, before);
    ASSERT_EQ(c.kernels.size(), after.size());

    const auto& softmax = c.kernels[0];
    EXPECT_EQ(softmax.current, 0u);
    EXPECT_EQ(baselineName(c, before, 0), "softmax");
    EXPECT_EQ(softmax.baselineTotalNs, 2'000);
    EXPECT_EQ(softmax.deltaNs, 1'000);
    ASSERT_TRUE(softmax.deltaPct);
    EXPECT_DOUBLE_EQ(*softmax.deltaPct, 50.0);

    const auto& gemm = c.kernels[1];
    EXPECT_EQ(baselineName(c, before, 1), "gemm");
    EXPECT_EQ(gemm.baselineLaunches, 4);
    EXPECT_DOUBLE_EQ(gemm.baselineAverageNs, 2'500.0);
    EXPECT_EQ(gemm.deltaNs, -2'500);
    EXPECT_DOUBLE_EQ(*gemm.deltaPct, -25.0);

    const auto& flash = c.kernels[2];
    EXPECT_TRUE(flash.isNew());
    EXPECT_EQ(flash.deltaNs, 1'000); // all of its time is new
    EXPECT_FALSE(flash.deltaPct);
    EXPECT_EQ(flash.baselineTotalNs, 0);

    // Gone: largest baseline time first.
    ASSERT_EQ(c.gone.size(), 2u);
    EXPECT_EQ(before[c.gone[0]].name, "dropout");
    EXPECT_EQ(before[c.gone[1]].name, "layernorm");

    EXPECT_EQ(c.totals.kernelNsBefore, 13'000);
    EXPECT_EQ(c.totals.kernelNsAfter, 11'500);
    EXPECT_EQ(c.totals.deltaNs(), -1'500);
    EXPECT_NEAR(*c.totals.deltaPct(), -1'500.0 / 13'000.0 * 100.0, 1e-9);
    EXPECT_EQ(c.totals.launchesBefore, 7);
    EXPECT_EQ(c.totals.launchesAfter, 7);
    EXPECT_EQ(c.totals.matched, 2u);
    EXPECT_EQ(c.totals.added, 1u);
    EXPECT_EQ(c.totals.gone, 2u);
}

TEST(KernelCompare, DevicesPairByModelAndIndexNotById)
{
    // Baseline: two H100s (ids 0, 1). Now: two H100s with other ids (4, 9) and an A100 (2).
    const std::vector<KernelSummary> before { kernel("gemm", "H100", 1, 200), kernel("gemm", "H100", 0, 100),
        kernel("gemm", "A100", 5, 50) };
    const std::vector<KernelSummary> after { kernel("gemm", "H100", 9, 250), kernel("gemm", "H100", 4, 110),
        kernel("gemm", "A100", 2, 40), kernel("gemm", "V100", 3, 10) };
    const auto c = compareKernels(after, before);
    // The first H100 (lowest id) pairs with the first, the second with the second.
    ASSERT_TRUE(c.kernels[1].baseline);
    EXPECT_EQ(before[*c.kernels[1].baseline].deviceId, 0);
    EXPECT_EQ(c.kernels[1].deltaNs, 10);
    ASSERT_TRUE(c.kernels[0].baseline);
    EXPECT_EQ(before[*c.kernels[0].baseline].deviceId, 1);
    EXPECT_EQ(c.kernels[0].deltaNs, 50);
    // Another model is a different device: the A100 pairs with the A100, the V100 is new.
    ASSERT_TRUE(c.kernels[2].baseline);
    EXPECT_EQ(before[*c.kernels[2].baseline].deviceName, "A100");
    EXPECT_TRUE(c.kernels[3].isNew());
    EXPECT_TRUE(c.gone.empty());
}

TEST(KernelCompare, ExtraDevicesOfTheLargerSessionAreNewOrGone)
{
    const std::vector<KernelSummary> one { kernel("k", "H100", 7, 100) };
    const std::vector<KernelSummary> two { kernel("k", "H100", 0, 100), kernel("k", "H100", 1, 120) };
    const auto grown = compareKernels(two, one);
    EXPECT_FALSE(grown.kernels[0].isNew());
    EXPECT_TRUE(grown.kernels[1].isNew());
    const auto shrunk = compareKernels(one, two);
    EXPECT_EQ(two[*shrunk.kernels[0].baseline].deviceId, 0);
    ASSERT_EQ(shrunk.gone.size(), 1u);
    EXPECT_EQ(two[shrunk.gone[0]].deviceId, 1);
}

TEST(KernelCompare, SameDemangledNamePairsByMangledNameFirst)
{
    auto a1 = kernel("f(int)", "H100", 0, 100);
    a1.mangledName = "_Z1fi_v1";
    auto a2 = kernel("f(int)", "H100", 0, 200);
    a2.mangledName = "_Z1fi_v2";
    auto b2 = kernel("f(int)", "H100", 0, 260);
    b2.mangledName = "_Z1fi_v2";
    auto b3 = kernel("f(int)", "H100", 0, 90);
    b3.mangledName = "_Z1fi_v3";
    const std::vector<KernelSummary> before { a1, a2 };
    const std::vector<KernelSummary> after { b3, b2 };
    const auto c = compareKernels(after, before);
    EXPECT_EQ(before[*c.kernels[1].baseline].mangledName, "_Z1fi_v2"); // same symbol
    EXPECT_EQ(c.kernels[1].deltaNs, 60);
    EXPECT_EQ(before[*c.kernels[0].baseline].mangledName, "_Z1fi_v1"); // the one left
    EXPECT_TRUE(c.gone.empty());
}

TEST(KernelCompare, VerdictAndRoofBeforeAndAfter)
{
    auto before = kernel("stream", "H100", 0, 1'000);
    before.analysis.verdict = VerdictClass::MemoryBound;
    before.analysis.boundBy = "DRAM";
    before.analysis.boundUtilization = 0.8;
    auto after = kernel("stream", "H100", 0, 900);
    after.analysis.verdict = VerdictClass::LatencyBound;
    after.analysis.boundUtilization = 0.3;
    auto c = compareKernels(std::vector { after }, std::vector { before });
    const auto& d = c.kernels[0];
    EXPECT_TRUE(d.verdictChanged());
    EXPECT_EQ(d.verdictBefore, VerdictClass::MemoryBound);
    EXPECT_EQ(d.boundByBefore, "DRAM");
    EXPECT_EQ(d.verdictAfter, VerdictClass::LatencyBound);
    EXPECT_DOUBLE_EQ(*d.roofBefore, 0.8);
    EXPECT_DOUBLE_EQ(*d.roofAfter, 0.3);

    // Without counters on one side there is no roof comparison.
    after.analysis.boundUtilization.reset();
    after.analysis.verdict = VerdictClass::MemoryBound;
    after.analysis.boundBy = "DRAM";
    c = compareKernels(std::vector { after }, std::vector { before });
    EXPECT_FALSE(c.kernels[0].roofBefore);
    EXPECT_FALSE(c.kernels[0].roofAfter);
    EXPECT_FALSE(c.kernels[0].verdictChanged());
}

TEST(KernelCompare, ZeroBaselineTimeHasNoPercentage)
{
    const std::vector<KernelSummary> before { kernel("empty", "H100", 0, 0) };
    const std::vector<KernelSummary> after { kernel("empty", "H100", 0, 5) };
    const auto c = compareKernels(after, before);
    EXPECT_FALSE(c.kernels[0].isNew());
    EXPECT_EQ(c.kernels[0].deltaNs, 5);
    EXPECT_FALSE(c.kernels[0].deltaPct);
    EXPECT_FALSE(c.totals.deltaPct());
}

TEST(KernelCompare, DeviceNameFallsBackToTheAnalysis)
{
    auto before = kernel("k", "", 0, 10);
    before.analysis.deviceName = "H100";
    const auto c = compareKernels(std::vector { kernel("k", "H100", 3, 12) }, std::vector { before });
    EXPECT_FALSE(c.kernels[0].isNew());
}

TEST(KernelCompare, EmptySessions)
{
    const std::vector<KernelSummary> none;
    const std::vector<KernelSummary> some { kernel("k", "H100", 0, 10) };
    EXPECT_TRUE(compareKernels(none, none).kernels.empty());
    EXPECT_EQ(compareKernels(none, some).gone.size(), 1u);
    EXPECT_TRUE(compareKernels(some, none).kernels[0].isNew());
}

TEST(KernelCompare, FormatsSignedChanges)
{
    EXPECT_EQ(formatDeltaDuration(1'500'000), "+1.500 ms");
    EXPECT_EQ(formatDeltaDuration(-56), "-56 ns");
    EXPECT_EQ(formatDeltaDuration(0), "+0 ns");
    EXPECT_EQ(formatDeltaPct(12.26), "+12.3 %");
    EXPECT_EQ(formatDeltaPct(-3.0), "-3.0 %");
    EXPECT_EQ(formatDeltaPct(std::nullopt), "-");
}
