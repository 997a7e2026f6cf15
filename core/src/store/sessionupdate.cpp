// SPDX-License-Identifier: MIT
#include "sessionupdate.h"

#include "fileheader.h"
#include "ridgeline/core/store/sessionformat.h"
#include "schema.h"

#include <fmt/format.h>

namespace ridgeline::core {

Result<sqlite::Database> openFinishedSessionForUpdate(const std::string& path, std::string_view whenFinished)
{
    auto header = inspectFileHeader(path);
    if (header.hasError())
        return header.error();
    if (header.value().walMode)
        return makeError(ErrorCode::InvalidArgument,
            fmt::format("{}: the session is still being written (a live capture part); {}", path, whenFinished));
    auto db = sqlite::Database::open(path, sqlite::Database::Mode::ReadWrite);
    if (db.hasError())
        return makeError(ErrorCode::Io, fmt::format("{}: cannot be opened for writing ({})", path, db.error().message));
    const int version = header.value().schemaVersion;
    RIDGELINE_TRY(schema::validate(db.value(), version));
    if (version < kSchemaVersion)
        RIDGELINE_TRY(schema::migrate(db.value(), version));
    return db;
}

} // namespace ridgeline::core
