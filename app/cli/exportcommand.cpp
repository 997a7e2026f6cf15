// SPDX-License-Identifier: MIT
// `ridgeline export SESSION (--perfetto FILE | --csv DIR | --html FILE)...`
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

namespace ridgeline::cli {

namespace {

struct ExportCommandOptions {
    std::string path;
    std::string perfetto;
    std::string csv;
    std::string html;
    std::string step; // profiler step N or "all"; empty: the whole session
};

// ErrorCode::Io from an exporter means the output could not be written (exporters.h).
int exportFailed(const core::Error& error)
{
    return fail(error.code == core::ErrorCode::Io ? ExitOutputFailed : exitCodeFor(error), error.message);
}

// Writes one file of the session with `write` and names it on stdout; nothing when no path was given.
// The exit code of a failure, or none.
std::optional<int> writeExportFile(
    const std::string& path, const char* label, const std::function<core::Status(std::ostream&)>& write)
{
    if (path.empty())
        return std::nullopt;
    auto written = core::writeFileAtomically(path, write);
    if (written.hasError())
        return exportFailed(written.error());
    std::cout << label << ": " << path << '\n';
    return std::nullopt;
}

int runExport(const ExportCommandOptions& options)
{
    if (options.perfetto.empty() && options.csv.empty() && options.html.empty())
        return fail(ExitUsage, "export: say what to write: --perfetto FILE, --csv DIR and/or --html FILE");
    auto reader = core::SessionReader::open(options.path);
    if (reader.hasError())
        return fail(exitCodeFor(reader.error()), reader.error().message);
    auto& session = reader.value();
    const core::TimelineSelection selection = stepSelection(options.step);
    std::optional<core::TimeWindow> window; // of --step N
    if (selection.step) {
        auto stepWindow = core::profilerStepWindow(session, *selection.step);
        if (stepWindow.hasError())
            return fail(
                stepWindow.error().code == core::ErrorCode::NotFound ? ExitUsage : exitCodeFor(stepWindow.error()),
                stepWindow.error().message);
        window = stepWindow.value();
    }
    if (auto failed = writeExportFile(options.perfetto, "Perfetto / Chrome trace",
            [&](std::ostream& out) { return core::writePerfettoTrace(session, out, window); }))
        return *failed;
    if (!options.csv.empty()) {
        auto written = core::writeCsvTables(session, options.csv);
        if (written.hasError())
            return exportFailed(written.error());
        std::cout << "CSV tables (" << written.value().size() << " files): " << options.csv << '\n';
    }
    if (auto failed = writeExportFile(options.html, "HTML report",
            [&](std::ostream& out) { return core::writeHtmlReport(session, out, selection); }))
        return *failed;
    return finishOutput();
}

} // namespace

Runner addExportCommand(CLI::App& app)
{
    auto options = std::make_shared<ExportCommandOptions>();
    auto* cmd = app.add_subcommand("export",
        "Write a session as a Perfetto / Chrome trace (JSON), as CSV tables, or as a self-contained HTML report");
    cmd->add_option("FILE", options->path, "Session file (.ridge)")->required();
    cmd->add_option("--perfetto", options->perfetto,
        "Chrome Trace Event JSON for ui.perfetto.dev or chrome://tracing (one track per stream and host thread)");
    cmd->add_option("--csv", options->csv, "Directory to write one CSV file per table into (created when missing)");
    cmd->add_option(
        "--html", options->html, "One HTML file: summary, top kernels with verdicts, roofline chart, timeline summary");
    cmd->add_option("--step", options->step,
           "Profiler step N (its GPU-side \"ProfilerStep#N\" range where the trace has one): the Perfetto trace "
           "holds only what overlaps it and the HTML timeline summary covers it; \"all\": the HTML summary adds "
           "each step's figures. CSV tables are always whole")
        ->check(stepValidator());
    cmd->footer("At least one of --perfetto, --csv and --html; several may be given at once. Each file is written "
                "to a temporary name and renamed into place, so a failure never leaves half a file.");
    return [options] { return runExport(*options); };
}

} // namespace ridgeline::cli
