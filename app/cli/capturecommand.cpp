// SPDX-License-Identifier: MIT
// `ridgeline capture -- PROGRAM ARGS…`: its options, wired to collectors::runCapture
// (collectors/launch/capturerun.cpp, docs/CAPTURE.md). The exit status is the program's.
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/launch/capturerun.h"
#ifdef RIDGELINE_HAVE_CAPTURE
#include "crashlog.h"
#endif

#include <CLI/CLI.hpp>
#include <memory>

namespace ridgeline::cli {

Runner addCaptureCommand(CLI::App& app)
{
    auto request = std::make_shared<collectors::CaptureRequest>();
#ifdef RIDGELINE_HAVE_CAPTURE
    request->recoverCrash = inject::recoverCrashPart;
#endif
    auto* cmd = app.add_subcommand("capture", "Run a CUDA program under Ridgeline's collector and write a session");
    cmd->add_option("-o,--output", request->output,
           "Session file; %h host, %p ridgeline's pid, %q{VAR} environment variable, %% a literal %")
        ->capture_default_str();
    cmd->add_option("--metrics", request->metrics,
           "Per-kernel counters: roofline, full, none (trace only), or comma-separated metric names")
        ->capture_default_str();
    cmd->add_option("--kernel-regex", request->kernelRegex, "Count only kernels whose name matches (ECMAScript)");
    cmd->add_option("--launch-skip", request->launchSkip, "Skip the first N matching launches")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--launch-count", request->launchCount, "Count at most N launches")->check(CLI::PositiveNumber);
    cmd->add_option("--nvtx-range", request->nvtxRange, "Count only kernels inside this NVTX range");
    cmd->add_flag("--progress", request->progress, "Print machine-readable progress lines on stderr");
    cmd->add_flag("--force", request->force, "Replace the output file if it exists");
    cmd->add_option("PROGRAM", request->command, "The program and its arguments, after --")->required();
    cmd->footer("The exit status is the program's (128+N when signal N ended it); 126/127 when it cannot be run;\n"
                "1 bad options, 3 the session could not be written (the part files are kept), 4 incomplete\n"
                "installation. See docs/CAPTURE.md.");
    return [request] {
        return collectors::runCapture(*request, { .usage = ExitUsage, .outputFailed = ExitOutputFailed,
                                                    .internal = ExitInternal });
    };
}

} // namespace ridgeline::cli
