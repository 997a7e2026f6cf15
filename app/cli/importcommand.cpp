// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/importers/importer.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace ridgeline::cli {

namespace {

struct ImportOptions {
    std::vector<std::string> inputs;
    std::string output;
    bool force = false;
    std::string gpu;
    std::size_t threads = 0;
};

// `-o DIR/`: one session per file, several imported at once.
int runImportEach(const ImportOptions& options)
{
    collectors::EachImportRequest request;
    request.inputs = options.inputs;
    request.directory = options.output;
    request.overwrite = options.force;
    request.gpuName = options.gpu;
    request.threads = options.threads;
    const bool terminal = isatty(STDERR_FILENO) != 0;
    if (terminal)
        request.progress = [](std::size_t done, std::size_t total) {
            std::cerr << fmt::format("\r\x1b[Kridgeline: imported {} of {} files", done, total) << std::flush;
        };
    auto imported = collectors::importEach(request);
    if (terminal)
        std::cerr << "\r\x1b[K" << std::flush;
    if (imported.hasError())
        return fail(exitCodeFor(imported.error()), imported.error().message);
    int status = ExitSuccess;
    std::size_t ok = 0;
    for (const auto& each : imported.value()) {
        if (!each.result) {
            status = fail(ExitBadInput, each.error);
            continue;
        }
        ++ok;
        for (const auto& warning : each.result->warnings)
            std::cerr << "ridgeline: warning: " << warning << '\n';
        std::cerr << each.result->summary << '\n';
    }
    std::cerr << fmt::format("imported {} of {} files into {}\n", ok, imported.value().size(), options.output);
    return status;
}

int runImport(const ImportOptions& options)
{
    std::error_code ec;
    for (const auto& input : options.inputs) {
        if (std::filesystem::is_directory(input, ec))
            return fail(ExitBadInput, fmt::format("{}: is a directory, not a file to import", input));
    }
    if (options.output.ends_with('/') || std::filesystem::is_directory(options.output, ec))
        return runImportEach(options);
    if (std::filesystem::exists(options.output, ec) && !options.force)
        return fail(ExitUsage,
            fmt::format("{} already exists (choose another name, or --force to replace it)", options.output));
    collectors::ImportRequest request;
    request.inputs = options.inputs;
    request.output = options.output;
    request.overwrite = options.force;
    request.gpuName = options.gpu;
    // Long imports (Kineto traces) report progress: one updating line, only on a terminal.
    const bool terminal = isatty(STDERR_FILENO) != 0;
    if (terminal)
        request.progress = [](double fraction, std::string_view what) {
            std::cerr << fmt::format("\r\x1b[Kridgeline: {:3.0f}% {}", 100 * fraction, what) << std::flush;
        };
    auto imported = collectors::importFiles(request);
    if (terminal)
        std::cerr << "\r\x1b[K" << std::flush;
    if (imported.hasError())
        return fail(exitCodeFor(imported.error()), imported.error().message);
    for (const auto& warning : imported.value().warnings)
        std::cerr << "ridgeline: warning: " << warning << '\n';
    std::cerr << imported.value().summary << '\n';
    return ExitSuccess;
}

} // namespace

Runner addImportCommand(CLI::App& app)
{
    auto options = std::make_shared<ImportOptions>();
    auto* cmd = app.add_subcommand("import", "Import another profiler's output as a session");
    cmd->add_option("FILE", options->inputs,
           "One of: PyTorch profiler (Kineto) JSON traces (.json or .json.gz; one file per rank, several make one "
           "multi-rank session); an Nsight Systems SQLite export (nsys export --type sqlite); an Nsight Compute "
           "CSV (ncu --csv, any --page: raw, details; quoted or not, .csv or .csv.gz); an Nsight Compute report "
           "(.ncu-rep, read directly: no NVIDIA tool needed; several make one session)")
        ->required();
    cmd->add_option("-o,--output", options->output,
           "Session file to write (.ridge); or a folder (ending in /, or existing): one session per file, named "
           "after it, several imported at once")
        ->required();
    cmd->add_option("-j,--threads", options->threads, "With -o DIR/: files imported at once (0: one per core)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->add_option("--gpu", options->gpu,
        "Name the GPU of devices the file leaves unnamed (e.g. \"A100-SXM4-40GB\"; matched loosely, "
        "`ridgeline ceilings` lists the known ones): adds its datasheet ceilings");
    cmd->footer("The format is recognised from the content. Nsight Compute records no timestamps: the\n"
                "kernels of an import are laid out in launch order, 1 µs apart (a synthetic timeline).");
    return [options] { return runImport(*options); };
}

} // namespace ridgeline::cli
