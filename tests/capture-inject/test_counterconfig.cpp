// SPDX-License-Identifier: MIT
// The host half of the per-kernel counters with the CUPTI Profiler Host API (no GPU): which
// metrics go into which config image for a chip, the images CUPTI builds from them, and the
// sentences for what cannot be collected.
#include "counterconfig.h"
#include "ridgeline/collectors/metrics/metricsets.h"

#include <gtest/gtest.h>
#include <iostream>

namespace ridgeline::testing {

namespace {

inject::InjectionConfig setConfig(const std::string& set)
{
    inject::InjectionConfig config;
    config.metricSet = set;
    return config;
}

} // namespace

TEST(CounterConfig, Gh100RooflineSplitsIntoGpuAndLinkImages)
{
    auto groups = inject::counterGroups(setConfig("roofline"), "GH100");
    ASSERT_TRUE(groups.ok()) << groups.error().message;
    ASSERT_EQ(groups.value().size(), 2u); // GPU counters, then NVLink/PCIe/C2C
    for (const auto& name : groups.value()[0])
        EXPECT_FALSE(collectors::isSystemUnitMetric(name)) << name;
    for (const auto& name : groups.value()[1])
        EXPECT_TRUE(collectors::isSystemUnitMetric(name)) << name;
    std::vector<std::size_t> passes;
    for (const auto& group : groups.value()) {
        auto config = inject::CounterConfig::create("GH100", group, {});
        ASSERT_TRUE(config.ok()) << config.error().message;
        EXPECT_FALSE(config.value().image().empty());
        EXPECT_GE(config.value().passes(), 1u);
        EXPECT_EQ(config.value().metrics(), group);
        passes.push_back(config.value().passes());
    }
    // The figure the library prints as capture.replay_passes on an H100.
    std::cout << "GH100 roofline replay passes: " << passes[0] << "+" << passes[1] << std::endl;
}

TEST(CounterConfig, Gh100FullSetBuildsToo)
{
    auto groups = inject::counterGroups(setConfig("full"), "GH100");
    ASSERT_TRUE(groups.ok()) << groups.error().message;
    ASSERT_FALSE(groups.value().empty());
    auto config = inject::CounterConfig::create("GH100", groups.value()[0], {});
    ASSERT_TRUE(config.ok()) << config.error().message;
    auto roofline = inject::counterGroups(setConfig("roofline"), "GH100");
    ASSERT_TRUE(roofline.ok());
    auto rooflineConfig = inject::CounterConfig::create("GH100", roofline.value()[0], {});
    ASSERT_TRUE(rooflineConfig.ok());
    EXPECT_GE(config.value().passes(), rooflineConfig.value().passes()); // full is a superset
}

TEST(CounterConfig, UserListIsSplitTheSameWay)
{
    inject::InjectionConfig config;
    config.metricsMode = inject::MetricsMode::List;
    config.metricList = { "nvlrx__bytes.sum", "dram__bytes.sum", "gpu__time_duration.sum" };
    auto groups = inject::counterGroups(config, "GH100");
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups.value().size(), 2u);
    EXPECT_EQ(groups.value()[0], (std::vector<std::string> { "dram__bytes.sum", "gpu__time_duration.sum" }));
    EXPECT_EQ(groups.value()[1], (std::vector<std::string> { "nvlrx__bytes.sum" }));
    auto gpu = inject::CounterConfig::create("GH100", groups.value()[0], {});
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
}

TEST(CounterConfig, NoneMeansNoGroups)
{
    inject::InjectionConfig config;
    config.metricsMode = inject::MetricsMode::None;
    auto groups = inject::counterGroups(config, "GH100");
    ASSERT_TRUE(groups.ok());
    EXPECT_TRUE(groups.value().empty());
}

TEST(CounterConfig, AMetricTheChipLacksIsASentence)
{
    // GB202 spells DRAM reads dram__bytes_op_read (docs/METRIC-SETS.md).
    auto config = inject::CounterConfig::create("GB202", { "dram__bytes_read.sum" }, {});
    ASSERT_TRUE(config.hasError());
    EXPECT_EQ(config.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(config.error().message.find("GB202 chip does not have every metric"), std::string::npos)
        << config.error().message;
}

TEST(CounterConfig, UnknownAndUnsupportedChipsAreSentences)
{
    auto unknown = inject::counterGroups(setConfig("roofline"), "XZ999");
    ASSERT_TRUE(unknown.hasError());
    EXPECT_NE(unknown.error().message.find("no counter set for the XZ999 chip"), std::string::npos);
    auto unsupported = inject::counterGroups(setConfig("roofline"), "GV11B");
    ASSERT_TRUE(unsupported.hasError());
    EXPECT_NE(unsupported.error().message.find("GV11B"), std::string::npos);
    auto badSet = inject::counterGroups(setConfig("fastest"), "GH100");
    ASSERT_TRUE(badSet.hasError());
    EXPECT_NE(badSet.error().message.find("unknown metric set \"fastest\""), std::string::npos);
    auto cuptiUnknownChip = inject::CounterConfig::create("XZ999", { "dram__bytes.sum" }, {});
    ASSERT_TRUE(cuptiUnknownChip.hasError());
    EXPECT_FALSE(cuptiUnknownChip.error().message.empty());
}

} // namespace ridgeline::testing
