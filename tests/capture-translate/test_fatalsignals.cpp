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
#include <string>
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

struct ChildRun {
    int status = 0; // as waitpid gives it
    std::string log; // what the handlers and the body logged
};

// Runs `body` in a child with a new log open.
template <typename Body> ChildRun inChild(Body body)
{
    TempDir dir;
    const std::string log = dir.file("log");
    const pid_t child = fork();
    if (child == 0) {
        g_log = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        body();
        _exit(0);
    }
    ChildRun run;
    waitpid(child, &run.status, 0);
    run.log = contents(log);
    return run;
}

::testing::AssertionResult exitedWith(const ChildRun& run, int code)
{
    if (!WIFEXITED(run.status))
        return ::testing::AssertionFailure() << "the child did not exit (wait status " << run.status << ")";
    if (WEXITSTATUS(run.status) != code)
        return ::testing::AssertionFailure() << "the child exited with " << WEXITSTATUS(run.status);
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult killedBy(const ChildRun& run, int signal)
{
    if (!WIFSIGNALED(run.status))
        return ::testing::AssertionFailure() << "no signal ended the child (wait status " << run.status << ")";
    if (WTERMSIG(run.status) != signal)
        return ::testing::AssertionFailure() << "signal " << WTERMSIG(run.status) << " ended the child";
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(FatalSignalHandlers, FlushThenTheTargetsOwnHandler)
{
    const auto child = inChild([] {
        signal(SIGABRT, targetExits);
        inject::installFatalSignalHandlers(flush);
        raise(SIGABRT);
    });
    EXPECT_TRUE(exitedWith(child, 42));
    EXPECT_EQ(child.log, "flush\ntarget\n");
}

TEST(FatalSignalHandlers, DefaultActionStillKillsWithTheSameSignal)
{
    const auto child = inChild([] {
        // SIGILL: AddressSanitizer (CI's sanitizer run) installs no handler of its own for it.
        inject::installFatalSignalHandlers(flush);
        raise(SIGILL);
        logLine("survived\n");
    });
    EXPECT_TRUE(killedBy(child, SIGILL));
    EXPECT_EQ(child.log, "flush\n");
}

TEST(FatalSignalHandlers, HandledTerminationIsOnlyPassedOn)
{
    const auto child = inChild([] {
        signal(SIGTERM, targetContinues);
        inject::installFatalSignalHandlers(flush);
        raise(SIGTERM);
        logLine("continued\n");
    });
    EXPECT_TRUE(exitedWith(child, 0));
    EXPECT_EQ(child.log, "target\ncontinued\n");
}

} // namespace ridgeline::testing
