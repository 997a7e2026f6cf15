// SPDX-License-Identifier: MIT
#include "clirun.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ridgeline::testing {

CliRun::CliRun(const std::vector<std::string>& argv, const RunOptions& options)
    : m_timeout(options.timeoutSeconds)
{
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
        std::abort();
    m_pid = fork();
    if (m_pid == 0) {
        setpgid(0, 0); // its own group: a timeout kills the launcher and everything it started
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        for (const auto& entry : options.env)
            putenv(const_cast<char*>(entry.c_str()));
        if (options.fileSizeLimit) {
            rlimit limit {};
            getrlimit(RLIMIT_FSIZE, &limit);
            limit.rlim_cur = *options.fileSizeLimit;
            setrlimit(RLIMIT_FSIZE, &limit);
        }
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    // Small inputs only: they fit in the pipe buffer before the program reads them.
    if (!options.stdinData.empty())
        (void)!write(in[1], options.stdinData.data(), options.stdinData.size());
    close(in[1]);
    m_out = out[0];
    m_err = err[0];
}

CliRun::~CliRun()
{
    if (!m_waited)
        (void)wait();
}

RunResult CliRun::wait()
{
    m_waited = true;
    RunResult result;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(m_timeout);
    pollfd fds[2] = { { m_out, POLLIN, 0 }, { m_err, POLLIN, 0 } };
    std::string* sinks[2] = { &result.out, &result.err };
    int open = 2;
    char buffer[1 << 16];
    while (open > 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            result.timedOut = true;
            kill(-m_pid, SIGKILL);
            break;
        }
        if (poll(fds, 2, 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            const auto n = read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                sinks[i]->append(buffer, static_cast<std::size_t>(n));
            } else {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& fd : fds) {
        if (fd.fd >= 0)
            close(fd.fd);
    }
    int status = 0;
    waitpid(m_pid, &status, 0);
    result.exitCode = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return result;
}

bool waitForFile(const std::string& path, double seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::error_code ec;
    while (std::chrono::steady_clock::now() < deadline) {
        if (std::filesystem::exists(path, ec))
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

} // namespace ridgeline::testing
