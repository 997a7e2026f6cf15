// SPDX-License-Identifier: MIT
// The schema of the session file, its validation and its migrations.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sqlite.h"

namespace ridgeline::core::schema {

// Creates every table of the current schema and stamps application_id and user_version.
Status create(sqlite::Database& db);
// Indexes for time-range queries; built once after bulk loading (faster than maintaining them).
Status createIndexes(sqlite::Database& db);
// Checks that every table and column this build reads of schema `version` exists, as a real table.
Status validate(sqlite::Database& db, int version);
// Brings a database of schema `fromVersion` up to kSchemaVersion, in one transaction.
Status migrate(sqlite::Database& db, int fromVersion);

} // namespace ridgeline::core::schema
