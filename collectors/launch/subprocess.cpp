// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/subprocess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ridgeline::collectors {

core::Result<ProgramOutput> runProgram(const std::vector<std::string>& argv)
{
    if (argv.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no program to run");
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return core::makeError(core::ErrorCode::Internal, fmt::format("pipe: {}", std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::vector<std::string> args = argv;
    std::vector<char*> pointers;
    for (auto& a : args)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args.front().c_str(), &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (spawned != 0) {
        ::close(fds[0]);
        return core::makeError(
            core::ErrorCode::NotFound, fmt::format("cannot run {}: {}", args.front(), std::strerror(spawned)));
    }
    ProgramOutput out;
    char buffer[65536];
    while (true) {
        const auto n = ::read(fds[0], buffer, sizeof(buffer));
        if (n > 0)
            out.standardOutput.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    ::close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    out.exitCode = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return out;
}

} // namespace ridgeline::collectors
