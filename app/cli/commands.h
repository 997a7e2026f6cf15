// SPDX-License-Identifier: MIT
// Each subcommand registers its options on the CLI11 app and returns the function that runs it.
#pragma once

#include <functional>
#include <string>

namespace CLI {
class App;
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

// Writes a one-line error for the user on stderr and returns the exit code for it.
int fail(int exitCode, const std::string& message);
// Flushes stdout; a failed write (full disk, closed pipe) becomes ExitOutputFailed.
int finishOutput();

} // namespace ridgeline::cli
