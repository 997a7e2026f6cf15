// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/captureassembly.h"

#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/launch/partfiles.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/analysis/sessionverdicts.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/store/sessionamend.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

namespace ridgeline::collectors {

namespace {

namespace fs = std::filesystem;

void addOnce(std::vector<std::string>& list, const std::string& text)
{
    if (!text.empty() && std::find(list.begin(), list.end(), text) == list.end())
        list.push_back(text);
}

std::string joined(const std::vector<std::string>& list)
{
    std::string out;
    for (const auto& s : list)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

// The launcher's own session: empty, the first input of the merge (one part then merges the same
// way as many) and, with no part at all, the session itself.
core::Status writeBaseSession(const std::string& path)
{
    core::WriterOptions options;
    options.replaceExisting = true;
    auto writer = core::SessionWriter::create(path, options);
    if (writer.hasError())
        return writer.error();
    return writer.value().finish(core::SessionStatus::Complete);
}

// The ceilings a captured session carries, per GPU UUID: the datasheet figures of the device the
// driver reported (the catalogue lookup the importers use), the counter ceilings of its first
// profiled launch (peak per cycle x the clock it ran at, core::ceilingsFromCounters), and the
// measured ones cached for it.
struct SessionCeilings {
    std::map<std::string, std::vector<core::Ceiling>> byUuid;
    int devicesWithMeasured = 0;
    std::vector<std::string> warnings;
};

// Peak and clock counters of every kernel that has them (all ceilingsFromCounters reads).
using MetricMap = std::map<std::string, double, std::less<>>;

core::Result<std::map<std::int64_t, MetricMap>> peakCounters(core::SessionReader& reader)
{
    std::map<std::int64_t, MetricMap> byKernel;
    auto visited = reader.forEachMetric([&](std::int64_t kernel, const std::string& name, double value) {
        if (name.ends_with(".peak_sustained") || name.ends_with(".per_second"))
            byKernel[kernel].emplace(name, value);
    });
    if (visited.hasError())
        return visited.error();
    return byKernel;
}

core::Result<SessionCeilings> ceilingsFor(const std::string& session, const AssemblyRequest& request)
{
    SessionCeilings out;
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        return reader.error();
    auto devices = reader.value().devices();
    if (devices.hasError())
        return devices.error();
    auto peaks = peakCounters(reader.value());
    if (peaks.hasError())
        return peaks.error();
    std::vector<std::int64_t> ids;
    for (const auto& [id, metrics] : peaks.value())
        ids.push_back(id);
    auto kernels = reader.value().kernelsById(ids);
    if (kernels.hasError())
        return kernels.error();
    // A GPU can be in the session several times (one device row per part): one set per UUID.
    std::map<std::string, std::vector<const core::Device*>> byUuid;
    for (const auto& device : devices.value()) {
        if (!device.uuid.empty())
            byUuid[device.uuid].push_back(&device);
    }
    for (const auto& [uuid, rows] : byUuid) {
        const core::Device& device = *rows.front();
        std::vector<core::Ceiling> ceilings;
        const auto gpu = resolveGpu(device.name, device.ccMajor, device.ccMinor, device.smCount);
        if (gpu.spec != nullptr)
            ceilings = datasheetCeilings(*gpu.spec, device.id);
        if (!gpu.note.empty())
            addOnce(out.warnings, gpu.note);
        if (gpu.spec == nullptr)
            addOnce(out.warnings,
                fmt::format("GPU \"{}\" is not in Ridgeline's catalogue: no datasheet ceilings", device.name));
        // Kernels come back in the order of their ids: the first of this GPU whose peaks give ceilings.
        for (const auto& kernel : kernels.value()) {
            const bool ours = std::any_of(
                rows.begin(), rows.end(), [&](const core::Device* d) { return d->id == kernel.deviceId; });
            if (!ours)
                continue;
            auto fromCounters = core::ceilingsFromCounters(peaks.value().at(kernel.id), device.id);
            if (!fromCounters.empty()) {
                ceilings.insert(ceilings.end(), fromCounters.begin(), fromCounters.end());
                break;
            }
        }
        if (request.measuredCeilings) {
            auto measured = request.measuredCeilings(uuid);
            if (!measured.empty())
                out.devicesWithMeasured += static_cast<int>(rows.size());
            ceilings.insert(ceilings.end(), measured.begin(), measured.end());
        }
        if (!ceilings.empty())
            out.byUuid[uuid] = std::move(ceilings);
    }
    return out;
}

// Publishes `from` as `to`: never replaces a file without `overwrite` (link fails if it exists).
core::Status publish(const std::string& from, const std::string& to, bool overwrite)
{
    if (overwrite) {
        if (::rename(from.c_str(), to.c_str()) != 0)
            return core::makeError(core::ErrorCode::Io, fmt::format("cannot write {}: {}", to, std::strerror(errno)));
        return {};
    }
    if (::link(from.c_str(), to.c_str()) != 0)
        return core::makeError(core::ErrorCode::Io,
            errno == EEXIST ? fmt::format("{} appeared during the capture; not replaced (use --force)", to)
                            : fmt::format("cannot write {}: {}", to, std::strerror(errno)));
    ::unlink(from.c_str());
    return {};
}

struct Recovered {
    std::vector<std::string> copies;
    bool allComplete = true;
    // Part meta the session keeps (each value once, in part order): capture.metrics,
    // capture.replay_passes and capture.signal (the signal a process died of, from its crash file).
    std::map<std::string, std::vector<std::string>> carried;
};

constexpr const char* kCarriedMeta[] = { "capture.metrics", "capture.replay_passes", "capture.signal" };

// A process that died of a signal left `<host>-<pid>.crash` (records its handler flushed): each
// non-empty one becomes a part of its own before the parts are read.
void recoverCrashFiles(const AssemblyRequest& request, AssemblyResult& result)
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(request.partDir, ec)) {
        const auto path = entry.path().string();
        if (!path.ends_with(".crash"))
            continue;
        if (!request.recoverCrash) {
            addOnce(result.warnings, fmt::format("crash file {} cannot be read by this build; it is kept", path));
            result.partsKept = true;
            continue;
        }
        if (auto recovered = request.recoverCrash(path); recovered.hasError()) {
            addOnce(result.warnings,
                fmt::format("crash file {} could not be recovered ({}); it is kept", path, recovered.error().message));
            result.partsKept = true;
            continue;
        }
        ++result.crashFiles;
    }
}

Recovered recoverParts(const AssemblyRequest& request, const std::string& recoveredDir, AssemblyResult& result)
{
    recoverCrashFiles(request, result);
    Recovered recovered;
    for (const auto& part : listPartFiles(request.partDir)) {
        ++result.parts;
        auto copy = recoverPart(part, recoveredDir);
        auto summary = copy.ok() ? summarizePart(copy.value()) : core::Result<PartSummary>(copy.error());
        if (summary.hasError()) {
            addOnce(result.warnings,
                fmt::format("part file {} could not be read ({}); it is kept", part, summary.error().message));
            result.partsKept = true;
            recovered.allComplete = false;
            continue;
        }
        const auto& s = summary.value();
        result.kernels += s.kernels;
        result.memops += s.memops;
        result.droppedRecords += s.droppedRecords;
        recovered.allComplete = recovered.allComplete && s.complete;
        if (auto it = s.meta.find("capture.error"); it != s.meta.end())
            addOnce(result.errors, it->second);
        if (auto it = s.meta.find("capture.warning"); it != s.meta.end())
            addOnce(result.warnings, it->second);
        for (const char* key : kCarriedMeta) {
            if (auto it = s.meta.find(key); it != s.meta.end())
                addOnce(recovered.carried[key], it->second);
        }
        recovered.copies.push_back(copy.value());
    }
    return recovered;
}

core::Status amend(
    const std::string& path, const AssemblyRequest& request, const Recovered& recovered, AssemblyResult& result)
{
    auto ceilings = ceilingsFor(path, request);
    if (ceilings.hasError())
        return ceilings.error();
    for (const auto& w : ceilings.value().warnings)
        addOnce(result.warnings, w);
    core::SessionAmendment amendment;
    result.complete = recovered.allComplete && request.programEndedNormally && !result.partsKept;
    amendment.status = result.complete ? core::SessionStatus::Complete : core::SessionStatus::Partial;
    std::vector<std::string> errors = request.launcherErrors;
    for (const auto& e : result.errors)
        addOnce(errors, e);
    result.errors = errors;
    std::string origin;
    for (const auto& copy : recovered.copies)
        origin += (origin.empty() ? "" : ", ") + fs::path(copy).filename().string();
    amendment.meta = {
        { core::metakey::Source, "capture" },
        { core::metakey::Origin, origin.empty() ? "ridgeline capture (no part files)" : origin },
        { core::metakey::CaptureCommand, request.program.command },
        { core::metakey::Host, request.program.host },
        { "capture.session_id", request.sessionId },
        { "capture.parts", std::to_string(result.parts) },
        { "capture.dropped_records", std::to_string(result.droppedRecords) },
        { "capture.exit_status", std::to_string(request.program.exitStatus.value_or(-1)) },
    };
    if (!errors.empty())
        amendment.meta["capture.error"] = joined(errors);
    if (!result.warnings.empty())
        amendment.meta["capture.warning"] = joined(result.warnings);
    for (const auto& [key, values] : recovered.carried)
        amendment.meta[key] = joined(values);
    amendment.meta.merge(core::slurmJobMeta(request.job));
    amendment.defaultRank = request.job.procId;
    amendment.ceilingsByUuid = std::move(ceilings.value().byUuid);
    amendment.processes = { request.program };
    auto amended = core::amendSessionAndVerdicts(path, amendment);
    if (amended.hasError())
        return amended.error();
    result.devicesWithMeasuredCeilings = ceilings.value().devicesWithMeasured;
    return {};
}

// The ranks' summaries and the timeline analysis (`ridgeline summarize`), so that a report over many
// captures reads only these, and one of a long capture a row per device. A session without them is
// summarised by the report instead: a failure here loses nothing.
void summarize(const std::string& path)
{
    std::vector<core::RankSummary> summaries;
    core::TimelineToStore timeline; // what the summaries were made from: stored without a second scan
    {
        auto reader = core::SessionReader::open(path); // closed before the file is written
        if (reader.hasError())
            return;
        auto made = core::summarizeRanks(reader.value(), 5, &timeline);
        if (made.hasError())
            return;
        summaries = std::move(made).value();
    }
    (void)core::storeRankSummaries(path, summaries);
    (void)core::storeTimelineSummaries(path, timeline);
}

} // namespace

core::Result<AssemblyResult> assembleCapture(const AssemblyRequest& request)
{
    AssemblyResult result;
    const std::string recoveredDir = (fs::path(request.partDir) / "recovered").string();
    std::error_code ec;
    fs::create_directories(recoveredDir, ec);
    if (ec)
        return core::makeError(core::ErrorCode::Io, fmt::format("cannot create {}: {}", recoveredDir, ec.message()));
    const auto recovered = recoverParts(request, recoveredDir, result);

    const std::string base = (fs::path(recoveredDir) / "launcher.ridge").string();
    const std::string staging = fmt::format("{}.tmp-capture-{}", request.output, getpid());
    auto cleanup = [&] {
        for (const char* suffix : { "", "-journal", "-wal", "-shm" })
            fs::remove(staging + suffix, ec);
    };
    auto failed = [&](const core::Error& error) -> core::Error {
        cleanup();
        return core::makeError(
            error.code, fmt::format("{}; the captured data is kept in {}", error.message, request.partDir));
    };
    if (auto written = writeBaseSession(base); written.hasError())
        return failed(written.error());
    if (recovered.copies.empty()) {
        fs::copy_file(base, staging, fs::copy_options::overwrite_existing, ec);
        if (ec)
            return failed(
                core::makeError(core::ErrorCode::Io, fmt::format("cannot write {}: {}", staging, ec.message())));
    } else {
        std::vector<std::string> inputs { base };
        inputs.insert(inputs.end(), recovered.copies.begin(), recovered.copies.end());
        if (auto merged = core::mergeSessions(inputs, staging, true); merged.hasError())
            return failed(merged.error());
    }
    if (auto amended = amend(staging, request, recovered, result); amended.hasError())
        return failed(amended.error());
    summarize(staging);
    if (auto published = publish(staging, request.output, request.overwrite); published.hasError())
        return failed(published.error());
    if (!result.partsKept)
        fs::remove_all(request.partDir, ec);
    return result;
}

} // namespace ridgeline::collectors
