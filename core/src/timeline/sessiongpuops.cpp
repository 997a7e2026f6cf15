// SPDX-License-Identifier: MIT
#include "sessiongpuops.h"

#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

namespace ridgeline::core::detail {

Result<SessionGpuOps> SessionGpuOps::load(
    SessionReader& reader, const GpuOpScan& scan, const KernelVerdictSource& verdicts)
{
    SessionGpuOps ops;
    ops.m_scan = scan;
    if (scan.window)
        ops.m_scan.ordered = true;

    auto processes = reader.processes();
    if (processes.hasError())
        return processes.error();
    for (const auto& p : processes.value())
        ops.m_rankOf[p.id] = p.rank;

    // Only counted or collective kernels have a verdict beyond "unknown (no counters)".
    auto known = verdicts(reader);
    if (known.hasError())
        return known.error();
    ops.m_verdictOf = std::move(known).value();
    // All of them, also with a window: a kernel in the window may carry one that starts before it.
    auto comms = reader.commOps();
    if (comms.hasError())
        return comms.error();
    ops.m_comms = std::move(comms).value();
    for (const auto& c : ops.m_comms) {
        if (c.kernelId)
            ops.m_collectiveKernel.insert(*c.kernelId);
    }
    if (scan.launches) {
        // A narrow scan: the calls' names and threads are not needed (whole ApiCall rows took the
        // report of a merged 256-rank session from 146 to 208 MiB).
        RIDGELINE_TRY(reader.forEachApiCallSpan([&](const SessionReader::CallSpan& c) {
            ops.m_launches.push_back({ c.processId, c.correlationId, c.startNs, c.endNs });
        }));
        std::sort(ops.m_launches.begin(), ops.m_launches.end(), [](const Launch& a, const Launch& b) {
            return std::tie(a.processId, a.correlationId, a.startNs)
                < std::tie(b.processId, b.correlationId, b.startNs);
        });
    }
    return ops;
}

int SessionGpuOps::rankOf(std::int64_t processId) const
{
    auto it = m_rankOf.find(processId);
    return it == m_rankOf.end() ? -1 : it->second;
}

// With several calls of one correlation id, the earliest (outermost) launched the op.
void SessionGpuOps::applyLaunch(std::int64_t processId, std::int64_t correlationId, TimelineGpuOp& op) const
{
    if (!m_scan.launches)
        return;
    auto it = std::lower_bound(m_launches.begin(), m_launches.end(), std::pair { processId, correlationId },
        [](const Launch& l, const std::pair<std::int64_t, std::int64_t>& key) {
            return std::tie(l.processId, l.correlationId) < std::tie(key.first, key.second);
        });
    if (it != m_launches.end() && it->processId == processId && it->correlationId == correlationId) {
        op.launchStartNs = it->startNs;
        op.launchEndNs = it->endNs;
    }
}

SessionGpuOp SessionGpuOps::placedOp(GpuOpSource source, std::int64_t id, std::int64_t processId, std::int64_t deviceId,
    std::int64_t startNs, std::int64_t endNs) const
{
    SessionGpuOp g;
    g.source = source;
    g.sourceId = id;
    g.processId = processId;
    g.deviceId = deviceId;
    g.rank = rankOf(processId);
    g.op.startNs = startNs;
    g.op.endNs = endNs;
    return g;
}

TimeQuery SessionGpuOps::windowQuery() const
{
    TimeQuery query;
    if (m_scan.window) {
        query.startNs = m_scan.window->startNs;
        query.endNs = m_scan.window->endNs;
    }
    return query;
}

SessionGpuOp SessionGpuOps::kernelOp(std::int64_t id, std::int64_t processId, std::int64_t deviceId,
    std::int64_t streamId, std::int64_t correlationId, std::int64_t nameId, std::int64_t startNs,
    std::int64_t endNs) const
{
    SessionGpuOp g = placedOp(GpuOpSource::Kernel, id, processId, deviceId, startNs, endNs);
    g.nameId = nameId;
    g.correlationId = correlationId;
    g.op.streamId = streamId;
    g.op.kind = m_collectiveKernel.contains(id) ? GpuOpKind::Collective : GpuOpKind::Kernel;
    if (auto it = m_verdictOf.find(id); it != m_verdictOf.end())
        g.op.verdict = it->second;
    applyLaunch(processId, correlationId, g.op);
    return g;
}

Status SessionGpuOps::forEach(SessionReader& reader, const std::function<bool(const SessionGpuOp&)>& visit) const
{
    bool go = true;
    if (m_scan.ordered) {
        auto scanned = reader.forEachKernel(windowQuery(), [&](const Kernel& k) {
            go = visit(
                kernelOp(k.id, k.processId, k.deviceId, k.streamId, k.correlationId, k.nameId, k.startNs, k.endNs));
            return go;
        });
        if (scanned.hasError() || !go)
            return scanned;
    } else {
        auto scanned = forEachKernel(reader, std::numeric_limits<std::int64_t>::min(),
            std::numeric_limits<std::int64_t>::max(), [&](const SessionGpuOp& g) { return go = visit(g); });
        if (scanned.hasError() || !go)
            return scanned;
    }
    return forEachOther(reader, visit);
}

Status SessionGpuOps::forEachKernel(SessionReader& reader, std::int64_t fromId, std::int64_t toId,
    const std::function<bool(const SessionGpuOp&)>& visit) const
{
    return reader.forEachKernelPlacement(fromId, toId, [&](const SessionReader::KernelPlacement& k) {
        return visit(
            kernelOp(k.id, k.processId, k.deviceId, k.streamId, k.correlationId, k.nameId, k.startNs, k.endNs));
    });
}

Status SessionGpuOps::forEachOther(SessionReader& reader, const std::function<bool(const SessionGpuOp&)>& visit) const
{
    const auto visitMemOp = [&](std::int64_t id, std::int64_t processId, std::int64_t deviceId, std::int64_t streamId,
                                std::int64_t correlationId, MemOpKind kind, std::int64_t startNs, std::int64_t endNs) {
        SessionGpuOp g = placedOp(GpuOpSource::MemOp, id, processId, deviceId, startNs, endNs);
        g.memOpKind = kind;
        g.correlationId = correlationId;
        g.op.streamId = streamId;
        g.op.kind = kind == MemOpKind::Memset ? GpuOpKind::Memset : GpuOpKind::Memcpy;
        g.op.verdict = memOpVerdict(kind);
        applyLaunch(processId, correlationId, g.op);
        return visit(g);
    };
    if (m_scan.ordered) {
        auto memOps = reader.memOps(windowQuery());
        if (memOps.hasError())
            return memOps.error();
        for (const auto& m : memOps.value()) {
            if (!visitMemOp(m.id, m.processId, m.deviceId, m.streamId, m.correlationId, m.kind, m.startNs, m.endNs))
                return {};
        }
    } else {
        // Storage order, as for the kernels: no sort, and no copy of every memory op at once (a
        // 100 M-op session has millions of them).
        bool go = true;
        auto scanned = reader.forEachMemOpPlacement([&](const SessionReader::MemOpPlacement& m) {
            go = visitMemOp(m.id, m.processId, m.deviceId, m.streamId, m.correlationId, m.kind, m.startNs, m.endNs);
            return go;
        });
        if (scanned.hasError() || !go)
            return scanned;
    }
    for (const auto& c : m_comms) {
        if (c.kernelId)
            continue; // carried by its kernel, visited there
        SessionGpuOp g = placedOp(GpuOpSource::CommOp, c.id, c.processId, c.deviceId, c.startNs, c.endNs);
        g.op.kind = GpuOpKind::Collective;
        g.op.verdict = VerdictClass::CommunicationBound;
        if (!visit(g))
            return {};
    }
    return {};
}

} // namespace ridgeline::core::detail
