// SPDX-License-Identifier: MIT
// `ridgeline export SESSION (--perfetto FILE | --csv DIR | --html FILE)...`
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"

#include <CLI/CLI.hpp>
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
};

// ErrorCode::Io from an exporter means the output could not be written (exporters.h).
int exportFailed(const core::Error& error)
{
    return fail(error.code == core::ErrorCode::Io ? ExitOutputFailed : exitCodeFor(error), error.message);
}

// Writes one file of the session with `write` and names it on stdout; nothing when no path was given.
// The exit code of a failure, or none.
std::optional<int> writeExportFile(core::SessionReader& session, const std::string& path, const char* label,
    core::Status (*write)(core::SessionReader&, std::ostream&))
{
    if (path.empty())
        return std::nullopt;
    auto written = core::writeFileAtomically(path, [&](std::ostream& out) { return write(session, out); });
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
    if (auto failed = writeExportFile(session, options.perfetto, "Perfetto / Chrome trace", core::writePerfettoTrace))
        return *failed;
    if (!options.csv.empty()) {
        auto written = core::writeCsvTables(session, options.csv);
        if (written.hasError())
            return exportFailed(written.error());
        std::cout << "CSV tables (" << written.value().size() << " files): " << options.csv << '\n';
    }
    if (auto failed = writeExportFile(session, options.html, "HTML report", core::writeHtmlReport))
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
    cmd->footer("At least one of --perfetto, --csv and --html; several may be given at once. Each file is written "
                "to a temporary name and renamed into place, so a failure never leaves half a file.");
    return [options] { return runExport(*options); };
}

} // namespace ridgeline::cli
