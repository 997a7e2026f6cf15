// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importers/ncucsvimporter.h"

#include "ncucsvinternal.h"

#include <filesystem>
#include <fmt/format.h>

namespace ridgeline::collectors {

core::Result<ImportSummary> importNcuCsv(const std::string& csvPath, const std::string& sessionPath, bool overwrite)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(sessionPath, ec)) {
        if (fs::equivalent(csvPath, sessionPath, ec))
            return core::makeError(
                core::ErrorCode::InvalidArgument, fmt::format("{}: the output would replace the input", sessionPath));
        if (!overwrite)
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("{} already exists (choose another name, or overwrite it)", sessionPath));
    }
    auto file = ncu::readCsvFile(csvPath);
    if (file.hasError())
        return file.error();
    const ncu::ColumnIndex columns(file.value().header.fields);
    auto profile = columns.isDetailsPage() ? ncu::readDetailsPage(file.value()) : ncu::readRawPage(file.value());
    if (profile.hasError())
        return profile.error();
    return ncu::writeSession(file.value(), std::move(profile).value(), sessionPath, overwrite);
}

} // namespace ridgeline::collectors
