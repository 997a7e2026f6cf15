// SPDX-License-Identifier: MIT
// Launch configurations and raw counters of one kernel, read on demand (the details pane's data).
#include "fixtures.h"
#include "ridgeline/core/kerneldetails.h"
#include "ridgeline/core/sessionreader.h"
#include "tempdir.h"

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

class KernelDetailsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_path).ok());
        auto reader = core::SessionReader::open(m_path);
        ASSERT_TRUE(reader.ok());
        m_reader.emplace(std::move(reader).value());
        auto kernels = m_reader->kernels();
        ASSERT_TRUE(kernels.ok());
        m_kernels = std::move(kernels).value();
        ASSERT_EQ(m_kernels.size(), 8u);
    }
    ridgeline::testing::TempDir m_dir;
    std::string m_path = m_dir.file("small.ridge");
    std::optional<core::SessionReader> m_reader;
    std::vector<core::Kernel> m_kernels; // in start order: vectorAdd x3 (device 0) first
};

} // namespace

TEST_F(KernelDetailsTest, KernelListsConfigsAndTheCountedLaunch)
{
    const auto& first = m_kernels[0];
    auto details = core::loadKernelDetails(*m_reader, first.nameId, 0);
    ASSERT_TRUE(details.ok()) << details.error().message;
    const auto& d = details.value();
    EXPECT_EQ(d.launches, 3);
    ASSERT_EQ(d.configs.size(), 1u);
    EXPECT_EQ(d.configs[0].grid, (core::Dim3 { 1024, 1, 1 }));
    EXPECT_EQ(d.configs[0].block, (core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(d.configs[0].registersPerThread, 32);
    EXPECT_EQ(d.configs[0].dynamicSharedBytes, 4096);
    EXPECT_EQ(d.configs[0].launches, 3);
    // The first (and shortest) launch is the only one with counters.
    ASSERT_TRUE(d.countersLaunch);
    EXPECT_EQ(d.countersLaunch->id, first.id);
    ASSERT_EQ(d.metrics.size(), 3u);
    EXPECT_EQ(d.metrics[0].name, "dram__bytes.sum");
    EXPECT_DOUBLE_EQ(d.metrics[0].value, 2'097'152.0);
    EXPECT_EQ(d.metrics[0].unit, "byte");
}

TEST_F(KernelDetailsTest, OneLaunch)
{
    const auto& second = m_kernels[1];
    auto details = core::loadKernelDetails(*m_reader, second.nameId, 0, second.id);
    ASSERT_TRUE(details.ok());
    EXPECT_EQ(details.value().launches, 1);
    ASSERT_TRUE(details.value().countersLaunch);
    EXPECT_EQ(details.value().countersLaunch->id, second.id);
    EXPECT_TRUE(details.value().metrics.empty()); // this launch was not profiled
}

TEST_F(KernelDetailsTest, KernelWithoutCountersAndBadIds)
{
    const auto sgemm = m_kernels[3];
    auto details = core::loadKernelDetails(*m_reader, sgemm.nameId, 0);
    ASSERT_TRUE(details.ok());
    EXPECT_EQ(details.value().launches, 2);
    EXPECT_FALSE(details.value().countersLaunch);
    auto none = core::loadKernelDetails(*m_reader, 9999, 0);
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none.value().launches, 0);
    auto wrong = core::loadKernelDetails(*m_reader, sgemm.nameId, 0, m_kernels[0].id);
    ASSERT_TRUE(wrong.hasError());
    EXPECT_EQ(wrong.error().code, core::ErrorCode::NotFound);
}
