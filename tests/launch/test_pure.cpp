// SPDX-License-Identifier: MIT
// The launcher's pure helpers: -o patterns, the injection environment, --metrics, GPU UUIDs,
// measured-ceiling documents, progress lines, command lines.
#include "ridgeline/collectors/ceilings/measuredceilings.h"
#include "ridgeline/collectors/launch/captureenv.h"
#include "ridgeline/collectors/launch/captureoutput.h"
#include "ridgeline/collectors/launch/gpuprobe.h"
#include "ridgeline/collectors/launch/outputpattern.h"
#include "ridgeline/core/output/progressprotocol.h"
#include "ridgeline/core/store/sessionamend.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::collectors;

namespace {

PatternContext context(std::map<std::string, std::string> env = {})
{
    PatternContext c;
    c.host = "node7";
    c.pid = 4242;
    c.env = [env](const std::string& name) -> std::optional<std::string> {
        auto it = env.find(name);
        if (it == env.end())
            return std::nullopt;
        return it->second;
    };
    return c;
}

std::string expand(const std::string& pattern, std::map<std::string, std::string> env = {})
{
    auto r = expandOutputPattern(pattern, context(std::move(env)));
    return r.ok() ? r.value() : "ERROR: " + r.error().message;
}

} // namespace

TEST(OutputPattern, ExpandsHostPidVariablesAndPercent)
{
    EXPECT_EQ(expand("ridgeline-%h-%p.ridge"), "ridgeline-node7-4242.ridge");
    EXPECT_EQ(expand("run-%q{SLURM_PROCID}.ridge", { { "SLURM_PROCID", "3" } }), "run-3.ridge");
    EXPECT_EQ(expand("%q{A}%q{B}", { { "A", "x" }, { "B", "y" } }), "xy");
    EXPECT_EQ(expand("100%%-%h"), "100%-node7");
    EXPECT_EQ(expand("plain.ridge"), "plain.ridge");
    EXPECT_EQ(expand("dir/%p/%h.ridge"), "dir/4242/node7.ridge");
}

TEST(OutputPattern, UnsetVariableIsAClearError)
{
    auto r = expandOutputPattern("rank-%q{RANK}.ridge", context());
    ASSERT_TRUE(r.hasError());
    EXPECT_EQ(r.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(
        r.error().message, "-o rank-%q{RANK}.ridge: environment variable RANK is not set (it is needed for %q{RANK})");
}

TEST(OutputPattern, TheErrorNamesWhereThePatternCameFrom)
{
    // import and summarize expand their file arguments too: no "-o" before those.
    auto c = context();
    c.option = "";
    auto r = expandOutputPattern("rank-%q{SLURM_PROCID}.json.gz", c);
    ASSERT_TRUE(r.hasError());
    EXPECT_EQ(r.error().message,
        "rank-%q{SLURM_PROCID}.json.gz: environment variable SLURM_PROCID is not set (it is needed for "
        "%q{SLURM_PROCID})");
}

TEST(OutputPattern, MalformedPatternsAreErrors)
{
    for (const char* bad : { "x%", "%z.ridge", "%q", "%qRANK", "%q{RANK", "%q{}", "" }) {
        auto r = expandOutputPattern(bad, context({ { "RANK", "1" } }));
        EXPECT_TRUE(r.hasError()) << bad;
    }
    EXPECT_NE(expand("%z").find("unknown escape %z"), std::string::npos);
}

TEST(OutputPattern, ReadsTheProcessEnvironmentByDefault)
{
    setenv("RIDGELINE_TEST_RANK", "11", 1);
    PatternContext c;
    c.host = "h";
    c.pid = 1;
    auto r = expandOutputPattern("r%q{RIDGELINE_TEST_RANK}", c);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value(), "r11");
    unsetenv("RIDGELINE_TEST_RANK");
}

TEST(CaptureEnvironment, SetsTheContractAndDropsStaleFilters)
{
    InjectionSettings s;
    s.injectLibrary = "/opt/ridgeline/lib/ridgeline/libridgeline-inject.so";
    s.partDir = "/tmp/out.ridge.parts";
    s.sessionId = "abc";
    s.metrics = "none";
    s.launchCount = 5;
    const std::vector<std::string> base { "PATH=/usr/bin", "RIDGELINE_KERNEL_REGEX=old", "CUDA_INJECTION64_PATH=/x.so",
        "HOME=/root" };
    const auto env = captureEnvironment(base, s);
    auto has = [&](const std::string& entry) { return std::find(env.begin(), env.end(), entry) != env.end(); };
    EXPECT_TRUE(has("PATH=/usr/bin"));
    EXPECT_TRUE(has("HOME=/root"));
    EXPECT_TRUE(has("CUDA_INJECTION64_PATH=" + s.injectLibrary));
    EXPECT_TRUE(has("NVTX_INJECTION64_PATH=" + s.injectLibrary));
    EXPECT_TRUE(has("RIDGELINE_PART_DIR=/tmp/out.ridge.parts"));
    EXPECT_TRUE(has("RIDGELINE_SESSION_ID=abc"));
    EXPECT_TRUE(has("RIDGELINE_METRICS=none"));
    EXPECT_TRUE(has("RIDGELINE_LAUNCH_COUNT=5"));
    EXPECT_TRUE(has("RIDGELINE_FLUSH_PERIOD_MS=1000"));
    EXPECT_FALSE(has("CUDA_INJECTION64_PATH=/x.so"));
    EXPECT_EQ(std::count_if(env.begin(), env.end(),
                  [](const std::string& e) { return e.starts_with("RIDGELINE_KERNEL_REGEX="); }),
        0);
    EXPECT_EQ(std::count_if(
                  env.begin(), env.end(), [](const std::string& e) { return e.starts_with("RIDGELINE_LAUNCH_SKIP="); }),
        0);
}

TEST(CaptureEnvironment, CuptiDirectoryReplacesTheLoaderPathOnlyWhenGiven)
{
    InjectionSettings s;
    s.injectLibrary = "/x/libridgeline-inject.so";
    const std::vector<std::string> base { "LD_LIBRARY_PATH=/old", "HOME=/root" };
    const auto unchanged = captureEnvironment(base, s);
    EXPECT_EQ(std::count(unchanged.begin(), unchanged.end(), std::string("LD_LIBRARY_PATH=/old")), 1);
    s.libraryPath = "/opt/cuda/extras/CUPTI/lib64:/old";
    const auto env = captureEnvironment(base, s);
    EXPECT_EQ(
        std::count_if(env.begin(), env.end(), [](const std::string& e) { return e.starts_with("LD_LIBRARY_PATH="); }),
        1);
    EXPECT_NE(std::find(env.begin(), env.end(), "LD_LIBRARY_PATH=/opt/cuda/extras/CUPTI/lib64:/old"), env.end());
}

TEST(CaptureEnvironment, MetricsValidation)
{
    for (const char* good : { "roofline", "full", "none", "dram__bytes.sum", "dram__bytes.sum,gpu__time_duration.sum" })
        EXPECT_TRUE(validateMetrics(good).ok()) << good;
    for (const char* bad : { "", "roofline,", ",a", "a,,b", "dram bytes", "a;b" })
        EXPECT_TRUE(validateMetrics(bad).hasError()) << bad;
}

TEST(GpuUuid, CanonicalFormIgnoresSpelling)
{
    const std::string canonical = "8f3c0a1b22334455667788990011aabb";
    EXPECT_EQ(core::canonicalGpuUuid("GPU-8f3c0a1b-2233-4455-6677-88990011aabb"), canonical);
    EXPECT_EQ(core::canonicalGpuUuid("8F3C0A1B-2233-4455-6677-88990011AABB"), canonical);
    EXPECT_EQ(core::canonicalGpuUuid(canonical), canonical);
    EXPECT_EQ(core::canonicalGpuUuid("GPU-123"), "");
    EXPECT_EQ(core::canonicalGpuUuid("GPU-8f3c0a1b-2233-4455-6677-88990011aabz"), "");
}

TEST(MeasuredCeilings, ParsesTheBenchmarkDocument)
{
    const std::string doc = R"({"tool":"ridgeline-microbench","version":1,"measured_at":"2025-01-01T00:00:00Z",
        "device":{"ordinal":1,"name":"NVIDIA H100 80GB HBM3","uuid":"GPU-8f3c0a1b-2233-4455-6677-88990011aabb"},
        "ceilings":[{"resource":"DRAM","value":3.0e12,"unit":"B/s","note":"copy"},
                    {"resource":"FP32","value":6.0e13,"unit":"FLOP/s","note":"fma"},
                    {"resource":"BF16_tensor","value":0,"unit":"FLOP/s","note":"not measured"}],
        "measurements":[]})";
    auto parsed = parseMeasuredCeilings(doc);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    const auto& m = parsed.value();
    EXPECT_EQ(m.uuid, "GPU-8f3c0a1b-2233-4455-6677-88990011aabb");
    EXPECT_EQ(m.ordinal, 1);
    ASSERT_EQ(m.ceilings.size(), 2u); // the zero is no ceiling
    EXPECT_EQ(m.ceilings[0].resource, "DRAM");
    EXPECT_DOUBLE_EQ(m.ceilings[0].value, 3.0e12);
    EXPECT_EQ(m.ceilings[0].source, core::CeilingSource::Measured);
}

TEST(MeasuredCeilings, RejectsMalformedDocuments)
{
    for (const char* bad :
        { "", "[]", "{\"device\":{}}", R"({"device":{"uuid":"x"},"ceilings":[]})",
            R"({"device":{"uuid":"GPU-8f3c0a1b-2233-4455-6677-88990011aabb"},"ceilings":[{"resource":"DRAM","value":1,"unit":"GB/s"}]})",
            R"({"device":{"uuid":"GPU-8f3c0a1b-2233-4455-6677-88990011aabb"},"ceilings":[{"resource":"DRAM","value":"1"}]})" })
        EXPECT_TRUE(parseMeasuredCeilings(bad).hasError()) << bad;
}

TEST(MeasuredCeilings, CachePathFollowsXdg)
{
    setenv("XDG_CACHE_HOME", "/var/cache/test", 1);
    EXPECT_EQ(ceilingCachePath("8f3c0a1b22334455667788990011aabb"),
        "/var/cache/test/ridgeline/ceilings-GPU-8f3c0a1b-2233-4455-6677-88990011aabb.json");
    unsetenv("XDG_CACHE_HOME");
}

TEST(Progress, LinesArePrefixedJson)
{
    EXPECT_EQ(core::progress::started(12, "/o.ridge", ""),
        R"(ridgeline-progress: {"event":"started","output":"/o.ridge","pid":12})");
    EXPECT_EQ(core::progress::running(2.04, 3, 10),
        R"(ridgeline-progress: {"event":"running","kernels":10,"parts":3,"seconds":2.0})");
    EXPECT_EQ(core::progress::finished("partial", "/o.ridge", 139, 5, 2),
        R"(ridgeline-progress: {"event":"finished","exit_code":139,"kernels":5,"memops":2,"output":"/o.ridge","status":"partial"})");
    EXPECT_EQ(core::progress::error("x \"y\""), R"(ridgeline-progress: {"event":"error","message":"x \"y\""})");
}

// What the launcher writes, the app reads back: the two sides share one definition.
TEST(Progress, EveryLineParsesBack)
{
    using Kind = core::progress::Event::Kind;
    const auto started = core::progress::parseLine(core::progress::started(12, "/o.ridge", "no GPU"));
    ASSERT_TRUE(started);
    EXPECT_EQ(started->kind, Kind::Started);
    EXPECT_EQ(started->pid, 12);
    EXPECT_EQ(started->output, "/o.ridge");
    EXPECT_EQ(started->warning, "no GPU");
    const auto running = core::progress::parseLine(core::progress::running(2.04, 3, 10));
    ASSERT_TRUE(running);
    EXPECT_EQ(running->kind, Kind::Running);
    EXPECT_DOUBLE_EQ(running->seconds, 2.0);
    EXPECT_EQ(running->parts, 3);
    EXPECT_EQ(running->kernels, 10);
    const auto merging = core::progress::parseLine(core::progress::merging(4));
    ASSERT_TRUE(merging);
    EXPECT_EQ(merging->kind, Kind::Merging);
    EXPECT_EQ(merging->parts, 4);
    const auto finished = core::progress::parseLine(core::progress::finished("partial", "/o.ridge", 139, 5, 2) + "\r");
    ASSERT_TRUE(finished);
    EXPECT_EQ(finished->kind, Kind::Finished);
    EXPECT_EQ(finished->status, "partial");
    EXPECT_EQ(finished->exitCode, 139);
    EXPECT_EQ(finished->kernels, 5);
    EXPECT_EQ(finished->memops, 2);
    const auto error = core::progress::parseLine(core::progress::error("x \"y\""));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind, Kind::Error);
    EXPECT_EQ(error->message, "x \"y\"");
    EXPECT_FALSE(core::progress::parseLine("ridgeline: wrote a.ridge"));
    EXPECT_FALSE(core::progress::parseLine(std::string(core::progress::kPrefix) + R"({"event":"paused"})"));
}

TEST(CommandLine, QuotesWhatAShellWouldSplit)
{
    EXPECT_EQ(commandLine({ "python", "train.py", "--lr=0.1" }), "python train.py --lr=0.1");
    EXPECT_EQ(commandLine({ "echo", "a b", "it's", "" }), "echo 'a b' 'it'\\''s' ''");
}

TEST(LinkBandwidth, FromLinksAndGeneration)
{
    EXPECT_DOUBLE_EQ(nvlinkBytesPerS(18, 9), 450e9);
    EXPECT_DOUBLE_EQ(nvlinkBytesPerS(18, 10), 900e9);
    EXPECT_DOUBLE_EQ(nvlinkBytesPerS(0, 9), 0);
    EXPECT_DOUBLE_EQ(pcieBytesPerS(5, 16), 3.938e9 * 16);
    EXPECT_DOUBLE_EQ(pcieBytesPerS(0, 16), 0);
    EXPECT_DOUBLE_EQ(pcieBytesPerS(9, 16), 0);
}

TEST(GpuProbe, MissingDriverLibraryIsNoDriver)
{
    GpuProbeOptions options;
    options.libcuda = "/nonexistent/libcuda.so.1";
    unsetenv("RIDGELINE_LIBCUDA");
    const auto probe = probeGpus(options);
    EXPECT_EQ(probe.state, GpuProbeState::NoDriver);
    EXPECT_TRUE(probe.gpus.empty());
    EXPECT_EQ(noGpuSentence(probe),
        "No GPU activity could be recorded: the NVIDIA driver is not installed (/nonexistent/libcuda.so.1: cannot open "
        "shared object file: No such file or directory).");
}

TEST(GpuProbe, ToolkitStubIsNotADriver)
{
    const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (access(stub, R_OK) != 0)
        GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
    GpuProbeOptions options;
    options.libcuda = stub;
    unsetenv("RIDGELINE_LIBCUDA");
    const auto probe = probeGpus(options);
    EXPECT_EQ(probe.state, GpuProbeState::StubDriver);
    EXPECT_NE(noGpuSentence(probe).find("stub driver library"), std::string::npos) << noGpuSentence(probe);
    EXPECT_NE(probe.reason.find("CUDA_ERROR_STUB_LIBRARY"), std::string::npos) << probe.reason;
}

TEST(DriverCheck, OnlyAnOlderDriverGetsASentence)
{
    // cuDriverGetVersion's encoding: 12040 is CUDA 12.4, 13000 is 13.0, 13010 is 13.1.
    EXPECT_EQ(driverTooOldSentence(12040, 13000, "580.65.06"),
        "The NVIDIA driver supports CUDA 12.4, but Ridgeline's CUPTI (CUDA 13.0) needs a driver for CUDA 13.0 or "
        "later: install NVIDIA driver 580.65.06 or newer.");
    EXPECT_NE(driverTooOldSentence(12090).find("CUDA 12.9"), std::string::npos);
    EXPECT_EQ(driverTooOldSentence(13000), "");
    EXPECT_EQ(driverTooOldSentence(13010), "");
    EXPECT_EQ(driverTooOldSentence(14000), "");
    EXPECT_EQ(driverTooOldSentence(0), ""); // unknown: not judged
    // A newer toolkit's requirement would move the line: 13.0 is then too old.
    EXPECT_NE(driverTooOldSentence(13000, 13010, "590.1").find("CUDA 13.1 or later: install NVIDIA driver 590.1"),
        std::string::npos);
}

TEST(DriverCheck, UntracedSaysNoGpuFirstThenAnOldDriver)
{
    GpuProbe probe;
    probe.state = GpuProbeState::NoDevice;
    probe.reason = "the driver reports 0 CUDA devices";
    probe.driverCudaVersion = 12040;
    EXPECT_EQ(untracedSentence(probe), noGpuSentence(probe));
    probe.state = GpuProbeState::Ok;
    EXPECT_EQ(untracedSentence(probe), driverTooOldSentence(12040));
    probe.driverCudaVersion = 13000;
    EXPECT_EQ(untracedSentence(probe), "");
}

TEST(DriverCheck, CaptureEnvironmentLeavesInjectionOutWhenUntraced)
{
    InjectionSettings s;
    s.injectLibrary = "/x/libridgeline-inject.so";
    s.partDir = "/tmp/p";
    s.trace = false;
    const auto env = captureEnvironment({ "CUDA_INJECTION64_PATH=/outer.so", "HOME=/h" }, s);
    for (const auto& entry : env)
        EXPECT_FALSE(entry.starts_with("CUDA_INJECTION64_PATH=") || entry.starts_with("NVTX_INJECTION64_PATH="))
            << entry;
    EXPECT_NE(std::find(env.begin(), env.end(), "HOME=/h"), env.end());
}
