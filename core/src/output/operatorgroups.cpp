// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/operatorgroups.h"

#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ridgeline::core {

namespace {

// A child's key: (kernel name, device) for kernels, (-1 - kind, device) for copies and memsets.
using ChildKey = std::pair<std::int64_t, std::int64_t>;

ChildKey keyOf(const GpuOpLink& g)
{
    if (g.nameId >= 0)
        return { g.nameId, g.deviceId };
    return { -1 - static_cast<std::int64_t>(g.memOpKind), g.deviceId };
}

OperatorGroupChild childOf(const ChildKey& key)
{
    OperatorGroupChild child;
    child.deviceId = key.second;
    if (key.first >= 0)
        child.nameId = key.first;
    else
        child.memOpKind = static_cast<MemOpKind>(-1 - key.first);
    return child;
}

} // namespace

OperatorGroups groupGpuOps(
    const OperatorReport& report, const OperatorLinks& links, const OperatorAttribution& attribution)
{
    OperatorGroups out;
    out.by = report.by;
    out.gpuTimeNs = report.gpuTimeNs;
    out.operators = report.operators;
    // Per report row (and one more for the unattributed), the children by key.
    const std::size_t unattributed = report.rows.size();
    std::vector<std::map<ChildKey, OperatorGroupChild>> children(report.rows.size() + 1);
    std::array<std::int64_t, kVerdictClassCount> unattributedByVerdict {}; // the report has no row for them
    for (std::size_t i = 0; i < links.gpuOps.size() && i < attribution.rowOfGpuOp.size(); ++i) {
        const auto& g = links.gpuOps[i];
        const std::size_t row = attribution.rowOfGpuOp[i] == GpuOpLink::kNone ? unattributed : attribution.rowOfGpuOp[i];
        const ChildKey key = keyOf(g);
        auto [it, added] = children[row].try_emplace(key, childOf(key));
        it->second.gpuTimeNs = saturatingAdd(it->second.gpuTimeNs, g.durationNs());
        ++it->second.gpuOps;
        if (row == unattributed)
            unattributedByVerdict[static_cast<std::size_t>(g.verdict)] += g.durationNs();
    }
    const auto byTime = [](const OperatorGroupChild& a, const OperatorGroupChild& b) {
        return std::tie(b.gpuTimeNs, b.gpuOps, a.nameId, a.deviceId) < std::tie(a.gpuTimeNs, a.gpuOps, b.nameId, b.deviceId);
    };
    for (std::size_t row = 0; row <= report.rows.size(); ++row) {
        if (children[row].empty())
            continue; // operators that launched nothing are not kernel table rows
        OperatorGroup group;
        if (row == unattributed) {
            group.unattributed = true;
            group.row.name = kUnattributedGroupName;
            group.row.gpuTimeNs = report.unattributedGpuTimeNs;
            group.row.gpuOps = report.unattributedGpuOps;
            group.row.timeByVerdictNs = unattributedByVerdict;
            group.row.shareOfGpuTime = report.gpuTimeNs > 0
                ? static_cast<double>(report.unattributedGpuTimeNs) / static_cast<double>(report.gpuTimeNs)
                : 0.0;
        } else {
            group.row = report.rows[row];
        }
        for (auto& [key, child] : children[row]) {
            group.row.kernels += row == unattributed && child.isKernel() ? child.gpuOps : 0;
            group.children.push_back(child);
        }
        std::sort(group.children.begin(), group.children.end(), byTime);
        out.groups.push_back(std::move(group));
    }
    return out;
}

std::optional<OperatorGroups::Share> OperatorGroups::mainGroupOf(std::int64_t nameId, std::int64_t deviceId) const
{
    std::optional<Share> best;
    std::int64_t bestTime = -1;
    std::int64_t total = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (const auto& child : groups[g].children) {
            if (child.nameId != nameId || child.deviceId != deviceId)
                continue;
            total = saturatingAdd(total, child.gpuTimeNs);
            if (child.gpuTimeNs > bestTime) {
                bestTime = child.gpuTimeNs;
                best = Share { g, 0 };
            }
        }
    }
    if (best)
        best->share = total > 0 ? static_cast<double>(bestTime) / static_cast<double>(total) : 1.0;
    return best;
}

std::vector<OperatorGroups::Place> OperatorGroups::placesOf(std::int64_t nameId, std::int64_t deviceId) const
{
    std::vector<Place> out;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (std::size_t c = 0; c < groups[g].children.size(); ++c) {
            const auto& child = groups[g].children[c];
            if (child.isKernel() && child.nameId == nameId && child.deviceId == deviceId)
                out.push_back({ g, c });
        }
    }
    std::stable_sort(out.begin(), out.end(), [this](const Place& a, const Place& b) {
        return groups[a.group].children[a.child].gpuTimeNs > groups[b.group].children[b.child].gpuTimeNs;
    });
    return out;
}

} // namespace ridgeline::core
