// SPDX-License-Identifier: MIT
// Loads the GPU ops of a session for the timeline analysis, grouped by rank and device, with
// their verdicts and the API calls that launched them.
#include "ridgeline/core/roofline.h"
#include "ridgeline/core/sessionreader.h"
#include "ridgeline/core/timeline.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace ridgeline::core {

namespace {

struct Launch {
    std::int64_t processId;
    std::int64_t correlationId;
    std::int64_t startNs;
    std::int64_t endNs;
    bool operator<(const Launch& o) const
    {
        return std::tie(processId, correlationId, startNs) < std::tie(o.processId, o.correlationId, o.startNs);
    }
};

// API calls by (process, correlation id); with several calls of one id, the earliest (outermost).
class LaunchIndex {
public:
    explicit LaunchIndex(std::vector<ApiCall> calls)
    {
        m_launches.reserve(calls.size());
        for (const auto& c : calls)
            m_launches.push_back({ c.processId, c.correlationId, c.startNs, c.endNs });
        std::sort(m_launches.begin(), m_launches.end());
    }
    void apply(std::int64_t processId, std::int64_t correlationId, TimelineOp& op) const
    {
        auto it = std::lower_bound(m_launches.begin(), m_launches.end(),
            Launch { processId, correlationId, std::numeric_limits<std::int64_t>::min(), 0 });
        if (it != m_launches.end() && it->processId == processId && it->correlationId == correlationId) {
            op.launchStartNs = it->startNs;
            op.launchEndNs = it->endNs;
        }
    }

private:
    std::vector<Launch> m_launches;
};

using GroupKey = std::pair<int, std::int64_t>; // rank, device

} // namespace

Result<TimeWindow> profilerStepWindow(SessionReader& reader, std::int64_t step)
{
    auto ranges = reader.nvtxRanges();
    if (ranges.hasError())
        return ranges.error();
    const std::string name = "ProfilerStep#" + std::to_string(step);
    std::optional<TimeWindow> window;
    for (const auto& r : ranges.value()) {
        if (r.name != name)
            continue;
        if (!window)
            window = TimeWindow { r.startNs, r.endNs };
        window->startNs = std::min(window->startNs, r.startNs);
        window->endNs = std::max(window->endNs, r.endNs);
    }
    if (!window)
        return makeError(ErrorCode::NotFound,
            "The session has no profiler step " + std::to_string(step) + " (no range named \"" + name + "\").");
    return *window;
}

Result<std::vector<TimelineSummary>> analyzeSessionTimeline(SessionReader& reader, const TimelineSelection& selection)
{
    std::optional<TimeWindow> window = selection.window;
    if (selection.step) {
        auto stepWindow = profilerStepWindow(reader, *selection.step);
        if (stepWindow.hasError())
            return stepWindow.error();
        window = stepWindow.value();
    }
    if (window && window->endNs <= window->startNs)
        return makeError(ErrorCode::InvalidArgument, "The time window is empty: its end must come after its start.");
    TimeQuery query;
    if (window) {
        query.startNs = window->startNs;
        query.endNs = window->endNs;
    }

    auto processes = reader.processes();
    if (processes.hasError())
        return processes.error();
    std::unordered_map<std::int64_t, int> rankOf;
    for (const auto& p : processes.value())
        rankOf[p.id] = p.rank;
    auto rank = [&](std::int64_t processId) {
        auto it = rankOf.find(processId);
        return it == rankOf.end() ? -1 : it->second;
    };

    auto facts = detail::SessionFacts::load(reader);
    if (facts.hasError())
        return facts.error();
    auto comms = reader.commOps();
    if (comms.hasError())
        return comms.error();
    std::unordered_set<std::int64_t> collectiveKernels;
    for (const auto& c : comms.value()) {
        if (c.kernelId)
            collectiveKernels.insert(*c.kernelId);
    }
    // Only counted or collective kernels have a verdict beyond "unknown (no counters)".
    auto analysed = reader.kernelsById(facts.value().analysedKernelIds());
    if (analysed.hasError())
        return analysed.error();
    std::unordered_map<std::int64_t, TimelineVerdict> verdictOf;
    for (const auto& k : analysed.value())
        verdictOf[k.id] = timelineVerdictFromString(analyzeKernel(facts.value().factsFor(k)).verdict);

    auto calls = reader.apiCalls();
    if (calls.hasError())
        return calls.error();
    const LaunchIndex launches(std::move(calls).value());

    std::map<GroupKey, std::vector<TimelineOp>> groups;
    auto scanned = reader.forEachKernel(query, [&](const Kernel& k) {
        TimelineOp op;
        op.startNs = k.startNs;
        op.endNs = k.endNs;
        op.streamId = k.streamId;
        op.kind = collectiveKernels.contains(k.id) ? GpuOpKind::Collective : GpuOpKind::Kernel;
        if (auto it = verdictOf.find(k.id); it != verdictOf.end())
            op.verdict = it->second;
        launches.apply(k.processId, k.correlationId, op);
        groups[{ rank(k.processId), k.deviceId }].push_back(op);
        return true;
    });
    if (scanned.hasError())
        return scanned.error();

    auto memOps = reader.memOps(query);
    if (memOps.hasError())
        return memOps.error();
    for (const auto& m : memOps.value()) {
        TimelineOp op;
        op.startNs = m.startNs;
        op.endNs = m.endNs;
        op.streamId = m.streamId;
        op.kind = m.kind == MemOpKind::Memset ? GpuOpKind::Memset : GpuOpKind::Memcpy;
        op.verdict = timelineVerdictFromString(analyzeMemOp(m).verdict);
        launches.apply(m.processId, m.correlationId, op);
        groups[{ rank(m.processId), m.deviceId }].push_back(op);
    }
    for (const auto& c : comms.value()) {
        if (c.kernelId)
            continue; // carried by its kernel, counted there
        TimelineOp op;
        op.startNs = c.startNs;
        op.endNs = c.endNs;
        op.kind = GpuOpKind::Collective;
        op.verdict = TimelineVerdict::CommunicationBound;
        groups[{ rank(c.processId), c.deviceId }].push_back(op);
    }

    std::vector<TimelineSummary> result;
    result.reserve(groups.size());
    for (auto& [key, ops] : groups) {
        TimelineSummary s = analyzeTimeline(ops, window);
        s.rank = key.first;
        s.deviceId = key.second;
        if (s.kernels + s.memcpys + s.memsets + s.collectives > 0 || !window)
            result.push_back(std::move(s));
    }
    return result;
}

namespace {

// "<number>[ns|us|ms|s]" -> ns.
std::optional<std::int64_t> parseTime(std::string_view text)
{
    double scale = 1;
    for (const auto& [suffix, factor] :
        { std::pair<std::string_view, double> { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } }) {
        if (text.size() > suffix.size() && text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            scale = factor;
            break;
        }
    }
    if (text.empty())
        return std::nullopt;
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(std::string(text), &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    const double ns = value * scale;
    if (used != text.size() || !(ns > -9.2e18 && ns < 9.2e18))
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ns));
}

} // namespace

Result<TimeWindow> parseTimeWindow(std::string_view text)
{
    const auto colon = text.find(':');
    const auto invalid = [&] {
        return makeError(ErrorCode::InvalidArgument,
            "Invalid time window \"" + std::string(text)
                + "\": expected START:END in ns, or with a unit (ns, us, ms, s), e.g. 1.5ms:2ms.");
    };
    if (colon == std::string_view::npos)
        return invalid();
    const auto start = parseTime(text.substr(0, colon));
    const auto end = parseTime(text.substr(colon + 1));
    if (!start || !end)
        return invalid();
    if (*end <= *start)
        return makeError(ErrorCode::InvalidArgument,
            "The time window \"" + std::string(text) + "\" is empty: its end must come after its start.");
    return TimeWindow { *start, *end };
}

} // namespace ridgeline::core
