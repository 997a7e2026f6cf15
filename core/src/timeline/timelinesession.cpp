// SPDX-License-Identifier: MIT
// The timeline analysis of a session: its GPU ops (sessiongpuops.h) grouped by rank and device.
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"
#include "sessiongpuops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace ridgeline::core {

namespace {

using GroupKey = std::pair<int, std::int64_t>; // rank, device

} // namespace

Result<std::vector<TimelineSummary>> analyzeSessionTimeline(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineSelection& selection)
{
    return detail::analyzeSessionTimeline(reader, verdicts, selection, {});
}

Result<std::vector<TimelineSummary>> detail::analyzeSessionTimeline(SessionReader& reader,
    const KernelVerdictSource& verdicts, const TimelineSelection& selection,
    const std::function<void(int rank, std::int64_t deviceId, const TimelineGpuOp& op)>& eachOp)
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
    auto source = detail::SessionGpuOps::load(reader, { window, true, window.has_value() }, verdicts);
    if (source.hasError())
        return source.error();
    std::map<GroupKey, std::vector<TimelineGpuOp>> groups;
    auto scanned = source.value().forEach(reader, [&](const detail::SessionGpuOp& g) {
        groups[{ g.rank, g.deviceId }].push_back(g.op);
        if (eachOp)
            eachOp(g.rank, g.deviceId, g.op);
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

// "[-]<digits>[.<digits>][ns|us|ms|s]" -> ns, in exact decimal arithmetic (epoch-ns bounds such
// as 1661203463063943000 do not fit a double's 53 bits). A fraction of a nanosecond rounds to the
// nearest, halves away from zero; a value beyond int64 is rejected.
__extension__ using Wide = __int128; // exact for every int64 times a unit, with room to spare

std::optional<std::int64_t> parseTime(std::string_view text)
{
    std::int64_t scale = 1;
    int scaleDigits = 0;
    for (const auto& [suffix, factor, digits] : { std::tuple<std::string_view, std::int64_t, int> { "ns", 1, 0 },
             { "us", 1'000, 3 }, { "ms", 1'000'000, 6 }, { "s", 1'000'000'000, 9 } }) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            scale = factor;
            scaleDigits = digits;
            break;
        }
    }
    const bool negative = text.starts_with('-');
    if (negative)
        text.remove_prefix(1);
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    const auto allDigits = [](std::string_view s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if ((whole.empty() && fraction.empty()) || !allDigits(whole) || !allDigits(fraction)
        || (dot != std::string_view::npos && fraction.empty()))
        return std::nullopt;
    constexpr Wide limit = std::numeric_limits<std::int64_t>::max();
    Wide ns = 0;
    for (char c : whole) {
        ns = ns * 10 + (c - '0');
        if (ns > limit)
            return std::nullopt;
    }
    ns *= scale;
    // The fraction's first scaleDigits digits are whole nanoseconds; the next one rounds.
    Wide place = scale;
    for (std::size_t i = 0; i < fraction.size() && i <= static_cast<std::size_t>(scaleDigits); ++i) {
        const int digit = fraction[i] - '0';
        if (static_cast<int>(i) == scaleDigits) {
            if (digit >= 5)
                ns += 1;
            break;
        }
        place /= 10;
        ns += digit * place;
    }
    if (ns > limit)
        return std::nullopt;
    return static_cast<std::int64_t>(negative ? -ns : ns);
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
