// SPDX-License-Identifier: MIT
// Timeline analysis per rank and device (ARCHITECTURE §5): span, idle, compute and non-compute
// time, time by verdict, compute-communication overlap, idle gaps by cause and launch queue depth
// per stream. Span, idle, compute, non-compute and overlap are Holistic Trace Analysis's temporal
// breakdown and comm-comp overlap; idle gaps differ from HTA's (per device, no 30-unit threshold).
//
// Definitions (all times in ns, after clipping every op to the window when one is given):
// - GPU ops: kernels, copies, memsets, and collectives (comm_ops) not carried by a kernel.
//   A kernel is a collective when a comm_ops row names it (never guessed from its name).
// - span: first GPU op start to last GPU op end. busy: |union of all GPU ops|. idle: span - busy.
// - compute: |union of non-collective kernels|. non-compute: span - idle - compute (busy time
//   in which only copies, memsets or collectives run).
// - communication: |union of collectives|. overlap: |communication ∩ compute|;
//   comm_comp_overlap_pct = 100 · overlap / communication, unset when there is no communication
//   time (HTA: NaN).
// - time by verdict: for each verdict, the union of the ops with that verdict. Ops of different
//   verdicts that run at the same time count for each verdict, so the sum can exceed busy time.
// - idle gaps: each gap between two stretches of GPU activity on the device. Its cause comes from
//   the API call that launched the op which ends the gap: the call started after the gap began
//   -> host not launching; it started before or at the gap's start (the op waited in the queue
//   or on a dependency) -> waiting on a kernel/dependency; no launch call known -> unknown.
// - queue depth per stream: ops launched but not started (launch call end .. op start), as a
//   step function; maximum, and time-weighted average over the span (the window when given).
//   Only streams with at least one op whose launch call is known are listed.
// - rank: the rank of the op's process (processes table), -1 when unknown.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {

class SessionReader;

enum class GpuOpKind : std::uint8_t {
    Kernel, // a compute kernel
    Collective, // a kernel that carries a collective, or a comm_ops row without a kernel
    Memcpy,
    Memset,
};

inline constexpr std::int64_t kNoLaunch = std::numeric_limits<std::int64_t>::min();

// One GPU op of one rank and device, as the analysis needs it.
struct TimelineGpuOp {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t launchStartNs = kNoLaunch; // the API call that launched it; kNoLaunch when unknown
    std::int64_t launchEndNs = kNoLaunch;
    std::int64_t streamId = -1; // -1 for collectives without a kernel
    GpuOpKind kind = GpuOpKind::Kernel;
    VerdictClass verdict = VerdictClass::Unknown;
};

// [startNs, endNs): ops are clipped to it and ops entirely outside are left out.
struct TimeWindow {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

struct IdleGaps {
    std::int64_t hostNotLaunchingNs = 0;
    std::int64_t hostNotLaunchingCount = 0;
    std::int64_t waitingNs = 0; // waiting on a kernel or dependency: the launch was already issued
    std::int64_t waitingCount = 0;
    std::int64_t unknownNs = 0; // no launch call recorded
    std::int64_t unknownCount = 0;
};

struct StreamQueueDepth {
    std::int64_t streamId = 0;
    std::int64_t launches = 0; // ops with a known launch call
    std::int64_t maxDepth = 0;
    double averageDepth = 0; // time-weighted over the span (the window when given)
};

struct TimelineSummary {
    int rank = -1; // -1 when unknown
    std::int64_t deviceId = 0;
    std::int64_t kernels = 0; // compute kernels (collective kernels are counted under collectives)
    std::int64_t memcpys = 0;
    std::int64_t memsets = 0;
    std::int64_t collectives = 0;
    std::int64_t startNs = 0; // span: first op start .. last op end; 0 .. 0 when there are no ops
    std::int64_t endNs = 0;
    std::int64_t spanNs = 0;
    std::int64_t busyNs = 0;
    std::int64_t idleNs = 0;
    std::int64_t computeNs = 0;
    std::int64_t nonComputeNs = 0;
    std::int64_t communicationNs = 0;
    std::int64_t overlapNs = 0;
    std::optional<double> commCompOverlapPct; // unset without communication time
    std::array<std::int64_t, kVerdictClassCount> timeByVerdictNs {}; // indexed by VerdictClass
    IdleGaps idleGaps;
    std::vector<StreamQueueDepth> queues; // by stream id
};

// The pure analysis of one rank and device; no session needed. May reorder `ops` and clip them to
// the window in place. Sorted input, or input made of a few sorted runs (ops listed stream by
// stream), is merged in one pass rather than sorted.
TimelineSummary analyzeTimeline(std::span<TimelineGpuOp> ops, const std::optional<TimeWindow>& window = std::nullopt);

// What part of a session to analyse: the whole of it, a window, or a profiler step.
struct TimelineSelection {
    std::optional<TimeWindow> window;
    std::optional<std::int64_t> step; // profiler step N (profilersteps.h)
    bool allSteps = false; // besides the whole session (or window), each profiler step on its own
};

// The verdicts of the kernels whose verdict needs more than their duration (counted, or carrying a
// collective), by kernel id; any other kernel is Unknown. The timeline colours its ops by them but
// does not compute them: the analysis does (kernelVerdicts, analysis/sessiontimeline.h). The
// timeline asks a KernelVerdictSource for them at the point of its scan that needs them.
using KernelVerdicts = std::unordered_map<std::int64_t, VerdictClass>;
using KernelVerdictSource = std::function<Result<KernelVerdicts>(SessionReader& reader)>;

// One summary per rank and device, ordered by rank then device, the kernels' verdicts from
// `verdicts`. analyzeSessionTimeline(reader, selection), with the analysis' verdicts, is in
// analysis/sessiontimeline.h.
Result<std::vector<TimelineSummary>> analyzeSessionTimeline(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineSelection& selection);

// "START:END" in ns, each with an optional unit suffix ns, us, ms or s (e.g. "1.5ms:2ms").
// InvalidArgument when malformed or when END <= START.
Result<TimeWindow> parseTimeWindow(std::string_view text);

} // namespace ridgeline::core
