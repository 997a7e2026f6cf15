// SPDX-License-Identifier: MIT
// `ridgeline capture -- PROGRAM ARGS…`: runs a program under the CUPTI collector and writes one
// session (docs/CAPTURE.md). The exit status is the program's.
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/launch/captureassembly.h"
#include "ridgeline/collectors/launch/captureenv.h"
#include "ridgeline/collectors/launch/captureoutput.h"
#include "ridgeline/collectors/launch/captureprogress.h"
#include "ridgeline/collectors/launch/cuptilocate.h"
#include "ridgeline/collectors/launch/gpuprobe.h"
#include "ridgeline/collectors/launch/partfiles.h"
#ifdef RIDGELINE_HAVE_CAPTURE
#include "crashlog.h"
#endif
#include "ridgeline/collectors/ceilings/measuredceilings.h"
#include "ridgeline/collectors/launch/launcher.h"
#include "ridgeline/collectors/launch/outputpattern.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <regex>
#include <unistd.h>

namespace ridgeline::cli {

namespace {

namespace col = ridgeline::collectors;

struct CaptureOptions {
    std::string output = col::kDefaultOutputPattern;
    std::string metrics = "roofline";
    std::optional<std::string> kernelRegex;
    std::optional<long long> launchSkip;
    std::optional<long long> launchCount;
    std::optional<std::string> nvtxRange;
    bool progress = false;
    bool force = false;
    std::vector<std::string> command;
};

std::string hostName()
{
    char buffer[256] = {};
    return gethostname(buffer, sizeof(buffer) - 1) == 0 ? buffer : "localhost";
}

class Reporter {
public:
    explicit Reporter(bool progress)
        : m_progress(progress)
    { }
    void progress(const std::string& line) const
    {
        if (m_progress)
            std::cerr << line << std::endl;
    }
    int fail(int code, const std::string& message) const
    {
        progress(col::progress::error(message));
        return cli::fail(code, message);
    }

private:
    bool m_progress;
};

core::Status validate(const CaptureOptions& options)
{
    RIDGELINE_TRY(col::validateMetrics(options.metrics));
    if (options.kernelRegex) {
        try {
            std::regex check(*options.kernelRegex, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("--kernel-regex {}: not a valid regular expression ({})", *options.kernelRegex, e.what()));
        }
    }
    if (options.command.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no program to capture: ridgeline capture -- PROGRAM");
    return {};
}

std::int64_t liveKernels(const std::string& partDir, int& parts)
{
    std::int64_t kernels = 0;
    const auto files = col::listPartFiles(partDir);
    parts = static_cast<int>(files.size());
    for (const auto& part : files) {
        if (auto summary = col::summarizePart(part); summary.ok())
            kernels += summary.value().kernels;
    }
    return kernels;
}

std::vector<core::Ceiling> cachedCeilings(const std::string& uuid)
{
    auto cached = col::loadMeasuredCeilings(uuid);
    if (cached.hasError()) {
        std::cerr << "ridgeline: warning: " << cached.error().message << " (measured ceilings not used)\n";
        return {};
    }
    return cached.value() ? cached.value()->ceilings : std::vector<core::Ceiling> {};
}

void printSummary(const col::AssemblyResult& r, const std::string& output)
{
    std::cerr << fmt::format("ridgeline: wrote {} ({}): {} kernels, {} memory operations from {} part file{}{}\n",
        output, r.complete ? "complete" : "partial", r.kernels, r.memops, r.parts, r.parts == 1 ? "" : "s",
        r.devicesWithMeasuredCeilings > 0 ? ", with measured ceilings" : "");
    if (r.droppedRecords > 0)
        std::cerr << fmt::format(
            "ridgeline: warning: {} activity records were dropped (CUPTI buffers full)\n", r.droppedRecords);
    for (const auto& warning : r.warnings)
        std::cerr << "ridgeline: warning: " << warning << '\n';
}

int runCapture(const CaptureOptions& options)
{
    const Reporter report(options.progress);
    // A file size limit makes writes fail with EFBIG (a clear error) instead of killing the launcher.
    std::signal(SIGXFSZ, SIG_IGN);
    if (auto valid = validate(options); valid.hasError())
        return report.fail(ExitUsage, valid.error().message);
    const std::string host = hostName();
    auto expanded = col::expandOutputPattern(options.output, { host, static_cast<long>(getpid()), {} });
    if (expanded.hasError())
        return report.fail(ExitUsage, expanded.error().message);
    auto prepared = col::prepareCaptureOutput(expanded.value(), options.force);
    if (prepared.hasError())
        return report.fail(prepared.error().code == core::ErrorCode::InvalidArgument ? ExitUsage : ExitOutputFailed,
            prepared.error().message);
    const auto& out = prepared.value();
    auto library = col::findCompanion(col::kInjectLibraryName, "RIDGELINE_INJECT_LIB");
    if (library.hasError()) {
        std::error_code ec;
        std::filesystem::remove_all(out.partDir, ec);
        return report.fail(ExitInternal, library.error().message);
    }
    const auto gpus = col::probeGpus();
    // No GPU, or a driver too old for CUPTI: the program runs untraced (checked before it starts).
    std::string noGpu = col::untracedSentence(gpus);
    // With a GPU, capture also needs CUPTI from the CUDA Toolkit: found here, and put on the
    // target's loader path when it is not on the default one.
    std::string cuptiPath;
    if (noGpu.empty()) {
        auto cupti = col::locateCupti();
        if (cupti.hasError()) {
            noGpu = cupti.error().message;
        } else {
            if (!cupti.value().warning.empty())
                std::cerr << "ridgeline: warning: " << cupti.value().warning << '\n';
            const char* current = std::getenv("LD_LIBRARY_PATH");
            if (!cupti.value().onLoaderPath)
                cuptiPath = col::cuptiLibraryPath(cupti.value(), current != nullptr ? current : "");
        }
    }
    if (!noGpu.empty())
        std::cerr << "ridgeline: " << noGpu << " The program runs anyway; the session records it without GPU work.\n";

    col::CaptureSettings settings;
    settings.injectLibrary = library.value();
    settings.partDir = out.partDir;
    settings.sessionId = col::newSessionId();
    settings.metrics = options.metrics;
    settings.kernelRegex = options.kernelRegex;
    settings.launchSkip = options.launchSkip;
    settings.launchCount = options.launchCount;
    settings.nvtxRange = options.nvtxRange;
    settings.libraryPath = cuptiPath;
    // An old driver would load the injection library and fail inside the program: leave it out.
    settings.trace = col::driverTooOldSentence(gpus.driverCudaVersion).empty();

    col::LaunchRequest request;
    request.argv = options.command;
    request.environment = col::captureEnvironment(col::processEnvironment(), settings);
    request.partDir = out.partDir;
    request.onStarted = [&](pid_t pid) { report.progress(col::progress::started(pid, out.output, noGpu)); };
    if (options.progress) {
        request.onTick = [&](double seconds) {
            int parts = 0;
            const auto kernels = liveKernels(out.partDir, parts);
            report.progress(col::progress::running(seconds, parts, kernels));
        };
    }
    col::Launcher launcher(std::move(request));
    auto launched = launcher.run();
    if (launched.hasError()) {
        std::error_code ec;
        std::filesystem::remove_all(out.partDir, ec);
        report.fail(ExitUsage, launched.error().message);
        return launcher.startError().exitCode;
    }
    const auto& outcome = launched.value();

    col::AssemblyRequest assembly;
    assembly.partDir = out.partDir;
    assembly.output = out.output;
    assembly.overwrite = options.force;
    assembly.program.pid = outcome.pid;
    assembly.program.host = host;
    assembly.program.command = col::commandLine(options.command);
    assembly.program.startNs = outcome.startNs;
    assembly.program.endNs = outcome.endNs;
    assembly.program.exitStatus = outcome.exitCode;
    assembly.programEndedNormally = outcome.signal == 0;
    assembly.sessionId = settings.sessionId;
    if (!noGpu.empty())
        assembly.launcherErrors.push_back(noGpu);
    assembly.measuredCeilings = cachedCeilings;
#ifdef RIDGELINE_HAVE_CAPTURE
    assembly.recoverCrash = [](const std::string& crash) -> core::Status {
        const std::string main
            = crash.substr(0, crash.size() - std::string_view(ridgeline::inject::kCrashSuffix).size())
            + col::kPartSuffix;
        // API names need libcupti; the launcher keeps the callback ids unnamed.
        auto recovered = ridgeline::inject::recoverCrashFile(
            crash, main, [](CUpti_ActivityKind, std::uint32_t) { return std::string(); });
        if (recovered.hasError())
            return recovered.error();
        return {};
    };
#endif
    report.progress(col::progress::merging(static_cast<int>(col::listPartFiles(out.partDir).size())));
    auto assembled = col::assembleCapture(assembly);
    if (assembled.hasError())
        return report.fail(ExitOutputFailed, assembled.error().message);
    const auto& result = assembled.value();
    for (const auto& error : result.errors) {
        if (error != noGpu)
            std::cerr << "ridgeline: " << error << '\n';
    }
    printSummary(result, out.output);
    report.progress(col::progress::finished(
        result.complete ? "complete" : "partial", out.output, outcome.exitCode, result.kernels, result.memops));
    if (outcome.signal != 0)
        std::cerr << fmt::format(
            "ridgeline: the program was ended by signal {} ({})\n", outcome.signal, strsignal(outcome.signal));
    return outcome.exitCode;
}

} // namespace

Runner addCaptureCommand(CLI::App& app)
{
    auto options = std::make_shared<CaptureOptions>();
    auto* cmd = app.add_subcommand("capture", "Run a CUDA program under Ridgeline's collector and write a session");
    cmd->add_option("-o,--output", options->output,
           "Session file; %h host, %p ridgeline's pid, %q{VAR} environment variable, %% a literal %")
        ->capture_default_str();
    cmd->add_option("--metrics", options->metrics,
           "Per-kernel counters: roofline, full, none (trace only), or comma-separated metric names")
        ->capture_default_str();
    cmd->add_option("--kernel-regex", options->kernelRegex, "Count only kernels whose name matches (ECMAScript)");
    cmd->add_option("--launch-skip", options->launchSkip, "Skip the first N matching launches")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--launch-count", options->launchCount, "Count at most N launches")->check(CLI::PositiveNumber);
    cmd->add_option("--nvtx-range", options->nvtxRange, "Count only kernels inside this NVTX range");
    cmd->add_flag("--progress", options->progress, "Print machine-readable progress lines on stderr");
    cmd->add_flag("--force", options->force, "Replace the output file if it exists");
    cmd->add_option("PROGRAM", options->command, "The program and its arguments, after --")->required();
    cmd->footer("The exit status is the program's (128+N when signal N ended it); 126/127 when it cannot be run;\n"
                "1 bad options, 3 the session could not be written (the part files are kept), 4 incomplete\n"
                "installation. See docs/CAPTURE.md.");
    return [options] { return runCapture(*options); };
}

} // namespace ridgeline::cli
