// SPDX-License-Identifier: MIT
// The program runs in the launcher's process group with its stdin/stdout/stderr (no pipes: any
// amount of output passes without the launcher in the way). The launcher is a child subreaper,
// so descendants the program leaves behind are re-parented to it and can be waited for.
#include "ridgeline/collectors/launch/launcher.h"

#include "descendants.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <set>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ridgeline::collectors {

namespace {

std::int64_t wallNs()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double monotonicSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Blocks the forwarded signals and SIGCHLD for the launcher (they are taken with sigtimedwait);
// the previous mask is restored when the launch ends.
class SignalGuard {
public:
    SignalGuard()
    {
        sigemptyset(&m_set);
        for (int sig : kForwardedSignals)
            sigaddset(&m_set, sig);
        sigaddset(&m_set, SIGCHLD);
        sigprocmask(SIG_BLOCK, &m_set, &m_previous);
    }
    ~SignalGuard() { sigprocmask(SIG_SETMASK, &m_previous, nullptr); }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;
    const sigset_t& waited() const { return m_set; }
    const sigset_t& previous() const { return m_previous; }

private:
    sigset_t m_set {};
    sigset_t m_previous {};
};

std::vector<char*> pointers(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (auto& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

int shellStatus(int status, int& signal)
{
    if (WIFSIGNALED(status)) {
        signal = WTERMSIG(status);
        return 128 + signal;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace

Launcher::Launcher(LaunchRequest request)
    : m_request(std::move(request))
{ }

core::Result<LaunchOutcome> Launcher::run()
{
    if (m_request.argv.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no program to run");
    // Orphans of the program become our children instead of init's.
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    SignalGuard guard;

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &guard.previous());
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGXFSZ); // the launcher ignores it to see EFBIG; the program must not
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    auto argv = m_request.argv;
    auto env = m_request.environment;
    auto argvPointers = pointers(argv);
    auto envPointers = pointers(env);
    LaunchOutcome outcome;
    outcome.startNs = wallNs();
    const int spawned
        = posix_spawnp(&outcome.pid, argv.front().c_str(), nullptr, &attr, argvPointers.data(), envPointers.data());
    posix_spawnattr_destroy(&attr);
    if (spawned != 0) {
        const bool missing = spawned == ENOENT || spawned == ENOTDIR;
        m_startError.exitCode = missing ? 127 : 126;
        m_startError.message = missing ? fmt::format("{}: command not found", argv.front())
                                       : fmt::format("{}: cannot run it ({})", argv.front(), std::strerror(spawned));
        return core::makeError(core::ErrorCode::NotFound, m_startError.message);
    }
    if (m_request.onStarted)
        m_request.onStarted(outcome.pid);

    const std::string partEntry = "RIDGELINE_PART_DIR=" + m_request.partDir;
    const double started = monotonicSeconds();
    double lastTick = started;
    bool programEnded = false;
    std::set<pid_t> adopted; // orphaned descendants reaped after the program ended
    while (true) {
        // Reap every child that has ended.
        bool noChildren = false;
        while (true) {
            int status = 0;
            const pid_t pid = waitpid(-1, &status, WNOHANG);
            if (pid == 0)
                break;
            if (pid < 0) {
                noChildren = errno == ECHILD;
                break;
            }
            if (pid == outcome.pid) {
                outcome.exitCode = shellStatus(status, outcome.signal);
                outcome.endNs = wallNs();
                programEnded = true;
            } else {
                adopted.insert(pid);
            }
        }
        if (noChildren)
            break;
        std::vector<pid_t> waitedFor;
        if (programEnded) {
            // Only descendants that still write parts of this capture keep it open.
            for (pid_t child : detail::childrenOf(getpid())) {
                if (detail::environmentHas(child, partEntry))
                    waitedFor.push_back(child);
            }
            if (waitedFor.empty())
                break;
        }
        timespec timeout { 0, 200'000'000 };
        siginfo_t info {};
        const int sig = sigtimedwait(&guard.waited(), &info, &timeout);
        if (sig > 0 && sig != SIGCHLD) {
            // A terminal's Ctrl-C (SI_KERNEL) reached the whole foreground group, the program too.
            if (info.si_code != SI_KERNEL) {
                if (!programEnded)
                    kill(outcome.pid, sig);
                for (pid_t child : waitedFor)
                    kill(child, sig);
            }
        }
        const double now = monotonicSeconds();
        if (m_request.onTick && now - lastTick >= 1.0) {
            lastTick = now;
            m_request.onTick(now - started);
        }
    }
    outcome.descendantsWaitedFor = static_cast<int>(adopted.size());
    return outcome;
}

} // namespace ridgeline::collectors
