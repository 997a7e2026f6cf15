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
    m_tables.clear();
    m_blobColumns.reset();
    m_stale = false;
    // One statement for every table's columns. Virtual tables are left out: their module is unknown
    // here, and one of them would fail the whole query.
    Statement columns(m_db,
        "SELECT t.name, c.name, upper(c.type), c.pk FROM sqlite_schema AS t, pragma_table_info(t.name) AS c "
        "WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite_%' AND t.sql NOT LIKE 'create virtual%' "
        "ORDER BY t.name, c.cid");
    if (!columns.ok())
        return false;
    while (columns.row()) {
        const auto* tableName = sqlite3_column_text(columns.get(), 0);
        const std::string name = tableName ? reinterpret_cast<const char*>(tableName) : "";
        if (m_tables.empty() || m_tables.back().name != name)
            m_tables.push_back({ name, {} });
        const auto* column = sqlite3_column_text(columns.get(), 1);
        const auto* type = sqlite3_column_text(columns.get(), 2);
        m_tables.back().columns.push_back({ column ? reinterpret_cast<const char*>(column) : "",
            type ? reinterpret_cast<const char*>(type) : "", sqlite3_column_int(columns.get(), 3) > 0 });
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
    Statement s(m_db, "SELECT count(*) FROM " + sqlName(table.name));
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
    Statement s(m_db, "SELECT rowid FROM " + sqlName(table.name) + " LIMIT 1 OFFSET ?1");
    if (!s.ok())
        return std::nullopt;
    s.bind(1, static_cast<std::int64_t>(pick(static_cast<std::uint64_t>(*rows))));
    if (!s.row())
        return std::nullopt;
    return s.integer(0);
}

Value Mutator::cell(const Table& table, const Column& column, std::int64_t rowid)
{
    Statement s(m_db, "SELECT " + sqlName(column.name) + " FROM " + sqlName(table.name) + " WHERE rowid = ?1");
    if (!s.ok())
        return {};
    s.bind(1, rowid);
    return s.row() ? s.value(0) : Value {};
}

bool Mutator::update(const Table& table, const Column& column, std::int64_t rowid, const Value& value)
{
    Statement s(m_db, "UPDATE " + sqlName(table.name) + " SET " + sqlName(column.name) + " = ?1 WHERE rowid = ?2");
    if (!s.ok())
        return false;
    s.bind(1, value);
    s.bind(2, rowid);
    if (!s.run() || sqlite3_changes(m_db) == 0)
        return false;
    if (value.kind == Value::Kind::Blob && m_blobColumns && !m_tables.empty() && &table >= m_tables.data()
        && &table < m_tables.data() + m_tables.size()) {
        const std::pair<std::size_t, std::size_t> at { static_cast<std::size_t>(&table - m_tables.data()),
            static_cast<std::size_t>(&column - table.columns.data()) };
        if (std::find(m_blobColumns->begin(), m_blobColumns->end(), at) == m_blobColumns->end())
            m_blobColumns->push_back(at);
    }
    return true;
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

// The database the last mutation wrote, still open, and the bytes it wrote. libFuzzer mutates an
// input several times over (-mutate_depth, 5 by default), each time the output of the one before:
// when the input is those bytes, the open database is that input, and it need not be loaded again
// (its schema parsed, its tables and columns read), which took half of the mutator's time.
struct Loaded {
    sqlite3* db = nullptr;
    Rng rng;
    std::optional<Mutator> mutator;
    std::string image;

    ~Loaded() { close(); }

    void close()
    {
        mutator.reset();
        image.clear();
        sqlite3_close(db);
        db = nullptr;
    }

    bool holds(const std::uint8_t* data, std::size_t size) const
    {
        return mutator && image.size() == size && std::memcmp(image.data(), data, size) == 0;
    }

    // The database in `data`, loaded into memory anew.
    bool open(const std::uint8_t* data, std::size_t size)
    {
        close();
        if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
            return false;
        // The input may hold triggers or views of its own: none of them may run here either.
        for (const int option : { SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_TRUSTED_SCHEMA }) {
            int applied = -1;
            sqlite3_db_config(db, option, 0, &applied);
        }
        auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(size));
        if (copy == nullptr)
            return false;
        std::memcpy(copy, data, size);
        if (sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(size), static_cast<sqlite3_int64>(size),
                SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
            != SQLITE_OK)
            return false;
        sqlite3_exec(db, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);
        mutator.emplace(db, rng);
        return mutator->load();
    }
};

// The database in `data` mutated in place; 0 when it is not a database this mutator can load.
std::size_t mutateDatabase(std::uint8_t* data, std::size_t size, std::size_t maxSize, Loaded& loaded)
{
    if (size < 100 || std::memcmp(data, "SQLite format 3", 16) != 0)
        return 0;
    if (!loaded.holds(data, size) && !loaded.open(data, size)) {
        loaded.close();
        return 0;
    }
    auto& mutator = *loaded.mutator;
    if (mutator.stale() && !mutator.load()) {
        loaded.close();
        return 0;
    }
    // From here on the database is no longer `data`; it is again only once written back.
    loaded.image.clear();
    mutator.setRoom(maxSize > size ? maxSize - size : 0);
    auto& rng = loaded.rng;
    // Usually one change; sometimes a few, so that a bad value meets another.
    const int changes = rng() % 4 == 0 ? 2 + static_cast<int>(rng() % 4) : 1;
    int applied = 0;
    for (int attempt = 0; attempt < 8 * changes && applied < changes; ++attempt)
        applied += mutator.mutateOnce() ? 1 : 0;
    if (applied == 0) {
        loaded.close();
        return 0;
    }
    for (int pass = 0; pass < 2; ++pass) {
        sqlite3_int64 length = 0;
        unsigned char* image = sqlite3_serialize(loaded.db, "main", &length, 0);
        if (image == nullptr)
            break;
        const bool fits = length > 0 && static_cast<std::size_t>(length) <= maxSize;
        if (fits) {
            std::memcpy(data, image, static_cast<std::size_t>(length));
            loaded.image.assign(reinterpret_cast<const char*>(image), static_cast<std::size_t>(length));
        }
        sqlite3_free(image);
        if (fits)
            return static_cast<std::size_t>(length);
        if (pass == 0 && sqlite3_exec(loaded.db, "VACUUM", nullptr, nullptr, nullptr) != SQLITE_OK) // free pages out
            break;
    }
    loaded.close();
    return 0;
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(
    std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned int seed)
{
    static Loaded loaded;
    loaded.rng.seed(seed);
    if (loaded.rng() % 8 != 0) {
        // Structure first; if the input is no database (yet), or nothing applied, bytes.
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (const auto mutated = mutateDatabase(data, size, maxSize, loaded); mutated > 0)
                return mutated;
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}
