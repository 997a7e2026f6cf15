// SPDX-License-Identifier: MIT
// A structure-aware libFuzzer mutator for inputs that are SQLite databases (session files, Nsight
// Systems exports). Byte flips mostly break a page and stop at SQLite's corruption checks, so most
// mutations load the input into an in-memory database (sqlite3_deserialize) and change what a
// hostile or broken writer would: a value in a row (wrong type, NULL, negative, huge, NaN as text,
// infinity, a 1 MB string), an op that ends before it starts, an id that points at nothing, a row
// deleted or copied, a packed blob (metric values, operator chunks) corrupted or re-encoded with
// odd values, a header field, the schema itself; then it writes the database back
// (sqlite3_serialize). One mutation in eight is libFuzzer's own byte-level one, for page damage.
//
// Deterministic for a given seed (it never uses SQLite's random()), so a run can be reproduced.
//
// This file holds the entry point, the database loaded and written back, the choice of a mutation
// and the reading and writing of cells; the mutations themselves are in sqlitemutatorvalues.cpp,
// sqlitemutatorblobs.cpp and sqlitemutatortables.cpp (sqlitemutator.h).
#include "sqlitemutator.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sqlite3.h>
#include <string>
#include <string_view>
#include <utility>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace ridgeline::fuzz::sqlitemutator {

std::string quoted(std::string_view name)
{
    std::string out = "\"";
    for (char c : name) {
        out += c;
        if (c == '"')
            out += '"';
    }
    return out + "\"";
}

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool Mutator::load()
{
    Statement tables(m_db,
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name");
    if (!tables.ok())
        return false;
    while (tables.row()) {
        Table table;
        table.name = reinterpret_cast<const char*>(sqlite3_column_text(tables.get(), 0));
        Statement info(m_db, "SELECT name, upper(type), pk FROM pragma_table_info(?1)");
        sqlite3_bind_text(info.get(), 1, table.name.c_str(), -1, SQLITE_TRANSIENT);
        while (info.row()) {
            const auto* name = sqlite3_column_text(info.get(), 0);
            const auto* type = sqlite3_column_text(info.get(), 1);
            table.columns.push_back({ name ? reinterpret_cast<const char*>(name) : "",
                type ? reinterpret_cast<const char*>(type) : "", sqlite3_column_int(info.get(), 2) > 0 });
        }
        if (!table.columns.empty())
            m_tables.push_back(std::move(table));
    }
    return !m_tables.empty();
}

// One mutation; false when the one chosen could not be applied (e.g. a constraint refused it).
bool Mutator::mutateOnce()
{
    const auto kind = pick(100);
    if (kind < 38)
        return setCell();
    if (kind < 46)
        return endBeforeStart();
    if (kind < 54)
        return danglingId();
    if (kind < 66)
        return mutateBlob();
    if (kind < 72)
        return deleteRows();
    if (kind < 80)
        return copyRow();
    if (kind < 85)
        return retypeColumn();
    if (kind < 88)
        return bigString();
    if (kind < 93)
        return header();
    return schema();
}

std::optional<std::int64_t> Mutator::count(const Table& table)
{
    Statement s(m_db, "SELECT count(*) FROM " + quoted(table.name));
    if (!s.row())
        return std::nullopt;
    return s.integer(0);
}

// The rowid of a random row of the table, when it has rows (and rowids).
std::optional<std::int64_t> Mutator::anyRow(const Table& table)
{
    const auto rows = count(table);
    if (!rows || *rows <= 0)
        return std::nullopt;
    Statement s(m_db, "SELECT rowid FROM " + quoted(table.name) + " LIMIT 1 OFFSET ?1");
    if (!s.ok())
        return std::nullopt;
    s.bind(1, static_cast<std::int64_t>(pick(static_cast<std::uint64_t>(*rows))));
    if (!s.row())
        return std::nullopt;
    return s.integer(0);
}

Value Mutator::cell(const Table& table, const Column& column, std::int64_t rowid)
{
    Statement s(m_db, "SELECT " + quoted(column.name) + " FROM " + quoted(table.name) + " WHERE rowid = ?1");
    if (!s.ok())
        return {};
    s.bind(1, rowid);
    return s.row() ? s.value(0) : Value {};
}

bool Mutator::update(const Table& table, const Column& column, std::int64_t rowid, const Value& value)
{
    Statement s(m_db, "UPDATE " + quoted(table.name) + " SET " + quoted(column.name) + " = ?1 WHERE rowid = ?2");
    if (!s.ok())
        return false;
    s.bind(1, value);
    s.bind(2, rowid);
    return s.run() && sqlite3_changes(m_db) > 0;
}

const Column* Mutator::find(const Table& table, std::initializer_list<std::string_view> names)
{
    for (const auto& column : table.columns) {
        for (auto name : names) {
            if (lower(column.name) == name)
                return &column;
        }
    }
    return nullptr;
}

} // namespace ridgeline::fuzz::sqlitemutator

namespace {

using ridgeline::fuzz::sqlitemutator::Mutator;
using ridgeline::fuzz::sqlitemutator::Rng;

struct Connection {
    sqlite3* db = nullptr;
    ~Connection() { sqlite3_close(db); }
};

// The database in `data` mutated in place; 0 when it is not a database this mutator can load.
std::size_t mutateDatabase(std::uint8_t* data, std::size_t size, std::size_t maxSize, Rng& rng)
{
    if (size < 100 || std::memcmp(data, "SQLite format 3", 16) != 0)
        return 0;
    Connection connection;
    if (sqlite3_open_v2(":memory:", &connection.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        return 0;
    sqlite3* db = connection.db;
    // The input may hold triggers or views of its own: none of them may run here either.
    for (const int option : { SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_TRUSTED_SCHEMA }) {
        int applied = -1;
        sqlite3_db_config(db, option, 0, &applied);
    }
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(size));
    if (copy == nullptr)
        return 0;
    std::memcpy(copy, data, size);
    if (sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(size), static_cast<sqlite3_int64>(size),
            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        != SQLITE_OK)
        return 0;
    sqlite3_exec(db, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);
    Mutator mutator(db, rng, maxSize > size ? maxSize - size : 0);
    if (!mutator.load())
        return 0;
    // Usually one change; sometimes a few, so that a bad value meets another.
    const int changes = rng() % 4 == 0 ? 2 + static_cast<int>(rng() % 4) : 1;
    int applied = 0;
    for (int attempt = 0; attempt < 8 * changes && applied < changes; ++attempt)
        applied += mutator.mutateOnce() ? 1 : 0;
    if (applied == 0)
        return 0;
    for (int pass = 0; pass < 2; ++pass) {
        sqlite3_int64 length = 0;
        unsigned char* image = sqlite3_serialize(db, "main", &length, 0);
        if (image == nullptr)
            return 0;
        const bool fits = length > 0 && static_cast<std::size_t>(length) <= maxSize;
        if (fits)
            std::memcpy(data, image, static_cast<std::size_t>(length));
        sqlite3_free(image);
        if (fits)
            return static_cast<std::size_t>(length);
        if (pass == 0 && sqlite3_exec(db, "VACUUM", nullptr, nullptr, nullptr) != SQLITE_OK) // free pages out
            return 0;
    }
    return 0;
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(
    std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned int seed)
{
    Rng rng(seed);
    if (rng() % 8 != 0) {
        // Structure first; if the input is no database (yet), or nothing applied, bytes.
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (const auto mutated = mutateDatabase(data, size, maxSize, rng); mutated > 0)
                return mutated;
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}
