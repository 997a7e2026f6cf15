// SPDX-License-Identifier: MIT
// `report --step N|all` and `export --step N|all` (issue 35), run as a user runs them on a session
// imported from a real PyTorch trace (TraceLens's H100 Qwen trace: ProfilerStep#6 on the host and on
// the GPU). The step window and what overlaps it are worked out here from the trace with zlib +
// nlohmann::json; the timeline figures themselves are checked in tests/unit/test_profilersteps.cpp.
#include "clirun.h"
#include "gunzip.h"
#include "kinetobrute.h"
#include "tempdir.h"
#include "testutil.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

using ridgeline::testing::runCli;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

const std::string kTrace = "kineto/tracelens-qwen-h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";

struct StepFacts {
    std::int64_t start = 0, end = 0; // the GPU-side ProfilerStep#6
    std::int64_t kernels = 0, kernelsInStep = 0;
};

StepFacts factsOf(const std::string& path)
{
    using namespace ridgeline::testing::kineto;
    const auto doc = Json::parse(ridgeline::testing::gunzipFile(path));
    StepFacts f;
    std::vector<std::pair<std::int64_t, std::int64_t>> kernels;
    for (const auto& ev : doc["traceEvents"]) {
        if (!ev.contains("ph") || ev["ph"] != "X" || !ev.contains("cat"))
            continue;
        const auto cat = lower(ev["cat"].get<std::string>());
        const std::int64_t start = toNs(ev["ts"]);
        const std::int64_t end = start + toNs(ev["dur"]);
        if (cat == "gpu_user_annotation" && ev.value("name", "") == "ProfilerStep#6")
            f.start = start, f.end = end;
        if (cat == "kernel")
            kernels.emplace_back(start, end);
    }
    f.kernels = static_cast<std::int64_t>(kernels.size());
    for (const auto& [start, end] : kernels)
        f.kernelsInStep += start <= f.end && end >= f.start ? 1 : 0;
    return f;
}

class CliSteps : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_session = m_dir.file("qwen.ridge");
        const auto imported = runCli({ "import", testDataPath(kTrace), "-o", m_session });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
    }
    TempDir m_dir;
    std::string m_session;
};

} // namespace

TEST_F(CliSteps, ReportSaysWhichWindowItCovers)
{
    const StepFacts f = factsOf(testDataPath(kTrace));
    const auto whole = runCli({ "report", m_session, "-n", "1" });
    ASSERT_EQ(whole.exitCode, 0) << whole.err;
    EXPECT_NE(
        whole.out.find("Timeline of the whole session, warm-up included (profiler step 6: --step N or --step all)"),
        std::string::npos)
        << whole.out;
    const auto six = runCli({ "report", m_session, "-n", "1", "--step", "6" });
    ASSERT_EQ(six.exitCode, 0) << six.err;
    EXPECT_NE(six.out.find(fmt::format("Timeline of profiler step 6 (its GPU-side range {} .. {} ns", f.start, f.end)),
        std::string::npos)
        << six.out;
    const auto all = runCli({ "report", m_session, "-f", "json", "--step", "all" });
    ASSERT_EQ(all.exitCode, 0) << all.err;
    const auto doc = nlohmann::json::parse(all.out);
    ASSERT_EQ(doc["profiler_steps"].size(), 1U);
    const auto& step = doc["profiler_steps"][0];
    EXPECT_EQ(step["step"], 6);
    EXPECT_EQ(step["range"], "gpu");
    EXPECT_EQ(step["start_ns"], f.start);
    EXPECT_EQ(step["end_ns"], f.end);
    ASSERT_EQ(step["timeline"].size(), 1U);
    EXPECT_LT(step["timeline"][0]["busy_ns"].get<std::int64_t>(), doc["timeline"][0]["busy_ns"].get<std::int64_t>());
    EXPECT_TRUE(doc["timeline_window"].is_null()); // the whole session
}

TEST_F(CliSteps, ExportOfAStepHoldsWhatOverlapsIt)
{
    const StepFacts f = factsOf(testDataPath(kTrace));
    ASSERT_LT(f.kernelsInStep, f.kernels);
    const auto trace = m_dir.file("step6.json");
    const auto html = m_dir.file("step6.html");
    const auto exported = runCli({ "export", m_session, "--step", "6", "--perfetto", trace, "--html", html });
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    std::ifstream in(trace);
    const auto doc = nlohmann::json::parse(in);
    std::int64_t kernels = 0;
    for (const auto& ev : doc["traceEvents"])
        kernels += ev.value("cat", "") == "kernel" ? 1 : 0;
    EXPECT_EQ(kernels, f.kernelsInStep);
    std::ifstream page(html);
    const std::string text((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
    EXPECT_NE(
        text.find(fmt::format("Profiler step 6: its GPU-side range, {} .. {} ns", f.start, f.end)), std::string::npos);
}

TEST_F(CliSteps, UnknownStepsAreUsageErrors)
{
    for (const auto& command : { std::vector<std::string> { "report", m_session, "--step", "7" },
             std::vector<std::string> { "export", m_session, "--step", "7", "--html", m_dir.file("x.html") } }) {
        const auto r = runCli(command);
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_NE(r.err.find("has no profiler step 7"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("its steps: 6"), std::string::npos) << r.err;
    }
    const auto bad = runCli({ "report", m_session, "--step", "six" });
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("--step takes a profiler step number"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(m_dir.file("x.html")));
}
