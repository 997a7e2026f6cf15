// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importers/ncurepimporter.h"

#include "common/importsession.h"
#include "ncurepinternal.h"

#include <fmt/format.h>

namespace ridgeline::collectors {

core::Result<ImportSummary> importNcuRep(
    const std::vector<std::string>& reportPaths, const std::string& sessionPath, bool overwrite)
{
    if (reportPaths.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no report to import");
    RIDGELINE_TRY(importing::checkOutput(reportPaths, sessionPath, overwrite));
    ncu::ParsedProfile profile;
    profile.source = "import:ncu-rep";
    profile.page = "report";
    profile.hasLaunchDims = true; // every result has its grid and block
    std::uint32_t version = 0;
    for (const auto& path : reportPaths) {
        auto stats = ncu::readReport(path, profile);
        if (stats.hasError())
            return stats.error();
        version = stats.value().version;
    }
    // The session's origin names the first report; the CSV writer takes it from a CsvFile.
    ncu::CsvFile origin;
    origin.path = reportPaths.front();
    origin.firstProfLine = reportPaths.size() == 1
        ? fmt::format("Nsight Compute report, format version {}", version)
        : fmt::format("Nsight Compute report, format version {}, and {} more", version, reportPaths.size() - 1);
    return ncu::writeSession(origin, std::move(profile), sessionPath, overwrite);
}

} // namespace ridgeline::collectors
