// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "namedsessions.h"
#include "ridgeline/core/cluster/clusterreport.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/output/operatorreport.h"
#include "ridgeline/core/output/opportunityreport.h"
#include "ridgeline/core/output/rankreport.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/output/shapereport.h"
#include "ridgeline/core/store/sessionreader.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

namespace ridgeline::cli {

namespace {

struct ReportCommandOptions {
    std::vector<std::string> paths; // one session; several (or folders of them) with --by rank
    std::string path; // the session, once checked to be one
    std::string format = "table";
    std::string sort = "total";
    std::string names = "short";
    std::size_t top = 0;
    std::string window; // START:END of the timeline analysis; empty = whole session
    std::string step; // profiler step: N ("ProfilerStep#N") or "all"; empty = the whole session
    bool hasStep = false;
    std::string baseline; // session to compare with; empty = none
    std::string by = "kernel"; // what the rows are: kernel | op | module | collective | rank
    std::size_t threads = 0; // --by rank: sessions read at once (0: one per core)
    bool fresh = false; // --by rank: recompute instead of reading stored summaries
    bool opportunities = false; // rows: the time each would give back at its roof, ranked
};

// `--by rank`: one row per rank over any number of sessions, read a few at a time (clusterreport.h).
int runRankReport(const ReportCommandOptions& options)
{
    const bool terminal = isatty(STDERR_FILENO) != 0;
    auto gathered
        = gatherNamedSessions(options.paths, options.threads, !options.fresh, [&](std::size_t done, std::size_t total) {
              // Progress for more than one session, on a terminal.
              if (total > 1 && terminal && (done == total || done % std::max<std::size_t>(total / 20, 1) == 0))
                  std::cerr << "\rridgeline: read " << done << " of " << total << " sessions"
                            << (done == total ? "\n" : "") << std::flush;
          });
    if (!gathered)
        return fail(ExitUsage, "no session to report on (the folders given hold no .ridge files)");
    for (const auto& failure : gathered->failures)
        std::cerr << "ridgeline: warning: left out: " << failure << '\n';
    if (gathered->ranks.empty())
        return fail(ExitBadInput,
            gathered->failures.empty() ? "the sessions hold no rank" : "no session could be read (see the warnings)");
    auto report = core::buildClusterReport(std::move(gathered->ranks));
    for (const auto& failure : gathered->failures)
        report.warnings.push_back("left out: " + failure);
    const auto format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    core::writeClusterReport(std::cout, report, format, options.top);
    return finishOutput();
}

// The baseline's kernels (its timeline is not needed); errors name the baseline file.
core::Result<core::KernelReport> loadBaseline(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    core::KernelReport report;
    report.path = path;
    auto kernels = core::summarizeKernels(reader.value());
    if (kernels.hasError())
        return kernels.error();
    report.kernels = std::move(kernels).value();
    return report;
}

// `--baseline PATH`, when given: the report `load` builds of it is kept in `baseline` and `use` points at it.
// The exit code of a failure, or none.
template <typename Report, typename Load>
std::optional<int> loadBaselineWith(
    const std::string& path, Load load, std::optional<Report>& baseline, const Report*& use)
{
    if (path.empty())
        return std::nullopt;
    auto loaded = load(path);
    if (loaded.hasError())
        return fail(exitCodeFor(loaded.error()), "baseline " + loaded.error().message);
    baseline = std::move(loaded).value();
    use = &*baseline;
    return std::nullopt;
}

// `--by op` and `--by module`: GPU time per PyTorch operator or module (operatorreport.h).
int runOperatorReport(const ReportCommandOptions& options, core::ReportGrouping by)
{
    core::OperatorReportOptions report;
    report.format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    report.top = options.top;
    auto build = [by](const std::string& path) -> core::Result<core::OperatorReport> {
        auto reader = core::SessionReader::open(path);
        if (reader.hasError())
            return reader.error();
        return core::buildOperatorReport(reader.value(), by);
    };
    auto built = build(options.path);
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    std::optional<core::OperatorReport> baseline;
    if (auto failed = loadBaselineWith(options.baseline, build, baseline, report.baseline))
        return *failed;
    core::writeOperatorReport(std::cout, built.value(), report);
    return finishOutput();
}

// `--by collective`: collectives by type, process group and size; the ranks' waits.
int runCollectiveReport(const ReportCommandOptions& options)
{
    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    core::SessionReader* readers[] = { &reader.value() };
    auto built = core::buildCollectiveReport(readers);
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    const auto format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    core::writeCollectiveReport(std::cout, built.value(), format);
    return finishOutput();
}

// `--by shape`: FLOPs, bytes and verdicts per PyTorch operator shape (shapereport.h).
int runShapeReport(const ReportCommandOptions& options)
{
    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto built = core::buildShapeReport(reader.value());
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    const auto format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    core::writeShapeReport(std::cout, built.value(), format, options.top);
    return finishOutput();
}

// `--opportunities`: the time each operator shape, kernel or copy would give back at its roof.
int runOpportunityReport(const ReportCommandOptions& options)
{
    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto built = core::buildOpportunityReport(reader.value());
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    const auto format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    core::writeOpportunityReport(std::cout, built.value(), format, options.top);
    return finishOutput();
}

int runReport(ReportCommandOptions options)
{
    if (options.by == "rank") {
        if (!options.baseline.empty() || options.hasStep || !options.window.empty())
            return fail(ExitUsage, "--by rank takes no --baseline, --window or --step");
        return runRankReport(options);
    }
    if (options.paths.size() != 1)
        return fail(ExitUsage,
            fmt::format("--by {} reads one session, not {}: report several with --by rank, or merge them first "
                        "(ridgeline merge)",
                options.by, options.paths.size()));
    options.path = options.paths.front();
    if (options.opportunities) {
        if (options.by != "kernel" || !options.baseline.empty() || options.hasStep || !options.window.empty())
            return fail(ExitUsage, "--opportunities takes no --by, --baseline, --window or --step");
        return runOpportunityReport(options);
    }
    if (options.by == "collective") {
        if (!options.baseline.empty() || options.hasStep || !options.window.empty())
            return fail(ExitUsage, "--by collective takes no --baseline, --window or --step");
        return runCollectiveReport(options);
    }
    if (options.by == "shape") {
        if (!options.baseline.empty() || options.hasStep || !options.window.empty())
            return fail(ExitUsage, "--by shape takes no --baseline, --window or --step");
        return runShapeReport(options);
    }
    // CLI11 has checked --by against the list in addListingOptions.
    switch (core::reportGroupingFromString(options.by).value_or(core::ReportGrouping::Kernel)) {
    case core::ReportGrouping::Op:
    case core::ReportGrouping::Module:
        if (options.hasStep || !options.window.empty())
            return fail(ExitUsage, "--window and --step choose the timeline analysis of --by kernel only");
        return runOperatorReport(options, *core::reportGroupingFromString(options.by));
    case core::ReportGrouping::Kernel:
        break;
    }

    core::ReportOptions report;
    // CLI11 has already checked both words against the lists below.
    report.format = core::reportFormatFromString(options.format).value_or(core::ReportFormat::Table);
    report.sort = core::kernelSortFromString(options.sort).value_or(core::KernelSort::TotalTime);
    report.top = options.top;
    report.names = core::reportNamesFromString(options.names).value_or(core::ReportNames::Short);

    core::TimelineSelection timeline = stepSelection(options.step);
    if (!options.window.empty()) {
        auto window = core::parseTimeWindow(options.window);
        if (window.hasError())
            return fail(ExitUsage, window.error().message);
        timeline.window = window.value();
    }

    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto built = core::buildKernelReport(reader.value(), timeline);
    if (built.hasError() && built.error().code == core::ErrorCode::NotFound && options.hasStep)
        return fail(ExitUsage, built.error().message); // an unknown step is a bad command line
    if (built.hasError())
        return fail(exitCodeFor(built.error()), built.error().message);
    std::optional<core::KernelReport> baseline;
    if (auto failed = loadBaselineWith(options.baseline, loadBaseline, baseline, report.baseline))
        return *failed;
    core::writeKernelReport(std::cout, std::move(built).value(), report);
    return finishOutput();
}

// --by, --format, --sort, --top and --names, shared by report and diff.
void addListingOptions(CLI::App& cmd, ReportCommandOptions& options)
{
    cmd.add_option("--by", options.by,
           "Rows per kernel (name and device), per PyTorch operator (GPU time of the GPU ops each launched, "
           "innermost operator), per module, per PyTorch operator shape (FLOPs and bytes from the operator's input "
           "shapes, and the verdict they give), per collective type, process group and size, or per rank (over "
           "any number of sessions: one per rank, merged, or folders of them)")
        ->check(CLI::IsMember({ "kernel", "op", "module", "shape", "collective", "rank" }))
        ->capture_default_str();
    cmd.add_option("-f,--format", options.format, "Output format")
        ->check(CLI::IsMember({ "table", "csv", "json" }))
        ->capture_default_str();
    cmd.add_option("-s,--sort", options.sort, "Sort by total time, launches, average, maximum or name")
        ->check(CLI::IsMember(core::kernelSortNames()))
        ->capture_default_str();
    cmd.add_option("-n,--top", options.top, "Show only the first N kernels (0: all)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd.add_option("--names", options.names,
           "Kernel names in the table: short (the function's name, cut to fit 120 columns) or full (demangled, "
           "whole); CSV and JSON carry both")
        ->check(CLI::IsMember({ "short", "full" }))
        ->capture_default_str();
}

} // namespace

Runner addReportCommand(CLI::App& app)
{
    auto options = std::make_shared<ReportCommandOptions>();
    auto* cmd = app.add_subcommand("report", "Print the kernels of a session: launches and time per kernel and device");
    cmd->add_option("FILE", options->paths,
           "Session file (.ridge); with --by rank any number of them, or folders holding them")
        ->required();
    addListingOptions(*cmd, *options);
    auto* window = cmd->add_option("--window", options->window,
        "Timeline analysis over START:END only (ns, or with a unit: ns, us, ms, s; e.g. 1.5ms:2ms)");
    auto* step = cmd->add_option("--step", options->step,
                        "Timeline analysis over profiler step N (its GPU-side \"ProfilerStep#N\" range where the "
                        "trace has one, as Holistic Trace Analysis and TraceLens take it), or with \"all\" the whole "
                        "session and then each step; without it, the whole session, warm-up included")
                     ->check(stepValidator())
                     ->excludes(window);
    cmd->add_option("-b,--baseline", options->baseline,
        "Compare with this session (.ridge): per kernel its baseline time and the change; kernels gone listed after");
    cmd->add_option("-j,--threads", options->threads, "--by rank: sessions read at once (0: one per core)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_flag("--opportunities", options->opportunities,
        "Rank what each PyTorch operator shape, kernel or copy would give back at its roof: GPU time minus the "
        "time its FLOPs and bytes take at the roofs of its GPU, largest first, with advice");
    cmd->add_flag("--fresh", options->fresh,
        "--by rank: analyse every session again instead of reading the summaries stored by `ridgeline summarize`");
    return [options, step] {
        options->hasStep = step->count() > 0;
        return runReport(*options);
    };
}

// `diff BASE NEW` (ARCHITECTURE §6): the report of NEW compared with BASE, i.e. `report NEW --baseline BASE`.
Runner addDiffCommand(CLI::App& app)
{
    auto options = std::make_shared<ReportCommandOptions>();
    auto* cmd = app.add_subcommand(
        "diff", "Compare two sessions kernel by kernel: time, launches, verdict; kernels new and gone");
    cmd->add_option("BASE", options->baseline, "The session compared with (.ridge): before")->required();
    cmd->add_option("NEW", options->path, "The session compared (.ridge): after")->required();
    addListingOptions(*cmd, *options);
    cmd->footer("The same as `ridgeline report NEW --baseline BASE` (docs/COMPARE.md).");
    return [options] {
        options->paths = { options->path };
        return runReport(*options);
    };
}

} // namespace ridgeline::cli
