// SPDX-License-Identifier: MIT
// Runs the program to capture: the caller's stdin/stdout/stderr, forwarded signals, and a wait
// for the program and every descendant of it that writes into the capture's part directory.
#pragma once

#include "ridgeline/core/base/result.h"

#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ridgeline::collectors {

// Signals a user sends the launcher that go on to the program.
inline constexpr int kForwardedSignals[] = { SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGTERM };

struct LaunchRequest {
    std::vector<std::string> argv; // the program (looked up in PATH) and its arguments
    std::vector<std::string> environment; // "KEY=VALUE", the program's whole environment
    // Descendants left behind by the program are waited for only while their environment
    // carries RIDGELINE_PART_DIR=partDir (they still write part files); others are left running.
    std::string partDir;
    std::function<void(pid_t pid)> onStarted;
    // Called about once a second while the program or its descendants run.
    std::function<void(double seconds)> onTick;
};

struct LaunchOutcome {
    pid_t pid = 0;
    int exitCode = 0; // the status a shell reports: the exit code, or 128 + the signal number
    int signal = 0; // the signal that ended the program, 0 when it exited
    std::int64_t startNs = 0; // wall clock (CLOCK_REALTIME), ns
    std::int64_t endNs = 0;
    int descendantsWaitedFor = 0; // orphaned descendants reaped after the program ended
};

// A program that cannot be started is an error whose message says why; `startFailureExitCode`
// then gives what a shell would return (127 not found, 126 not executable).
struct LaunchError {
    std::string message;
    int exitCode = 127;
};

class Launcher {
public:
    explicit Launcher(LaunchRequest request);
    // Blocks until the program and the descendants described above have ended.
    core::Result<LaunchOutcome> run();
    // Set when run() failed to start the program.
    const LaunchError& startError() const { return m_startError; }

private:
    LaunchRequest m_request;
    LaunchError m_startError;
};

} // namespace ridgeline::collectors
