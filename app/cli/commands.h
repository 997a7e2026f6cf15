// SPDX-License-Identifier: MIT
// Each subcommand registers its options on the CLI11 app and returns the function that runs it.
#pragma once

#include "ridgeline/core/timeline/timeline.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Validator;
}

namespace ridgeline::cli {

using Runner = std::function<int()>;

Runner addCaptureCommand(CLI::App& app);
Runner addCeilingsCommand(CLI::App& app);
Runner addCheckCommand(CLI::App& app);
Runner addDevicesCommand(CLI::App& app);
Runner addDiffCommand(CLI::App& app);
Runner addExportCommand(CLI::App& app);
Runner addImportCommand(CLI::App& app);
Runner addMergeCommand(CLI::App& app);
Runner addMetricsCommand(CLI::App& app);
Runner addReportCommand(CLI::App& app);
Runner addSummarizeCommand(CLI::App& app);

// The options of the commands that write the sessions they read into a new session file (import, merge).
struct InputsToSession {
    std::vector<std::string> inputs;
    std::string output;
    bool force = false; // replace the output if it exists
};
// Declares the inputs (FILE..., required) and -o/--output (required) with their help texts.
void addInputsAndOutput(
    CLI::App& cmd, InputsToSession& options, const std::string& inputsHelp, const std::string& outputHelp);
// Inputs must be files: "X: is a directory, not `what`" and ExitBadInput for the first that is not; else none.
std::optional<int> refuseDirectoryInputs(const InputsToSession& options, std::string_view what);
// An output that exists is replaced only with --force: a message and ExitUsage when it is not given; else none.
std::optional<int> refuseExistingOutput(const InputsToSession& options);

// `--step N|all` (report, export): a profiler step number or "all".
CLI::Validator stepValidator();
// The timeline selection of a checked `--step` value (empty: the whole session).
core::TimelineSelection stepSelection(const std::string& step);

// Writes a one-line error for the user on stderr and returns the exit code for it.
int fail(int exitCode, const std::string& message);
// Flushes stdout; a failed write (full disk, closed pipe) becomes ExitOutputFailed.
int finishOutput();

} // namespace ridgeline::cli
