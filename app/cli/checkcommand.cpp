// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/sessioncheck.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

struct CheckOptions {
    std::string path;
    bool json = false;
};

int runCheck(const CheckOptions& options)
{
    auto check = core::checkSession(options.path);
    if (check.hasError())
        return fail(exitCodeFor(check.error()), check.error().message);
    core::writeSessionCheck(std::cout, check.value(), options.json);
    if (const int written = finishOutput(); written != ExitSuccess)
        return written;
    if (!check.value().problems.empty())
        return fail(
            ExitBadInput, fmt::format("{}: the session is damaged ({})", options.path, check.value().problems.front()));
    return ExitSuccess;
}

} // namespace

Runner addCheckCommand(CLI::App& app)
{
    auto options = std::make_shared<CheckOptions>();
    auto* cmd = app.add_subcommand("check", "Validate a session file and print a summary of it");
    cmd->add_option("FILE", options->path, "Session file (.ridge)")->required();
    cmd->add_flag("--json", options->json, "Print the summary as one JSON object");
    cmd->footer("A damaged or invalid file exits with 2; a partial session (capture or import that did not\n"
                "finish) is valid and reported as such.");
    return [options] { return runCheck(*options); };
}

} // namespace ridgeline::cli
