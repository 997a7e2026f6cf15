// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importers/ncucsvimporter.h"

#include "common/importsession.h"
#include "ncucsvinternal.h"

namespace ridgeline::collectors {

core::Result<ImportSummary> importNcuCsv(const std::string& csvPath, const std::string& sessionPath, bool overwrite)
{
    RIDGELINE_TRY(importing::checkOutput({ csvPath }, sessionPath, overwrite));
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
