// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/advice.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ridgeline::core;

namespace {

bool mentions(const std::vector<std::string>& advice, const std::string& words)
{
    return std::any_of(advice.begin(), advice.end(), [&](const auto& a) { return a.find(words) != std::string::npos; });
}

AdviceInput input(VerdictClass verdict, std::string_view boundBy, std::string_view hint = {},
    std::optional<double> utilization = std::nullopt, bool counters = true)
{
    return AdviceInput { verdict, boundBy, hint, utilization, counters };
}

} // namespace

TEST(Advice, MemoryBoundDramSuggestsReuseFusionAndCoalescing)
{
    const auto advice = adviceFor(input(VerdictClass::MemoryBound, "DRAM", "", 0.87, true));
    EXPECT_TRUE(mentions(advice, "tile"));
    EXPECT_TRUE(mentions(advice, "Fuse"));
    EXPECT_TRUE(mentions(advice, "Coalesce"));
    EXPECT_FALSE(mentions(advice, "Above 100 %"));
}

TEST(Advice, EachMemoryLevelHasItsOwnAdvice)
{
    const auto dram = adviceFor(input(VerdictClass::MemoryBound, "DRAM", "", 0.9, true));
    const auto l2 = adviceFor(input(VerdictClass::MemoryBound, "L2", "", 0.9, true));
    const auto l1 = adviceFor(input(VerdictClass::MemoryBound, "L1", "", 0.9, true));
    EXPECT_NE(dram, l2);
    EXPECT_NE(l2, l1);
    EXPECT_TRUE(mentions(l1, "bank conflicts"));
    EXPECT_TRUE(mentions(l2, "shared memory"));
}

TEST(Advice, ComputeBoundByPrecision)
{
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::ComputeBound, "FP32", "", 0.8, true)), "tensor cores"));
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::ComputeBound, "FP64", "", 0.8, true)), "double precision"));
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::ComputeBound, "FP16", "", 0.8, true)), "half2"));
    const auto tensor = adviceFor(input(VerdictClass::ComputeBound, "tensor", "", 0.8, true));
    EXPECT_TRUE(mentions(tensor, "lower precision"));
    EXPECT_EQ(tensor, adviceFor(input(VerdictClass::ComputeBound, "FP16_tensor", "", 0.8, true)));
}

// SM-bound without floating point (docs/ROOFLINE.md "Verdict"): instructions, integer and
// load/store work; nothing about FP32 precision or tensor cores.
TEST(Advice, SmBoundIsAboutInstructionsNotPrecision)
{
    const auto sm = adviceFor(input(VerdictClass::ComputeBound, "SM", "", 0.65, true));
    EXPECT_TRUE(mentions(sm, "Issue fewer instructions"));
    EXPECT_TRUE(mentions(sm, "integer"));
    EXPECT_TRUE(mentions(sm, "load/store"));
    EXPECT_FALSE(mentions(sm, "tensor cores"));
    EXPECT_FALSE(mentions(sm, "precision"));
    EXPECT_NE(sm, adviceFor(input(VerdictClass::ComputeBound, "FP32", "", 0.65, true)));
}

TEST(Advice, LatencyBoundFollowsTheHint)
{
    const auto wave = adviceFor(input(VerdictClass::LatencyBound, "", "less than one wave (8 blocks on 132 SMs)"));
    EXPECT_TRUE(mentions(wave, "more blocks"));
    const auto shortKernel = adviceFor(input(VerdictClass::LatencyBound, "", "too short to fill the GPU (2.1 µs)"));
    EXPECT_TRUE(mentions(shortKernel, "CUDA graph"));
    const auto stalls = adviceFor(input(VerdictClass::LatencyBound, "", "no unit is busy: likely stalls"));
    EXPECT_TRUE(mentions(stalls, "occupancy"));
    EXPECT_NE(wave, shortKernel);
    EXPECT_NE(shortKernel, stalls);
}

TEST(Advice, CommunicationByPath)
{
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::CommunicationBound, "PCIe")), "pinned"));
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::CommunicationBound, "NVLink")), "peer"));
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::CommunicationBound, "collective")), "Overlap"));
}

TEST(Advice, UnknownSaysWhatIsMissing)
{
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::Unknown, "", "", std::nullopt, false)), "Collect hardware counters"));
    EXPECT_TRUE(mentions(adviceFor(input(VerdictClass::Unknown, "", "", std::nullopt, true)), "Add ceilings"));
}

TEST(Advice, AboveTheCeilingIsFlaggedFirst)
{
    const auto advice = adviceFor(input(VerdictClass::MemoryBound, "DRAM", "", 1.2, true));
    ASSERT_GE(advice.size(), 2u);
    EXPECT_NE(advice.front().find("Above 100 %"), std::string::npos);
}

TEST(Advice, NeverEmptyAndTakesTheAnalysis)
{
    for (const auto v : kVerdictClasses) {
        for (const char* bound : { "", "FP64", "DRAM", "L1", "PCIe", "collective", "weird" })
            EXPECT_FALSE(adviceFor(input(v, bound)).empty()) << toString(v) << " " << bound;
    }
    KernelAnalysis a;
    a.verdict = VerdictClass::MemoryBound;
    a.boundBy = "L2";
    a.boundUtilization = 0.7;
    a.hasCounters = true;
    EXPECT_EQ(adviceFor(a), adviceFor(input(VerdictClass::MemoryBound, "L2", "", 0.7, true)));
}
