// SPDX-License-Identifier: MIT
// Which kind of SQLite database a file is, from the names of its tables. The first bytes of a file
// decide only for Ridgeline sessions (their application id); an Nsight Systems export is known by
// its tables, and nsys 2025.5 and later write other pages before the schema's, so its table names
// are no longer in the first 16 KiB. The database is opened read-only and hardened
// (core::sqlite::Database), and only `sqlite_master` is read.
#pragma once

#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/core/base/result.h"

#include <string>
#include <string_view>

namespace ridgeline::collectors {

// A table only an Nsight Systems export has: StringIds, TARGET_INFO_*, CUPTI_ACTIVITY_KIND_*,
// NVTX_EVENTS, or its metadata, EXPORT_META_DATA (schemas 2.x) or META_DATA_EXPORT (3.x).
bool isNsysExportTable(std::string_view name);

// NsightSystemsSqlite when the database has such a table, OtherSqlite otherwise. BadFile, naming
// the file, when SQLite cannot read the schema (corrupt, truncated, encrypted, hostile).
core::Result<FileFormat> sqliteFormatByTables(const std::string& path);

} // namespace ridgeline::collectors
