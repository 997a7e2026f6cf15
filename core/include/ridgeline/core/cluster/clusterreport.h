// SPDX-License-Identifier: MIT
// `ridgeline report S... --by rank`: per-rank rows from rank summaries (ranksummary.h), the same
// collective instance matched across ranks (collectives.h: process group and Seq, else order), the
// ranks that make the others wait, and cluster figures (mean, spread, extremes of each column).
#pragma once

#include "ridgeline/core/cluster/ranksummary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::core {

struct RankRow {
    RankSummary summary;
    std::int64_t commWaitNs = 0; // time waiting in collectives for later ranks
    std::int64_t lastArrivals = 0; // instances this rank started last
};

// A rank that makes the others wait: in `instances` collective instances it started last, in total
// `lateNs` after the earliest rank (the instances' start skews).
struct SlowRank {
    int rank = -1;
    std::int64_t lateNs = 0;
    std::int64_t instances = 0;
};

// One column over the ranks: mean, population standard deviation, and the extreme ranks.
struct ColumnStats {
    std::string column; // "span_ns", "busy_ns", ...
    double mean = 0;
    double stddev = 0;
    int minRank = -1;
    std::int64_t min = 0;
    int maxRank = -1;
    std::int64_t max = 0;
};

struct ClusterReport {
    std::vector<RankRow> ranks; // by rank
    std::vector<SlowRank> slowRanks; // most lateness first; ranks that never started last are not listed
    std::vector<ColumnStats> cluster;
    std::int64_t instances = 0; // collective instances seen on at least two ranks
    std::int64_t sessions = 0;
    std::vector<std::string> warnings; // unreadable sessions, ranks seen twice, ...
};

ClusterReport buildClusterReport(std::vector<RankSummary> summaries);

} // namespace ridgeline::core
