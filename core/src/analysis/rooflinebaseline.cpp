// SPDX-License-Identifier: MIT
// Arrows from a baseline session's kernel points to the current session's (rooflinechart.h).
#include "ridgeline/core/analysis/rooflinechart.h"

#include <map>
#include <tuple>

namespace ridgeline::core {

namespace {

using RoofKey = std::tuple<std::string, std::string, std::string, std::string>; // name, device, level, precision

RoofKey keyOf(const RooflinePoint& p, std::span<const KernelSummary> kernels)
{
    const auto& row = kernels[p.kernel];
    const std::string& device = row.deviceName.empty() ? row.analysis.deviceName : row.deviceName;
    return { row.name, device, p.level, p.precision };
}

} // namespace

std::vector<RooflineArrow> matchRooflineBaseline(const RooflineChart& baseline,
    std::span<const KernelSummary> baselineKernels, const RooflineChart& current,
    std::span<const KernelSummary> currentKernels)
{
    // Baseline points per key, in kernel order, so the k-th occurrence pairs with the k-th.
    std::map<RoofKey, std::map<std::size_t, std::size_t>> byKey; // key -> kernel index -> point index
    for (std::size_t i = 0; i < baseline.points.size(); ++i) {
        const auto& p = baseline.points[i];
        if (p.kernel < baselineKernels.size())
            byKey[keyOf(p, baselineKernels)].emplace(p.kernel, i);
    }
    std::map<RoofKey, std::map<std::size_t, std::size_t>> currentByKey;
    for (std::size_t i = 0; i < current.points.size(); ++i) {
        const auto& p = current.points[i];
        if (p.kernel < currentKernels.size())
            currentByKey[keyOf(p, currentKernels)].emplace(p.kernel, i);
    }
    std::vector<RooflineArrow> arrows;
    for (const auto& [key, points] : currentByKey) {
        auto found = byKey.find(key);
        if (found == byKey.end())
            continue;
        auto from = found->second.begin();
        for (auto to = points.begin(); to != points.end() && from != found->second.end(); ++to, ++from)
            arrows.push_back({ from->second, to->second });
    }
    return arrows;
}

} // namespace ridgeline::core
