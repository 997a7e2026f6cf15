// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/store/sessioncheck.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

struct CheckOptions {
    std::string path;
    bool json = false;
    bool strict = false;
};

int runCheck(const CheckOptions& options)
{
    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto check = core::checkSession(reader.value());
    if (check.hasError())
        return fail(exitCodeFor(check.error()), check.error().message);
    if (check.value().problems.empty()) { // the stored timeline analysis against a scan (analysis layer)
        auto stale = core::checkStoredTimeline(reader.value());
        if (stale.hasError())
            return fail(exitCodeFor(stale.error()), stale.error().message);
        auto& warnings = check.value().warnings;
        warnings.insert(warnings.end(), stale.value().begin(), stale.value().end());
    }
    core::writeSessionCheck(std::cout, check.value(), options.json);
    if (const int written = finishOutput(); written != ExitSuccess)
        return written;
    if (!check.value().problems.empty())
        return fail(
            ExitBadInput, fmt::format("{}: the session is damaged ({})", options.path, check.value().problems.front()));
    if (const auto& warnings = check.value().warnings; !warnings.empty()) {
        const auto& first = warnings.front();
        const auto message = fmt::format("{}: {} ({}{})", options.path, first.what,
            first.examples.empty() ? "" : first.examples.front(), warnings.size() > 1 ? ", and more" : "");
        if (options.strict)
            return fail(ExitBadInput, message);
        std::cerr << "ridgeline: warning: " << message << '\n';
    }
    return ExitSuccess;
}

} // namespace

Runner addCheckCommand(CLI::App& app)
{
    auto options = std::make_shared<CheckOptions>();
    auto* cmd = app.add_subcommand("check", "Validate a session file and print a summary of it");
    cmd->add_option("FILE", options->path, "Session file (.ridge)")->required();
    cmd->add_flag("--json", options->json, "Print the summary as one JSON object");
    cmd->add_flag("--strict", options->strict, "Exit with 2 when the value checks warn (bad times, dangling ids, ...)");
    cmd->footer("A damaged or invalid file exits with 2; a partial session (capture or import that did not\n"
                "finish) is valid and reported as such. Odd values (ops ending before they start, times that\n"
                "are not integers, ids that point at nothing, NaN metrics, zero-sized grids, overlapping ops on\n"
                "a stream) are warnings: exit 0, or 2 with --strict.");
    return [options] { return runCheck(*options); };
}

} // namespace ridgeline::cli
