// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/store/sessionmerge.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

struct MergeOptions {
    std::vector<std::string> inputs;
    std::string output;
    bool force = false;
};

int runMerge(const MergeOptions& options)
{
    std::error_code ec;
    for (const auto& input : options.inputs) {
        if (std::filesystem::is_directory(input, ec))
            return fail(ExitBadInput, fmt::format("{}: is a directory, not a session", input));
    }
    if (std::filesystem::exists(options.output, ec) && !options.force)
        return fail(ExitUsage,
            fmt::format("{} already exists (choose another name, or --force to replace it)", options.output));
    auto merged = core::mergeSessions(options.inputs, options.output, options.force);
    if (merged.hasError())
        return fail(exitCodeFor(merged.error()), merged.error().message);
    std::cerr << fmt::format("merged {} sessions into {}", options.inputs.size(), options.output) << '\n';
    return ExitSuccess;
}

} // namespace

Runner addMergeCommand(CLI::App& app)
{
    auto options = std::make_shared<MergeOptions>();
    auto* cmd = app.add_subcommand("merge", "Join the sessions of several ranks or hosts into one");
    cmd->add_option("FILE", options->inputs, "Sessions to merge (.ridge), two or more")->required();
    cmd->add_option("-o,--output", options->output, "Session file to write (.ridge)")->required();
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->footer("Every process keeps its host and rank; devices, processes and kernels are renumbered so that\n"
                "nothing collides. The merged session is complete only when every input is.");
    return [options] { return runMerge(*options); };
}

} // namespace ridgeline::cli
