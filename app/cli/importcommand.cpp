// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/formatdetect.h"
#include "ridgeline/collectors/ncucsvimporter.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace ridgeline::cli {

namespace {

struct ImportOptions {
    std::string input;
    std::string output;
    bool force = false;
};

int runImport(const ImportOptions& options)
{
    std::error_code ec;
    if (std::filesystem::is_directory(options.input, ec))
        return fail(ExitBadInput, fmt::format("{}: is a directory, not a file to import", options.input));
    if (std::filesystem::exists(options.output, ec) && !options.force)
        return fail(ExitUsage,
            fmt::format("{} already exists (choose another name, or --force to replace it)", options.output));

    // The content decides, not the extension: a renamed file still goes to the right importer.
    auto format = collectors::detectFileFormat(options.input);
    if (format.hasError())
        return fail(exitCodeFor(format.error()), format.error().message);
    switch (format.value()) {
    case collectors::FileFormat::NsightComputeCsv:
        break;
    case collectors::FileFormat::Unknown:
        return fail(ExitBadInput,
            fmt::format("{}: not a format Ridgeline imports (Nsight Compute CSV: ncu --csv --page raw or --page "
                        "details)",
                options.input));
    default:
        return fail(ExitBadInput,
            fmt::format("{}: {} import is not supported yet", options.input, collectors::toString(format.value())));
    }

    auto imported = collectors::importNcuCsv(options.input, options.output, options.force);
    if (imported.hasError())
        return fail(exitCodeFor(imported.error()), imported.error().message);
    const auto& summary = imported.value();
    for (const auto& warning : summary.warnings)
        std::cerr << "ridgeline: warning: " << warning << '\n';
    std::cerr << fmt::format("imported {} kernel{} with {} metric{} from {} into {}\n", summary.kernels,
        summary.kernels == 1 ? "" : "s", summary.metrics, summary.metrics == 1 ? "" : "s", options.input,
        options.output);
    return ExitSuccess;
}

} // namespace

Runner addImportCommand(CLI::App& app)
{
    auto options = std::make_shared<ImportOptions>();
    auto* cmd = app.add_subcommand("import", "Import another profiler's output as a session");
    cmd->add_option("FILE", options->input, "Nsight Compute CSV (ncu --csv --page raw or --page details)")->required();
    cmd->add_option("-o,--output", options->output, "Session file to write (.ridge)")->required();
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->footer("The format is recognised from the content. Nsight Compute records no timestamps: the\n"
                "kernels of an import are laid out in launch order, 1 µs apart (a synthetic timeline).");
    return [options] { return runImport(*options); };
}

} // namespace ridgeline::cli
