// SPDX-License-Identifier: MIT
// The SQLite mutator's changes to a table as a whole (sqlitemutator.h): rows deleted or copied, a
// column's values retyped, the header fields, the schema.
#include "sqlitemutator.h"

#include <array>
#include <cstdint>
#include <sqlite3.h>
#include <string>
#include <string_view>

namespace ridgeline::fuzz::sqlitemutator {

bool Mutator::deleteRows()
{
    const auto& table = anyTable();
    if (chance(5))
        return exec("DELETE FROM " + sqlName(table.name)) && sqlite3_changes(m_db) > 0;
    const auto row = anyRow(table);
    return row && exec("DELETE FROM " + sqlName(table.name) + " WHERE rowid = " + std::to_string(*row));
}

// A row copied (a new id when the key is the rowid), then maybe one of its cells changed.
bool Mutator::copyRow()
{
    const auto& table = anyTable();
    const auto row = anyRow(table);
    if (!row)
        return false;
    std::string columns;
    for (const auto& column : table.columns) {
        if (column.primaryKey && column.type == "INTEGER")
            continue;
        columns += (columns.empty() ? "" : ", ") + sqlName(column.name);
    }
    if (columns.empty())
        return false;
    const auto t = sqlName(table.name);
    if (!exec("INSERT INTO " + t + "(" + columns + ") SELECT " + columns + " FROM " + t
            + " WHERE rowid = " + std::to_string(*row)))
        return false;
    const auto copy = sqlite3_last_insert_rowid(m_db);
    if (chance(2)) {
        const auto& column = anyColumn(table);
        update(table, column, copy, hostile(cell(table, column, copy)));
    }
    return true;
}

// Every value of a column (or every other one) as text, as real, or as NULL.
bool Mutator::retypeColumn()
{
    const auto& table = anyTable();
    const auto& column = anyColumn(table);
    static constexpr std::array<std::string_view, 4> kCasts { "CAST({} AS TEXT)", "CAST({} AS REAL) + 0.25", "NULL",
        "printf('%s ', {})" };
    std::string expression(kCasts[pick(kCasts.size())]);
    const auto c = sqlName(column.name);
    if (auto at = expression.find("{}"); at != std::string::npos)
        expression.replace(at, 2, c);
    const std::string where = chance(2) ? " WHERE rowid % 2 = 0" : "";
    return exec("UPDATE " + sqlName(table.name) + " SET " + c + " = " + expression + where)
        && sqlite3_changes(m_db) > 0;
}

// The header fields a reader checks first: schema version and application id.
bool Mutator::header()
{
    static constexpr std::array<std::int64_t, 8> kVersions { 0, 1, 2, 3, 4, -1, 1000, 0x7fffffff };
    if (chance(3))
        return exec("PRAGMA application_id = "
            + std::to_string(chance(2) ? 0x5244474C : static_cast<std::int64_t>(pick(1u << 31))));
    return exec("PRAGMA user_version = " + std::to_string(kVersions[pick(kVersions.size())]));
}

// The schema: a table dropped, renamed or replaced by a view, a column dropped or renamed, an
// index or a trigger added (which a reader must never run).
bool Mutator::schema()
{
    m_stale = true; // the tables read by load() may no longer be
    const auto& table = anyTable();
    const auto t = sqlName(table.name);
    const auto& column = anyColumn(table);
    switch (pick(7)) {
    case 0:
        return exec("DROP TABLE " + t);
    case 1:
        return exec("ALTER TABLE " + t + " RENAME TO " + sqlName(table.name + "_old"));
    case 2:
        return exec("ALTER TABLE " + t + " DROP COLUMN " + sqlName(column.name));
    case 3:
        return exec(
            "ALTER TABLE " + t + " RENAME COLUMN " + sqlName(column.name) + " TO " + sqlName(column.name + "x"));
    case 4:
        return exec("ALTER TABLE " + t + " RENAME TO " + sqlName(table.name + "_real") + "; CREATE VIEW " + t
            + " AS SELECT * FROM " + sqlName(table.name + "_real"));
    case 5:
        return exec("CREATE INDEX IF NOT EXISTS " + sqlName("fuzz_" + table.name + "_" + column.name) + " ON " + t + "("
            + sqlName(column.name) + ")");
    default:
        return exec("CREATE TRIGGER IF NOT EXISTS " + sqlName("fuzz_" + table.name) + " AFTER INSERT ON " + t
            + " BEGIN DELETE FROM " + t + "; END");
    }
}

} // namespace ridgeline::fuzz::sqlitemutator
