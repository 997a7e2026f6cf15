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
    std::string ncuVersion; // of the first report that names it; others that differ are added
    for (const auto& path : reportPaths) {
        auto stats = ncu::readReport(path, profile);
        if (stats.hasError())
            return stats.error();
        version = stats.value().version;
        const auto& made = stats.value().ncuVersion;
        if (!made.empty() && ncuVersion.find(made) == std::string::npos)
            ncuVersion += (ncuVersion.empty() ? "" : "; ") + made;
    }
    if (!ncuVersion.empty())
        profile.meta["ncu_version"] = ncuVersion;
    profile.meta["ncu_report_format"] = std::to_string(version);
    // The session's origin names the first report; the CSV writer takes it from a CsvFile.
    // "Nsight Compute 2023.3.0.0 report": the version's first word, without the build.
    const std::string by
        = ncuVersion.empty() ? "Nsight Compute" : "Nsight Compute " + ncuVersion.substr(0, ncuVersion.find(' '));
    ncu::CsvFile origin;
    origin.path = reportPaths.front();
    origin.firstProfLine = reportPaths.size() == 1
        ? fmt::format("{} report, format version {}", by, version)
        : fmt::format("{} report, format version {}, and {} more", by, version, reportPaths.size() - 1);
    return ncu::writeSession(origin, std::move(profile), sessionPath, overwrite);
}

} // namespace ridgeline::collectors
