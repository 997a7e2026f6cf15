// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace ridgeline::cli {

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
