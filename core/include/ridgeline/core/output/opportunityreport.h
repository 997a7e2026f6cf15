// SPDX-License-Identifier: MIT
// `ridgeline report --opportunities`: the time each operator shape, kernel or copy would give back
// at its roof, ranked (analysis/opportunities.h), as a terminal table, CSV or JSON. The table opens
// with the whole job: at its roofs the GPU would do this work in X; it took Y.
#pragma once

#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/output/report.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

namespace ridgeline::core {

class SessionReader;

struct OpportunityReport {
    std::string path;
    Opportunities opportunities;
    std::map<std::int64_t, std::string> kernelNames; // kernel_names.id -> short name, for the rows' kernels
};

Result<OpportunityReport> buildOpportunityReport(SessionReader& reader);

// `top`: only the first ranked rows and the first rows without a roof (0: all); the totals are
// always over every row.
void writeOpportunityReport(
    std::ostream& out, const OpportunityReport& report, ReportFormat format, std::size_t top = 0);

} // namespace ridgeline::core
