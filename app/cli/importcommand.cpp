// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "namepatterns.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/base/heap.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace ridgeline::cli {

namespace {

struct ImportOptions : InputsToSession {
    std::string gpu;
    std::size_t threads = 0;
    core::SlurmJob job; // from the environment
};

// The fields both kinds of import request have.
template <typename Request> Request requestFor(const ImportOptions& options)
{
    Request request;
    request.inputs = options.inputs;
    request.overwrite = options.force;
    request.gpuName = options.gpu;
    request.job = options.job;
    return request;
}

// Runs `import` on the request; long imports report progress with `progress`: one updating line,
// only on a terminal, wiped when the import ends.
template <typename Request, typename Progress, typename Import>
auto importShowingProgress(Request& request, Progress progress, Import import)
{
    const bool terminal = isatty(STDERR_FILENO) != 0;
    if (terminal)
        request.progress = progress;
    auto imported = import(request);
    if (terminal)
        std::cerr << "\r\x1b[K" << std::flush;
    return imported;
}

// An import's warnings and its summary line, on stderr.
void printImported(const collectors::ImportResult& result)
{
    for (const auto& warning : result.warnings)
        std::cerr << "ridgeline: warning: " << warning.text << '\n';
    std::cerr << result.summary << '\n';
}

// `-o DIR/`: one session per file, several imported at once.
int runImportEach(const ImportOptions& options)
{
    auto request = requestFor<collectors::EachImportRequest>(options);
    request.directory = options.output;
    request.threads = options.threads;
    auto imported = importShowingProgress(
        request,
        [](std::size_t done, std::size_t total) {
            std::cerr << fmt::format("\r\x1b[Kridgeline: imported {} of {} files", done, total) << std::flush;
        },
        collectors::importEach);
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
        printImported(*each.result);
    }
    std::cerr << fmt::format("imported {} of {} files into {}\n", ok, imported.value().size(), options.output);
    return status;
}

int runImport(ImportOptions& options)
{
    if (auto bad = expandNamePatterns(options.inputs, ""))
        return *bad;
    if (auto bad = expandNamePattern(options.output, "-o"))
        return *bad;
    auto job = core::slurmJobFromEnvironment();
    if (job.hasError())
        return fail(ExitUsage, job.error().message);
    options.job = std::move(job).value();
    if (auto refused = refuseDirectoryInputs(options, "a file to import"))
        return *refused;
    core::returnLargeBlocksToTheSystem(); // imports stream: the peak stays what is in use (core/base/heap.h)
    std::error_code ec;
    if (options.output.ends_with('/') || std::filesystem::is_directory(options.output, ec))
        return runImportEach(options);
    if (auto refused = refuseExistingOutput(options))
        return *refused;
    auto request = requestFor<collectors::ImportRequest>(options);
    request.output = options.output;
    request.rankFromJob = options.inputs.size() == 1; // one file per task: the task's rank
    auto imported = importShowingProgress(
        request,
        [](double fraction, std::string_view what) {
            std::cerr << fmt::format("\r\x1b[Kridgeline: {:3.0f}% {}", 100 * fraction, what) << std::flush;
        },
        collectors::importFiles);
    if (imported.hasError())
        return fail(exitCodeFor(imported.error()), imported.error().message);
    printImported(imported.value());
    return ExitSuccess;
}

} // namespace

Runner addImportCommand(CLI::App& app)
{
    auto options = std::make_shared<ImportOptions>();
    auto* cmd = app.add_subcommand("import", "Import another profiler's output as a session");
    addInputsAndOutput(*cmd, *options,
        "One of: PyTorch profiler (Kineto) JSON traces (.json or .json.gz; one file per rank, several make one "
        "multi-rank session); an Nsight Systems SQLite export (nsys export --type sqlite); an Nsight Compute "
        "CSV (ncu --csv, any --page: raw, details; quoted or not, .csv or .csv.gz); an Nsight Compute report "
        "(.ncu-rep, read directly: no NVIDIA tool needed; several make one session)",
        "Session file to write (.ridge); or a folder (ending in /, or existing): one session per file, named "
        "after it, several imported at once. FILE and -o take capture's -o patterns (%h, %p, %q{VAR}, %%)");
    cmd->add_option("-j,--threads", options->threads, "With -o DIR/: files imported at once (0: one per core)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->add_option("--gpu", options->gpu,
        "Name the GPU of devices the file leaves unnamed (e.g. \"A100-SXM4-40GB\"; matched loosely, "
        "`ridgeline ceilings` lists the known ones): adds its datasheet ceilings");
    cmd->footer("The format is recognised from the content. Nsight Compute records no timestamps: the\n"
                "kernels of an import are laid out in launch order, 1 µs apart (a synthetic timeline).\n"
                "Under Slurm the session keeps SLURM_PROCID, SLURM_NODEID, SLURM_JOB_ID and SLURM_STEP_ID;\n"
                "a task importing one file gives its SLURM_PROCID as the rank where the file names none:\n"
                "srun -n 2 ridgeline import rank-%q{SLURM_PROCID}.json.gz -o runs/ (docs/CLUSTER.md).");
    return [options] { return runImport(*options); };
}

} // namespace ridgeline::cli
