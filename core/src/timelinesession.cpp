// SPDX-License-Identifier: MIT
// The timeline analysis of a session: its GPU ops (sessiongpuops.h) grouped by rank and device.
#include "ridgeline/core/sessionreader.h"
#include "ridgeline/core/timeline.h"
#include "sessiongpuops.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace ridgeline::core {

namespace {

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
    // The whole session: kernels in storage order (a narrow scan); analyzeTimeline orders them.
    auto source = detail::SessionGpuOps::load(reader, { window, true, window.has_value() });
    if (source.hasError())
        return source.error();
    std::map<GroupKey, std::vector<TimelineOp>> groups;
    auto scanned = source.value().forEach(reader, [&](const detail::SessionGpuOp& g) {
        groups[{ g.rank, g.deviceId }].push_back(g.op);
        return true;
    });
    if (scanned.hasError())
        return scanned.error();

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
