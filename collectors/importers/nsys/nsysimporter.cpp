// SPDX-License-Identifier: MIT
// Nsight Systems SQLite export -> session: reads what the export has, then writes devices and
// their datasheet ceilings, processes and threads, kernels with verdicts, the collectives their NCCL
// kernels carry, memops, API calls and NVTX ranges.
#include "ridgeline/collectors/importers/nsysimporter.h"

#include "common/importsession.h"
#include "nsysinternal.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/model/ncclkernel.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <set>

namespace ridgeline::collectors {

namespace {

using nsys::Activity;

// Devices the activity refers to, and the CUDA GPUs the export lists; a listed device without
// compute capability (an integrated GPU, a display adapter) only when activity refers to it.
void selectDevices(Activity& activity)
{
    std::set<std::int64_t> referenced;
    for (const auto& k : activity.kernels)
        referenced.insert(k.deviceId);
    for (const auto& m : activity.memops) {
        referenced.insert(m.deviceId);
        for (const auto& peer : { m.srcDeviceId, m.dstDeviceId }) {
            if (peer)
                referenced.insert(*peer);
        }
    }
    for (auto it = activity.devices.begin(); it != activity.devices.end();) {
        if (it->second.ccMajor == 0 && !referenced.count(it->first))
            it = activity.devices.erase(it);
        else
            ++it;
    }
    for (auto id : referenced) {
        if (activity.devices.count(id))
            continue;
        core::Device d;
        d.id = id;
        d.ordinal = static_cast<int>(id);
        activity.devices.emplace(id, d);
    }
    for (auto& [id, d] : activity.devices) {
        d.ccMajor = std::max(d.ccMajor, 0);
        if (d.name.empty())
            d.name = "unknown GPU"; // lookUpCeilings warns
    }
}

std::map<std::int64_t, std::vector<core::Ceiling>> lookUpCeilings(Activity& activity)
{
    std::map<std::int64_t, std::vector<core::Ceiling>> ceilings;
    for (auto& [id, device] : activity.devices) {
        const bool unnamed = importing::isUnnamedGpu(device);
        auto found = importing::catalogueCeilings(device);
        if (!found && unnamed) {
            activity.warnings.emplace_back(WarningKind::UnnamedGpu,
                fmt::format("the export does not describe GPU {}: no datasheet ceilings for it", id));
            continue;
        }
        if (!found) {
            activity.warnings.push_back(fmt::format(
                "GPU '{}' is not in Ridgeline's catalogue: no datasheet ceilings for device {}", device.name, id));
            continue;
        }
        if (!found->note.empty())
            activity.warnings.emplace_back(
                unnamed ? WarningKind::UnnamedGpu : WarningKind::Other, fmt::format("GPU {}: {}", id, found->note));
        ceilings[id] = std::move(found->ceilings);
    }
    return ceilings;
}

struct ProcessSpan {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool seen = false;
    void add(std::int64_t start, std::int64_t end)
    {
        startNs = seen ? std::min(startNs, start) : start;
        endNs = seen ? std::max(endNs, end) : end;
        seen = true;
    }
};

// The processes (by pid) and threads (by pid, tid) that have activity, as session ids 1, 2, ...;
// returns pid -> session process id.
core::Result<std::map<std::int64_t, std::int64_t>> writeProcesses(core::SessionWriter& writer, const Activity& activity)
{
    std::map<std::int64_t, ProcessSpan> spans;
    std::set<std::pair<std::int64_t, std::int64_t>> threadKeys;
    for (const auto& k : activity.kernels)
        spans[k.processId].add(k.startNs, k.endNs);
    for (const auto& m : activity.memops)
        spans[m.processId].add(m.startNs, m.endNs);
    for (const auto& c : activity.apiCalls) {
        spans[c.processId].add(c.startNs, c.endNs);
        threadKeys.insert({ c.processId, c.threadId });
    }
    for (const auto& r : activity.nvtxRanges) {
        spans[r.processId].add(r.startNs, r.endNs);
        threadKeys.insert({ r.processId, r.threadId });
    }
    std::map<std::int64_t, std::int64_t> processIds;
    for (const auto& [pid, span] : spans) {
        core::Process p;
        p.id = static_cast<std::int64_t>(processIds.size()) + 1;
        p.pid = pid;
        if (auto it = activity.processNames.find(pid); it != activity.processNames.end())
            p.command = it->second;
        p.startNs = span.startNs;
        p.endNs = span.endNs;
        auto added = writer.addProcess(p);
        if (added.hasError())
            return added.error();
        processIds[pid] = added.value();
    }
    std::vector<core::Thread> threads;
    for (const auto& [pid, tid] : threadKeys) {
        core::Thread t;
        t.processId = processIds.at(pid);
        t.tid = tid;
        if (auto it = activity.threadNames.find({ pid, tid }); it != activity.threadNames.end())
            t.name = it->second;
        threads.push_back(t);
    }
    RIDGELINE_TRY(writer.addThreads(threads));
    return processIds;
}

} // namespace

core::Result<NsysImportSummary> nsys::writeActivity(
    core::SessionWriter& writer, Activity& activity, std::string_view origin)
{
    NsysImportSummary summary;
    const auto ceilings = lookUpCeilings(activity);
    RIDGELINE_TRY(importing::beginImport(writer, "import:nsys-sqlite", origin));
    if (auto it = activity.exportMeta.find("EXPORT_PRODUCT_VERSION"); it != activity.exportMeta.end()) {
        summary.productVersion = it->second;
        RIDGELINE_TRY(writer.setMeta("nsys_version", it->second));
    }
    if (auto it = activity.exportMeta.find("EXPORT_SCHEMA_VERSION"); it != activity.exportMeta.end()) {
        summary.schemaVersion = it->second;
        RIDGELINE_TRY(writer.setMeta("nsys_export_schema", it->second));
    }

    for (const auto& [id, device] : activity.devices)
        RIDGELINE_TRY(importing::writeDevice(writer, device, ceilings));
    auto written = writeProcesses(writer, activity);
    if (written.hasError())
        return written.error();
    const auto& processIds = written.value(); // pid -> session id

    std::vector<std::int64_t> nameIds;
    for (const auto& [raw, demangled] : activity.kernelNames) {
        auto id = writer.internKernelName(raw, demangled);
        if (id.hasError())
            return id.error();
        nameIds.push_back(id.value());
    }
    std::vector<core::Verdict> verdicts;
    std::vector<core::CommOp> commOps;
    for (std::size_t i = 0; i < activity.kernels.size(); ++i) {
        auto& k = activity.kernels[i];
        k.id = static_cast<std::int64_t>(i) + 1;
        k.processId = processIds.at(k.processId);
        const auto nameIndex = k.nameId;
        k.nameId = nameIds.at(static_cast<std::size_t>(k.nameId));
        const auto device = activity.devices.find(k.deviceId);
        const auto& [raw, demangled] = activity.kernelNames.at(static_cast<std::size_t>(nameIndex));
        auto facts = importing::launchFacts(k, device != activity.devices.end() ? &device->second : nullptr, ceilings,
            demangled.empty() ? raw : demangled);
        // NCCL kernels by the capture's rule (the symbol's prefix; the mangled name first, as CUPTI
        // reports it); older exports have the demangled name only.
        auto nccl = core::ncclKernelInfo(raw);
        if (!nccl)
            nccl = core::ncclKernelInfo(demangled);
        if (nccl) {
            core::CommOp op;
            op.kernelId = k.id;
            op.processId = k.processId;
            op.deviceId = k.deviceId;
            op.collective = nccl->collective.empty() ? std::string("unknown") : nccl->collective;
            op.dataType = nccl->dataType;
            op.algorithm = nccl->algorithm;
            op.protocol = nccl->protocol;
            op.startNs = k.startNs;
            op.endNs = k.endNs;
            if (auto args = activity.ncclArgs.find(i); args != activity.ncclArgs.end()) {
                // The call's name tells the collective when the symbol does not (the generic kernel).
                if (nccl->collective.empty())
                    op.collective = args->second.collective;
                op.bytes = args->second.bytes;
                op.groupSize = args->second.groupSize;
                op.root = args->second.root;
                op.processGroup = args->second.processGroup;
                summary.sizedCommOps += op.bytes > 0 ? 1 : 0;
            }
            facts.collective = op.collective;
            facts.comm = importing::collectiveFigures(
                op, device != activity.devices.end() ? &device->second : nullptr, ceilings);
            commOps.push_back(std::move(op));
        }
        verdicts.push_back(core::toVerdict(core::analyzeKernel(facts)));
    }
    if (auto added = writer.addKernels(activity.kernels); added.hasError())
        return added.error();
    if (auto added = writer.addCommOps(commOps); added.hasError())
        return added.error();
    summary.commOps = static_cast<std::int64_t>(commOps.size());
    RIDGELINE_TRY(writer.setVerdicts(verdicts));
    for (auto& m : activity.memops) {
        m.processId = processIds.at(m.processId);
        (m.kind == core::MemOpKind::Memset ? summary.memsets : summary.memcpys) += 1;
    }
    if (auto added = writer.addMemOps(activity.memops); added.hasError())
        return added.error();
    for (auto& c : activity.apiCalls)
        c.processId = processIds.at(c.processId);
    if (auto added = writer.addApiCalls(activity.apiCalls); added.hasError())
        return added.error();
    for (auto& r : activity.nvtxRanges)
        r.processId = processIds.at(r.processId);
    if (auto added = writer.addNvtxRanges(activity.nvtxRanges); added.hasError())
        return added.error();

    if (const auto unsized = summary.commOps - summary.sizedCommOps; unsized > 0) {
        // They are communication all the same (their symbols say so); what is missing is the size.
        const char* why = activity.ncclCalls.empty()
            ? "the export has no NVTX ranges of NCCL's API calls (NCCL 2.16.2 or later writes them when nsys traces "
              "NVTX)"
            : activity.ncclCallsWithPayload == 0
            ? "NCCL's NVTX ranges in the export (ncclSend, ncclGroupStart, ...) carry no payload (binaryData is "
              "NULL): only the calls' names are known"
            : "no NCCL call with a message size in its payload was paired with them";
        activity.warnings.push_back(
            fmt::format("{} NCCL kernels count as communication, with message sizes unknown: {}", unsized, why));
    }
    summary.gpuActivity = !activity.kernels.empty() || !activity.memops.empty();
    if (!summary.gpuActivity)
        activity.warnings.push_back(activity.cudaTables
                ? "no GPU activity: the export's CUDA tables hold no kernels, copies or memsets; only host-side "
                  "records (CUDA API calls, NVTX ranges, threads) were imported"
                : "no GPU activity: the export has no CUDA tables (a CPU-only run, or nsys ran without CUDA "
                  "tracing); only host-side records (NVTX ranges, processes, threads) were imported");
    RIDGELINE_TRY(importing::endImport(writer, activity.warnings));

    summary.devices = static_cast<std::int64_t>(activity.devices.size());
    summary.kernels = static_cast<std::int64_t>(activity.kernels.size()) - activity.graphLaunches;
    summary.graphLaunches = activity.graphLaunches;
    summary.apiCalls = static_cast<std::int64_t>(activity.apiCalls.size());
    summary.nvtxRanges = static_cast<std::int64_t>(activity.nvtxRanges.size());
    summary.warnings = activity.warnings;
    return summary;
}

core::Result<nsys::Activity> nsys::readExport(core::sqlite::Database& db)
{
    auto schema = nsys::Schema::discover(db);
    if (schema.hasError())
        return schema.error();
    if (!schema.value().isNsysExport())
        return core::makeError(core::ErrorCode::BadFile,
            "an SQLite database, but not an Nsight Systems export (no StringIds, TARGET_INFO_*, "
            "CUPTI_ACTIVITY_KIND_* or META_DATA_EXPORT tables)");
    auto enums = nsys::readEnums(db, schema.value());
    if (enums.hasError())
        return enums.error();
    Activity activity;
    RIDGELINE_TRY(nsys::readDevices(db, schema.value(), activity));
    activity.cudaTables = schema.value().hasTableStartingWith("CUPTI_ACTIVITY_KIND_");
    RIDGELINE_TRY(nsys::readKernels(db, schema.value(), activity));
    RIDGELINE_TRY(nsys::readGraphLaunches(db, schema.value(), activity));
    if (activity.graphLaunches > 0) // kernels and whole graph launches, in the order they started
        std::stable_sort(activity.kernels.begin(), activity.kernels.end(),
            [](const core::Kernel& a, const core::Kernel& b) { return a.startNs < b.startNs; });
    RIDGELINE_TRY(nsys::readMemOps(db, schema.value(), enums.value(), activity));
    RIDGELINE_TRY(nsys::readApiCalls(db, schema.value(), activity));
    RIDGELINE_TRY(nsys::readNvtx(db, schema.value(), activity));
    RIDGELINE_TRY(nsys::readProcessInfo(db, schema.value(), activity));
    RIDGELINE_TRY(nsys::readNcclCalls(db, schema.value(), activity));
    nsys::matchNcclCalls(activity);
    selectDevices(activity);
    return activity;
}

core::Result<NsysImportSummary> importNsysSqlite(
    const std::string& exportPath, const std::string& sessionPath, bool overwrite)
{
    RIDGELINE_TRY(importing::checkOutput({ exportPath }, sessionPath, overwrite));
    auto activity = [&]() -> core::Result<nsys::Activity> {
        auto opened = core::sqlite::Database::open(exportPath, core::sqlite::Database::Mode::ReadOnly);
        if (opened.hasError())
            return opened.error();
        return nsys::readExport(opened.value());
    }();
    if (activity.hasError()) {
        // Corrupt, truncated or hostile: one error naming the file.
        const auto& error = activity.error();
        const auto code = error.code == core::ErrorCode::Internal ? core::ErrorCode::BadFile : error.code;
        if (error.message.find(exportPath) != std::string::npos)
            return core::makeError(code, error.message);
        return core::makeError(code, fmt::format("{}: {}", exportPath, error.message));
    }
    core::WriterOptions options;
    options.replaceExisting = overwrite;
    auto created = core::SessionWriter::create(sessionPath, options);
    if (created.hasError())
        return created.error();
    auto summary
        = nsys::writeActivity(created.value(), activity.value(), std::filesystem::path(exportPath).filename().string());
    if (summary.hasError())
        return summary.error();
    RIDGELINE_TRY(created.value().finish(core::SessionStatus::Complete));
    return summary;
}

} // namespace ridgeline::collectors
