// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/capturerun.h"

#include "ridgeline/collectors/ceilings/measuredceilings.h"
#include "ridgeline/collectors/launch/captureassembly.h"
#include "ridgeline/collectors/launch/captureenv.h"
#include "ridgeline/collectors/launch/captureoutput.h"
#include "ridgeline/collectors/launch/cuptilocate.h"
#include "ridgeline/collectors/launch/gpuprobe.h"
#include "ridgeline/collectors/launch/launcher.h"
#include "ridgeline/collectors/launch/partfiles.h"
#include "ridgeline/core/base/hostname.h"
#include "ridgeline/core/output/progressprotocol.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <regex>
#include <unistd.h>

namespace ridgeline::collectors {

namespace {

// Progress lines (with --progress) and "ridgeline: …" failures on stderr.
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
        progress(core::progress::error(message));
        std::cout.flush();
        std::cerr << "ridgeline: " << message << '\n';
        return code;
    }

private:
    bool m_progress;
};

core::Status validate(const CaptureRequest& request)
{
    RIDGELINE_TRY(validateMetrics(request.metrics));
    if (request.kernelRegex) {
        try {
            std::regex check(*request.kernelRegex, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("--kernel-regex {}: not a valid regular expression ({})", *request.kernelRegex, e.what()));
        }
    }
    if (request.command.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no program to capture: ridgeline capture -- PROGRAM");
    return {};
}

std::int64_t liveKernels(const std::string& partDir, int& parts)
{
    std::int64_t kernels = 0;
    const auto files = listPartFiles(partDir);
    parts = static_cast<int>(files.size());
    for (const auto& part : files) {
        if (auto summary = summarizePart(part); summary.ok())
            kernels += summary.value().kernels;
    }
    return kernels;
}

std::vector<core::Ceiling> cachedCeilings(const std::string& uuid)
{
    auto cached = loadMeasuredCeilings(uuid);
    if (cached.hasError()) {
        std::cerr << "ridgeline: warning: " << cached.error().message << " (measured ceilings not used)\n";
        return {};
    }
    return cached.value() ? cached.value()->ceilings : std::vector<core::Ceiling> {};
}

void printSummary(const AssemblyResult& r, const std::string& output)
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

// Whether the program can be traced here, and CUPTI's directory for its loader path.
struct TraceChoice {
    std::string noGpu; // why the program runs untraced; empty when it is traced
    std::string cuptiPath; // LD_LIBRARY_PATH for the target; empty: unchanged
    GpuProbe gpus;
};

TraceChoice chooseTrace()
{
    TraceChoice choice;
    choice.gpus = probeGpus();
    // No GPU, or a driver too old for CUPTI: the program runs untraced (checked before it starts).
    choice.noGpu = untracedSentence(choice.gpus);
    // With a GPU, capture also needs CUPTI from the CUDA Toolkit: found here, and put on the
    // target's loader path when it is not on the default one.
    if (choice.noGpu.empty()) {
        auto cupti = locateCupti();
        if (cupti.hasError()) {
            choice.noGpu = cupti.error().message;
        } else {
            if (!cupti.value().warning.empty())
                std::cerr << "ridgeline: warning: " << cupti.value().warning << '\n';
            const char* current = std::getenv("LD_LIBRARY_PATH");
            if (!cupti.value().onLoaderPath)
                choice.cuptiPath = cuptiLibraryPath(cupti.value(), current != nullptr ? current : "");
        }
    }
    if (!choice.noGpu.empty())
        std::cerr << "ridgeline: " << choice.noGpu
                  << " The program runs anyway; the session records it without GPU work.\n";
    return choice;
}

InjectionSettings injectionSettings(
    const CaptureRequest& request, const std::string& library, const std::string& partDir, const TraceChoice& trace)
{
    return InjectionSettings { .injectLibrary = library,
        .partDir = partDir,
        .sessionId = newSessionId(),
        .metrics = request.metrics,
        .kernelRegex = request.kernelRegex,
        .launchSkip = request.launchSkip,
        .launchCount = request.launchCount,
        .nvtxRange = request.nvtxRange,
        .libraryPath = trace.cuptiPath,
        // An old driver would load the injection library and fail inside the program: leave it out.
        .trace = driverTooOldSentence(trace.gpus.driverCudaVersion).empty() };
}

AssemblyRequest assemblyRequest(const CaptureRequest& request, const PreparedOutput& out, const std::string& host,
    const LaunchOutcome& outcome, const std::string& sessionId, const std::string& noGpu, const core::SlurmJob& job)
{
    AssemblyRequest assembly;
    assembly.job = job;
    assembly.partDir = out.partDir;
    assembly.output = out.output;
    assembly.overwrite = request.force;
    assembly.program.pid = outcome.pid;
    assembly.program.host = host;
    assembly.program.command = commandLine(request.command);
    assembly.program.startNs = outcome.startNs;
    assembly.program.endNs = outcome.endNs;
    assembly.program.exitStatus = outcome.exitCode;
    assembly.programEndedNormally = outcome.signal == 0;
    assembly.sessionId = sessionId;
    if (!noGpu.empty())
        assembly.launcherErrors.push_back(noGpu);
    assembly.measuredCeilings = cachedCeilings;
    assembly.recoverCrash = request.recoverCrash;
    return assembly;
}

} // namespace

int runCapture(const CaptureRequest& request, const CaptureExitCodes& codes)
{
    const Reporter report(request.progress);
    // A file size limit makes writes fail with EFBIG (a clear error) instead of killing the launcher.
    std::signal(SIGXFSZ, SIG_IGN);
    if (auto valid = validate(request); valid.hasError())
        return report.fail(codes.usage, valid.error().message);
    // Before anything runs: a malformed SLURM_PROCID is a clear error, not a session without its rank.
    auto job = core::slurmJobFromEnvironment();
    if (job.hasError())
        return report.fail(codes.usage, job.error().message);
    std::string host = core::hostName();
    if (host.empty())
        host = "localhost";
    auto expanded = expandOutputPattern(request.output, { host, static_cast<long>(getpid()), {} });
    if (expanded.hasError())
        return report.fail(codes.usage, expanded.error().message);
    auto prepared = prepareCaptureOutput(expanded.value(), request.force);
    if (prepared.hasError())
        return report.fail(prepared.error().code == core::ErrorCode::InvalidArgument ? codes.usage : codes.outputFailed,
            prepared.error().message);
    const auto& out = prepared.value();
    auto library = findCompanion(kInjectLibraryName, "RIDGELINE_INJECT_LIB");
    if (library.hasError()) {
        std::error_code ec;
        std::filesystem::remove_all(out.partDir, ec);
        return report.fail(codes.internal, library.error().message);
    }
    const TraceChoice trace = chooseTrace();
    const InjectionSettings settings = injectionSettings(request, library.value(), out.partDir, trace);

    LaunchRequest launch;
    launch.argv = request.command;
    launch.environment = captureEnvironment(processEnvironment(), settings);
    launch.partDir = out.partDir;
    launch.onStarted = [&](pid_t pid) { report.progress(core::progress::started(pid, out.output, trace.noGpu)); };
    if (request.progress) {
        launch.onTick = [&](double seconds) {
            int parts = 0;
            const auto kernels = liveKernels(out.partDir, parts);
            report.progress(core::progress::running(seconds, parts, kernels));
        };
    }
    Launcher launcher(std::move(launch));
    auto launched = launcher.run();
    if (launched.hasError()) {
        std::error_code ec;
        std::filesystem::remove_all(out.partDir, ec);
        report.fail(codes.usage, launched.error().message);
        return launcher.startError().exitCode;
    }
    const auto& outcome = launched.value();

    report.progress(core::progress::merging(static_cast<int>(listPartFiles(out.partDir).size())));
    auto assembled
        = assembleCapture(assemblyRequest(request, out, host, outcome, settings.sessionId, trace.noGpu, job.value()));
    if (assembled.hasError())
        return report.fail(codes.outputFailed, assembled.error().message);
    const auto& result = assembled.value();
    for (const auto& error : result.errors) {
        if (error != trace.noGpu)
            std::cerr << "ridgeline: " << error << '\n';
    }
    printSummary(result, out.output);
    report.progress(core::progress::finished(
        result.complete ? "complete" : "partial", out.output, outcome.exitCode, result.kernels, result.memops));
    if (outcome.signal != 0)
        std::cerr << fmt::format(
            "ridgeline: the program was ended by signal {} ({})\n", outcome.signal, strsignal(outcome.signal));
    return outcome.exitCode;
}

} // namespace ridgeline::collectors
