// SPDX-License-Identifier: MIT
// `ridgeline import` of Nsight Compute reports (.ncu-rep), run as a user runs it: a user with
// only reports (no ncu, no CSV export) gets a session, and a broken report exits with 2.
#include "clirun.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

using ridgeline::testing::readBytes;
using ridgeline::testing::runCli;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;
using ridgeline::testing::writeBytes;

namespace {

std::string report(int n)
{
    return testDataPath("ncu/nersc-gpp/output" + std::to_string(n) + ".ncu-rep");
}

TEST(CliNcuRep, ImportThenReportListsTheKernel)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    const auto imported = runCli({ "import", report(1), "-o", session });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_TRUE(imported.out.empty()) << imported.out;
    // 2 results of 331 stored metrics each (tests/unit/test_ncurepimport.cpp works out the 331).
    EXPECT_NE(imported.err.find("imported 2 kernels with 662 metrics from " + report(1) + " into " + session),
        std::string::npos)
        << imported.err;

    const auto table = runCli({ "report", session });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("sigma_gpp_gpu_34"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("30.492 s"), std::string::npos) << table.out; // gpu__time_duration.sum 30492203776 ns

    const auto check = runCli({ "check", session });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("import:ncu-rep"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("integrity:     ok"), std::string::npos) << check.out;
}

TEST(CliNcuRep, OnlyReportsMakeOneSession)
{
    TempDir dir;
    const auto session = dir.file("all.ridge");
    const auto imported = runCli({ "import", report(0), report(1), report(2), "-o", session });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_NE(imported.err.find("imported 6 kernels"), std::string::npos) << imported.err;
    const auto check = runCli({ "check", session });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("6 launches"), std::string::npos) << check.out;
}

TEST(CliNcuRep, ABrokenReportExitsWithTwoAndOneLine)
{
    TempDir dir;
    const auto real = readBytes(report(1));
    const auto truncated = dir.file("truncated.ncu-rep");
    writeBytes(truncated, real.substr(0, real.size() / 2));
    const auto out = dir.file("never.ridge");
    const auto r = runCli({ "import", truncated, "-o", out });
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(truncated), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));

    // A 2 GiB length field right after the file header (bytes 4..9: length 2, version 7).
    auto hostile = real.substr(0, 10) + std::string("\x00\x00\x00\x80", 4) + real.substr(14);
    const auto huge = dir.file("huge.ncu-rep");
    writeBytes(huge, hostile);
    const auto h = runCli({ "import", huge, "-o", out });
    EXPECT_EQ(h.exitCode, 2) << h.err;
    EXPECT_NE(h.err.find("runs past the end of the file"), std::string::npos) << h.err;
}

} // namespace
