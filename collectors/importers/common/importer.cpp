// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importers/importer.h"

#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/analysis/sessionverdicts.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/store/sessionamend.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::collectors {

namespace {

std::string plural(std::int64_t n, std::string_view word)
{
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// What an importer's result becomes: its format, its warnings and the line `summarize` makes of its counts.
template <typename Imported, typename Summarize>
core::Result<ImportResult> resultOf(core::Result<Imported> imported, FileFormat format, Summarize summarize)
{
    if (imported.hasError())
        return imported.error();
    ImportResult result;
    result.format = format;
    result.warnings = imported.value().warnings;
    result.summary = summarize(imported.value());
    return result;
}

// The summary of the Nsight Compute importers, which count kernels and metrics.
template <typename Counts>
std::string kernelsAndMetrics(const Counts& s, const std::string& from, const ImportRequest& request)
{
    return fmt::format("imported {} with {} from {} into {}", plural(s.kernels, "kernel"), plural(s.metrics, "metric"),
        from, request.output);
}

core::Result<ImportResult> importNcu(const ImportRequest& request)
{
    return resultOf(importNcuCsv(request.inputs.front(), request.output, request.overwrite),
        FileFormat::NsightComputeCsv,
        [&](const auto& s) { return kernelsAndMetrics(s, request.inputs.front(), request); });
}

core::Result<ImportResult> importNcuReports(const ImportRequest& request)
{
    return resultOf(importNcuRep(request.inputs, request.output, request.overwrite), FileFormat::NsightComputeReport,
        [&](const auto& s) {
            const std::string from = request.inputs.size() == 1 ? request.inputs.front()
                                                                : fmt::format("{} reports", request.inputs.size());
            return kernelsAndMetrics(s, from, request);
        });
}

core::Result<ImportResult> importNsys(const ImportRequest& request)
{
    return resultOf(importNsysSqlite(request.inputs.front(), request.output, request.overwrite),
        FileFormat::NsightSystemsSqlite, [&](const auto& s) {
            // Which nsys made the file, as its metadata table says.
            std::string madeBy;
            if (!s.productVersion.empty())
                madeBy = "Nsight Systems " + s.productVersion;
            if (!s.schemaVersion.empty())
                madeBy += fmt::format("{}export schema {}", madeBy.empty() ? "" : ", ", s.schemaVersion);
            std::string summary = fmt::format("imported {}, {}, {}, {} and {} from {}{} into {}",
                plural(s.kernels, "kernel"), plural(s.memcpys, "memcpy"), plural(s.memsets, "memset"),
                plural(s.apiCalls, "API call"), plural(s.nvtxRanges, "NVTX range"), request.inputs.front(),
                madeBy.empty() ? std::string() : " (" + madeBy + ")", request.output);
            if (s.graphLaunches > 0)
                summary
                    += fmt::format("; {} CUDA graph launch{} traced as a whole (their kernels are not in the export)",
                        s.graphLaunches, s.graphLaunches == 1 ? "" : "es");
            if (s.commOps > 0)
                summary += fmt::format("; {} carry collectives", plural(s.commOps, "NCCL kernel"));
            if (s.sizedCommOps > 0)
                summary += fmt::format(" ({} with message sizes from NCCL's NVTX payloads)", s.sizedCommOps);
            return summary; // no GPU activity, sizes unknown: the importer's warnings say so
        });
}

core::Result<ImportResult> importKinetoTraces(const ImportRequest& request)
{
    return resultOf(importKineto(request.inputs, request.output, request.overwrite, request.progress),
        FileFormat::KinetoJson, [&](const auto& s) {
            std::string from = request.inputs.front();
            if (request.inputs.size() > 1) {
                std::string ranks;
                for (int rank : s.ranks)
                    ranks += fmt::format("{}{}", ranks.empty() ? "" : ", ", rank);
                from = fmt::format("{} files (ranks {})", request.inputs.size(), ranks);
            }
            return fmt::format("imported {}, {}, {}, {}, {}, {} and {} from {} into {}", plural(s.kernels, "kernel"),
                plural(s.memcpys, "memcpy"), plural(s.memsets, "memset"), plural(s.commOps, "collective"),
                plural(s.apiCalls, "API call"), plural(s.ranges, "annotation"), plural(s.operators, "operator"), from,
                request.output);
        });
}

core::Error unsupported(const std::string& path, FileFormat format)
{
    if (format == FileFormat::Unknown)
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: not a format Ridgeline imports (Nsight Compute: a .ncu-rep report, or CSV from ncu --csv "
                        "--page raw or --page details)",
                path));
    return core::makeError(
        core::ErrorCode::BadFile, fmt::format("{}: {} import is not supported yet", path, toString(format)));
}

// `--gpu NAME`: the devices the file left unnamed become that GPU, with its datasheet ceilings.
core::Result<ImportResult> nameGpu(const ImportRequest& request, const GpuResolution& gpu, ImportResult result)
{
    const GpuSpec& spec = *gpu.spec;
    core::SessionAmendment amendment;
    amendment.unnamedDevices = core::SessionAmendment::DeviceNaming { spec.name, spec.ccMajor, spec.ccMinor,
        spec.smCount, static_cast<std::int64_t>(spec.boostClockHz / 1e3), datasheetCeilings(spec, 0) };
    amendment.meta["import.gpu"] = gpu.note.empty() ? spec.name : gpu.note;
    // The importer's warnings about unnamed GPUs are answered by the naming, in the session's
    // `warning` too (the importers write their warnings there joined by "; ").
    const auto unnamed = [](const ImportWarning& w) { return w.kind == WarningKind::UnnamedGpu; };
    ImportWarnings remaining = result.warnings;
    if (std::erase_if(remaining, unnamed) > 0)
        amendment.meta["warning"] = joinedText(remaining, "; ");
    auto amended = core::amendSessionAndVerdicts(request.output, amendment);
    if (amended.hasError())
        return amended.error();
    if (amended.value().devicesNamed == 0) {
        result.warnings.push_back(
            fmt::format("--gpu \"{}\" changed nothing: the file names every device it describes", request.gpuName));
        return result;
    }
    std::erase_if(result.warnings, unnamed);
    if (!gpu.note.empty())
        result.warnings.push_back(gpu.note);
    result.summary += fmt::format("; {} named {}", plural(amended.value().devicesNamed, "device"), spec.name);
    return result;
}

// The Slurm job the import ran in (core/base/slurmjob.h): its meta, and its rank where asked.
core::Status recordJob(const ImportRequest& request)
{
    if (request.job.empty())
        return {};
    core::SessionAmendment amendment;
    amendment.meta = core::slurmJobMeta(request.job);
    if (request.rankFromJob)
        amendment.defaultRank = request.job.procId;
    auto amended = core::amendSession(request.output, amendment);
    if (amended.hasError())
        return amended.error();
    return {};
}

core::Result<ImportResult> importByFormat(const ImportRequest& request);

} // namespace

core::Result<ImportResult> importFiles(const ImportRequest& request)
{
    std::optional<GpuResolution> gpu;
    if (!request.gpuName.empty()) {
        gpu = resolveGpu(request.gpuName);
        if (!gpu->spec)
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format(
                    "--gpu \"{}\": not a GPU Ridgeline knows (`ridgeline ceilings` lists them)", request.gpuName));
    }
    auto imported = importByFormat(request);
    if (imported.hasError())
        return imported;
    if (auto recorded = recordJob(request); recorded.hasError())
        return recorded.error();
    auto result = gpu ? nameGpu(request, *gpu, std::move(imported).value()) : std::move(imported);
    if (result.hasError())
        return result;
    // Last, once the session is named and amended: a large one keeps its timeline analysis, so that
    // a report reads a row per device (storedtimeline.h). Without it a report scans, as before.
    if (auto stored = core::storeTimelineSummariesIfLarge(request.output); stored.hasError())
        result.value().warnings.push_back(
            fmt::format("the timeline analysis was not stored in the session ({}); reports work it out each time",
                stored.error().message));
    return result;
}

namespace {

core::Result<ImportResult> importByFormat(const ImportRequest& request)
{
    if (request.inputs.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no file to import");
    // The content decides, not the extension: a renamed file still goes to the right importer.
    std::vector<FileFormat> formats;
    for (const auto& input : request.inputs) {
        auto format = detectFileFormat(input);
        if (format.hasError())
            return format.error();
        formats.push_back(format.value());
    }
    const FileFormat format = formats.front();
    for (std::size_t i = 1; i < formats.size(); ++i) {
        // Plain and gzipped Kineto traces (one per rank) go together.
        const auto kinetoLike = [](FileFormat f) { return f == FileFormat::KinetoJson || f == FileFormat::GzipJson; };
        if (formats[i] != format && !(kinetoLike(formats[i]) && kinetoLike(format)))
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("{} is a {} but {} is a {}: import files of one kind together", request.inputs.front(),
                    toString(format), request.inputs[i], toString(formats[i])));
    }
    switch (format) {
    case FileFormat::NsightComputeCsv:
        if (request.inputs.size() > 1)
            return core::makeError(
                core::ErrorCode::InvalidArgument, "Nsight Compute CSV files are imported one at a time");
        return importNcu(request);
    case FileFormat::NsightComputeReport: // several reports (e.g. one per ncu run) make one session
        return importNcuReports(request);
    case FileFormat::NsightSystemsSqlite:
        if (request.inputs.size() > 1)
            return core::makeError(
                core::ErrorCode::InvalidArgument, "Nsight Systems exports are imported one at a time");
        return importNsys(request);
    case FileFormat::KinetoJson:
    case FileFormat::GzipJson: // one file per rank: several files make one multi-rank session
        return importKinetoTraces(request);
    case FileFormat::RidgelineSession:
    case FileFormat::OtherSqlite:
    case FileFormat::Unknown:
        break;
    }
    // No default above: a new format without an importer is a -Wswitch error.
    return unsupported(request.inputs.front(), format);
}

} // namespace

} // namespace ridgeline::collectors
