// SPDX-License-Identifier: MIT
// The collectives of a loaded timeline (timelinelod.h) for the Communication page: time in
// collectives per rank and device as a rank x time map, and where one collective op (comm_ops.id)
// lies among the lanes, so that an instance matched across ranks can be drawn on the timeline.
#pragma once

#include "ridgeline/core/timeline/ranktimemap.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <cstdint>
#include <optional>

namespace ridgeline::core {

// One row per Collectives lane (rank, device), in lane order, labelled "rank 1 · GPU 0" (or
// "GPU 0" without a rank); each cell is the share of the bin in which some collective of that
// lane runs. The window is the whole timeline's extent.
RankTimeMap collectiveTimeMap(const TimelineData& data, int bins);

// The item of comm_ops.id `commOpId` on the Collectives lanes of `rank` (any lane when rank < 0),
// looked up near its start time; empty when it is not there.
std::optional<TimelineGpuOpRef> findCollectiveOp(
    const TimelineData& data, int rank, std::int64_t commOpId, std::int64_t startNs);

} // namespace ridgeline::core
