// SPDX-License-Identifier: MIT
// `ridgeline capture` with ordinary programs: exit statuses, signals, children, stdio.
#include "capturetest.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::testing;
namespace fs = std::filesystem;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

TEST(Capture, ExitCodePassesThroughAndTheProgramIsRecorded)
{
    TempDir dir;
    const auto out = dir.file("s.ridge");
    auto r = capture(out, { "exit", "7" });
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 7) << r.err;
    auto meta = metaOf(out);
    EXPECT_EQ(meta["status"], "complete");
    EXPECT_EQ(meta["source"], "capture");
    EXPECT_EQ(meta["capture.exit_status"], "7");
    EXPECT_NE(meta["capture_command"].find("launch_target exit 7"), std::string::npos);
    auto reader = core::SessionReader::open(out);
    ASSERT_TRUE(reader.ok());
    auto processes = reader.value().processes().value();
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].exitStatus, 7);
    EXPECT_GT(processes[0].endNs, processes[0].startNs);
    EXPECT_FALSE(fs::exists(out + ".parts"));
}

TEST(Capture, ZeroExitIsZero)
{
    TempDir dir;
    auto r = capture(dir.file("z.ridge"), { "exit", "0" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(Capture, CrashBySignalIs128PlusNAndPartial)
{
    TempDir dir;
    const auto out = dir.file("crash.ridge");
    auto r = capture(out, { "part", "250", "crash" });
    EXPECT_EQ(r.exitCode, 128 + SIGSEGV) << r.err;
    auto meta = metaOf(out);
    EXPECT_EQ(meta["status"], "partial");
    EXPECT_EQ(kernelsOf(out), 250); // every committed batch of the crashed process
    EXPECT_NE(r.err.find("signal 11"), std::string::npos) << r.err;
}

TEST(Capture, TargetKilledWithSigkill)
{
    TempDir dir;
    const auto out = dir.file("killed.ridge");
    const auto pidFile = dir.file("pid");
    std::vector<std::string> args { RIDGELINE_CLI, "capture", "-o", out, "--", LAUNCH_TARGET, "part", "40", "hang",
        pidFile };
    RunOptions options;
    options.env.push_back(kNoDriver);
    CliRun run(args, options);
    ASSERT_TRUE(waitForFile(pidFile));
    usleep(50'000);
    const pid_t target = std::stoi(readFile(pidFile));
    ASSERT_EQ(kill(target, SIGKILL), 0);
    auto r = run.wait();
    EXPECT_EQ(r.exitCode, 128 + SIGKILL) << r.err;
    EXPECT_EQ(metaOf(out)["status"], "partial");
    EXPECT_EQ(kernelsOf(out), 40);
}

TEST(Capture, SigtermToTheLauncherReachesTheProgram)
{
    TempDir dir;
    const auto out = dir.file("term.ridge");
    std::vector<std::string> args { RIDGELINE_CLI, "capture", "-o", out, "--", LAUNCH_TARGET, "wait-signal",
        dir.file("ready"), dir.file("done") };
    RunOptions options;
    options.env.push_back(kNoDriver);
    CliRun run(args, options);
    ASSERT_TRUE(waitForFile(dir.file("ready")));
    ASSERT_EQ(kill(run.pid(), SIGTERM), 0); // the launcher, not the program
    auto r = run.wait();
    EXPECT_EQ(r.exitCode, 42) << r.err; // the program's handler saw SIGTERM and exited 42
    EXPECT_EQ(readFile(dir.file("done")), "signal 15");
    EXPECT_TRUE(fs::exists(out)); // the launcher survived to write the session
}

TEST(Capture, WaitsForChildrenThatOutliveTheProgram)
{
    TempDir dir;
    const auto out = dir.file("fork.ridge");
    auto r = capture(out, { "fork-parts", "20", dir.file("child-done") });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    // The parent exited at once; the child wrote its part a second later, before the merge.
    EXPECT_TRUE(fs::exists(dir.file("child-done")));
    EXPECT_EQ(kernelsOf(out), 40);
    auto reader = core::SessionReader::open(out);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().processes().value().size(), 2u);
    EXPECT_EQ(metaOf(out)["status"], "complete");
    EXPECT_EQ(metaOf(out)["capture.parts"], "2");
}

TEST(Capture, TensOfMegabytesOfOutputPassThrough)
{
    TempDir dir;
    auto r = capture(dir.file("big.ridge"), { "spew", "48" });
    ASSERT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.size(), std::size_t { 48 } << 20);
}

TEST(Capture, StdinPassesThrough)
{
    TempDir dir;
    RunOptions options;
    options.stdinData = "hello from stdin\nsecond line\n";
    auto r = capture(dir.file("in.ridge"), { "cat" }, options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, options.stdinData);
}

TEST(Capture, ProgressLinesFollowTheContract)
{
    TempDir dir;
    const auto out = dir.file("p.ridge");
    auto r = capture(out, { "part", "12", "finish" }, {}, { "--progress" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find(R"(ridgeline-progress: {"event":"started",)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(R"(ridgeline-progress: {"event":"merging","parts":1})"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(R"("event":"finished","exit_code":0,"kernels":12,"memops":0,"output":")" + out
                  + R"(","status":"complete"})"),
        std::string::npos)
        << r.err;
}

TEST(Capture, PartErrorSentenceIsPrinted)
{
    TempDir dir;
    const auto out = dir.file("e.ridge");
    auto r = capture(out, { "part-error", "3" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("ridgeline: Counters are restricted to admin users on this machine."), std::string::npos)
        << r.err;
    EXPECT_NE(metaOf(out)["capture.error"].find("Counters are restricted"), std::string::npos);
}

TEST(Capture, OutputPatternIsExpanded)
{
    TempDir dir;
    RunOptions options;
    options.env.push_back("RIDGELINE_TEST_RANK=5");
    auto r = capture(dir.file("rank-%q{RIDGELINE_TEST_RANK}-%%.ridge"), { "exit", "0" }, options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir.file("rank-5-%.ridge"))) << r.err;
}

// An srun task without a GPU (issue 37): the program runs, and the session names the task's rank,
// host and job, and why no GPU activity was recorded.
TEST(Capture, SlurmTaskWithoutAGpuWritesItsRankJobAndWhy)
{
    TempDir dir;
    RunOptions options;
    options.env = { "SLURM_PROCID=2", "SLURM_NODEID=0", "SLURM_JOB_ID=77", "SLURM_STEP_ID=1" };
    auto r = capture(dir.file("run-%q{SLURM_PROCID}.ridge"), { "exit", "0" }, options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto out = dir.file("run-2.ridge");
    ASSERT_TRUE(fs::exists(out)) << r.err;
    auto meta = metaOf(out);
    EXPECT_EQ(meta["slurm.procid"], "2");
    EXPECT_EQ(meta["slurm.job_id"], "77");
    EXPECT_EQ(meta["slurm.step_id"], "1");
    EXPECT_FALSE(meta["host"].empty());
    EXPECT_NE(meta["capture.error"].find("No GPU activity could be recorded: "), std::string::npos)
        << meta["capture.error"];
    auto reader = core::SessionReader::open(out);
    ASSERT_TRUE(reader.ok());
    auto processes = reader.value().processes().value();
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].rank, 2);
}

TEST(Capture, AMalformedSlurmRankIsAClearErrorAndNothingRuns)
{
    TempDir dir;
    RunOptions options;
    options.env = { "SLURM_PROCID=two" };
    auto r = capture(dir.file("bad.ridge"), { "touch", dir.file("ran") }, options);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("ridgeline: SLURM_PROCID=\"two\" is not a Slurm task or node number"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir.file("bad.ridge")));
    EXPECT_FALSE(fs::exists(dir.file("bad.ridge.parts")));
    EXPECT_FALSE(fs::exists(dir.file("ran")));
}
