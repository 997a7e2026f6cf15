// SPDX-License-Identifier: MIT
#include "perfettocollectives.h"

#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace ridgeline::core::detail {

Result<std::unordered_map<std::int64_t, CollectiveFlowStep>> collectiveFlows(SessionReader& reader)
{
    std::unordered_map<std::int64_t, CollectiveFlowStep> steps;
    SessionReader* readers[] = { &reader };
    auto report = buildCollectiveReport(readers);
    if (report.hasError())
        return report.error();
    if (report.value().ranks.instances.empty())
        return steps;
    auto ops = reader.commOps();
    if (ops.hasError())
        return ops.error();
    std::unordered_map<std::int64_t, std::int64_t> kernelOf; // comm_ops.id -> kernels.id
    for (const auto& op : ops.value()) {
        if (op.kernelId)
            kernelOf[op.id] = *op.kernelId;
    }
    std::int64_t flowId = kCollectiveFlowIdBase;
    for (const auto& instance : report.value().ranks.instances) {
        std::vector<std::tuple<std::int64_t, int, std::int64_t>> members; // start, rank, kernel
        for (const auto& m : instance.members) {
            if (auto k = kernelOf.find(m.opId); k != kernelOf.end())
                members.emplace_back(m.startNs, m.rank, k->second);
        }
        if (members.size() < 2)
            continue;
        std::sort(members.begin(), members.end());
        for (std::size_t i = 0; i < members.size(); ++i) {
            const char phase = i == 0 ? 's' : i + 1 == members.size() ? 'f' : 't';
            steps.emplace(std::get<2>(members[i]), CollectiveFlowStep { flowId, phase });
        }
        ++flowId;
    }
    return steps;
}

} // namespace ridgeline::core::detail
