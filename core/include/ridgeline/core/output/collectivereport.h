// SPDX-License-Identifier: MIT
// `ridgeline report S --by collective`: one row per collective type, process group and message
// size (like nccl-tests' output), the ranks' waits and the instances matched across ranks.
#pragma once

#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/output/report.h"

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

struct CollectiveReport {
    std::string path;
    std::vector<CollectiveRow> rows; // by total time, longest first
    CrossRankAnalysis ranks;
};

// Several readers: one session per rank, analysed together (as one merged multi-rank session).
Result<CollectiveReport> buildCollectiveReport(std::span<SessionReader* const> readers);
void writeCollectiveReport(std::ostream& out, const CollectiveReport& report, ReportFormat format);

} // namespace ridgeline::core
