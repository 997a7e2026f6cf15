// SPDX-License-Identifier: MIT
#include "fatalsignals.h"

#include <array>
#include <atomic>
#include <csignal>

namespace ridgeline::inject {

namespace {

constexpr std::array<int, 7> kSignals { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT };
constexpr int kMaxSignal = 65;

struct sigaction g_previous[kMaxSignal] = {};
FlushFunction g_flush = nullptr;
std::atomic<bool> g_installed { false };

void passOn(int signal, siginfo_t* info, void* context)
{
    const struct sigaction& previous = g_previous[signal];
    if (previous.sa_handler == SIG_IGN)
        return;
    if (previous.sa_handler == SIG_DFL) {
        // Default action: uninstall ourselves and raise again. The signal is blocked while this
        // handler runs, so it is delivered (and ends the process) as soon as the handler returns;
        // a fault re-executes the faulting instruction and dies the same way.
        struct sigaction defaultAction = {};
        defaultAction.sa_handler = SIG_DFL;
        sigemptyset(&defaultAction.sa_mask);
        sigaction(signal, &defaultAction, nullptr);
        raise(signal);
        return;
    }
    if ((previous.sa_flags & SA_SIGINFO) != 0)
        previous.sa_sigaction(signal, info, context);
    else
        previous.sa_handler(signal);
}

void handler(int signal, siginfo_t* info, void* context)
{
    if (signal > 0 && signal < kMaxSignal) {
        if (g_flush && flushesOn(signal, g_previous[signal].sa_handler == SIG_DFL))
            g_flush(signal);
        passOn(signal, info, context);
    }
}

} // namespace

bool flushesOn(int signal, bool previousIsDefault)
{
    if (signal == SIGTERM || signal == SIGINT)
        return previousIsDefault;
    for (const int fatal : kSignals) {
        if (fatal == signal)
            return true;
    }
    return false;
}

void installFatalSignalHandlers(FlushFunction flush)
{
    if (g_installed.exchange(true))
        return;
    g_flush = flush;
    for (const int signal : kSignals) {
        struct sigaction action = {};
        action.sa_sigaction = handler;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(signal, &action, &g_previous[signal]);
    }
}

} // namespace ridgeline::inject
