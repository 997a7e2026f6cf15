// SPDX-License-Identifier: MIT
#include "graphcounters.h"

#include "rangecheck.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::inject {

GraphRangesJudgement judgeGraphRanges(std::size_t added, std::size_t dropped)
{
    GraphRangesJudgement j;
    if (dropped > 0) {
        j.sentence = fmt::format("CUPTI dropped {} counter range{} of a CUDA graph launch (counter data image full); "
                                 "that launch has no counters.",
            dropped, dropped == 1 ? "" : "s");
        return j;
    }
    if (added == 0) {
        j.sentence = "CUPTI recorded no counter range for a profiled CUDA graph launch; kernels launched through "
                     "graphs have no counters.";
        return j;
    }
    j.keep = true;
    return j;
}

void GraphCounters::expect(std::uint32_t correlationId)
{
    m_launches[correlationId] = Launch {};
}

GraphAttribution GraphCounters::ranges(std::uint32_t correlationId, std::vector<GraphRange> ranges)
{
    auto it = m_launches.find(correlationId);
    if (it == m_launches.end())
        return {};
    if (ranges.empty()) {
        m_launches.erase(it);
        return {};
    }
    Launch& launch = it->second;
    launch.rangesKnown = true;
    launch.used.assign(ranges.size(), false);
    launch.ranges = std::move(ranges);
    return attribute(correlationId, launch);
}

GraphAttribution GraphCounters::kernels(std::uint32_t correlationId, std::vector<GraphKernelRow> rows)
{
    auto it = m_launches.find(correlationId);
    if (it == m_launches.end())
        return {};
    for (auto& row : rows) {
        it->second.kernels.push_back(std::move(row));
        it->second.counted.push_back(false);
    }
    return attribute(correlationId, it->second);
}

std::size_t GraphCounters::orphans() const
{
    return static_cast<std::size_t>(std::count_if(m_launches.begin(), m_launches.end(),
        [](const auto& entry) { return entry.second.rangesKnown && entry.second.kernels.empty(); }));
}

GraphAttribution GraphCounters::attribute(std::uint32_t correlationId, Launch& launch)
{
    GraphAttribution out;
    if (!launch.rangesKnown || launch.kernels.empty())
        return out;
    // Per node: a range named for a kernel of the launch, in order.
    bool anyUsed = std::find(launch.used.begin(), launch.used.end(), true) != launch.used.end();
    for (std::size_t k = 0; k < launch.kernels.size(); ++k) {
        if (launch.counted[k])
            continue;
        for (std::size_t r = 0; r < launch.ranges.size(); ++r) {
            if (launch.used[r]
                || !rangeNameMatches(launch.ranges[r].name, launch.kernels[k].raw, launch.kernels[k].demangled))
                continue;
            launch.used[r] = launch.counted[k] = true;
            anyUsed = true;
            for (auto value : launch.ranges[r].values) {
                value.kernelId = launch.kernels[k].kernelId;
                out.metrics.push_back(std::move(value));
            }
            break;
        }
    }
    const bool allUsed = std::find(launch.used.begin(), launch.used.end(), false) == launch.used.end();
    if (allUsed) {
        m_launches.erase(correlationId);
        return out;
    }
    if (anyUsed)
        return out; // more kernels of the launch may still come for the remaining ranges
    if (launch.ranges.size() == 1) {
        // One range named for none of its kernels: the whole launch's, kept on its first kernel.
        const auto first = std::min_element(launch.kernels.begin(), launch.kernels.end(),
            [](const GraphKernelRow& a, const GraphKernelRow& b) { return a.startNs < b.startNs; });
        for (auto value : launch.ranges.front().values) {
            value.kernelId = first->kernelId;
            out.metrics.push_back(std::move(value));
        }
        for (const auto& k : launch.kernels)
            out.graphLevel.push_back(k.kernelId);
        out.graphLevelKernels = static_cast<std::int64_t>(launch.kernels.size());
    } else {
        out.warning = fmt::format("the {} counter ranges of a CUDA graph launch are named for none of its kernels "
                                  "(first: \"{}\"); they are not kept.",
            launch.ranges.size(), launch.ranges.front().name);
    }
    m_launches.erase(correlationId);
    return out;
}

} // namespace ridgeline::inject
