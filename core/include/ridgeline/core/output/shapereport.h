// SPDX-License-Identifier: MIT
// `ridgeline report --by shape`: one row per PyTorch operator, input dims and input types, with the
// FLOPs and bytes of a call worked out from its shapes (analysis/operatorshapes.h), the rates its
// GPU time gives, and the verdict against its device's roofs. Table, CSV or JSON.
#pragma once

#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/output/report.h"

#include <cstddef>
#include <ostream>
#include <string>

namespace ridgeline::core {

class SessionReader;

struct ShapeReport {
    std::string path;
    OperatorShapes shapes;
};

Result<ShapeReport> buildShapeReport(SessionReader& reader);

// `top`: only the first rows (0: every row).
void writeShapeReport(std::ostream& out, const ShapeReport& report, ReportFormat format, std::size_t top = 0);

} // namespace ridgeline::core
