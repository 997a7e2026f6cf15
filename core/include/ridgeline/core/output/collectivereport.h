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

struct CollectiveRow {
    std::string collective;
    std::string processGroup;
    int groupSize = 0;
    std::int64_t bytes = 0; // S; 0 = sizes missing
    std::int64_t calls = 0; // over every rank
    std::int64_t timeNs = 0; // summed over the calls
    std::optional<double> algBytesPerS;
    std::optional<double> busBytesPerS;
    CollectiveLink link;
    std::optional<double> pctOfLink; // busbw / link ceiling x 100
    std::string verdict;
    std::string reason;
};

struct CollectiveReport {
    std::string path;
    std::vector<CollectiveRow> rows; // by total time, longest first
    CrossRankAnalysis ranks;
};

// Several readers: one session per rank, analysed together (as one merged multi-rank session).
Result<CollectiveReport> buildCollectiveReport(std::span<SessionReader* const> readers);
void writeCollectiveReport(std::ostream& out, const CollectiveReport& report, ReportFormat format);

} // namespace ridgeline::core
