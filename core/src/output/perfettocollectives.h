// SPDX-License-Identifier: MIT
// The Perfetto export's arrows between ranks: the kernels that carry one collective instance on
// every rank (matched as `ridgeline report --by collective` matches them) are linked by one flow,
// from the rank that started first through the others in start order to the one that started last.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <unordered_map>

namespace ridgeline::core {
class SessionReader;
}

namespace ridgeline::core::detail {

struct CollectiveFlowStep {
    std::int64_t flowId = 0; // one per instance, from kCollectiveFlowIdBase up
    char phase = 's'; // 's' the first to start, 't' the ones between, 'f' the last to start
};

// Flow ids far above those of the launch arrows (one per kernel or copy).
inline constexpr std::int64_t kCollectiveFlowIdBase = std::int64_t { 1 } << 40;

// kernels.id -> its step in the flow of its instance; kernels of instances seen on one rank only, or
// collectives without a kernel, have none.
Result<std::unordered_map<std::int64_t, CollectiveFlowStep>> collectiveFlows(SessionReader& reader);

} // namespace ridgeline::core::detail
