// SPDX-License-Identifier: MIT
// The crash path end to end without a GPU: a program under `ridgeline capture` writes part of its
// records normally and the rest from its fatal-signal handler into the crash file, then dies of
// SIGSEGV or SIGABRT. The launcher must recover the crash file into the session, marked partial,
// with every record from before the crash. Also the crash file reader on bad input.
#include "clirun.h"
#include "crashlog.h"
#include "records.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::testing;

namespace {

struct Session {
    std::map<std::string, std::string> meta;
    std::int64_t kernels = -1;
    std::map<std::string, int> byName;
};

Session read(const std::string& path)
{
    Session s;
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return s;
    s.meta = reader.value().meta().value();
    auto names = reader.value().kernelNames().value();
    std::map<std::int64_t, std::string> nameOf;
    for (const auto& n : names)
        nameOf[n.id] = n.demangled;
    auto kernels = reader.value().kernels().value();
    s.kernels = static_cast<std::int64_t>(kernels.size());
    for (const auto& k : kernels)
        ++s.byName[nameOf[k.nameId]];
    return s;
}

// Captures CRASH_TARGET dying in `mode` ("segv" or "abort") into <mode>.ridge in `dir`, checks that
// the capture exits with 128 + `signal` and that the session is partial, and reads the session.
Session captureCrash(const TempDir& dir, const std::string& mode, int signal)
{
    RunOptions options;
    options.env.push_back("RIDGELINE_LIBCUDA=/nonexistent/libcuda.so.1");
    // Under AddressSanitizer the target must still die of the signal, not of ASan's report.
    const char* asan = std::getenv("ASAN_OPTIONS");
    options.env.push_back(std::string("ASAN_OPTIONS=") + (asan != nullptr ? std::string(asan) + ":" : std::string())
        + "handle_segv=0:handle_abort=0");
    const auto out = dir.file(mode + ".ridge");
    const auto r = runCli({ "capture", "-o", out, "--", CRASH_TARGET, mode, "100", "20" }, options);
    EXPECT_EQ(r.exitCode, 128 + signal) << r.err;
    auto s = read(out);
    EXPECT_EQ(s.meta.at("status"), "partial");
    return s;
}

} // namespace

TEST(CrashPath, SegfaultMidRunKeepsEveryRecordAndIsPartial)
{
    TempDir dir;
    auto s = captureCrash(dir, "segv", SIGSEGV);
    EXPECT_EQ(s.kernels, 120); // 100 written before the crash, 20 from the handler
    EXPECT_EQ(s.byName.at("before(int)"), 100);
    EXPECT_EQ(s.byName.at("after(int)"), 20); // names restored from the crash file's strings
    EXPECT_NE(s.meta["capture.warning"].find("the process died of signal 11; 20 activity records"), std::string::npos)
        << s.meta["capture.warning"];
}

TEST(CrashPath, AbortIsRecoveredTheSameWay)
{
    TempDir dir;
    auto s = captureCrash(dir, "abort", SIGABRT);
    EXPECT_EQ(s.kernels, 120);
    EXPECT_NE(s.meta["capture.warning"].find("died of signal 6"), std::string::npos) << s.meta["capture.warning"];
}

TEST(CrashFile, TruncatedLastFrameIsFlaggedAndBadMagicIsAnError)
{
    TempDir dir;
    const auto path = dir.file("h-1.crash");
    const int fd = inject::openCrashFile(path);
    ASSERT_GE(fd, 0);
    const auto a = kernelRecord(1, "_Z1av", 0, 10);
    const auto b = kernelRecord(2, "_Z1bv", 20, 30);
    ASSERT_TRUE(inject::crashWriteRecord(fd, asActivity(a), sizeof a));
    ASSERT_TRUE(inject::crashWriteRecord(fd, asActivity(b), sizeof b));
    close(fd);
    // Cut into the middle of the second record's string frame.
    ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(std::filesystem::file_size(path) - 3)), 0);
    auto contents = inject::readCrashFile(path);
    ASSERT_TRUE(contents.ok()) << contents.error().message;
    EXPECT_TRUE(contents.value().truncated);
    ASSERT_EQ(contents.value().records.size(), 2u);
    ASSERT_EQ(contents.value().strings[0].size(), 1u);
    EXPECT_EQ(contents.value().strings[0][0].second, "_Z1av");
    EXPECT_TRUE(contents.value().strings[1].empty()); // its name was cut off: the pointer stays cleared
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(contents.value().records[1].data());
    EXPECT_EQ(k->name, nullptr);
    EXPECT_EQ(k->correlationId, 2u);

    std::ofstream(dir.file("bad.crash")) << "not a crash file";
    EXPECT_TRUE(inject::readCrashFile(dir.file("bad.crash")).hasError());
}
