// SPDX-License-Identifier: MIT
#include "timelinereport.h"

#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ridgeline::core::detail {

namespace {

nlohmann::json gapJson(std::int64_t count, std::int64_t ns)
{
    return { { "count", count }, { "time_ns", ns } };
}

std::string share(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? fmt::format("{:.1f} %", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

std::string duration(std::int64_t ns)
{
    return formatDuration(static_cast<double>(ns));
}

} // namespace

nlohmann::json timelineJson(const std::vector<TimelineSummary>& summaries)
{
    using nlohmann::json;
    json array = json::array();
    for (const auto& s : summaries) {
        json verdicts = json::object();
        for (std::size_t v = 0; v < kVerdictClassCount; ++v)
            verdicts[toString(static_cast<VerdictClass>(v))] = s.timeByVerdictNs[v];
        json queues = json::array();
        for (const auto& q : s.queues) {
            queues.push_back({ { "stream", q.streamId }, { "launches", q.launches }, { "max_depth", q.maxDepth },
                { "avg_depth", q.averageDepth } });
        }
        array.push_back({
            { "rank", s.rank },
            { "device", s.deviceId },
            { "kernels", s.kernels },
            { "memcpy", s.memcpys },
            { "memset", s.memsets },
            { "collectives", s.collectives },
            { "start_ns", s.startNs },
            { "end_ns", s.endNs },
            { "span_ns", s.spanNs },
            { "busy_ns", s.busyNs },
            { "idle_ns", s.idleNs },
            { "compute_ns", s.computeNs },
            { "non_compute_ns", s.nonComputeNs },
            { "communication_ns", s.communicationNs },
            { "comm_comp_overlap_ns", s.overlapNs },
            { "comm_comp_overlap_pct", s.commCompOverlapPct ? json(*s.commCompOverlapPct) : json(nullptr) },
            { "time_by_verdict_ns", verdicts },
            { "idle_gaps",
                { { "host_not_launching", gapJson(s.idleGaps.hostNotLaunchingCount, s.idleGaps.hostNotLaunchingNs) },
                    { "waiting_on_kernel", gapJson(s.idleGaps.waitingCount, s.idleGaps.waitingNs) },
                    { "unknown", gapJson(s.idleGaps.unknownCount, s.idleGaps.unknownNs) } } },
            { "queue_depth", queues },
        });
    }
    return array;
}

nlohmann::json timelineWindowJson(const std::optional<TimeWindow>& window, const std::optional<std::int64_t>& step)
{
    using nlohmann::json;
    if (!window)
        return json(nullptr);
    return { { "start_ns", window->startNs }, { "end_ns", window->endNs },
        { "step", step ? json(*step) : json(nullptr) } };
}

nlohmann::json profilerStepsJson(
    const std::vector<ProfilerStep>& steps, const std::vector<std::vector<TimelineSummary>>& timelines)
{
    nlohmann::json array = nlohmann::json::array();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto& s = steps[i];
        nlohmann::json step = { { "step", s.number }, { "start_ns", s.window.startNs }, { "end_ns", s.window.endNs },
            { "range", s.gpuSide ? "gpu" : "host" } };
        if (i < timelines.size())
            step["timeline"] = timelineJson(timelines[i]);
        array.push_back(std::move(step));
    }
    return array;
}

void writeTimelineTable(std::ostream& out, const std::vector<TimelineSummary>& summaries,
    const std::optional<TimeWindow>& window, const std::optional<std::int64_t>& step,
    const std::vector<ProfilerStep>& steps)
{
    if (step && window) {
        const auto it = std::find_if(steps.begin(), steps.end(), [&](const auto& s) { return s.number == *step; });
        const bool gpuSide = it != steps.end() && it->gpuSide;
        fmt::print(out, "\nTimeline of profiler step {} ({} range {} .. {} ns, {}):\n", *step,
            gpuSide ? "its GPU-side" : "its host", window->startNs, window->endNs,
            duration(saturatingSub(window->endNs, window->startNs)));
    } else if (window) {
        fmt::print(out, "\nTimeline of {} .. {} ns:\n", window->startNs, window->endNs);
    } else if (!steps.empty()) {
        fmt::print(out,
            "\nTimeline of the whole session, warm-up included (profiler step{} {}: --step N or --step all):\n",
            steps.size() == 1 ? "" : "s", stepNumbers(steps));
    } else {
        fmt::print(out, "\nTimeline of the whole session:\n");
    }
    if (summaries.empty()) {
        fmt::print(out, "  No GPU activity.\n");
        return;
    }
    // Three lines each, within the report's 120 columns; a session without ranks names only devices.
    for (const auto& s : summaries) {
        const auto who
            = s.rank >= 0 ? fmt::format("Rank {} device {}", s.rank, s.deviceId) : fmt::format("Device {}", s.deviceId);
        fmt::print(out, "  {}: span {}, idle {} ({}), compute {} ({})\n    non-compute {} ({})", who,
            duration(s.spanNs), duration(s.idleNs), share(s.idleNs, s.spanNs), duration(s.computeNs),
            share(s.computeNs, s.spanNs), duration(s.nonComputeNs), share(s.nonComputeNs, s.spanNs));
        if (s.commCompOverlapPct)
            fmt::print(out, ", comm-compute overlap {:.1f} %", *s.commCompOverlapPct);
        fmt::print(out, "\n    idle gaps: host not launching {}, waiting on a kernel {}, unknown cause {}\n",
            duration(s.idleGaps.hostNotLaunchingNs), duration(s.idleGaps.waitingNs), duration(s.idleGaps.unknownNs));
    }
}

void writeStepTable(std::ostream& out, const std::vector<ProfilerStep>& steps,
    const std::vector<std::vector<TimelineSummary>>& timelines)
{
    const bool allGpu = std::all_of(steps.begin(), steps.end(), [](const auto& s) { return s.gpuSide; });
    fmt::print(
        out, "\nProfiler steps ({}):\n", allGpu ? "GPU-side ranges" : "GPU-side ranges where the trace has them");
    fmt::print(out, "  {:>6}  {:<18}  {:>11}  {:>11}  {:>11}  {:>11}  {:>11}  {:>7}\n", "Step", "Device", "Span",
        "Busy", "Compute", "Comm", "Idle", "Idle %");
    for (std::size_t i = 0; i < steps.size() && i < timelines.size(); ++i) {
        const auto step = fmt::format("{}{}", steps[i].number, steps[i].gpuSide ? "" : "*");
        if (timelines[i].empty())
            fmt::print(out, "  {:>6}  {:<18}  {:>11}\n", step, "no GPU activity",
                duration(saturatingSub(steps[i].window.endNs, steps[i].window.startNs)));
        for (const auto& s : timelines[i]) {
            const auto who = s.rank >= 0 ? fmt::format("rank {} device {}", s.rank, s.deviceId)
                                         : fmt::format("device {}", s.deviceId);
            fmt::print(out, "  {:>6}  {:<18}  {:>11}  {:>11}  {:>11}  {:>11}  {:>11}  {:>7}\n", step, who,
                duration(s.spanNs), duration(s.busyNs), duration(s.computeNs), duration(s.communicationNs),
                duration(s.idleNs), share(s.idleNs, s.spanNs));
        }
    }
    if (!allGpu)
        fmt::print(out, "  * the host range: the trace has no GPU-side range of that step\n");
}

} // namespace ridgeline::core::detail
