// SPDX-License-Identifier: MIT
// The same collective instance on every rank (TraceLens NcclAnalyser, communication.md §5):
// start skew = latest start - earliest start, end skew = latest end - earliest end, the wait of a
// rank = latest start - its start; the rank that starts last makes the others wait.
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>

namespace ridgeline::core {

CrossRankAnalysis matchAcrossRanks(std::span<const CollectiveOpRef> ops)
{
    CrossRankAnalysis out;
    // (group, rank) -> its ops in start order.
    std::map<std::pair<std::string, int>, std::vector<const CollectiveOpRef*>> byGroupRank;
    for (const auto& op : ops) {
        if (op.rank >= 0)
            byGroupRank[{ op.processGroup, op.rank }].push_back(&op);
    }
    // (group, index) -> members; the collective name of the first member names the instance.
    std::map<std::pair<std::string, std::int64_t>, CollectiveInstance> instances;
    std::map<std::string, std::map<int, std::size_t>> countsByGroup;
    for (auto& [key, list] : byGroupRank) {
        std::stable_sort(list.begin(), list.end(), [](const auto* x, const auto* y) {
            return std::tie(x->startNs, x->endNs) < std::tie(y->startNs, y->endNs);
        });
        countsByGroup[key.first][key.second] = list.size();
        for (std::size_t i = 0; i < list.size(); ++i) {
            const CollectiveOpRef& op = *list[i];
            const std::int64_t index = op.seq >= 0 ? op.seq : static_cast<std::int64_t>(i);
            auto& instance = instances[{ key.first, index }];
            if (instance.members.empty()) {
                instance.processGroup = key.first;
                instance.collective = op.collective;
                instance.index = index;
            } else if (instance.collective != op.collective) {
                out.warnings.push_back(
                    fmt::format("instance {} of process group '{}' is {} on one rank and {} on rank {}", index,
                        key.first, instance.collective, op.collective, op.rank));
            }
            instance.members.push_back({ op.rank, op.opId, op.startNs, op.endNs, 0 });
        }
    }
    for (const auto& [group, counts] : countsByGroup) {
        const auto [lo, hi] = std::minmax_element(
            counts.begin(), counts.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
        if (lo->second != hi->second)
            out.warnings.push_back(fmt::format(
                "process group '{}': rank {} has {} collectives and rank {} has {}; instances past {} have fewer ranks",
                group, lo->first, lo->second, hi->first, hi->second, lo->second));
    }

    std::map<int, RankWait> ranks;
    for (const auto& [key, list] : byGroupRank)
        ranks[key.second].rank = key.second;
    for (auto& [key, instance] : instances) {
        if (instance.members.size() < 2)
            continue;
        auto& m = instance.members;
        std::sort(m.begin(), m.end(), [](const auto& x, const auto& y) { return x.rank < y.rank; });
        std::int64_t firstStart = m[0].startNs, lastStart = m[0].startNs;
        std::int64_t firstEnd = m[0].endNs, lastEnd = m[0].endNs;
        const InstanceMember* last = &m[0];
        for (const auto& member : m) {
            firstStart = std::min(firstStart, member.startNs);
            firstEnd = std::min(firstEnd, member.endNs);
            lastEnd = std::max(lastEnd, member.endNs);
            if (member.startNs > lastStart) {
                lastStart = member.startNs;
                last = &member;
            }
        }
        instance.startSkewNs = saturatingSub(lastStart, firstStart);
        instance.endSkewNs = saturatingSub(lastEnd, firstEnd);
        instance.lastRank = instance.startSkewNs > 0 ? last->rank : -1;
        for (auto& member : m) {
            member.waitNs = saturatingSub(lastStart, member.startNs);
            auto& w = ranks[member.rank];
            w.waitNs = saturatingAdd(w.waitNs, member.waitNs);
            ++w.instances;
        }
        if (instance.lastRank >= 0)
            ++ranks[instance.lastRank].lastArrivals;
        out.instances.push_back(std::move(instance));
    }
    std::sort(out.instances.begin(), out.instances.end(), [](const auto& x, const auto& y) {
        return std::tie(x.members.front().startNs, x.processGroup, x.index)
            < std::tie(y.members.front().startNs, y.processGroup, y.index);
    });
    for (auto& [rank, w] : ranks)
        out.ranks.push_back(w);
    // The rank that arrives last most often first (then the one that waits least).
    std::stable_sort(out.ranks.begin(), out.ranks.end(), [](const auto& x, const auto& y) {
        return std::tie(y.lastArrivals, x.waitNs) < std::tie(x.lastArrivals, y.waitNs);
    });
    return out;
}

} // namespace ridgeline::core
