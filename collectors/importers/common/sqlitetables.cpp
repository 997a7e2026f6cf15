// SPDX-License-Identifier: MIT
#include "common/sqlitetables.h"

#include "ridgeline/core/store/sqlite.h"

#include <fmt/format.h>

namespace ridgeline::collectors {

bool isNsysExportTable(std::string_view name)
{
    return name == "StringIds" || name == "EXPORT_META_DATA" || name == "META_DATA_EXPORT" || name == "NVTX_EVENTS"
        || name.substr(0, 12) == "TARGET_INFO_" || name.substr(0, 20) == "CUPTI_ACTIVITY_KIND_";
}

core::Result<FileFormat> sqliteFormatByTables(const std::string& path)
{
    auto unreadable = [&](const std::string& why) {
        return core::makeError(
            core::ErrorCode::BadFile, fmt::format("{}: an SQLite file whose tables cannot be read ({})", path, why));
    };
    auto db = core::sqlite::Database::open(path, core::sqlite::Database::Mode::ReadOnly);
    if (db.hasError())
        return unreadable(db.error().message);
    auto stmt = db.value().prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
    if (stmt.hasError())
        return unreadable(stmt.error().message);
    for (;;) {
        auto step = stmt.value().step();
        if (step.hasError())
            return unreadable(step.error().message);
        if (step.value() == core::sqlite::Statement::Step::Done)
            return FileFormat::OtherSqlite;
        if (isNsysExportTable(stmt.value().columnText(0)))
            return FileFormat::NsightSystemsSqlite;
    }
}

} // namespace ridgeline::collectors
