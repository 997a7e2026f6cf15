// SPDX-License-Identifier: MIT
// `ridgeline report S... --by rank` written out: terminal table, CSV or JSON (clusterreport.h).
#pragma once

#include "ridgeline/core/cluster/clusterreport.h"
#include "ridgeline/core/output/report.h"

#include <cstddef>
#include <ostream>

namespace ridgeline::core {

// Table: the slow ranks, one line per rank (`top` limits them; 0 = all) and the cluster figures.
// CSV: one row per rank. JSON: {"ranks": [...], "slow_ranks": [...], "cluster": {...}, "warnings": [...]}.
void writeClusterReport(std::ostream& out, const ClusterReport& report, ReportFormat format, std::size_t top = 0);

} // namespace ridgeline::core
