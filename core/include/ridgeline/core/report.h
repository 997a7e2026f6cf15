// SPDX-License-Identifier: MIT
// `ridgeline report`: the kernel table of a session as terminal table, CSV or JSON.
#pragma once

#include "ridgeline/core/kernelsummary.h"
#include "ridgeline/core/model.h"
#include "ridgeline/core/result.h"

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

enum class ReportFormat { Table, Csv, Json };
std::optional<ReportFormat> reportFormatFromString(std::string_view text);

struct KernelReport {
    std::string path;
    int schemaVersion = 0;
    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    std::vector<KernelSummary> kernels; // all of them; sorting and --top apply when writing
};

struct ReportOptions {
    ReportFormat format = ReportFormat::Table;
    KernelSort sort = KernelSort::TotalTime;
    std::size_t top = 0; // 0 = every row
};

Result<KernelReport> buildKernelReport(SessionReader& reader);
void writeKernelReport(std::ostream& out, KernelReport report, const ReportOptions& options);

} // namespace ridgeline::core
