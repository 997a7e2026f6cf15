// SPDX-License-Identifier: MIT
// Writes the kernels read from an ncu CSV as a session: devices and their datasheet ceilings,
// processes, kernels on a synthetic timeline, metrics and verdicts.
#include "common/importsession.h"
#include "ncucsvinternal.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <set>

namespace ridgeline::collectors::ncu {

namespace {

using DeviceKey = std::pair<std::string, int>; // host, CUDA device index
using ProcessKey = std::pair<std::string, std::int64_t>; // host, pid

struct Timing {
    std::int64_t durationNs = 0;
    bool derived = false; // from cycles / clock, not gpu__time_duration.sum
    bool known = false;
};

// A plausible duration: not negative, under a day (a corrupt value must not overflow the timeline).
bool plausibleNs(double ns)
{
    return ns >= 0 && ns < 86'400e9;
}

// gpu__time_duration.sum, else NERSC's Time = sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second.
Timing timingOf(const ParsedProfile& profile, const ImportedKernel& kernel)
{
    if (auto ns = profile.metric(kernel, core::metric::Duration); ns && plausibleNs(*ns))
        return { static_cast<std::int64_t>(std::llround(*ns)), false, true };
    const auto cycles = profile.metric(kernel, core::metric::SmCyclesElapsed);
    const auto hz = profile.metric(kernel, core::metric::SmClock);
    if (cycles && hz && *hz > 0 && plausibleNs(*cycles / *hz * 1e9))
        return { static_cast<std::int64_t>(std::llround(*cycles / *hz * 1e9)), true, true };
    return {};
}

// A launch size total (launch__grid_size, launch__block_size) as x of a Dim3, when it fits.
std::optional<std::uint32_t> launchTotal(
    const ParsedProfile& profile, const ImportedKernel& kernel, std::string_view name)
{
    const auto total = profile.metric(kernel, name);
    if (!total || !(*total >= 1 && *total <= 4294967295.0))
        return std::nullopt;
    return static_cast<std::uint32_t>(std::llround(*total));
}

struct Devices {
    std::map<DeviceKey, std::int64_t> ids;
    std::map<std::int64_t, core::Device> byId; // node-stable: KernelFacts point into it
    std::map<std::int64_t, std::vector<core::Ceiling>> ceilings;
};

Devices collectDevices(const std::vector<ImportedKernel>& kernels)
{
    Devices devices;
    for (const auto& k : kernels) {
        const DeviceKey key { k.host, k.deviceIndex };
        auto [it, added] = devices.ids.try_emplace(key, 0);
        if (added) {
            // The CUDA index is the id, unless another host's device took it already.
            std::int64_t id = k.deviceIndex;
            if (id < 0 || devices.byId.contains(id))
                id = devices.byId.empty() ? 0 : devices.byId.rbegin()->first + 1;
            it->second = id;
            core::Device device;
            device.id = id;
            device.host = k.host;
            device.ordinal = k.deviceIndex;
            devices.byId.emplace(id, device);
        }
        auto& d = devices.byId[it->second];
        // Each row repeats what it knows of the device; take the first value of each field.
        if (d.name.empty())
            d.name = k.deviceName;
        if (d.ccMajor == 0 && k.ccMajor != 0) {
            d.ccMajor = k.ccMajor;
            d.ccMinor = k.ccMinor;
        }
        d.smCount = d.smCount != 0 ? d.smCount : k.smCount;
        d.coreClockKhz = d.coreClockKhz != 0 ? d.coreClockKhz : k.coreClockKhz;
        d.memoryClockKhz = d.memoryClockKhz != 0 ? d.memoryClockKhz : k.memoryClockKhz;
        d.l2CacheBytes = d.l2CacheBytes != 0 ? d.l2CacheBytes : k.l2CacheBytes;
        d.memoryBytes = d.memoryBytes != 0 ? d.memoryBytes : k.memoryBytes;
        d.memoryBusWidthBits = d.memoryBusWidthBits != 0 ? d.memoryBusWidthBits : k.memoryBusWidthBits;
        d.maxThreadsPerSm = d.maxThreadsPerSm != 0 ? d.maxThreadsPerSm : k.maxThreadsPerSm;
    }
    return devices;
}

// Datasheet ceilings for each device the catalogue knows; a warning for each it does not.
// "GPU 0 (CC 9.0, 132 SMs)" with only the parts the file gave.
std::string describe(const core::Device& device)
{
    std::string known;
    if (device.ccMajor > 0)
        known = fmt::format("CC {}.{}", device.ccMajor, device.ccMinor);
    if (device.smCount > 0)
        known += fmt::format("{}{} SMs", known.empty() ? "" : ", ", device.smCount);
    return known.empty() ? std::string() : " (" + known + ")";
}

// Datasheet ceilings for each device the catalogue knows; a warning for each it does not.
void lookUpCeilings(Devices& devices, ImportWarnings& warnings)
{
    for (auto& [id, device] : devices.byId) {
        const bool unnamed = device.name.empty();
        if (unnamed)
            device.name = "unknown GPU";
        auto found = importing::catalogueCeilings(device);
        if (found) {
            if (!found->note.empty())
                warnings.emplace_back(unnamed ? WarningKind::UnnamedGpu : WarningKind::Other,
                    fmt::format("GPU {}: {}", device.ordinal, found->note));
            devices.ceilings[id] = std::move(found->ceilings);
        } else if (unnamed) {
            // The catalogue entries that fit what the file says of it, when it says enough.
            std::string candidates = importing::unnamedGpuNote(device);
            constexpr std::string_view kSaid = "no GPU name in the file; ";
            if (candidates.starts_with(kSaid))
                candidates.erase(0, kSaid.size());
            warnings.emplace_back(WarningKind::UnnamedGpu,
                fmt::format("the file does not name GPU {}{}: no datasheet ceilings for it{}{}collect "
                            "device__attribute_display_name, e.g. with --page raw)",
                    device.ordinal, describe(device), candidates.empty() ? "" : "; " + candidates,
                    candidates.empty() ? " (" : " (or "));
        } else {
            warnings.push_back(
                fmt::format("GPU {}{} is not in Ridgeline's catalogue: no datasheet ceilings for device {}",
                    quotedField(device.name), describe(device), id));
        }
    }
}

std::string kernelsHave(std::int64_t count)
{
    return count == 1 ? std::string("1 kernel has") : fmt::format("{} kernels have", count);
}

} // namespace

core::Result<ImportSummary> writeSession(
    const CsvFile& file, ParsedProfile profile, const std::string& sessionPath, bool overwrite)
{
    core::WriterOptions options;
    options.replaceExisting = overwrite;
    auto created = core::SessionWriter::create(sessionPath, options);
    if (created.hasError())
        return created.error();
    auto summary = writeProfile(created.value(), file, std::move(profile));
    if (summary.hasError())
        return summary.error();
    RIDGELINE_TRY(created.value().finish(core::SessionStatus::Complete));
    return summary;
}

core::Result<ImportSummary> writeProfile(core::SessionWriter& writer, const CsvFile& file, ParsedProfile profile)
{
    auto& kernels = profile.kernels;
    // Nsight Compute serialises kernels: its IDs are the launch order.
    std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) { return a.ncuId < b.ncuId; });

    ImportSummary summary;
    summary.skippedColumns = profile.skippedColumns;
    summary.warnings = std::move(profile.warnings);
    if (!profile.hasLaunchDims)
        summary.warnings.push_back("the file has no (x, y, z) launch sizes (older ncu): grid and block are the "
                                   "totals launch__grid_size and launch__block_size, in x");

    Devices devices = collectDevices(kernels);
    lookUpCeilings(devices, summary.warnings);

    // The synthetic timeline.
    std::vector<Timing> timings;
    std::int64_t derived = 0, unknown = 0;
    for (const auto& k : kernels) {
        timings.push_back(timingOf(profile, k));
        derived += timings.back().derived ? 1 : 0;
        unknown += timings.back().known ? 0 : 1;
    }
    if (derived > 0)
        summary.warnings.push_back(fmt::format("{} no gpu__time_duration.sum: durations are "
                                               "sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second",
            kernelsHave(derived)));

    const auto fileName = std::filesystem::path(file.path).filename().string();
    RIDGELINE_TRY(importing::beginImport(writer, profile.source,
        file.firstProfLine.empty() ? fileName : fmt::format("{} ({})", fileName, file.firstProfLine)));
    RIDGELINE_TRY(writer.setMeta("ncu_page", profile.page));
    for (const auto& [key, value] : profile.meta)
        RIDGELINE_TRY(writer.setMeta(key, value));
    RIDGELINE_TRY(writer.setMeta("timeline",
        fmt::format("synthetic: Nsight Compute serialises kernels and records no timestamps; kernels are in ID "
                    "order, each starting {} ns after the previous one ended",
            kSyntheticGapNs)));
    for (const auto& [id, device] : devices.byId)
        RIDGELINE_TRY(importing::writeDevice(writer, device, devices.ceilings));

    // Processes span their kernels.
    std::map<ProcessKey, core::Process> processes;
    std::vector<core::Kernel> records;
    std::int64_t clock = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto& k = kernels[i];
        core::Kernel record;
        record.id = static_cast<std::int64_t>(i) + 1;
        record.deviceId = devices.ids.at({ k.host, k.deviceIndex });
        record.contextId = k.context;
        record.streamId = k.stream;
        record.correlationId = k.ncuId; // keeps the ncu ID ("ID" column) of each launch
        auto nameId = writer.internKernelName(k.name, k.demangledName);
        if (nameId.hasError())
            return nameId.error();
        record.nameId = nameId.value();
        record.startNs = clock;
        record.endNs = clock + timings[i].durationNs;
        clock = record.endNs + kSyntheticGapNs;
        record.grid = k.grid;
        record.block = k.block;
        if (!profile.hasLaunchDims) {
            if (auto total = launchTotal(profile, k, "launch__grid_size"))
                record.grid = { *total, 1, 1 };
            if (auto total = launchTotal(profile, k, "launch__block_size"))
                record.block = { *total, 1, 1 };
        }
        record.registersPerThread = k.registersPerThread;
        record.staticSharedBytes = k.staticSharedBytes;
        record.dynamicSharedBytes = k.dynamicSharedBytes;
        auto [process, added] = processes.try_emplace({ k.host, k.pid });
        if (added) {
            process->second.pid = k.pid;
            process->second.host = k.host;
            process->second.command = k.processName;
            process->second.startNs = record.startNs;
        }
        process->second.endNs = record.endNs;
        records.push_back(record);
    }
    std::map<ProcessKey, std::int64_t> processIds;
    for (const auto& [key, process] : processes) {
        auto id = writer.addProcess(process);
        if (id.hasError())
            return id.error();
        processIds[key] = id.value();
    }
    for (std::size_t i = 0; i < kernels.size(); ++i)
        records[i].processId = processIds.at({ kernels[i].host, kernels[i].pid });
    auto added = writer.addKernels(records);
    if (added.hasError())
        return added.error();

    // Each kernel's values go to the writer as one row, by the session's id of each name (interned
    // when first used). Only the values the analysis reads go into its facts.
    const auto& table = profile.metricNames;
    std::vector<std::int64_t> sessionIds(table.size(), 0);
    std::vector<bool> feeds(table.size());
    for (std::size_t id = 0; id < table.size(); ++id)
        feeds[id] = core::feedsAnalysis(table.name(static_cast<std::uint32_t>(id)));
    std::vector<core::MetricById> values;
    std::int64_t metricCount = 0;
    std::vector<core::Verdict> verdicts;
    verdicts.reserve(kernels.size());
    // The session also records the ceilings the counters give (peak per cycle x clock), per device
    // from its first launch that has them; each launch's own are used for its verdict.
    std::set<std::int64_t> withCounterCeilings;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        auto facts = importing::launchFacts(
            records[i], &devices.byId.at(records[i].deviceId), devices.ceilings, kernels[i].name);
        values.clear();
        for (const auto& [id, value] : kernels[i].metrics.values()) {
            auto& sessionId = sessionIds[id];
            if (sessionId == 0) {
                auto interned = writer.internMetricName(table.name(id), table.unit(id));
                if (interned.hasError())
                    return interned.error();
                sessionId = interned.value();
            }
            values.push_back({ sessionId, value });
            if (feeds[id])
                facts.metrics.emplace(table.name(id), value);
        }
        RIDGELINE_TRY(writer.addKernelMetrics(records[i].id, values));
        metricCount += static_cast<std::int64_t>(values.size());
        verdicts.push_back(core::toVerdict(core::analyzeKernel(facts)));
        if (!withCounterCeilings.count(records[i].deviceId)) {
            const auto fromCounters = core::ceilingsFromCounters(facts.metrics, records[i].deviceId);
            if (!fromCounters.empty()) {
                RIDGELINE_TRY(writer.addCeilings(fromCounters));
                withCounterCeilings.insert(records[i].deviceId);
            }
        }
    }
    RIDGELINE_TRY(writer.setVerdicts(verdicts));
    if (unknown > 0) {
        // Nsight Compute's Speed-of-Light class needs no time: launches that have its throughputs keep it.
        std::int64_t classified = 0;
        for (std::size_t i = 0; i < kernels.size(); ++i)
            classified += !timings[i].known && verdicts[i].verdict != core::VerdictClass::Unknown ? 1 : 0;
        std::string verdictText = "verdict unknown";
        if (classified == unknown)
            verdictText = "their verdicts come from ncu's Speed-of-Light throughputs, which need no time";
        else if (classified > 0)
            verdictText = fmt::format("{} of them get a verdict from ncu's Speed-of-Light throughputs, which need no "
                                      "time; the others' are unknown",
                classified);
        summary.warnings.push_back(
            fmt::format("{} no duration (gpu__time_duration.sum missing, or not a number): 0 ns on the "
                        "timeline and no rates; {}",
                kernelsHave(unknown), verdictText));
    }
    // Nsight Compute's own rule results ("ncu estimates"), on the kernels' session ids.
    std::vector<core::NcuRule> rules;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        for (auto rule : kernels[i].rules) {
            rule.kernelId = records[i].id;
            rules.push_back(std::move(rule));
        }
    }
    RIDGELINE_TRY(writer.addNcuRules(rules));
    RIDGELINE_TRY(importing::endImport(writer, summary.warnings));

    summary.kernels = static_cast<std::int64_t>(kernels.size());
    summary.metrics = metricCount;
    return summary;
}

} // namespace ridgeline::collectors::ncu
