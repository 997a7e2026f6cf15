// SPDX-License-Identifier: MIT
// Flush on fatal signals without taking the target's own handling away: a handler for SIGSEGV,
// SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM and SIGINT runs `flush` once, then hands the signal to
// whatever handler the target had installed before (or re-raises it with the default action, so
// the process still dies by that signal and its exit status says so).
#pragma once

namespace ridgeline::inject {

using FlushFunction = void (*)(int signal);

// Installs the handlers (once). SIGTERM and SIGINT flush only when their action was the default
// one (the process is about to die); when the target handles or ignores them, they are only passed
// on: the program decides whether it ends (and then the part is flushed at exit).
void installFatalSignalHandlers(FlushFunction flush);

// Whether the handlers flush on `signal`, given whether its previous action was SIG_DFL.
bool flushesOn(int signal, bool previousIsDefault);

} // namespace ridgeline::inject
