// SPDX-License-Identifier: MIT
// `ncu --csv --page raw`: one row per kernel launch, one column per metric, and (usually) a
// second row with the unit of each column, blank for the identity columns.
#include "ncucsvinternal.h"

#include <fmt/format.h>

namespace ridgeline::collectors::ncu {

namespace {

bool isUnitsRow(const CsvRow& row, int idColumn)
{
    return idColumn >= 0 && static_cast<std::size_t>(idColumn) < row.fields.size()
        && row.fields[static_cast<std::size_t>(idColumn)].empty();
}

} // namespace

core::Result<ParsedProfile> readRawPage(const CsvFile& file)
{
    const ColumnIndex columns(file.header.fields);
    const std::size_t width = file.header.fields.size();
    ParsedProfile profile;
    profile.hasLaunchDims = columns[column::GridSize] >= 0 && columns[column::BlockSize] >= 0;
    profile.page = "raw";

    std::vector<UnitScale> units(width);
    std::size_t first = 0;
    if (!file.rows.empty() && isUnitsRow(file.rows.front(), columns[column::Id])) {
        RIDGELINE_TRY(checkFieldCount(file, file.rows.front(), width, width));
        for (std::size_t c = 0; c < width; ++c)
            units[c] = normaliseUnit(file.rows.front().fields[c]);
        first = 1;
    }
    if (first >= file.rows.size())
        return badLine(file.path, file.header.line, "no kernels in this file (did ncu profile any?)");

    std::vector<bool> numeric(width, false);
    std::vector<bool> text(width, false);
    for (std::size_t r = first; r < file.rows.size(); ++r) {
        const auto& row = file.rows[r];
        RIDGELINE_TRY(checkFieldCount(file, row, width, width));
        ImportedKernel kernel;
        RIDGELINE_TRY(readIdentity(file, columns, row, kernel));
        for (std::size_t c = 0; c < width; ++c) {
            if (columns.isIdentity(c))
                continue;
            const auto& name = file.header.fields[c];
            const auto parsed = parseNumber(row.fields[c]);
            if (parsed.status == NumberStatus::Ok) {
                const Metric metric { parsed.value * units[c].factor, units[c].unit };
                applyKnownMetric(kernel, name, metric);
                profile.setMetric(kernel, name, metric);
                numeric[c] = true;
            } else if (parsed.status == NumberStatus::NotNumber && !applyTextAttribute(kernel, name, row.fields[c])) {
                text[c] = true;
            }
        }
        profile.kernels.push_back(std::move(kernel));
    }

    std::vector<std::string> skipped;
    for (std::size_t c = 0; c < width; ++c) {
        if (text[c] && !numeric[c] && !file.header.fields[c].empty())
            skipped.push_back(file.header.fields[c]);
    }
    profile.skippedColumns = static_cast<std::int64_t>(skipped.size());
    if (!skipped.empty())
        profile.warnings.push_back(skippedWarning(skipped, "column"));
    return profile;
}

} // namespace ridgeline::collectors::ncu
