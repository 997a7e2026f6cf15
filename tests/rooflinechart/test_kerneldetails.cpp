// SPDX-License-Identifier: MIT
// Launch configurations and raw counters of one kernel, read on demand (the details pane's data).
#include "fixtures.h"
#include "ridgeline/core/analysis/kerneldetails.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
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

// Launch delays: kernel start − start of the call that launched it (fixture: vectorAdd launches
// at 1000 and 3000 ns by calls at 800–820 and 900–915 ns; the third launch has no call).
TEST_F(KernelDetailsTest, KernelLaunchDelaysFromTheLaunchingCalls)
{
    auto details = core::loadKernelDetails(*m_reader, m_kernels[0].nameId, 0);
    ASSERT_TRUE(details.ok()) << details.error().message;
    const auto& delays = details.value().launchDelays;
    EXPECT_EQ(delays.launches, 2);
    EXPECT_DOUBLE_EQ(delays.averageNs, (200.0 + 2100.0) / 2);
    EXPECT_EQ(delays.minNs, 200);
    EXPECT_EQ(delays.maxNs, 2100);
    EXPECT_DOUBLE_EQ(delays.averageCallNs, (20.0 + 15.0) / 2);
    EXPECT_FALSE(details.value().launchingCall); // a kernel, not a launch
    // sgemm's launches have no call in the session: no delays.
    auto sgemm = core::loadKernelDetails(*m_reader, m_kernels[3].nameId, 0);
    ASSERT_TRUE(sgemm.ok());
    EXPECT_EQ(sgemm.value().launchDelays.launches, 0);
}

TEST_F(KernelDetailsTest, LaunchNamesItsLaunchingCall)
{
    const auto& second = m_kernels[1];
    auto details = core::loadKernelDetails(*m_reader, second.nameId, 0, second.id);
    ASSERT_TRUE(details.ok());
    ASSERT_TRUE(details.value().launchingCall);
    const auto& call = *details.value().launchingCall;
    EXPECT_EQ(call.name, "cudaLaunchKernel");
    EXPECT_EQ(call.correlationId, 102);
    EXPECT_EQ(call.startNs, 900);
    EXPECT_EQ(call.threadId, 4242);
    EXPECT_EQ(details.value().launchDelays.launches, 0); // computed for kernels only
    const auto& third = m_kernels[2]; // correlation 103: no call recorded
    auto none = core::loadKernelDetails(*m_reader, third.nameId, 0, third.id);
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none.value().launchingCall);
}

// The runtime call around its driver call is the launching call; another process's call with the
// same correlation id is not; correlation id 0 (not recorded) matches nothing.
TEST(LaunchingCall, EarliestCallOfTheSameProcessAndCorrelation)
{
    ridgeline::testing::TempDir dir;
    const std::string path = dir.file("calls.ridge");
    {
        core::WriterOptions options;
        options.replaceExisting = true;
        auto created = core::SessionWriter::create(path, options);
        ASSERT_TRUE(created.ok());
        auto& w = created.value();
        core::Device d;
        d.id = 0;
        d.name = "GPU";
        ASSERT_TRUE(w.addDevice(d).ok());
        for (std::int64_t pid : { 1, 2 }) {
            core::Process p;
            p.id = pid;
            p.pid = 100 + pid;
            ASSERT_TRUE(w.addProcess(p).ok());
        }
        auto name = w.internKernelName("k");
        ASSERT_TRUE(name.ok());
        core::Kernel k;
        k.processId = 1;
        k.nameId = name.value();
        k.correlationId = 7;
        k.startNs = 1'000;
        k.endNs = 2'000;
        core::Kernel unrecorded = k;
        unrecorded.correlationId = 0;
        unrecorded.startNs = 3'000;
        unrecorded.endNs = 4'000;
        const core::Kernel kernels[] = { k, unrecorded };
        ASSERT_TRUE(w.addKernels(kernels).ok());
        const core::ApiCall calls[] = {
            { 0, 2, 9, "runtime", "cudaLaunchKernel", 7, 10, 20, 0 }, // other process, earlier
            { 0, 1, 5, "driver", "cuLaunchKernel", 7, 120, 180, 0 },
            { 0, 1, 5, "runtime", "cudaLaunchKernel", 7, 100, 200, 0 },
            { 0, 1, 5, "runtime", "cudaMalloc", 0, 300, 400, 0 },
        };
        ASSERT_TRUE(w.addApiCalls(calls).ok());
        ASSERT_TRUE(w.finish(core::SessionStatus::Complete).ok());
    }
    auto reader = core::SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto kernels = reader.value().kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), 2u);
    auto call = reader.value().launchingCall(kernels.value()[0]);
    ASSERT_TRUE(call.ok()) << call.error().message;
    ASSERT_TRUE(call.value());
    EXPECT_EQ(call.value()->name, "cudaLaunchKernel");
    EXPECT_EQ(call.value()->processId, 1);
    EXPECT_EQ(call.value()->startNs, 100);
    auto unrecorded = reader.value().launchingCall(kernels.value()[1]);
    ASSERT_TRUE(unrecorded.ok());
    EXPECT_FALSE(unrecorded.value());
    auto delays = reader.value().launchDelays(kernels.value()[0].nameId, 0);
    ASSERT_TRUE(delays.ok());
    EXPECT_EQ(delays.value().launches, 1); // the unrecorded launch drops out
    EXPECT_EQ(delays.value().minNs, 900); // 1000 − 100: from the runtime call
    EXPECT_DOUBLE_EQ(delays.value().averageCallNs, 100.0);
}
