// SPDX-License-Identifier: MIT
// The GPU ops of a session as the timeline consumers need them (the timeline analysis and the
// timeline level-of-detail data): kernels, copies, memsets and collectives without a kernel, each
// with its rank, device, kind and verdict, and optionally the API call that launched it.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ridgeline::core {
class SessionReader;
struct TimeQuery;
} // namespace ridgeline::core

namespace ridgeline::core::detail {

enum class GpuOpSource : std::uint8_t { Kernel, MemOp, CommOp };

struct SessionGpuOp {
    TimelineGpuOp op; // times, stream, kind, verdict; launch times when the scan asked for them
    GpuOpSource source = GpuOpSource::Kernel;
    int rank = -1; // of the op's process; -1 when unknown
    std::int64_t deviceId = 0;
    std::int64_t processId = 0;
    std::int64_t sourceId = 0; // kernels.id, memops.id or comm_ops.id, after `source`
    std::int64_t nameId = -1; // kernel_names.id of a kernel; -1 otherwise
    std::int64_t correlationId = 0; // links it to the API call that launched it; 0: none
    MemOpKind memOpKind = MemOpKind::Other; // of a MemOp
};

struct GpuOpScan {
    std::optional<TimeWindow> window; // ops overlapping it; every op when unset
    bool launches = false; // fill op.launchStartNs / launchEndNs from the API calls
    // Kernels in start order (an SQL sort); false reads them in storage order, a narrow scan several
    // times faster on large sessions (not possible with a window).
    bool ordered = true;
};

// What a scan needs besides the ops themselves, loaded once: ranks, verdicts, collectives and
// launch calls. The session's comm_ops rows stay available to the caller. The kernels' verdicts
// come from `verdicts` (the analysis computes them: analysis/sessiontimeline.h); copies, memsets
// and collectives have theirs by kind.
class SessionGpuOps {
public:
    static Result<SessionGpuOps> load(
        SessionReader& reader, const GpuOpScan& scan, const KernelVerdictSource& verdicts);

    // Every op, kernels first, then copies and memsets, then collectives without a kernel; `visit`
    // returns false to stop (the result is then still ok).
    Status forEach(SessionReader& reader, const std::function<bool(const SessionGpuOp&)>& visit) const;
    // The same in parts, for a scan of a whole session (no window) split over threads, each part
    // with its own reader (SessionReader::reopen); const, so the parts can share one SessionGpuOps.
    // The kernels whose id is in [fromId, toId], in storage order:
    Status forEachKernel(SessionReader& reader, std::int64_t fromId, std::int64_t toId,
        const std::function<bool(const SessionGpuOp&)>& visit) const;
    // The copies and memsets in storage order, then the collectives without a kernel:
    Status forEachOther(SessionReader& reader, const std::function<bool(const SessionGpuOp&)>& visit) const;

    const std::vector<CommOp>& commOps() const { return m_comms; }
    int rankOf(std::int64_t processId) const;

private:
    struct Launch {
        std::int64_t processId;
        std::int64_t correlationId;
        std::int64_t startNs;
        std::int64_t endNs;
    };
    void applyLaunch(std::int64_t processId, std::int64_t correlationId, TimelineGpuOp& op) const;
    // An op of `source` with what every source has: its id, process (and so rank), device and times.
    SessionGpuOp placedOp(GpuOpSource source, std::int64_t id, std::int64_t processId, std::int64_t deviceId,
        std::int64_t startNs, std::int64_t endNs) const;
    TimeQuery windowQuery() const; // the scan's window, if any
    SessionGpuOp kernelOp(std::int64_t id, std::int64_t processId, std::int64_t deviceId, std::int64_t streamId,
        std::int64_t correlationId, std::int64_t nameId, std::int64_t startNs, std::int64_t endNs) const;

    GpuOpScan m_scan;
    std::unordered_map<std::int64_t, int> m_rankOf;
    KernelVerdicts m_verdictOf; // kernels with counters or a collective
    std::unordered_set<std::int64_t> m_collectiveKernel; // kernels that carry a collective
    std::vector<CommOp> m_comms;
    std::vector<Launch> m_launches; // by process, correlation id, start
};

// analyzeSessionTimeline (timeline.h), with `eachOp` also seeing every op of the analysis with its
// rank and device as it is read (the rank summaries bin them, cluster/ranksummary.h).
Result<std::vector<TimelineSummary>> analyzeSessionTimeline(SessionReader& reader, const KernelVerdictSource& verdicts,
    const TimelineSelection& selection,
    const std::function<void(int rank, std::int64_t deviceId, const TimelineGpuOp& op)>& eachOp);

} // namespace ridgeline::core::detail
