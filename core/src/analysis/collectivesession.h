// SPDX-License-Identifier: MIT
// A session's collectives with their figures: sizes, bus bandwidth, link and cross-rank waits.
#pragma once

#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/result.h"

#include <map>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {
class SessionReader;
}

namespace ridgeline::core::detail {

struct SessionCollectives {
    std::vector<CommOp> ops;
    std::vector<int> rankOfOp; // per op: its process' rank, -1 when not part of a job
    std::unordered_map<std::int64_t, CollectiveFigures> figures; // by comm_ops.id
    CrossRankAnalysis ranks;
};

// Several sessions (one per rank, or merged) are analysed together: op ids are offset so that
// they stay unique (`idBase` per reader: 0 for the first, then past the previous one's largest).
Result<SessionCollectives> loadCollectives(std::span<SessionReader* const> readers);

// At most `count` of the instances, the most skewed (latest start - earliest start) first.
std::vector<const CollectiveInstance*> mostSkewedInstances(const CrossRankAnalysis& ranks, std::size_t count);

} // namespace ridgeline::core::detail
