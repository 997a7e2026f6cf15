// SPDX-License-Identifier: MIT
// Runs `ridgeline` (or any program) as a user would: own stdin/stdout/stderr pipes, read to the
// end concurrently (so tens of MB of output cannot deadlock), with a time limit.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ridgeline::testing {

struct RunOptions {
    std::vector<std::string> env; // "KEY=VALUE" set for the program
    std::string stdinData;
    std::optional<unsigned long> fileSizeLimit; // RLIMIT_FSIZE soft limit, bytes
    int timeoutSeconds = 60;
};

struct RunResult {
    int exitCode = -1; // 128 + N when signal N ended it
    std::string out;
    std::string err;
    bool timedOut = false;
};

class CliRun {
public:
    CliRun(const std::vector<std::string>& argv, const RunOptions& options = {});
    ~CliRun();
    CliRun(const CliRun&) = delete;
    CliRun& operator=(const CliRun&) = delete;
    pid_t pid() const { return m_pid; }
    RunResult wait();

private:
    pid_t m_pid = -1;
    int m_out = -1;
    int m_err = -1;
    int m_timeout = 60;
    bool m_waited = false;
};

#ifdef RIDGELINE_CLI // the path of the `ridgeline` binary, defined by the test targets that run it
inline RunResult runCli(const std::vector<std::string>& args, const RunOptions& options = {})
{
    std::vector<std::string> argv { RIDGELINE_CLI };
    argv.insert(argv.end(), args.begin(), args.end());
    return CliRun(argv, options).wait();
}
#endif

// Waits until `path` exists (up to `seconds`).
bool waitForFile(const std::string& path, double seconds = 20);

} // namespace ridgeline::testing
