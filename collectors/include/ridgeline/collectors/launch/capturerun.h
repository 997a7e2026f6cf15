// SPDX-License-Identifier: MIT
// `ridgeline capture -- PROGRAM ARGS…` (docs/CAPTURE.md): checks the request and the output,
// finds the injection library and CUPTI, runs the program under the launcher, assembles its part
// files into one session and reports progress (ridgeline/core/output/progressprotocol.h). The
// command line only fills a CaptureRequest and returns the status runCapture gives.
#pragma once

#include "ridgeline/collectors/launch/outputpattern.h"
#include "ridgeline/core/base/result.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::collectors {

// What `ridgeline capture` was asked to do: its command-line options.
struct CaptureRequest {
    std::string output = kDefaultOutputPattern; // -o: %h host, %p pid, %q{VAR} (outputpattern.h)
    std::string metrics = "roofline"; // roofline | full | none | comma-separated metric names
    std::optional<std::string> kernelRegex;
    std::optional<long long> launchSkip;
    std::optional<long long> launchCount;
    std::optional<std::string> nvtxRange;
    bool progress = false; // progress lines on stderr
    bool force = false; // replace an existing output
    std::vector<std::string> command; // the program and its arguments
    // Turns a crash file of a part into a part file of its own (collectors/cupti/crashlog.h,
    // recoverCrashPart); empty where the build has no CUPTI headers: crash files are then kept.
    std::function<core::Status(const std::string& crashPath)> recoverCrash;
};

// The exit statuses of a capture that could not run the program or write its session, in the
// caller's numbering (`ridgeline`'s stable exit codes, app/cli/exitcodes.h).
struct CaptureExitCodes {
    int usage = 1; // a bad request, or the program could not be started
    int outputFailed = 3; // the session could not be written (the part files are kept)
    int internal = 4; // an incomplete installation (no injection library)
};

// Runs the capture; messages go to stderr as "ridgeline: …" lines. Returns the program's exit
// status (128+N when signal N ended it; 126/127 when it could not be run), or one of `codes`.
int runCapture(const CaptureRequest& request, const CaptureExitCodes& codes);

} // namespace ridgeline::collectors
