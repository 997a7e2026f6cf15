// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/report.h"
#include "ridgeline/core/sessionreader.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

struct ReportCommandOptions {
    std::string path;
    std::string format = "table";
    std::string sort = "total";
    std::size_t top = 0;
};

int runReport(const ReportCommandOptions& options)
{
    core::ReportOptions report;
    // CLI11 has already checked both words against the lists below.
    report.format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    report.sort = core::kernelSortFromString(options.sort).value_or(core::KernelSort::TotalTime);
    report.top = options.top;

    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto built = core::buildKernelReport(reader.value());
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    core::writeKernelReport(std::cout, std::move(built).value(), report);
    return finishOutput();
}

} // namespace

Runner addReportCommand(CLI::App& app)
{
    auto options = std::make_shared<ReportCommandOptions>();
    auto* cmd = app.add_subcommand("report", "Print the kernels of a session: launches and time per kernel and device");
    cmd->add_option("FILE", options->path, "Session file (.ridge)")->required();
    cmd->add_option("-f,--format", options->format, "Output format")
        ->check(CLI::IsMember({ "table", "csv", "json" }))
        ->capture_default_str();
    cmd->add_option("-s,--sort", options->sort, "Sort by total time, launches, average, maximum or name")
        ->check(CLI::IsMember(core::kernelSortNames()))
        ->capture_default_str();
    cmd->add_option("-n,--top", options->top, "Show only the first N kernels (0: all)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    return [options] { return runReport(*options); };
}

} // namespace ridgeline::cli
