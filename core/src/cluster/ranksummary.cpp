// SPDX-License-Identifier: MIT
#include "ridgeline/core/cluster/ranksummary.h"

#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"
#include "timeline/sessiongpuops.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace ridgeline::core {

namespace {

// Kernel time per (device, name) from one narrow scan of the kernels, then the rank's largest.
using DeviceName = std::pair<std::int64_t, std::int64_t>;

struct DeviceNameHash {
    std::size_t operator()(const DeviceName& key) const noexcept
    {
        return std::hash<std::int64_t>()(key.first) * 31 + std::hash<std::int64_t>()(key.second);
    }
};

std::vector<RankKernel> topKernelsOf(const std::vector<std::int64_t>& devices,
    const std::unordered_map<DeviceName, RankKernel, DeviceNameHash>& totals, std::size_t top)
{
    // The same kernel on several devices of one rank counts once, with their times added.
    std::map<std::string, RankKernel> byName;
    for (const auto& [key, kernel] : totals) {
        if (std::find(devices.begin(), devices.end(), key.first) == devices.end())
            continue;
        auto& sum = byName[kernel.name];
        sum.name = kernel.name;
        sum.timeNs = saturatingAdd(sum.timeNs, kernel.timeNs);
        sum.launches += kernel.launches;
    }
    std::vector<RankKernel> out;
    out.reserve(byName.size());
    for (auto& [name, kernel] : byName)
        out.push_back(std::move(kernel));
    std::sort(out.begin(), out.end(), [](const RankKernel& a, const RankKernel& b) {
        return a.timeNs != b.timeNs ? a.timeNs > b.timeNs : a.name < b.name;
    });
    if (out.size() > top)
        out.resize(top);
    return out;
}

} // namespace

Result<std::vector<RankSummary>> summarizeRanks(
    SessionReader& reader, std::size_t topKernels, TimelineToStore* timeline)
{
    std::map<int, Spans> busy, communication; // by rank
    const auto bin = [&](int rank, std::int64_t, const TimelineGpuOp& op) {
        busy[rank].emplace_back(op.startNs, op.endNs);
        if (op.kind == GpuOpKind::Collective)
            communication[rank].emplace_back(op.startNs, op.endNs);
    };
    std::uint64_t verdictsKey = 0;
    const KernelVerdictSource keyed = [&verdictsKey](SessionReader& r) -> Result<KernelVerdicts> {
        auto verdicts = kernelVerdicts(r);
        if (verdicts.ok())
            verdictsKey = timelineVerdictsKey(verdicts.value());
        return verdicts;
    };
    auto timelines = detail::analyzeSessionTimeline(reader, keyed, {}, bin);
    if (timelines.hasError())
        return timelines.error();
    if (timeline)
        *timeline = { timelines.value(), verdictsKey };
    auto processes = reader.processes();
    if (processes.hasError())
        return processes.error();

    std::map<int, RankSummary> ranks;
    std::map<int, std::vector<std::int64_t>> devicesOf;
    std::unordered_map<std::int64_t, int> rankOfProcess;
    for (const auto& p : processes.value()) {
        rankOfProcess[p.id] = p.rank;
        auto& r = ranks[p.rank];
        r.rank = p.rank;
        if (r.host.empty())
            r.host = p.host;
    }
    for (const auto& t : timelines.value()) {
        auto& r = ranks[t.rank];
        r.rank = t.rank;
        const bool first = devicesOf[t.rank].empty();
        devicesOf[t.rank].push_back(t.deviceId);
        ++r.devices;
        r.kernels += t.kernels;
        r.collectiveOps += t.collectives;
        if (t.spanNs > 0 || t.kernels + t.memcpys + t.memsets + t.collectives > 0) {
            r.startNs = first ? t.startNs : std::min(r.startNs, t.startNs);
            r.endNs = first ? t.endNs : std::max(r.endNs, t.endNs);
        }
        r.spanNs = saturatingAdd(r.spanNs, t.spanNs);
        r.busyNs = saturatingAdd(r.busyNs, t.busyNs);
        r.idleNs = saturatingAdd(r.idleNs, t.idleNs);
        r.computeNs = saturatingAdd(r.computeNs, t.computeNs);
        r.communicationNs = saturatingAdd(r.communicationNs, t.communicationNs);
        r.overlapNs = saturatingAdd(r.overlapNs, t.overlapNs);
    }

    // Kernel time by device and name (one narrow scan), short names by name id.
    auto names = reader.kernelNames();
    if (names.hasError())
        return names.error();
    std::unordered_map<std::int64_t, std::string> shortNames;
    for (const auto& n : names.value())
        shortNames[n.id] = shortKernelName(n.demangled.empty() ? n.raw : n.demangled);
    std::unordered_map<DeviceName, RankKernel, DeviceNameHash> totals;
    auto scanned = reader.forEachKernelTiming([&](const SessionReader::KernelTiming& k) {
        auto& t = totals[{ k.deviceId, k.nameId }];
        if (t.launches == 0) {
            auto it = shortNames.find(k.nameId);
            t.name = it != shortNames.end() ? it->second : "(unknown kernel)";
        }
        t.timeNs = saturatingAdd(t.timeNs, std::max<std::int64_t>(saturatingSub(k.endNs, k.startNs), 0));
        ++t.launches;
    });
    if (scanned.hasError())
        return scanned.error();

    auto comms = reader.commOps();
    if (comms.hasError())
        return comms.error();
    for (auto& op : comms.value()) {
        auto it = rankOfProcess.find(op.processId);
        auto& r = ranks[it != rankOfProcess.end() ? it->second : -1];
        r.collectives.push_back({ std::move(op.processGroup), std::move(op.collective), op.seq, op.startNs, op.endNs });
    }

    // Each rank's share of the opportunities: the sums over its devices.
    auto opportunities = sessionOpportunities(reader);
    if (opportunities.hasError())
        return opportunities.error();
    for (const auto& [rank, devices] : devicesOf) {
        auto& r = ranks[rank];
        double ranked = 0, atRoof = 0, recoverable = 0;
        for (const auto device : devices) {
            if (auto d = opportunities.value()->byDevice.find(device); d != opportunities.value()->byDevice.end()) {
                ranked += static_cast<double>(d->second.rankedTimeNs);
                atRoof += d->second.timeAtRoofNs;
                recoverable += d->second.recoverableNs;
            }
        }
        r.rankedNs = saturatingRound(ranked);
        r.timeAtRoofNs = saturatingRound(atRoof);
        r.recoverableNs = saturatingRound(recoverable);
    }

    std::vector<RankSummary> out;
    for (auto& [rank, r] : ranks) {
        // A process of the job with nothing on any GPU still gets its row; the catch-all -1 only
        // when something is in it.
        if (rank < 0 && r.devices == 0 && r.collectives.empty())
            continue;
        r.topKernels = topKernelsOf(devicesOf[rank], totals, topKernels);
        r.activity = binRankActivity(std::move(busy[rank]), std::move(communication[rank]));
        std::sort(r.collectives.begin(), r.collectives.end(),
            [](const RankCollective& a, const RankCollective& b) { return a.startNs < b.startNs; });
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace ridgeline::core
