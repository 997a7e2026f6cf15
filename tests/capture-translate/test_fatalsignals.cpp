// SPDX-License-Identifier: MIT
// The fatal-signal handlers in a child process: they flush, then the target's own handler runs
// (or the default action ends the process with the same signal).
#include "fatalsignals.h"
#include "tempdir.h"

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ridgeline::testing {

namespace {

int g_log = -1;

void logLine(const char* text)
{
    if (g_log >= 0)
        (void)!write(g_log, text, strlen(text));
}

void flush(int /*signal*/)
{
    logLine("flush\n");
}

void targetExits(int /*signal*/)
{
    logLine("target\n");
    _exit(42);
}

void targetContinues(int /*signal*/)
{
    logLine("target\n");
}

std::string contents(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs `body` in a child with the log open; returns the wait status.
template <typename Body> int inChild(const std::string& log, Body body)
{
    const pid_t child = fork();
    if (child == 0) {
        g_log = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        body();
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return status;
}

} // namespace

TEST(FatalSignalHandlers, FlushThenTheTargetsOwnHandler)
{
    TempDir dir;
    const std::string log = dir.file("log");
    const int status = inChild(log, [] {
        signal(SIGABRT, targetExits);
        inject::installFatalSignalHandlers(flush);
        raise(SIGABRT);
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 42);
    EXPECT_EQ(contents(log), "flush\ntarget\n");
}

TEST(FatalSignalHandlers, DefaultActionStillKillsWithTheSameSignal)
{
    TempDir dir;
    const std::string log = dir.file("log");
    const int status = inChild(log, [] {
        // SIGILL: AddressSanitizer (CI's sanitizer run) installs no handler of its own for it.
        inject::installFatalSignalHandlers(flush);
        raise(SIGILL);
        logLine("survived\n");
    });
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGILL);
    EXPECT_EQ(contents(log), "flush\n");
}

TEST(FatalSignalHandlers, HandledTerminationIsOnlyPassedOn)
{
    TempDir dir;
    const std::string log = dir.file("log");
    const int status = inChild(log, [] {
        signal(SIGTERM, targetContinues);
        inject::installFatalSignalHandlers(flush);
        raise(SIGTERM);
        logLine("continued\n");
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(contents(log), "target\ncontinued\n");
}

} // namespace ridgeline::testing
