// SPDX-License-Identifier: MIT
#pragma once

#include "tempdir.h"

#include <string>

namespace ridgeline::testing {

std::string readBytes(const std::string& path);
void writeBytes(const std::string& path, const std::string& bytes);
// Runs SQL on a database file with plain SQLite (for crafting foreign and hostile files).
void execSql(const std::string& path, const std::string& sql);
std::string testDataPath(const std::string& relative);

} // namespace ridgeline::testing
