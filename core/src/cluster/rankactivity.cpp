// SPDX-License-Identifier: MIT
// A rank's GPU activity in coarse bins (ranksummary.h): the union of its spans, spread over bins.
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/cluster/ranksummary.h"

#include <algorithm>
#include <limits>

namespace ridgeline::core {

namespace {

// Sorted, non-overlapping, non-empty spans covering the same time.
Spans unionOf(Spans spans)
{
    std::sort(spans.begin(), spans.end());
    Spans out;
    for (const auto& [start, end] : spans) {
        if (end <= start)
            continue;
        if (!out.empty() && start <= out.back().second)
            out.back().second = std::max(out.back().second, end);
        else
            out.emplace_back(start, end);
    }
    return out;
}

// Adds each span's time to the bins it covers; bin b covers [origin + b x binNs, origin + (b + 1) x binNs).
std::vector<std::int64_t> binned(const Spans& spans, std::int64_t origin, std::int64_t binNs, int bins)
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(bins), 0);
    for (const auto& span : spans) {
        // Offsets from the origin: spans start at or after it, and a hostile time saturates.
        std::int64_t start = std::max<std::int64_t>(0, saturatingSub(span.first, origin));
        const std::int64_t end = saturatingSub(span.second, origin);
        for (auto bin = static_cast<std::size_t>(start / binNs); start < end && bin < out.size(); ++bin) {
            std::int64_t binEnd = 0;
            if (__builtin_mul_overflow(static_cast<std::int64_t>(bin) + 1, binNs, &binEnd))
                binEnd = std::numeric_limits<std::int64_t>::max();
            const auto piece = std::min(end, binEnd);
            out[bin] += piece - start;
            start = piece;
        }
    }
    return out;
}

} // namespace

RankActivity binRankActivity(Spans busy, Spans communication, int bins)
{
    RankActivity activity;
    // The rank's span: its ops' earliest start to latest end, instants included (as the timeline's).
    std::int64_t start = std::numeric_limits<std::int64_t>::max(), end = std::numeric_limits<std::int64_t>::min();
    for (const auto& [spanStart, spanEnd] : busy) {
        if (spanEnd < spanStart)
            continue;
        start = std::min(start, spanStart);
        end = std::max(end, spanEnd);
    }
    busy = unionOf(std::move(busy));
    if (busy.empty() || bins <= 0)
        return activity;
    const std::int64_t span = saturatingSub(end, start);
    activity.startNs = start;
    activity.binNs = std::max<std::int64_t>(1, span / bins + (span % bins != 0 ? 1 : 0)); // bins x binNs >= span
    activity.busyNs = binned(busy, start, activity.binNs, bins);
    activity.communicationNs = binned(unionOf(std::move(communication)), start, activity.binNs, bins);
    return activity;
}

} // namespace ridgeline::core
