// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace ridgeline::cli {

CLI::Validator stepValidator()
{
    return CLI::Validator(
        [](std::string& value) -> std::string {
            if (value == "all")
                return {};
            std::int64_t number = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
            if (error != std::errc() || end != value.data() + value.size() || number < 0)
                return "--step takes a profiler step number (N of \"ProfilerStep#N\") or \"all\", not \"" + value
                    + "\"";
            return {};
        },
        "N|all");
}

core::TimelineSelection stepSelection(const std::string& step)
{
    core::TimelineSelection selection;
    if (step == "all")
        selection.allSteps = true;
    else if (!step.empty())
        selection.step = std::stoll(step);
    return selection;
}

int fail(int exitCode, const std::string& message)
{
    std::cout.flush();
    std::cerr << "ridgeline: " << message << '\n';
    return exitCode;
}

int finishOutput()
{
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0)
        return fail(ExitOutputFailed, "cannot write the output (disk full or closed pipe?)");
    return ExitSuccess;
}

void addInputsAndOutput(
    CLI::App& cmd, InputsToSession& options, const std::string& inputsHelp, const std::string& outputHelp)
{
    cmd.add_option("FILE", options.inputs, inputsHelp)->required();
    cmd.add_option("-o,--output", options.output, outputHelp)->required();
}

std::optional<int> refuseDirectoryInputs(const InputsToSession& options, std::string_view what)
{
    std::error_code ec;
    for (const auto& input : options.inputs) {
        if (std::filesystem::is_directory(input, ec))
            return fail(ExitBadInput, fmt::format("{}: is a directory, not {}", input, what));
    }
    return std::nullopt;
}

std::optional<int> refuseExistingOutput(const InputsToSession& options)
{
    std::error_code ec;
    if (std::filesystem::exists(options.output, ec) && !options.force)
        return fail(ExitUsage,
            fmt::format("{} already exists (choose another name, or --force to replace it)", options.output));
    return std::nullopt;
}

} // namespace ridgeline::cli
