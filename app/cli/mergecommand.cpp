// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/store/sessionmerge.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

int runMerge(const InputsToSession& options)
{
    if (auto refused = refuseDirectoryInputs(options, "a session"))
        return *refused;
    if (auto refused = refuseExistingOutput(options))
        return *refused;
    auto merged = core::mergeSessions(options.inputs, options.output, options.force);
    if (merged.hasError())
        return fail(exitCodeFor(merged.error()), merged.error().message);
    std::cerr << fmt::format("merged {} sessions into {}", options.inputs.size(), options.output) << '\n';
    // As an import does: a large session keeps its timeline analysis; without it reports scan.
    if (auto stored = core::storeTimelineSummariesIfLarge(options.output); stored.hasError())
        std::cerr << fmt::format("ridgeline: warning: the timeline analysis was not stored in {} ({})", options.output,
            stored.error().message)
                  << '\n';
    return ExitSuccess;
}

} // namespace

Runner addMergeCommand(CLI::App& app)
{
    auto options = std::make_shared<InputsToSession>();
    auto* cmd = app.add_subcommand("merge", "Join the sessions of several ranks or hosts into one");
    addInputsAndOutput(*cmd, *options, "Sessions to merge (.ridge), two or more", "Session file to write (.ridge)");
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->footer("Every process keeps its host and rank; devices, processes and kernels are renumbered so that\n"
                "nothing collides. The merged session is complete only when every input is.");
    return [options] { return runMerge(*options); };
}

} // namespace ridgeline::cli
