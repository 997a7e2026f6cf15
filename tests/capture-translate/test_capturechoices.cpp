// SPDX-License-Identifier: MIT
// The pure decisions of the injection library: environment, launch filter, NVTX ranges, NCCL
// kernels, CUPTI error sentences, which signals flush.
#include "cuptierrors.h"
#include "fatalsignals.h"
#include "injectionconfig.h"
#include "launchfilter.h"
#include "ncclkernel.h"

#include <csignal>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <tuple>

namespace ridgeline::testing {

namespace {

inject::InjectionConfig configFrom(const std::map<std::string, std::string>& env)
{
    return inject::readInjectionConfig([&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}

// What an NCCL symbol names, in one tuple: collective, data type, algorithm, protocol.
std::tuple<std::string, std::string, std::string, std::string> namedBy(const core::NcclKernelInfo& info)
{
    return { info.collective, info.dataType, info.algorithm, info.protocol };
}

} // namespace

TEST(InjectionConfig, DefaultsWhenNothingIsSet)
{
    const auto config = configFrom({});
    EXPECT_TRUE(config.partDir.empty());
    EXPECT_EQ(config.metricsMode, inject::MetricsMode::Set);
    EXPECT_EQ(config.metricsLabel(), "roofline");
    EXPECT_EQ(config.launchSkip, 0u);
    EXPECT_FALSE(config.launchCount.has_value());
    EXPECT_EQ(config.flushPeriodMs, 1000u);
    EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfig, ReadsEveryVariableOfTheContract)
{
    const auto config = configFrom({ { "RIDGELINE_PART_DIR", "/tmp/out.ridge.parts" },
        { "RIDGELINE_SESSION_ID", "abc" }, { "RIDGELINE_METRICS", "full" }, { "RIDGELINE_KERNEL_REGEX", "gemm" },
        { "RIDGELINE_LAUNCH_SKIP", "3" }, { "RIDGELINE_LAUNCH_COUNT", "10" }, { "RIDGELINE_NVTX_RANGE", "step" },
        { "RIDGELINE_FLUSH_PERIOD_MS", "250" } });
    EXPECT_EQ(config.partDir, "/tmp/out.ridge.parts");
    EXPECT_EQ(config.sessionId, "abc");
    EXPECT_EQ(config.metricsLabel(), "full");
    EXPECT_EQ(config.kernelRegex, "gemm");
    EXPECT_EQ(config.launchSkip, 3u);
    EXPECT_EQ(config.launchCount, 10u);
    EXPECT_EQ(config.nvtxRange, "step");
    EXPECT_EQ(config.flushPeriodMs, 250u);
    EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfig, MetricListAndNone)
{
    const auto list = configFrom({ { "RIDGELINE_METRICS", " dram__bytes.sum , gpu__time_duration.sum,," } });
    EXPECT_EQ(list.metricsMode, inject::MetricsMode::List);
    EXPECT_EQ(list.metricList, (std::vector<std::string> { "dram__bytes.sum", "gpu__time_duration.sum" }));
    EXPECT_EQ(list.metricsLabel(), "dram__bytes.sum,gpu__time_duration.sum");
    EXPECT_EQ(configFrom({ { "RIDGELINE_METRICS", "none" } }).metricsMode, inject::MetricsMode::None);
    const auto empty = configFrom({ { "RIDGELINE_METRICS", ",," } });
    EXPECT_EQ(empty.metricsMode, inject::MetricsMode::Set);
    EXPECT_EQ(empty.warnings.size(), 1u);
}

TEST(InjectionConfig, BadNumbersAreReportedAndIgnored)
{
    const auto config = configFrom({ { "RIDGELINE_LAUNCH_SKIP", "-1" }, { "RIDGELINE_LAUNCH_COUNT", "ten" },
        { "RIDGELINE_FLUSH_PERIOD_MS", "0" } });
    EXPECT_EQ(config.launchSkip, 0u);
    EXPECT_FALSE(config.launchCount.has_value());
    EXPECT_EQ(config.flushPeriodMs, 1000u);
    ASSERT_EQ(config.warnings.size(), 3u);
    EXPECT_NE(config.warnings[0].find("RIDGELINE_LAUNCH_SKIP=-1"), std::string::npos);
}

TEST(LaunchFilter, EveryLaunchWithoutOptions)
{
    auto filter = inject::LaunchFilter::create({});
    ASSERT_TRUE(filter.ok());
    for (int i = 0; i < 5; ++i)
        EXPECT_TRUE(filter.value().select("_Z1kv", "k()", false));
    EXPECT_FALSE(filter.value().exhausted());
    EXPECT_EQ(filter.value().profiled(), 5u);
}

TEST(LaunchFilter, RegexThenSkipThenCount)
{
    auto filter = inject::LaunchFilter::create({ "gemm", 2, 3, {} });
    ASSERT_TRUE(filter.ok());
    auto& f = filter.value();
    std::vector<bool> picked;
    for (int i = 0; i < 8; ++i) {
        picked.push_back(f.select("_Z4gemmv", "gemm()", false));
        EXPECT_FALSE(f.select("_Z5triadv", "triad()", false)); // never matches, never counts
    }
    EXPECT_EQ(picked, (std::vector<bool> { false, false, true, true, true, false, false, false }));
    EXPECT_TRUE(f.exhausted());
}

TEST(LaunchFilter, RegexMatchesTheDemangledName)
{
    auto filter = inject::LaunchFilter::create({ "sgemm_tiled<", 0, {}, {} });
    ASSERT_TRUE(filter.ok());
    EXPECT_TRUE(filter.value().select(
        "_Z11sgemm_tiledILi32EEvPKfS1_Pfi", "void sgemm_tiled<32>(float const*, float const*, float*, int)", false));
    EXPECT_FALSE(filter.value().select("_Z5sgemmPKfS0_Pfi", "sgemm(float const*, float const*, float*, int)", false));
}

TEST(LaunchFilter, InvalidRegexIsASentence)
{
    auto filter = inject::LaunchFilter::create({ "gemm(", 0, {}, {} });
    ASSERT_TRUE(filter.hasError());
    EXPECT_NE(filter.error().message.find("\"gemm(\" is not valid"), std::string::npos);
}

TEST(LaunchFilter, NvtxRangeSelectsOnlyInside)
{
    auto filter = inject::LaunchFilter::create({ {}, 1, 1, "step" });
    ASSERT_TRUE(filter.ok());
    EXPECT_FALSE(filter.value().select("_Z1kv", "k()", false)); // outside: not even counted for the skip
    EXPECT_FALSE(filter.value().select("_Z1kv", "k()", true)); // inside, skipped
    EXPECT_TRUE(filter.value().select("_Z1kv", "k()", true));
    EXPECT_FALSE(filter.value().select("_Z1kv", "k()", true)); // count used up
}

TEST(NvtxRangeTracker, PushPopPerThreadStartEndPerProcess)
{
    inject::NvtxRangeTracker ranges;
    ranges.push(1, "epoch");
    ranges.push(1, "step");
    EXPECT_TRUE(ranges.inside(1, "step"));
    EXPECT_TRUE(ranges.inside(1, "epoch"));
    EXPECT_FALSE(ranges.inside(2, "step")); // push/pop ranges belong to their thread
    ranges.pop(1);
    EXPECT_FALSE(ranges.inside(1, "step"));
    ranges.pop(1);
    ranges.pop(1); // unmatched pop: harmless
    EXPECT_FALSE(ranges.inside(1, "epoch"));
    ranges.start(99, "warmup");
    EXPECT_TRUE(ranges.inside(2, "warmup")); // start/end ranges hold on every thread
    ranges.end(99);
    EXPECT_FALSE(ranges.inside(2, "warmup"));
}

TEST(NcclKernel, NewAndOldSymbolsMangledOrNot)
{
    auto modern
        = inject::ncclKernelInfo("_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE");
    ASSERT_TRUE(modern.has_value());
    EXPECT_EQ(namedBy(*modern), std::make_tuple("AllReduce", "f32", "Ring", "LL"));
    auto demangled
        = inject::ncclKernelInfo("ncclDevKernel_ReduceScatter_Sum_bf16_TREE_LL128(ncclDevKernelArgsStorage<4096ul>)");
    ASSERT_TRUE(demangled.has_value());
    EXPECT_EQ(namedBy(*demangled), std::make_tuple("ReduceScatter", "bf16", "Tree", "LL128"));
    auto old = inject::ncclKernelInfo("ncclKernel_AllGather_RING_SIMPLE_Sum_int8_t(ncclWorkElem)");
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(namedBy(*old), std::make_tuple("AllGather", "int8_t", "Ring", "Simple"));
    auto generic = inject::ncclKernelInfo("_Z21ncclDevKernel_Generic24ncclDevKernelArgsStorageILm4096EE");
    ASSERT_TRUE(generic.has_value());
    EXPECT_EQ(generic->collective, ""); // the generic kernel does not say which operation
    auto sendRecv = inject::ncclKernelInfo("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)");
    ASSERT_TRUE(sendRecv.has_value());
    EXPECT_EQ(sendRecv->collective, "SendRecv");
}

TEST(NcclKernel, NothingElseIsACollective)
{
    EXPECT_FALSE(inject::ncclKernelInfo("_Z5triadPfPKfS1_f"));
    EXPECT_FALSE(inject::ncclKernelInfo("my_ncclKernel_lookalike"));
    EXPECT_FALSE(inject::ncclKernelInfo("_ZN4ncclL10ncclKernelEv")); // nested name: not the rule's prefix
    EXPECT_FALSE(inject::ncclKernelInfo("ncclDevKernel_"));
    EXPECT_FALSE(inject::ncclKernelInfo("_Z99ncclDevKernel_AllReduce")); // length beyond the symbol
    EXPECT_FALSE(inject::ncclKernelInfo(""));
}

TEST(CuptiErrors, EveryMappedCodeHasItsAdvice)
{
    using inject::CuptiStage;
    auto sentence = [](CUptiResult r) { return inject::cuptiErrorSentence(r, CuptiStage::Counters, "cuptiX"); };
    EXPECT_EQ(sentence(CUPTI_SUCCESS), "");
    const std::map<CUptiResult, std::string> expected {
        { CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "NVreg_RestrictProfilingToAdminUsers=0" },
        { CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES, "enable profiling for the vGPU" },
        { CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "another profiler is already attached" },
        { CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, "another profiler is already attached" },
        { CUPTI_ERROR_HARDWARE_BUSY, "another profiler is already attached" },
        { CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "MIG disabled" },
        { CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, "bare-metal GPU" },
        { CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, "native Linux" },
        { CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED, "confidential-computing" },
        { CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, "CMP" },
        { CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, "disable SLI" },
        { CUPTI_ERROR_INVALID_CHIP_NAME, "install a newer CUDA toolkit" },
        { CUPTI_ERROR_NOT_SUPPORTED, "does not support counters" },
        { CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED, "does not support counters" },
        { CUPTI_ERROR_NOT_COMPATIBLE, "update the driver" },
        { CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE, "update the driver" },
        { CUPTI_ERROR_NOT_INITIALIZED, "no NVIDIA GPU" },
        { CUPTI_ERROR_OUT_OF_MEMORY, "ran out of memory in cuptiX" },
        { CUPTI_ERROR_UNKNOWN, "cuptiX failed with CUPTI error 999" },
    };
    for (const auto& [code, advice] : expected) {
        const std::string text = sentence(code);
        EXPECT_NE(text.find(advice), std::string::npos) << "code " << code << ": " << text;
        EXPECT_NE(text.find("no hardware counters were recorded (the trace is kept)"), std::string::npos) << text;
    }
    EXPECT_NE(inject::cuptiErrorSentence(CUPTI_ERROR_NOT_SUPPORTED, CuptiStage::Tracing, "x")
                  .find("no GPU activity was recorded"),
        std::string::npos);
}

TEST(CuptiErrors, DeviceSupportNamesTheReason)
{
    CUpti_Profiler_DeviceSupported_Params support {};
    support.isSupported = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    EXPECT_EQ(inject::deviceSupportSentence(support, "GPU 0"), "");
    support.isSupported = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
    support.architecture = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    support.sli = support.vGpu = support.confidentialCompute = support.cmp = support.wsl
        = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    EXPECT_NE(inject::deviceSupportSentence(support, "GPU 0").find("MIG"), std::string::npos);
    support.wsl = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
    EXPECT_NE(inject::deviceSupportSentence(support, "GPU 0").find("WSL"), std::string::npos);
    support.vGpu = CUPTI_PROFILER_CONFIGURATION_DISABLED;
    EXPECT_NE(inject::deviceSupportSentence(support, "GPU 0").find("vGPU"), std::string::npos);
    support.architecture = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
    EXPECT_NE(inject::deviceSupportSentence(support, "GPU 0").find("compute capability 7.5"), std::string::npos);
    EXPECT_NE(inject::unsupportedChipSentence("GV11B", "integrated Volta").find("--metrics none"), std::string::npos);
}

TEST(FatalSignals, FaultsAlwaysFlushTerminationOnlyWhenItWouldKill)
{
    for (const int fault : { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL }) {
        EXPECT_TRUE(inject::flushesOn(fault, true));
        EXPECT_TRUE(inject::flushesOn(fault, false));
    }
    EXPECT_TRUE(inject::flushesOn(SIGTERM, true));
    EXPECT_FALSE(inject::flushesOn(SIGTERM, false)); // the program handles it: it decides
    EXPECT_TRUE(inject::flushesOn(SIGINT, true));
    EXPECT_FALSE(inject::flushesOn(SIGINT, false));
    EXPECT_FALSE(inject::flushesOn(SIGUSR1, true));
}

} // namespace ridgeline::testing
