// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importer.h"

#include "ridgeline/collectors/ncucsvimporter.h"

#include <fmt/format.h>

namespace ridgeline::collectors {

namespace {

std::string plural(std::int64_t n, std::string_view word)
{
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

core::Result<ImportResult> importNcu(const ImportRequest& request)
{
    auto imported = importNcuCsv(request.inputs.front(), request.output, request.overwrite);
    if (imported.hasError())
        return imported.error();
    ImportResult result;
    result.format = FileFormat::NsightComputeCsv;
    result.warnings = imported.value().warnings;
    result.summary = fmt::format("imported {} with {} from {} into {}", plural(imported.value().kernels, "kernel"),
        plural(imported.value().metrics, "metric"), request.inputs.front(), request.output);
    return result;
}

core::Error unsupported(const std::string& path, FileFormat format)
{
    if (format == FileFormat::Unknown)
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: not a format Ridgeline imports (Nsight Compute CSV: ncu --csv --page raw or --page "
                        "details)",
                path));
    return core::makeError(
        core::ErrorCode::BadFile, fmt::format("{}: {} import is not supported yet", path, toString(format)));
}

} // namespace

core::Result<ImportResult> importFiles(const ImportRequest& request)
{
    if (request.inputs.empty())
        return core::makeError(core::ErrorCode::InvalidArgument, "no file to import");
    // The content decides, not the extension: a renamed file still goes to the right importer.
    std::vector<FileFormat> formats;
    for (const auto& input : request.inputs) {
        auto format = detectFileFormat(input);
        if (format.hasError())
            return format.error();
        formats.push_back(format.value());
    }
    const FileFormat format = formats.front();
    for (std::size_t i = 1; i < formats.size(); ++i) {
        if (formats[i] != format)
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("{} is a {} but {} is a {}: import files of one kind together", request.inputs.front(),
                    toString(format), request.inputs[i], toString(formats[i])));
    }
    switch (format) {
    case FileFormat::NsightComputeCsv:
        if (request.inputs.size() > 1)
            return core::makeError(
                core::ErrorCode::InvalidArgument, "Nsight Compute CSV files are imported one at a time");
        return importNcu(request);
    default:
        return unsupported(request.inputs.front(), format);
    }
}

} // namespace ridgeline::collectors
