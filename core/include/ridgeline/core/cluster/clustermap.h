// SPDX-License-Identifier: MIT
// The whole job at a glance: a rank x time heat map (ranktimemap.h) of busy, communication or idle
// time, drawn from the ranks' stored activity bins (ranksummary.h) so that no launch is read. Time
// within one activity bin is placed at the bin's start (busy, communication) or end (idle): the map
// is exact to the activity bin, about a hundredth of each rank's span.
#pragma once

#include "ridgeline/core/cluster/clusterreport.h"
#include "ridgeline/core/timeline/ranktimemap.h"

namespace ridgeline::core {

enum class ClusterMapValue { Busy, Communication, Idle };

// One row per rank of `report` (in its order), `bins` bins from the earliest rank start to the
// latest rank end; an empty map when no rank has any GPU activity.
RankTimeMap clusterActivityMap(const ClusterReport& report, ClusterMapValue value, int bins);

} // namespace ridgeline::core
