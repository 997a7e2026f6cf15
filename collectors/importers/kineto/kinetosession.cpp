// SPDX-License-Identifier: MIT
// Writes parsed Kineto traces as one session: one process per rank (file), the devices its GPU
// ops ran on (ids unique across ranks) with datasheet ceilings, kernels, copies, runtime calls,
// annotations, NCCL collectives and verdicts. Each file is read, written and freed in turn.
#include "common/importsession.h"
#include "kinetointernal.h"
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <map>
#include <set>

namespace ridgeline::collectors {

namespace kineto {
namespace {

bool hasGpuActivity(const ParsedTrace& trace)
{
    return !trace.kernels.empty() || !trace.memops.empty();
}

std::string fileName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

bool isAmdGpu(const std::string& name)
{
    return name.find("AMD") != std::string::npos || name.find("Radeon") != std::string::npos
        || name.find("Instinct") != std::string::npos;
}

// Warnings that need no session: missing rank, no GPU activity, other accelerators, counter ranges.
void traceWarnings(const ParsedTrace& trace, ImportWarnings& warnings)
{
    if (!trace.hasDistributedInfo)
        warnings.push_back(fmt::format("{} has no distributedInfo rank: the rank is unknown (-1)", trace.name));
    const bool amd = std::any_of(
        trace.devices.begin(), trace.devices.end(), [](const auto& device) { return isAmdGpu(device.name); });
    if (amd)
        warnings.push_back(fmt::format("{} is a trace of an AMD GPU (ROCm): its kernels and copies are imported, "
                                       "with no datasheet ceilings (the catalogue lists NVIDIA GPUs)",
            trace.name));
    if (!trace.otherAcceleratorOps.empty()) {
        std::string ops;
        for (const auto& [cat, count] : trace.otherAcceleratorOps)
            ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", count, cat);
        warnings.push_back(fmt::format("{} is a trace of a Meta MTIA accelerator: its device ops ({}) are not "
                                       "imported (Ridgeline models CUDA GPUs); host-side events are",
            trace.name, ops));
    }
    if (trace.profilerRanges > 0)
        warnings.push_back(fmt::format("{} holds {} CUPTI profiler ranges (the PyTorch profiler's counter mode): "
                                       "they are not imported, because that mode replays kernels one at a time and "
                                       "records no kernel times, so their counts give no FLOP/s and no roofline",
            trace.name, trace.profilerRanges));
    if (!hasGpuActivity(trace))
        warnings.push_back(fmt::format("no GPU activity in {}: no kernels, copies or memsets", trace.name));
}

struct SessionState {
    std::map<std::int64_t, core::Device> devices; // session id -> device (node-stable for KernelFacts)
    std::map<std::int64_t, std::vector<core::Ceiling>> ceilings;
    std::int64_t nextDeviceId = 0;
    std::int64_t nextKernelId = 1;
    std::int64_t nextProcessId = 1;
    std::map<std::int64_t, std::int64_t> fileProcesses; // host pid of the file being read -> process id
    std::set<int> ranks;
    OperatorNesting operators;
    // The operators' strings seen so far and their ids in the session: a batch's strings are looked
    // up here by the hash the batch already has, not hashed again in the writer.
    StringTable strings;
    std::vector<std::int64_t> stringIds { 0 };

    // The session process of a host pid of this file: reserved when first seen (its runtime calls
    // are written while the file is still being read), its row written once the file is read.
    std::int64_t processOf(std::int64_t pid)
    {
        const auto [it, added] = fileProcesses.try_emplace(pid, nextProcessId);
        if (added)
            ++nextProcessId;
        return it->second;
    }
};

// The datasheet ceilings of one device of the file (by its name, loosely, or by its CC and SM count
// when the file does not name it), with a warning whenever the match is not exact or there is none.
void lookUpCeilings(
    const ParsedTrace& trace, std::int64_t fileId, core::Device& device, SessionState& state, ImportWarnings& warnings)
{
    const bool unnamed = device.name.empty();
    if (unnamed)
        device.name = "unknown GPU";
    auto found = importing::catalogueCeilings(device);
    if (found) {
        state.ceilings[device.id] = std::move(found->ceilings);
        if (!found->note.empty())
            warnings.emplace_back(unnamed ? WarningKind::UnnamedGpu : WarningKind::Other,
                fmt::format("GPU {} of {}: {}", fileId, trace.name, found->note));
    } else if (unnamed) {
        warnings.emplace_back(WarningKind::UnnamedGpu,
            fmt::format(
                "{} does not describe GPU {} (no deviceProperties): no datasheet ceilings for it", trace.name, fileId));
    } else if (!isAmdGpu(device.name)) { // AMD GPUs have their own warning
        warnings.push_back(fmt::format("GPU \"{}\" of {} is not in Ridgeline's catalogue: no datasheet ceilings "
                                       "for device {}",
            device.name, trace.name, device.id));
    }
}

// Devices the file's GPU ops ran on, described by deviceProperties where it can: file id -> session id.
core::Result<std::map<std::int64_t, std::int64_t>> writeDevices(
    core::SessionWriter& writer, const ParsedTrace& trace, SessionState& state, ImportWarnings& warnings)
{
    std::set<std::int64_t> used;
    for (const auto& k : trace.kernels)
        used.insert(k.kernel.deviceId);
    for (const auto& op : trace.memops)
        used.insert(op.deviceId);
    std::map<std::int64_t, std::int64_t> ids;
    for (const auto fileId : used) {
        core::Device device;
        device.ordinal = static_cast<int>(std::clamp<std::int64_t>(fileId, -1, 1 << 20));
        for (const auto& described : trace.devices) {
            if (described.id == fileId)
                device = described;
        }
        device.id = state.nextDeviceId++;
        device.host = trace.hostName;
        lookUpCeilings(trace, fileId, device, state, warnings);
        RIDGELINE_TRY(importing::writeDevice(writer, device, state.ceilings));
        ids[fileId] = device.id;
        state.devices.emplace(device.id, device);
    }
    return ids;
}

// One process per host pid of the file, with the id reserved for it (the busiest owns the GPU ops).
core::Status writeProcesses(
    core::SessionWriter& writer, const ParsedTrace& trace, SessionState& state, std::int64_t& mainProcess)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> pids(trace.hostPidEvents.begin(), trace.hostPidEvents.end());
    std::stable_sort(pids.begin(), pids.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (pids.empty())
        pids.emplace_back(0, 0);
    std::vector<core::Thread> threads;
    for (const auto& [pid, count] : pids) {
        core::Process process;
        process.id = state.processOf(pid);
        process.pid = pid;
        process.host = trace.hostName;
        process.rank = trace.rank;
        process.worldSize = trace.worldSize;
        if (auto it = trace.processNames.find(pid); it != trace.processNames.end())
            process.command = it->second;
        process.startNs = trace.firstNs;
        process.endNs = trace.lastNs;
        if (auto added = writer.addProcess(process); added.hasError())
            return added.error();
        for (const auto& [key, name] : trace.threadNames) {
            if (key.first == pid)
                threads.push_back({ 0, process.id, key.second, name });
        }
    }
    RIDGELINE_TRY(writer.addThreads(threads));
    mainProcess = state.processOf(pids.front().first);
    return {};
}

// Without counters the verdict comes from what the trace knows: collectives by kind, others unknown.
std::vector<core::Verdict> kernelVerdicts(const std::vector<core::Kernel>& kernels,
    const std::vector<std::string>& collectives, const std::map<std::size_t, core::CollectiveFigures>& commFigures,
    const SessionState& state)
{
    std::vector<core::Verdict> verdicts;
    verdicts.reserve(kernels.size());
    // A trace's launches have no counters: the ceilings they are judged against are their device's,
    // chosen once per device instead of copied and chosen per launch.
    std::map<std::int64_t, core::ResourceMap<core::CeilingUsed>> roofs;
    const importing::CeilingsByDevice none;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto& record = kernels[i];
        const core::Device* device = &state.devices.at(record.deviceId);
        auto [held, added] = roofs.try_emplace(record.deviceId);
        if (added) {
            const auto stored = state.ceilings.find(record.deviceId);
            held->second = core::deviceRoofs(
                device, stored == state.ceilings.end() ? std::vector<core::Ceiling> {} : stored->second);
        }
        auto facts = importing::launchFacts(record, device, none);
        facts.roofs = &held->second;
        facts.collective = collectives[i];
        if (const auto figures = commFigures.find(i); !facts.collective.empty() && figures != commFigures.end())
            facts.comm = figures->second;
        verdicts.push_back(core::toVerdict(core::analyzeKernel(facts)));
    }
    return verdicts;
}

// A batch's operators, held for nesting when the trace has ended.
core::Status nestOperators(core::SessionWriter& writer, ParsedTrace& part, SessionState& state)
{
    if (part.operators.empty())
        return {};
    std::vector<std::int64_t> ids(part.strings.size(), 0); // the batch's strings in the session
    for (std::uint32_t i = 1; i < part.strings.size(); ++i) {
        const std::uint32_t seen = state.strings.intern(part.strings[i], part.strings.hash(i));
        if (seen == state.stringIds.size()) { // new
            auto id = writer.internString(part.strings[i]);
            if (id.hasError())
                return id.error();
            state.stringIds.push_back(id.value());
        }
        ids[i] = state.stringIds[seen];
    }
    std::int64_t domains[2] = { 0, 0 }; // cpu_op, python_function
    for (int python = 0; python < 2; ++python) {
        auto id = writer.internString(python ? "python_function" : "cpu_op");
        if (id.hasError())
            return id.error();
        domains[python] = id.value();
    }
    for (const auto& op : part.operators) {
        OperatorNesting::Row row;
        row.processId = state.processOf(op.processId);
        row.threadId = op.threadId;
        row.domainId = domains[op.python ? 1 : 0];
        row.nameId = ids[op.name];
        row.startNs = op.startNs;
        row.endNs = op.endNs;
        row.externalId = op.externalId;
        row.sequenceNumber = op.sequenceNumber;
        row.inputDimsId = ids[op.inputDims];
        row.inputTypesId = ids[op.inputTypes];
        row.moduleId = ids[op.module];
        row.callStackId = ids[op.callStack];
        row.concreteInputsId = ids[op.concreteInputs];
        RIDGELINE_TRY(state.operators.add(row, op.python));
    }
    part.operators.clear();
    part.strings.clear();
    return {};
}

// `last`: the import's last file, after which the session's indexes are built: here, while the
// operators are still being packed, instead of after them.
core::Status writeTrace(
    core::SessionWriter& writer, ParsedTrace& trace, SessionState& state, KinetoImportSummary& summary, bool last)
{
    traceWarnings(trace, summary.warnings);
    const auto operatorWarningAt = summary.warnings.size(); // written later, listed here
    summary.ranks.push_back(trace.rank);
    if (trace.rank >= 0 && !state.ranks.insert(trace.rank).second)
        summary.warnings.push_back(
            fmt::format("rank {} appears in more than one file ({} among them)", trace.rank, trace.name));
    // The last batch's operators, then all of the trace's, nested and packed on another thread
    // while this one writes the other records (and the verdicts are worked out on a third).
    RIDGELINE_TRY(nestOperators(writer, trace, state));
    OperatorPacker packer(state.operators);
    auto deviceIds = writeDevices(writer, trace, state, summary.warnings);
    if (deviceIds.hasError())
        return deviceIds.error();
    std::int64_t mainProcess = 0;
    RIDGELINE_TRY(writeProcesses(writer, trace, state, mainProcess));

    std::vector<std::int64_t> nameIds(trace.names.size(), 0);
    std::vector<core::Kernel> kernels;
    std::vector<core::CommOp> commOps;
    std::vector<std::string> collectives; // per kernel: the collective it carries, or empty
    // By kernel index, collectives only: their sizes, for the verdict.
    std::map<std::size_t, core::CollectiveFigures> commFigures;
    kernels.reserve(trace.kernels.size());
    collectives.reserve(trace.kernels.size());
    for (auto& k : trace.kernels) {
        core::Kernel record = k.kernel;
        auto& nameId = nameIds[static_cast<std::size_t>(record.nameId)];
        if (nameId == 0) {
            auto interned = writer.internKernelName(trace.names[static_cast<std::size_t>(record.nameId)]);
            if (interned.hasError())
                return interned.error();
            nameId = interned.value();
        }
        record.nameId = nameId;
        record.id = state.nextKernelId++;
        record.processId = mainProcess;
        record.deviceId = deviceIds.value().at(record.deviceId);
        if (k.comm) {
            const CommInfo& info = *k.comm;
            core::CommOp op;
            op.kernelId = record.id;
            op.processId = mainProcess;
            op.deviceId = record.deviceId;
            op.collective = info.collective;
            const int size = dtypeSize(info.dtype);
            // S as nccl-tests counts it: the whole output of an all-gather, the whole input of a reduce-scatter.
            op.bytes = core::collectiveBytes(
                core::collectiveTypeFromName(info.collective), info.inNelems, info.outNelems, size, info.groupSize)
                           .value_or(0);
            op.dataType = info.dtype;
            op.groupSize = info.groupSize;
            op.algorithm = info.algorithm;
            op.protocol = info.protocol;
            op.processGroup = info.processGroup;
            op.seq = info.seq;
            op.startNs = record.startNs;
            op.endNs = record.endNs;
            if (auto figures = importing::collectiveFigures(op, &state.devices.at(op.deviceId), state.ceilings))
                commFigures.emplace(kernels.size(), std::move(*figures));
            commOps.push_back(std::move(op));
            collectives.push_back(info.collective);
        } else {
            collectives.emplace_back();
        }
        kernels.push_back(record);
    }
    // The verdicts are worked out on another thread while this one writes the records; for a few
    // kernels a thread costs more than it saves, and they are worked out when needed, here.
    const auto launch = kernels.size() >= 1024 ? std::launch::async : std::launch::deferred;
    auto verdicts = std::async(launch, [&kernels, &collectives, &commFigures, &state] {
        return kernelVerdicts(kernels, collectives, commFigures, state);
    });
    for (auto& op : trace.memops) {
        op.processId = mainProcess;
        op.deviceId = deviceIds.value().at(op.deviceId);
        auto peer = [&](std::optional<std::int64_t>& id) {
            if (id) {
                const auto it = deviceIds.value().find(*id);
                id = it == deviceIds.value().end() ? std::nullopt : std::optional<std::int64_t>(it->second);
            }
        };
        peer(op.srcDeviceId);
        peer(op.dstDeviceId);
    }
    // Runtime calls and host annotations were written while the file was read (writeHostRecords);
    // what is left are the GPU-side annotations, on the process that owns the GPU ops.
    for (auto& range : trace.ranges)
        range.processId = mainProcess;

    if (auto added = writer.addKernels(kernels); added.hasError())
        return added.error();
    if (auto added = writer.addCommOps(commOps); added.hasError())
        return added.error();
    summary.kernels += static_cast<std::int64_t>(kernels.size());
    summary.commOps += static_cast<std::int64_t>(commOps.size());
    for (const auto& op : trace.memops)
        (op.kind == core::MemOpKind::Memset ? summary.memsets : summary.memcpys) += 1;
    summary.ranges += static_cast<std::int64_t>(trace.ranges.size());
    if (auto added = writer.addMemOps(trace.memops); added.hasError())
        return added.error();
    if (auto added = writer.addNvtxRanges(trace.ranges); added.hasError())
        return added.error();
    RIDGELINE_TRY(writer.setVerdicts(verdicts.get()));
    if (last) // no index covers the operator chunks still to come
        RIDGELINE_TRY(writer.buildIndexes());
    // In id order (OperatorNesting gives them so): SQLite appends rows of rising ids without
    // searching the table.
    const auto nested = packer.drain([&](const core::SessionWriter::OperatorChunk& chunk) {
        summary.operators += chunk.count;
        return writer.addOperatorChunk(chunk);
    });
    if (nested.hasError())
        return nested.error();
    if (const auto overlapping = nested.value(); overlapping > 0)
        summary.warnings.insert(summary.warnings.begin() + static_cast<std::ptrdiff_t>(operatorWarningAt),
            fmt::format("{}: {} operators start inside another on their thread and end after it; each keeps its "
                        "times and is kept under the operator that holds it",
                trace.name, overlapping));
    return {};
}

// Runtime calls and user annotations of a batch of events, written while the file is still being
// read (the GPU ops wait for the devices and processes of the whole file). GPU-side annotations
// stay in the batch: their process is the one that owns the GPU ops, known at the end.
core::Status writeHostRecords(
    core::SessionWriter& writer, ParsedTrace& part, SessionState& state, KinetoImportSummary& summary)
{
    for (auto& call : part.apiCalls)
        call.processId = state.processOf(call.processId);
    if (auto added = writer.addApiCalls(part.apiCalls); added.hasError())
        return added.error();
    summary.apiCalls += static_cast<std::int64_t>(part.apiCalls.size());
    part.apiCalls.clear();
    std::vector<core::NvtxRange> host;
    std::vector<core::NvtxRange> gpu;
    for (auto& range : part.ranges) {
        if (range.processId < 0) {
            gpu.push_back(std::move(range));
        } else {
            range.processId = state.processOf(range.processId);
            host.push_back(std::move(range));
        }
    }
    if (auto added = writer.addNvtxRanges(host); added.hasError())
        return added.error();
    summary.ranges += static_cast<std::int64_t>(host.size());
    part.ranges = std::move(gpu);
    return nestOperators(writer, part, state);
}

// One trace file, the `index`th of the import: read (on `workers` threads; 0: this one) and written
// (`last`: see writeTrace). `progress` gets the fraction of this file done, 0..1, and what is being
// done (empty: reading).
core::Status importTrace(core::SessionWriter& writer, std::unique_ptr<InputSource> source, std::size_t index,
    SessionState& state, KinetoImportSummary& summary, const std::function<void(double, std::string_view)>& progress,
    unsigned workers, std::size_t windowBytes, bool last)
{
    std::optional<ParsedTrace> trace;
    {
        state.fileProcesses.clear();
        auto parsed = parseTrace(
            *source,
            [&](double fraction) {
                if (progress)
                    progress(0.7 * fraction, {}); // writing: the last 30 %
            },
            workers, 0, [&](ParsedTrace& part) { return writeHostRecords(writer, part, state, summary); }, windowBytes);
        if (parsed.hasError())
            return parsed.error();
        trace = std::move(parsed).value();
    }
    const std::string name = source->name();
    source.reset(); // the file is read: its buffers go before the events are written
    if (!trace->baseTimeNs.empty())
        RIDGELINE_TRY(writer.setMeta(fmt::format("kineto_base_time_ns.{}", index), trace->baseTimeNs));
    if (progress)
        progress(0.7, fmt::format("writing the events of {}", name));
    return writeTrace(writer, *trace, state, summary, last);
}

} // namespace
} // namespace kineto

core::Result<KinetoImportSummary> importKineto(const std::vector<std::string>& tracePaths,
    const std::string& sessionPath, bool overwrite, const ImportProgress& progress)
{
    if (tracePaths.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no trace to import");
    RIDGELINE_TRY(importing::checkOutput(tracePaths, sessionPath, overwrite));
    std::vector<std::string> names;
    for (const auto& path : tracePaths)
        names.push_back(kineto::fileName(path));
    auto created = importing::beginSession(sessionPath, overwrite, "import:kineto", importing::joined(names, ", "));
    if (created.hasError())
        return created.error();
    auto& writer = created.value();

    KinetoImportSummary summary;
    kineto::SessionState state;
    const double files = static_cast<double>(tracePaths.size());
    for (std::size_t i = 0; i < tracePaths.size(); ++i) {
        const auto& path = tracePaths[i];
        const std::string what = fmt::format("reading {}", path);
        if (progress)
            progress(static_cast<double>(i) / files, what);
        auto source = InputSource::openFile(path);
        if (source.hasError())
            return source.error();
        const auto fileProgress = [&](double fraction, std::string_view doing) {
            if (progress)
                progress((static_cast<double>(i) + fraction) / files, doing.empty() ? what : doing);
        };
        RIDGELINE_TRY(kineto::importTrace(writer, std::move(source).value(), i, state, summary, fileProgress,
            kineto::parseWorkers(), 0, i + 1 == tracePaths.size()));
    }
    if (progress)
        progress(1.0, "building the session's indexes");
    RIDGELINE_TRY(importing::finishSession(writer, summary.warnings));
    return summary;
}

core::Result<KinetoImportSummary> importKinetoBytes(
    core::SessionWriter& writer, std::string_view name, std::string_view bytes, std::size_t windowBytes)
{
    RIDGELINE_TRY(importing::beginImport(writer, "import:kineto", name));
    KinetoImportSummary summary;
    kineto::SessionState state;
    RIDGELINE_TRY(
        kineto::importTrace(writer, InputSource::fromBytes(name, bytes), 0, state, summary, {}, 0, windowBytes, false));
    RIDGELINE_TRY(importing::endImport(writer, summary.warnings));
    return summary;
}

core::Result<KinetoImportSummary> parseKinetoBytes(std::string_view name, std::string_view bytes)
{
    auto source = InputSource::fromBytes(name, bytes);
    auto parsed = kineto::parseTrace(*source, {});
    if (parsed.hasError())
        return parsed.error();
    const auto& trace = parsed.value();
    KinetoImportSummary summary;
    summary.kernels = static_cast<std::int64_t>(trace.kernels.size());
    for (const auto& k : trace.kernels)
        summary.commOps += k.comm ? 1 : 0;
    for (const auto& op : trace.memops)
        (op.kind == core::MemOpKind::Memset ? summary.memsets : summary.memcpys) += 1;
    summary.apiCalls = static_cast<std::int64_t>(trace.apiCalls.size());
    summary.ranges = static_cast<std::int64_t>(trace.ranges.size());
    summary.operators = static_cast<std::int64_t>(trace.operators.size());
    summary.ranks.push_back(trace.rank);
    kineto::traceWarnings(trace, summary.warnings);
    return summary;
}

} // namespace ridgeline::collectors
