// SPDX-License-Identifier: MIT
// Tensor work per type from the roofline set each chip collects: every tensor counter of the set
// gets a value, the values go through core's analysis as a captured kernel's kernel_metrics do,
// and each type must be booked to its own resource. Values are picked by hand (distinct powers
// of two, so any mix-up shows); the expected sums are worked out from the chip's own names.
#include "ridgeline/collectors/metrics/metricsets.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace ridgeline;
using namespace ridgeline::collectors;
namespace metric = core::metric;

namespace {

std::vector<std::string> tensorCounters(const MetricSet& set)
{
    std::vector<std::string> out;
    for (const auto& m : set.metrics) {
        if ((m.starts_with(metric::TensorOpsPrefix) && m.ends_with(metric::TensorOpsSuffix))
            || m == metric::TensorPipeInst)
            out.push_back(m);
    }
    return out;
}

// Each counter's value: 2^(10 + i) for the i-th tensor counter of the set.
std::map<std::string, double, std::less<>> recorded(const std::vector<std::string>& counters)
{
    std::map<std::string, double, std::less<>> values;
    double v = 1024;
    for (const auto& c : counters) {
        values[c] = v;
        v *= 2;
    }
    values[std::string(metric::Duration)] = 1e6;
    return values;
}

std::string sourceOf(const std::string& counter)
{
    return counter.substr(metric::TensorOpsPrefix.size(),
        counter.size() - metric::TensorOpsPrefix.size() - metric::TensorOpsSuffix.size());
}

} // namespace

TEST(TensorBooking, EveryChipWithPerTypeCountersBooksEachType)
{
    // The resource each source type belongs to, written out here from metricnames.h's comment.
    const std::map<std::string, core::Resource> resourceOf {
        { "fp64", core::Resource::FP64Tensor },
        { "tf32_dst_fp32", core::Resource::TF32Tensor },
        { "fp16", core::Resource::FP16Tensor },
        { "fp16_dst_fp16", core::Resource::FP16Tensor },
        { "fp16_dst_fp32", core::Resource::FP16Tensor },
        { "bf16_dst_fp32", core::Resource::BF16Tensor },
        { "fp8", core::Resource::FP8Tensor },
        { "fp8_dst_fp16", core::Resource::FP8Tensor },
        { "fp8_dst_fp32", core::Resource::FP8Tensor },
        { "fp4_fp6_fp8_dst_fp16", core::Resource::FP8Tensor },
        { "fp4_fp6_fp8_dst_fp32", core::Resource::FP8Tensor },
        { "int8", core::Resource::INT8Tensor },
    };
    int perType = 0;
    for (const auto& chip : chipNames()) {
        const auto set = metricSet(chip, RooflineSet);
        ASSERT_TRUE(set);
        const auto counters = tensorCounters(*set);
        const bool estimate = std::find(counters.begin(), counters.end(), metric::TensorPipeInst) != counters.end();
        if (estimate) {
            // Only Turing keeps the x512 estimate (its FP16-to-FP32 counter also names BF16 and TF32).
            EXPECT_EQ(set->family, "Turing") << chip;
            EXPECT_EQ(counters.size(), 1u) << chip << ": the estimate is never mixed with per-type counts";
            continue;
        }
        ++perType;
        ASSERT_FALSE(counters.empty()) << chip;
        core::KernelFacts facts;
        facts.metrics = recorded(counters);
        core::ResourceMap<double> expected;
        for (const auto& c : counters) {
            const auto it = resourceOf.find(sourceOf(c));
            ASSERT_NE(it, resourceOf.end()) << chip << ": " << c << " feeds no resource";
            expected[it->second] += facts.metrics.at(c);
        }
        const auto analysis = core::analyzeKernel(facts);
        core::ResourceMap<double> booked;
        for (const auto& [res, value] : analysis.flopsByPrecision) {
            if (core::isTensorPipe(res))
                booked[res] = value;
        }
        EXPECT_EQ(booked, expected) << chip;
    }
    // Volta, Ampere (7), Ada (5), Hopper, Blackwell (10): every chip but the five Turing ones.
    EXPECT_EQ(perType, static_cast<int>(chipNames().size()) - 5);
}

TEST(TensorBooking, AmpereSplitsWhatTheEstimateCalledFp16)
{
    // A GA100 TF32 GEMM: with per-type counters it is TF32 tensor work, not FP16.
    const auto set = metricSet("GA100", RooflineSet);
    ASSERT_TRUE(set);
    const std::string tf32
        = std::string(metric::TensorOpsPrefix) + "tf32_dst_fp32" + std::string(metric::TensorOpsSuffix);
    ASSERT_NE(std::find(set->metrics.begin(), set->metrics.end(), tf32), set->metrics.end());
    EXPECT_EQ(std::find(set->metrics.begin(), set->metrics.end(), metric::TensorPipeInst), set->metrics.end());
    core::KernelFacts facts;
    facts.metrics = { { tf32, 4.0e12 }, { std::string(metric::Duration), 1e7 } };
    const auto a = core::analyzeKernel(facts);
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(core::Resource::TF32Tensor), 4.0e12);
    EXPECT_EQ(a.flopsByPrecision.count(core::Resource::FP16Tensor), 0u);
}

TEST(TensorBooking, TheX512EstimateIsSaidInTheVerdictAndTheSummary)
{
    // A Turing (TU102) HMMA kernel: pipe instructions x 512, booked as FP16 tensor, an estimate.
    const auto set = metricSet("TU102", RooflineSet);
    ASSERT_TRUE(set);
    ASSERT_NE(std::find(set->metrics.begin(), set->metrics.end(), metric::TensorPipeInst), set->metrics.end());
    core::KernelFacts facts;
    facts.metrics = { { std::string(metric::TensorPipeInst), 1.0e9 }, { std::string(metric::Duration), 1e6 } };
    facts.ceilings = { { 0, "FP16_tensor", 1.0e15, "FLOP/s", core::CeilingSource::Datasheet, {} } };
    const auto a = core::analyzeKernel(facts);
    EXPECT_DOUBLE_EQ(a.flopsByPrecision.at(core::Resource::FP16Tensor), 512e9);
    EXPECT_TRUE(a.tensorEstimated);
    EXPECT_NE(a.reason.find("FP16 tensor FLOPs are an estimate (tensor pipe instructions x 512"), std::string::npos)
        << a.reason;
    // Over several launches (the report's rows) too.
    core::LaunchAccumulator acc;
    acc.add(a);
    acc.add(a);
    EXPECT_NE(acc.result().reason.find("an estimate"), std::string::npos) << acc.result().reason;

    // Per-type counters are counted, not estimated: nothing is said.
    core::KernelFacts counted;
    counted.metrics = { { std::string(metric::TensorOpsPrefix) + "fp16_dst_fp32.sum", 512e9 },
        { std::string(metric::TensorPipeInst), 1.0e9 }, { std::string(metric::Duration), 1e6 } };
    counted.ceilings = facts.ceilings;
    const auto b = core::analyzeKernel(counted);
    EXPECT_FALSE(b.tensorEstimated);
    EXPECT_EQ(b.reason.find("estimate"), std::string::npos) << b.reason;
}

TEST(TensorBooking, GraphLevelCountersAreNamedAsSuch)
{
    core::KernelFacts facts;
    facts.metrics = { { "dram__bytes.sum", 8e8 }, { std::string(metric::Duration), 1e6 } };
    facts.ceilings = { { 0, "DRAM", 1.0e12, "B/s", core::CeilingSource::Datasheet, {} } };
    facts.graphRangeKernels = 3;
    const auto first = core::analyzeKernel(facts);
    EXPECT_EQ(first.verdict, core::VerdictClass::MemoryBound);
    EXPECT_EQ(
        first.reason.rfind("graph-level counters (one range over the 3 kernels of its CUDA graph launch): ", 0), 0u)
        << first.reason;
    // Another kernel of the launch: no counters of its own.
    core::KernelFacts other;
    other.graphRangeKernels = 3;
    const auto o = core::analyzeKernel(other);
    EXPECT_EQ(o.verdict, core::VerdictClass::Unknown);
    EXPECT_NE(o.reason.find("graph-level counters only"), std::string::npos) << o.reason;
    // A report row: 2 of 5 launches ran in graph launches counted as one range.
    auto row = first;
    core::noteGraphLevelCounters(row, 2, 5);
    EXPECT_NE(row.reason.find("2 of 5 launches have graph-level counters only"), std::string::npos) << row.reason;
    core::KernelAnalysis none;
    core::noteGraphLevelCounters(none, 4, 4);
    EXPECT_EQ(none.verdict, core::VerdictClass::Unknown);
    EXPECT_NE(none.reason.find("graph-level counters only (4 of 4 launches"), std::string::npos) << none.reason;
}
