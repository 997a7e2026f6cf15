// SPDX-License-Identifier: MIT
// The fixture of the Nsight Systems import tests: a temporary folder, the session imported into
// it, and writable copies of tests/data/nsys files for crafting variants.
#pragma once

#include "nsysncclfixture.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"
#include "testutil.h"

#include <cstdint>
#include <filesystem>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdexcept>
#include <string>

namespace ridgeline::testing {

// Plain SQLite on an export, read-only: the first column of the first row as text ("" when there is
// none, or when a table the query names does not exist: exports create tables lazily).
inline std::string sqlText(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("cannot open " + path);
    }
    sqlite3_stmt* stmt = nullptr;
    std::string value;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW
        && sqlite3_column_text(stmt, 0) != nullptr)
        value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return value;
}

// The same as one integer; 0 when there is none.
inline std::int64_t sqlCount(const std::string& path, const std::string& sql)
{
    const auto text = sqlText(path, sql);
    return text.empty() ? 0 : std::stoll(text);
}

class NsysImportTest : public ::testing::Test {
protected:
    // Imports and opens the session; fails the test when either goes wrong.
    core::SessionReader import(const std::string& exportPath)
    {
        return importNsysExport(exportPath, m_session, m_summary);
    }
    // A writable copy of a data file, for crafting variants.
    std::string copyOf(const std::string& name)
    {
        const auto path = m_dir.file("copy-" + name);
        std::filesystem::copy_file(testDataPath("nsys/" + name), path);
        std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
        return path;
    }

    TempDir m_dir;
    std::string m_session = m_dir.file("imported.ridge");
    collectors::NsysImportSummary m_summary;
};

} // namespace ridgeline::testing
