// SPDX-License-Identifier: MIT
// Profiler steps (issue 35): a step's window is its GPU-side "ProfilerStep#N" range where the trace
// has one (as Holistic Trace Analysis and TraceLens take it), and `--step all` gives each step's own
// timeline figures. Expected windows and busy times are worked out here from the same real traces
// with zlib + nlohmann::json: the gpu_user_annotation / user_annotation events, and the union of
// the GPU ops' intervals clipped to the window.
#include "importedtrace.h"
#include "kinetobrute.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "testutil.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::testDataPath;

namespace {

using namespace ridgeline::testing::kineto;

struct StepsOfTrace {
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> gpu, host; // step -> window
    std::vector<std::pair<std::int64_t, std::int64_t>> gpuOps; // kernels, copies, memsets
};

StepsOfTrace readSteps(const std::string& path)
{
    const auto doc = Json::parse(ridgeline::testing::gunzipFile(path));
    StepsOfTrace t;
    for (const auto& ev : doc["traceEvents"]) {
        if (!ev.contains("ph") || ev["ph"] != "X" || !ev.contains("cat") || !ev.contains("ts"))
            continue;
        const auto cat = lower(ev["cat"].get<std::string>());
        const std::int64_t start = toNs(ev["ts"]);
        const std::int64_t end = start + (ev.contains("dur") ? toNs(ev["dur"]) : 0);
        const std::string name = ev.value("name", "");
        if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset")
            t.gpuOps.emplace_back(start, end);
        if (!name.starts_with("ProfilerStep#") || (cat != "gpu_user_annotation" && cat != "user_annotation"))
            continue;
        auto& byStep = cat == "gpu_user_annotation" ? t.gpu : t.host;
        const std::int64_t number = std::stoll(name.substr(13));
        auto [it, added] = byStep.try_emplace(number, start, end);
        if (!added)
            it->second = { std::min(it->second.first, start), std::max(it->second.second, end) };
    }
    return t;
}

// The time at least one GPU op runs within [from, to), ns by ns over the sorted intervals.
std::int64_t busyWithin(std::vector<std::pair<std::int64_t, std::int64_t>> ops, std::int64_t from, std::int64_t to)
{
    std::sort(ops.begin(), ops.end());
    std::int64_t busy = 0;
    std::int64_t reach = from;
    for (auto [start, end] : ops) {
        start = std::max(start, reach);
        end = std::min(end, to);
        if (end > start) {
            busy += end - start;
            reach = end;
        }
    }
    return busy;
}

// From the first GPU op's start to the last one's end within [from, to).
std::int64_t spanWithin(
    const std::vector<std::pair<std::int64_t, std::int64_t>>& ops, std::int64_t from, std::int64_t to)
{
    std::int64_t first = INT64_MAX;
    std::int64_t last = INT64_MIN;
    for (const auto& [start, end] : ops) {
        if (end <= from || start >= to)
            continue;
        first = std::min(first, std::max(start, from));
        last = std::max(last, std::min(end, to));
    }
    return last > first ? last - first : 0;
}

} // namespace

// TraceLens's H100 Qwen trace: one step, its host range 47.2 ms, its GPU-side range 34.9 ms. The
// issue's figures: busy 45.6 ms over the whole trace, 31.9 ms over the step (TraceLens's window).
TEST(ProfilerSteps, TheGpuSideRangeIsTheWindow)
{
    const std::string relative = "kineto/tracelens-qwen-h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    const StepsOfTrace file = readSteps(testDataPath(relative));
    ASSERT_EQ(file.gpu.size(), 1U);
    auto imported = ridgeline::testing::importKinetoTrace(relative);
    ASSERT_TRUE(imported->reader);
    auto& reader = *imported->reader;
    auto steps = core::profilerSteps(reader);
    ASSERT_TRUE(steps.ok());
    ASSERT_EQ(steps.value().size(), 1U);
    const auto& step = steps.value().front();
    const auto& [number, window] = *file.gpu.begin();
    EXPECT_EQ(step.number, number);
    EXPECT_TRUE(step.gpuSide);
    EXPECT_EQ(step.window.startNs, window.first);
    EXPECT_EQ(step.window.endNs, window.second);
    EXPECT_LT(file.host.at(number).first, window.first); // the host range starts before the GPU has work

    core::TimelineSelection all;
    all.allSteps = true;
    auto report = core::buildKernelReport(reader, all);
    ASSERT_TRUE(report.ok()) << report.error().message;
    ASSERT_EQ(report.value().timeline.size(), 1U);
    ASSERT_EQ(report.value().stepTimelines.size(), 1U);
    ASSERT_EQ(report.value().stepTimelines[0].size(), 1U);
    const auto whole = busyWithin(file.gpuOps, INT64_MIN, INT64_MAX);
    const auto ofStep = busyWithin(file.gpuOps, window.first, window.second);
    EXPECT_EQ(report.value().timeline[0].busyNs, whole);
    EXPECT_EQ(report.value().stepTimelines[0][0].busyNs, ofStep);
    EXPECT_EQ(report.value().stepTimelines[0][0].spanNs, spanWithin(file.gpuOps, window.first, window.second));
    EXPECT_NEAR(static_cast<double>(ofStep) / 1e6, 31.9, 0.05); // TraceLens's busy time, as the issue quotes it
    EXPECT_GT(whole - ofStep, 13'000'000); // the warm-up the whole trace adds: 13.7 ms

    core::TimelineSelection six;
    six.step = number;
    auto ofSix = core::buildKernelReport(reader, six);
    ASSERT_TRUE(ofSix.ok());
    EXPECT_EQ(ofSix.value().timeline[0].busyNs, ofStep);
    six.step = number + 1;
    auto missing = core::buildKernelReport(reader, six);
    ASSERT_TRUE(missing.hasError());
    EXPECT_NE(missing.error().message.find("its steps: " + std::to_string(number)), std::string::npos);
}

// HTA's ns-resolution trace has host ranges only (ProfilerStep#101..105): they are the windows.
TEST(ProfilerSteps, HostRangesWithoutGpuSideOnes)
{
    const std::string relative = "kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
    const StepsOfTrace file = readSteps(testDataPath(relative));
    ASSERT_TRUE(file.gpu.empty());
    ASSERT_GT(file.host.size(), 1U);
    auto imported = ridgeline::testing::importKinetoTrace(relative);
    ASSERT_TRUE(imported->reader);
    auto steps = core::profilerSteps(*imported->reader);
    ASSERT_TRUE(steps.ok());
    ASSERT_EQ(steps.value().size(), file.host.size());
    for (const auto& step : steps.value()) {
        SCOPED_TRACE(step.number);
        EXPECT_FALSE(step.gpuSide);
        EXPECT_EQ(step.window.startNs, file.host.at(step.number).first);
        EXPECT_EQ(step.window.endNs, file.host.at(step.number).second);
    }
}

TEST(ProfilerSteps, StepNumbersFromRangeNames)
{
    EXPECT_EQ(core::profilerStepNumber("ProfilerStep#6"), 6);
    EXPECT_EQ(core::profilerStepNumber("ProfilerStep#0"), 0);
    EXPECT_FALSE(core::profilerStepNumber("ProfilerStep#"));
    EXPECT_FALSE(core::profilerStepNumber("ProfilerStep#6a"));
    EXPECT_FALSE(core::profilerStepNumber("ProfilerStep#-1"));
    EXPECT_FALSE(core::profilerStepNumber("ProfilerStep#99999999999999999999"));
    EXPECT_FALSE(core::profilerStepNumber("Step#6"));
}
