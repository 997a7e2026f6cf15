// SPDX-License-Identifier: MIT
// The interval maths of the timeline analysis: ops put in start order (nothing to do when sorted,
// one k-way merge pass for a few sorted runs, else a sort), then single sweeps. No allocation per
// op (buffers are sized up front), nothing quadratic.
#include "ridgeline/core/timeline/timeline.h"

#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ridgeline::core {

namespace {

// The running union of intervals visited in start order.
class UnionRun {
public:
    void add(std::int64_t start, std::int64_t end)
    {
        if (!m_open) {
            m_start = start;
            m_end = end;
            m_open = true;
        } else if (start > m_end) {
            m_total = saturatingAdd(m_total, saturatingSub(m_end, m_start));
            m_start = start;
            m_end = end;
        } else if (end > m_end) {
            m_end = end;
        }
    }
    std::int64_t total() const { return saturatingAdd(m_total, m_open ? saturatingSub(m_end, m_start) : 0); }

private:
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
    std::int64_t m_total = 0;
    bool m_open = false;
};

struct StreamQueue {
    std::int64_t streamId = 0;
    std::int64_t launches = 0;
    std::vector<std::int64_t> enqueued; // launch call end, clipped to the interval
    std::vector<std::int64_t> dequeued; // op start, clipped; in start order already
    std::int64_t integral = 0; // sum of queued time, ns
};

constexpr std::size_t kLinearStreams = 32;
// Inputs made of at most this many sorted runs (ops listed stream by stream) are merged, not sorted.
constexpr std::size_t kMaxMergedRuns = 256;

// Ops in start order: `ops` itself when it is sorted; made of at most kMaxMergedRuns sorted runs
// (ops listed stream by stream), merged into `buffer` in one pass; otherwise sorted in place. Ops
// that start at the same time come stream by stream, the lowest stream id first, and in the order
// given within a stream: a stable sort by (start, stream), whatever runs the input was cut into
// (the scan of a session groups its ops by stream and splits it over threads).
std::span<const TimelineGpuOp> sortedByStart(std::span<TimelineGpuOp> ops, std::vector<TimelineGpuOp>& buffer)
{
    auto less = [](const TimelineGpuOp& a, const TimelineGpuOp& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.streamId < b.streamId;
    };
    std::vector<std::size_t> bounds { 0 };
    for (std::size_t i = 1; i < ops.size(); ++i) {
        if (less(ops[i], ops[i - 1])) {
            bounds.push_back(i);
            if (bounds.size() > kMaxMergedRuns) {
                std::stable_sort(ops.begin(), ops.end(), less);
                return ops;
            }
        }
    }
    if (bounds.size() == 1)
        return ops;
    bounds.push_back(ops.size());
    // k-way merge: a min-heap of (next start, its stream, run).
    using Head = std::tuple<std::int64_t, std::int64_t, std::size_t>;
    std::vector<Head> heap;
    std::vector<std::size_t> next(bounds.begin(), bounds.end() - 1);
    for (std::size_t r = 0; r + 1 < bounds.size(); ++r)
        heap.emplace_back(ops[bounds[r]].startNs, ops[bounds[r]].streamId, r);
    auto later = [](const Head& a, const Head& b) { return a > b; };
    std::make_heap(heap.begin(), heap.end(), later);
    buffer.clear();
    buffer.reserve(ops.size());
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const std::size_t run = std::get<2>(heap.back());
        buffer.push_back(ops[next[run]++]);
        if (next[run] < bounds[run + 1]) {
            heap.back() = Head { ops[next[run]].startNs, ops[next[run]].streamId, run };
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }
    return buffer;
}

// Keeps the ops that overlap the window (or lie in it, for zero-length ops), clipped to it.
std::size_t clipToWindow(std::span<TimelineGpuOp> ops, const std::optional<TimeWindow>& window)
{
    if (!window) {
        for (auto& op : ops)
            op.endNs = std::max(op.endNs, op.startNs);
        return ops.size();
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        TimelineGpuOp op = ops[i];
        op.endNs = std::max(op.endNs, op.startNs);
        const bool inside = op.startNs == op.endNs ? op.startNs >= window->startNs && op.startNs < window->endNs
                                                   : op.endNs > window->startNs && op.startNs < window->endNs;
        if (!inside)
            continue;
        op.startNs = std::max(op.startNs, window->startNs);
        op.endNs = std::min(op.endNs, window->endNs);
        ops[kept++] = op;
    }
    return kept;
}

// Launch queues per stream over [lo, hi): visit() every op in start order (during the main
// sweep), then finish().
class QueueMeter {
public:
    QueueMeter(std::size_t ops, std::int64_t lo, std::int64_t hi)
        : m_streamOf(ops, kNotQueued)
        , m_lo(lo)
        , m_hi(hi)
    { }

    void visit(std::size_t i, const TimelineGpuOp& op)
    {
        if (op.launchEndNs == kNoLaunch)
            return;
        if (!m_haveLast || op.streamId != m_lastStream) {
            m_lastIndex = static_cast<std::uint32_t>(indexOf(op.streamId));
            m_lastStream = op.streamId;
            m_haveLast = true;
        }
        ++m_queues[m_lastIndex].launches;
        if (std::min(op.startNs, m_hi) > std::max(op.launchEndNs, m_lo)) {
            m_streamOf[i] = m_lastIndex;
            ++m_queuedCount[m_lastIndex];
        }
    }

    // `hi` may be lowered to the end of the span now that it is known.
    void finish(std::span<const TimelineGpuOp> ops, std::int64_t hi, TimelineSummary& summary);

private:
    static constexpr std::uint32_t kNotQueued = std::numeric_limits<std::uint32_t>::max();

    std::size_t indexOf(std::int64_t streamId)
    {
        // Few streams: a linear scan beats hashing; the map takes over beyond that.
        if (m_queues.size() <= kLinearStreams) {
            for (std::size_t q = 0; q < m_queues.size(); ++q) {
                if (m_queues[q].streamId == streamId)
                    return q;
            }
        } else {
            if (m_index.empty()) {
                for (std::size_t q = 0; q < m_queues.size(); ++q)
                    m_index.emplace(m_queues[q].streamId, q);
            }
            auto [it, inserted] = m_index.try_emplace(streamId, m_queues.size());
            if (!inserted)
                return it->second;
        }
        m_queues.emplace_back();
        m_queues.back().streamId = streamId;
        m_queuedCount.push_back(0);
        return m_queues.size() - 1;
    }

    std::vector<std::uint32_t> m_streamOf; // per op: its stream's index when it was queued in [lo, hi)
    std::vector<StreamQueue> m_queues;
    std::vector<std::size_t> m_queuedCount;
    std::unordered_map<std::int64_t, std::size_t> m_index;
    std::int64_t m_lo;
    std::int64_t m_hi;
    std::int64_t m_lastStream = 0;
    std::uint32_t m_lastIndex = 0;
    bool m_haveLast = false;
};

void QueueMeter::finish(std::span<const TimelineGpuOp> ops, std::int64_t hi, TimelineSummary& summary)
{
    const std::int64_t lo = m_lo;
    auto& queues = m_queues;
    for (std::size_t q = 0; q < queues.size(); ++q) {
        queues[q].enqueued.reserve(m_queuedCount[q]);
        queues[q].dequeued.reserve(m_queuedCount[q]);
    }
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (m_streamOf[i] == kNotQueued)
            continue; // no launch call, started as soon as it was launched, or queued outside the interval
        StreamQueue& q = queues[m_streamOf[i]];
        const std::int64_t from = std::max(ops[i].launchEndNs, lo);
        const std::int64_t to = std::min(ops[i].startNs, hi);
        q.enqueued.push_back(from);
        q.dequeued.push_back(to);
        q.integral = saturatingAdd(q.integral, saturatingSub(to, from));
    }
    const double length = static_cast<double>(hi) - static_cast<double>(lo);
    summary.queues.reserve(queues.size());
    for (auto& q : queues) {
        if (!std::is_sorted(q.enqueued.begin(), q.enqueued.end()))
            std::sort(q.enqueued.begin(), q.enqueued.end());
        // Merge the two sorted event lists; at equal times leaving comes first, so an op that
        // starts as the next is launched does not count twice.
        std::int64_t depth = 0, maxDepth = 0;
        std::size_t in = 0, out = 0;
        while (in < q.enqueued.size()) {
            if (out < q.dequeued.size() && q.dequeued[out] <= q.enqueued[in]) {
                --depth;
                ++out;
            } else {
                ++depth;
                ++in;
                maxDepth = std::max(maxDepth, depth);
            }
        }
        StreamQueueDepth result;
        result.streamId = q.streamId;
        result.launches = q.launches;
        result.maxDepth = maxDepth;
        result.averageDepth = length > 0 ? static_cast<double>(q.integral) / length : 0.0;
        summary.queues.push_back(result);
    }
    std::sort(summary.queues.begin(), summary.queues.end(),
        [](const StreamQueueDepth& a, const StreamQueueDepth& b) { return a.streamId < b.streamId; });
}

} // namespace

TimelineSummary analyzeTimeline(std::span<TimelineGpuOp> allOps, const std::optional<TimeWindow>& window)
{
    TimelineSummary summary;
    std::vector<TimelineGpuOp> buffer;
    const auto ops = sortedByStart(allOps.first(clipToWindow(allOps, window)), buffer);
    if (ops.empty())
        return summary;

    UnionRun compute, communication, computeOrCommunication;
    std::array<UnionRun, kVerdictClassCount> byVerdict;
    std::int64_t busy = 0;
    std::int64_t runStart = ops.front().startNs;
    std::int64_t runEnd = ops.front().endNs;
    // Without a window the queues are measured over the span: from the first start (known now)
    // to the last end, which no op starts after.
    QueueMeter queues(ops.size(), window ? window->startNs : runStart,
        window ? window->endNs : std::numeric_limits<std::int64_t>::max());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const TimelineGpuOp& op = ops[i];
        queues.visit(i, op);
        switch (op.kind) {
        case GpuOpKind::Kernel:
            ++summary.kernels;
            compute.add(op.startNs, op.endNs);
            computeOrCommunication.add(op.startNs, op.endNs);
            break;
        case GpuOpKind::Collective:
            ++summary.collectives;
            communication.add(op.startNs, op.endNs);
            computeOrCommunication.add(op.startNs, op.endNs);
            break;
        case GpuOpKind::Memcpy:
            ++summary.memcpys;
            break;
        case GpuOpKind::Memset:
            ++summary.memsets;
            break;
        }
        byVerdict[static_cast<std::size_t>(op.verdict)].add(op.startNs, op.endNs);
        if (op.startNs > runEnd) {
            // A gap in all GPU activity, ended by this op: why did it not start earlier?
            const std::int64_t gap = saturatingSub(op.startNs, runEnd);
            auto& g = summary.idleGaps;
            if (op.launchStartNs == kNoLaunch) {
                g.unknownNs = saturatingAdd(g.unknownNs, gap);
                ++g.unknownCount;
            } else if (op.launchStartNs > runEnd) {
                g.hostNotLaunchingNs = saturatingAdd(g.hostNotLaunchingNs, gap);
                ++g.hostNotLaunchingCount;
            } else {
                g.waitingNs = saturatingAdd(g.waitingNs, gap);
                ++g.waitingCount;
            }
            busy = saturatingAdd(busy, saturatingSub(runEnd, runStart));
            runStart = op.startNs;
            runEnd = op.endNs;
        } else {
            runEnd = std::max(runEnd, op.endNs);
        }
    }
    busy = saturatingAdd(busy, saturatingSub(runEnd, runStart));

    summary.startNs = ops.front().startNs;
    summary.endNs = runEnd; // the run open at the end holds the latest end
    summary.spanNs = saturatingSub(summary.endNs, summary.startNs);
    summary.busyNs = busy;
    summary.idleNs = saturatingSub(summary.spanNs, busy);
    summary.computeNs = compute.total();
    summary.nonComputeNs = saturatingSub(busy, summary.computeNs);
    summary.communicationNs = communication.total();
    summary.overlapNs = saturatingSub(
        saturatingAdd(summary.computeNs, summary.communicationNs), computeOrCommunication.total());
    if (summary.communicationNs > 0)
        summary.commCompOverlapPct
            = 100.0 * static_cast<double>(summary.overlapNs) / static_cast<double>(summary.communicationNs);
    for (std::size_t v = 0; v < kVerdictClassCount; ++v)
        summary.timeByVerdictNs[v] = byVerdict[v].total();

    queues.finish(ops, window ? window->endNs : summary.endNs, summary);
    return summary;
}

} // namespace ridgeline::core
