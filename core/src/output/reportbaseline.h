// SPDX-License-Identifier: MIT
// The baseline part of `ridgeline report --baseline`: per-kernel cells and fields, the totals and
// the kernels gone since the baseline, in the table, CSV and JSON formats.
#pragma once

#include "ridgeline/core/analysis/kernelcompare.h"
#include "ridgeline/core/output/report.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace ridgeline::core::detail {

// The comparison of a report's rows (as written: sorted, trimmed by --top) with a baseline's.
struct ReportBaseline {
    const KernelReport& baseline;
    KernelComparison comparison;
};

// Table: the header and the cells of the Baseline, Δ time and Δ % columns (each with its leading
// separator), a note when the verdict changed, then the totals and the kernels gone.
std::string baselineTableHeader();
std::string baselineTableCells(const ReportBaseline& b, std::size_t row);
std::string baselineVerdictNote(const ReportBaseline& b, std::size_t row);
void writeBaselineTable(std::ostream& out, const ReportBaseline& b, bool fullNames);

// CSV: extra columns after the existing ones, and one row per kernel gone.
std::string baselineCsvHeader();
std::string baselineCsvCells(const ReportBaseline& b, std::size_t row);
void writeGoneCsv(std::ostream& out, const ReportBaseline& b);

// JSON: fields added to each kernel object, and the top-level "baseline" object.
void addBaselineFields(nlohmann::json& kernel, const ReportBaseline& b, std::size_t row);
nlohmann::json baselineJson(const ReportBaseline& b);

} // namespace ridgeline::core::detail
