// SPDX-License-Identifier: MIT
// What goes wrong around a capture: no driver, an output that cannot be written (read-only, full),
// bad options, a program that cannot run. One clear message, the right exit status, no data lost.
#include "capturetest.h"
#include "ridgeline/collectors/launch/partfiles.h"
#include "tempdir.h"

#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kNoDriverSentence
    = "ridgeline: No GPU activity could be recorded: the NVIDIA driver is not installed (/nonexistent/libcuda.so.1: "
      "cannot open shared object file: No such file or directory). The program runs anyway; the session records it "
      "without GPU work.";

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(CaptureNoDriver, SaysSoRunsTheProgramAndKeepsItsStatus)
{
    TempDir dir;
    const auto out = dir.file("nodriver.ridge");
    auto r = capture(out, { "exit", "3" });
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_TRUE(contains(r.err, kNoDriverSentence)) << r.err;
    auto meta = metaOf(out);
    EXPECT_EQ(meta["status"], "complete");
    EXPECT_TRUE(
        meta["capture.error"].starts_with("No GPU activity could be recorded: the NVIDIA driver is not installed"))
        << meta["capture.error"];
    EXPECT_EQ(meta["capture.parts"], "0");
}

TEST(CaptureNoDriver, ThisMachinesOwnDriverLookup)
{
    if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL); lib != nullptr) {
        dlclose(lib);
        GTEST_SKIP() << "this machine has libcuda.so.1";
    }
    TempDir dir;
    std::vector<std::string> args { "capture", "-o", dir.file("own.ridge"), "--", LAUNCH_TARGET, "exit", "0" };
    auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err,
        "ridgeline: No GPU activity could be recorded: the NVIDIA driver is not installed "
        "(libcuda.so.1: cannot open shared object file"))
        << r.err;
}

TEST(CaptureNoDriver, DevicesAndMeasureExitWithFive)
{
    RunOptions options;
    options.env.push_back(kNoDriver);
    auto devices = runCli({ "devices" }, options);
    EXPECT_EQ(devices.exitCode, 5);
    EXPECT_TRUE(contains(devices.err, "ridgeline: no GPU to list: the NVIDIA driver is not installed")) << devices.err;
    EXPECT_TRUE(devices.out.empty());
    auto json = runCli({ "devices", "--json" }, options);
    EXPECT_EQ(json.exitCode, 5);
    auto measure = runCli({ "ceilings", "--measure" }, options);
    EXPECT_EQ(measure.exitCode, 5);
    EXPECT_TRUE(contains(measure.err, "ridgeline: cannot measure ceilings: the NVIDIA driver is not installed"))
        << measure.err;
}

TEST(CaptureOutput, ReadOnlyDirectoryFailsBeforeTheProgramRuns)
{
    TempDir dir;
    const auto readOnly = dir.file("ro");
    fs::create_directory(readOnly);
    // Root writes through permissions: it gets a read-only file system instead.
    bool mounted = false;
    if (geteuid() == 0)
        mounted = mount("tmpfs", readOnly.c_str(), "tmpfs", MS_RDONLY, "size=1m") == 0;
    if (!mounted)
        fs::permissions(readOnly, fs::perms(0555));
    auto r = capture(readOnly + "/s.ridge", { "touch", dir.file("ran") });
    if (mounted)
        umount2(readOnly.c_str(), MNT_DETACH);
    else if (geteuid() == 0)
        GTEST_SKIP() << "running as root without permission to mount a read-only tmpfs";
    EXPECT_EQ(r.exitCode, 3) << r.err;
    const std::string why = mounted ? "Read-only file system" : "Permission denied";
    EXPECT_TRUE(contains(r.err, "ridgeline: cannot write in " + readOnly + " (" + why + "): choose another -o"))
        << r.err;
    EXPECT_FALSE(fs::exists(dir.file("ran"))) << "the program must not run";
    EXPECT_FALSE(fs::exists(readOnly + "/s.ridge.parts"));
}

TEST(CaptureOutput, FullDirectoryFailsBeforeTheProgramRuns)
{
    TempDir dir;
    RunOptions options;
    options.fileSizeLimit = 64 * 1024; // no file may grow past 64 KiB: the space probe fails
    auto r = capture(dir.file("s.ridge"), { "touch", dir.file("ran") }, options);
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_TRUE(contains(r.err, "ridgeline: cannot write in " + dir.path() + " (File too large)")) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("ran")));
    EXPECT_FALSE(fs::exists(dir.file("s.ridge.parts")));
}

TEST(CaptureOutput, PartTooLargeToCopyIsKeptAndNamed)
{
    TempDir dir;
    const auto out = dir.file("s.ridge");
    RunOptions options;
    options.fileSizeLimit = 1024 * 1024; // the launcher cannot copy a part above 1 MiB
    auto r = capture(out, { "part", "30000", "finish" }, options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "could not be read")) << r.err;
    EXPECT_TRUE(contains(r.err, "it is kept")) << r.err;
    const auto parts = collectors::listPartFiles(out + ".parts");
    ASSERT_EQ(parts.size(), 1u);
    EXPECT_EQ(kernelsOf(parts[0]), 30000); // nothing lost
    EXPECT_EQ(metaOf(out)["status"], "partial");
}

class FullDisk : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (geteuid() != 0)
            GTEST_SKIP() << "mounting a small tmpfs needs root";
        m_mount = m_dir.file("fs");
        fs::create_directory(m_mount);
        if (mount("tmpfs", m_mount.c_str(), "tmpfs", 0, "size=4m") != 0)
            GTEST_SKIP() << "cannot mount a tmpfs here";
        m_mounted = true;
    }
    void TearDown() override
    {
        if (m_mounted)
            umount2(m_mount.c_str(), MNT_DETACH);
    }
    TempDir m_dir;
    std::string m_mount;
    bool m_mounted = false;
};

TEST_F(FullDisk, DiskFilledDuringTheCaptureKeepsThePartsAndSaysWhere)
{
    const auto out = m_mount + "/s.ridge";
    auto r = capture(out, { "fill-disk", "500", m_mount + "/filler" });
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_TRUE(contains(r.err, "the captured data is kept in " + out + ".parts")) << r.err;
    EXPECT_FALSE(fs::exists(out));
    // Nothing lost: the part is whole once there is room again.
    const auto parts = collectors::listPartFiles(out + ".parts");
    ASSERT_EQ(parts.size(), 1u);
    fs::remove(m_mount + "/filler");
    EXPECT_EQ(kernelsOf(parts[0]), 500);
}

TEST(CaptureOutput, ExistingOutputNeedsForce)
{
    TempDir dir;
    const auto out = dir.file("s.ridge");
    {
        std::ofstream(out) << "keep me";
    }
    auto r = capture(out, { "touch", dir.file("ran") });
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "already exists (choose another name, or --force to replace it)")) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("ran")));
    auto forced = capture(out, { "exit", "0" }, {}, { "--force" });
    EXPECT_EQ(forced.exitCode, 0) << forced.err;
    EXPECT_EQ(metaOf(out)["source"], "capture");
}

TEST(CaptureOutput, LeftoverPartsOfAnEarlierCaptureAreNeverOverwritten)
{
    TempDir dir;
    const auto out = dir.file("s.ridge");
    fs::create_directory(out + ".parts");
    {
        std::ofstream(out + ".parts/old.part.ridge") << "earlier data";
    }
    auto r = capture(out, { "touch", dir.file("ran") });
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_TRUE(contains(r.err, "part files of an earlier capture that were not merged")) << r.err;
    EXPECT_TRUE(fs::exists(out + ".parts/old.part.ridge"));
    EXPECT_FALSE(fs::exists(dir.file("ran")));
}

TEST(CaptureProgram, NotFoundIs127AndNotExecutableIs126)
{
    TempDir dir;
    RunOptions options;
    options.env.push_back(kNoDriver);
    auto missing = runCli({ "capture", "-o", dir.file("a.ridge"), "--", "/nonexistent/program" }, options);
    EXPECT_EQ(missing.exitCode, 127);
    EXPECT_TRUE(contains(missing.err, "ridgeline: /nonexistent/program: command not found")) << missing.err;
    EXPECT_FALSE(fs::exists(dir.file("a.ridge.parts")));
    {
        std::ofstream(dir.file("script")) << "#!/bin/sh\nexit 0\n";
    }
    fs::permissions(dir.file("script"), fs::perms(0644));
    auto denied = runCli({ "capture", "-o", dir.file("b.ridge"), "--", dir.file("script") }, options);
    EXPECT_EQ(denied.exitCode, 126) << denied.err;
}

TEST(CaptureRequest, BadOptionsAreUsageErrorsBeforeAnythingRuns)
{
    TempDir dir;
    const std::vector<std::vector<std::string>> cases {
        { "--metrics", "dram bytes" },
        { "--kernel-regex", "(" },
        { "--launch-count", "0" },
        { "--launch-skip", "-1" },
        { "-o", dir.file("x-%q{RIDGELINE_SURELY_UNSET_VARIABLE}.ridge") },
    };
    for (const auto& flags : cases) {
        std::vector<std::string> args { "capture" };
        if (flags[0] != "-o") {
            args.push_back("-o");
            args.push_back(dir.file("s.ridge"));
        }
        args.insert(args.end(), flags.begin(), flags.end());
        args.push_back("--");
        args.push_back(LAUNCH_TARGET);
        args.push_back("touch");
        args.push_back(dir.file("ran"));
        auto r = runCli(args);
        EXPECT_EQ(r.exitCode, 1) << flags[0] << ": " << r.err;
        EXPECT_TRUE(contains(r.err, "ridgeline: ")) << r.err;
    }
    EXPECT_FALSE(fs::exists(dir.file("ran")));
    auto none = runCli({ "capture", "-o", dir.file("s.ridge") });
    EXPECT_EQ(none.exitCode, 1);
}

// The stand-in driver (fakecuda.cpp) claims one H100 and the CUDA version given to it.
TEST(CaptureOldDriver, RunsTheProgramUntracedAndSaysWhatToInstall)
{
    TempDir dir;
    const auto out = dir.file("old.ridge");
    const auto seen = dir.file("seen");
    RunOptions options;
    options.env = { std::string("RIDGELINE_LIBCUDA=") + FAKE_LIBCUDA, "RIDGELINE_FAKE_CUDA_VERSION=12040" };
    auto r = runCli({ "capture", "-o", out, "--", "/bin/sh", "-c",
                        "echo \"${CUDA_INJECTION64_PATH-unset}\" > '" + seen + "'; exit 4" },
        options);
    const std::string sentence = "The NVIDIA driver supports CUDA 12.4, but Ridgeline's CUPTI (CUDA 13.0) needs a "
                                 "driver for CUDA 13.0 or later: install NVIDIA driver 580.65.06 or newer.";
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_TRUE(contains(r.err, "ridgeline: " + sentence + " The program runs anyway")) << r.err;
    std::ifstream in(seen);
    std::string injected;
    std::getline(in, injected);
    EXPECT_EQ(injected, "unset"); // the old driver never loads the injection library
    auto meta = metaOf(out);
    EXPECT_EQ(meta["capture.error"], sentence);
}

TEST(CaptureOldDriver, DevicesWarnsAndMeasureRefuses)
{
    RunOptions options;
    options.env = { std::string("RIDGELINE_LIBCUDA=") + FAKE_LIBCUDA, "RIDGELINE_FAKE_CUDA_VERSION=12080" };
    auto devices = runCli({ "devices" }, options);
    EXPECT_EQ(devices.exitCode, 0) << devices.err;
    EXPECT_TRUE(contains(devices.out, "NVIDIA H100 80GB HBM3")) << devices.out;
    EXPECT_TRUE(contains(devices.err, "ridgeline: warning: The NVIDIA driver supports CUDA 12.8")) << devices.err;
    auto measure = runCli({ "ceilings", "--measure" }, options);
    EXPECT_EQ(measure.exitCode, 5);
    EXPECT_TRUE(contains(measure.err, "ridgeline: cannot measure ceilings: The NVIDIA driver supports CUDA 12.8"))
        << measure.err;
    options.env.back() = "RIDGELINE_FAKE_CUDA_VERSION=13000";
    auto current = runCli({ "devices" }, options);
    EXPECT_EQ(current.exitCode, 0);
    EXPECT_FALSE(contains(current.err, "driver supports")) << current.err;
}
