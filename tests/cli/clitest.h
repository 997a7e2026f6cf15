// SPDX-License-Identifier: MIT
// The fixture of the CLI tests (test_cli*.cpp): runs the built `ridgeline` binary as a user would,
// on a small synthetic session, and checks exit codes, messages and outputs.
#pragma once

#include "clirun.h"
#include "fixtures.h"
#include "testutil.h"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <initializer_list>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace ridgeline::testing {

inline std::string quote(const std::string& arg)
{
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_fixture = m_dir.file("small.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_fixture).ok());
    }

    RunResult run(const std::vector<std::string>& args, const std::string& stdoutTarget = {})
    {
        std::string command = quote(RIDGELINE_CLI);
        for (const auto& arg : args)
            command += " " + quote(arg);
        const auto outFile = m_dir.file("stdout.txt");
        const auto errFile = m_dir.file("stderr.txt");
        command += " >" + quote(stdoutTarget.empty() ? outFile : stdoutTarget) + " 2>" + quote(errFile) + " </dev/null";
        const int status = std::system(command.c_str());
        RunResult result;
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        result.out = stdoutTarget.empty() ? readBytes(outFile) : std::string();
        result.err = readBytes(errFile);
        return result;
    }

    // `ridgeline import INPUT -o OUT` succeeds: exit 0, nothing on stdout; `err` gets its stderr.
    ::testing::AssertionResult imports(const std::string& input, const std::string& out, std::string& err)
    {
        const auto r = run({ "import", input, "-o", out });
        err = r.err;
        if (r.exitCode != 0)
            return ::testing::AssertionFailure() << "exit " << r.exitCode << ": " << r.err;
        if (!r.out.empty())
            return ::testing::AssertionFailure() << "stdout: " << r.out;
        return ::testing::AssertionSuccess();
    }

    // `ridgeline ARGS` exits 0 and its stdout holds each of `words`.
    void expectOutputHolds(const std::vector<std::string>& args, std::initializer_list<const char*> words)
    {
        const auto r = run(args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        for (const char* w : words)
            EXPECT_NE(r.out.find(w), std::string::npos) << w << " not in:\n" << r.out;
    }

    // Bad input: exit 2, nothing on stdout, exactly one line on stderr that names the file.
    void expectBadInput(const std::vector<std::string>& args, const std::string& path, const std::string& words)
    {
        const auto r = run(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        ASSERT_FALSE(r.err.empty());
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    }

    TempDir m_dir;
    std::string m_fixture;
};

} // namespace ridgeline::testing

using ridgeline::testing::Cli;
using ridgeline::testing::readBytes;
using ridgeline::testing::RunResult;
using ridgeline::testing::TempDir;
using ridgeline::testing::writeBytes;
