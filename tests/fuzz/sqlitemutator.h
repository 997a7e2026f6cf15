// SPDX-License-Identifier: MIT
// What the files of the structure-aware SQLite mutator share: the tables and values it works with,
// a prepared statement, and the Mutator class. Its driver and its reading and writing of cells are
// in sqlitemutator.cpp (with LLVMFuzzerCustomMutator); its mutations, by what they change, in
// sqlitemutatorvalues.cpp (a value in a row), sqlitemutatorblobs.cpp (a packed blob) and
// sqlitemutatortables.cpp (rows, a whole column, the header, the schema).
#pragma once

#include "sqlname.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <sqlite3.h>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::fuzz::sqlitemutator {

using Rng = std::mt19937_64;

struct Column {
    std::string name;
    std::string type; // declared type, upper case
    bool primaryKey = false;
};

struct Table {
    std::string name;
    std::vector<Column> columns;
};

std::string lower(std::string_view text);
bool endsWith(std::string_view text, std::string_view suffix);

// A value to bind: what the mutation writes into a cell.
struct Value {
    enum class Kind { Null, Int, Real, Text, Blob } kind = Kind::Null;
    std::int64_t i = 0;
    double r = 0;
    std::string bytes; // text or blob
};

class Statement {
public:
    Statement(sqlite3* db, const std::string& sql)
    {
        if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
            m_stmt = nullptr;
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool ok() const { return m_stmt != nullptr; }
    sqlite3_stmt* get() const { return m_stmt; }
    bool row() { return m_stmt != nullptr && sqlite3_step(m_stmt) == SQLITE_ROW; }
    bool run() { return m_stmt != nullptr && sqlite3_step(m_stmt) == SQLITE_DONE; }
    void bind(int index, const Value& value)
    {
        switch (value.kind) {
        case Value::Kind::Null:
            sqlite3_bind_null(m_stmt, index);
            break;
        case Value::Kind::Int:
            sqlite3_bind_int64(m_stmt, index, value.i);
            break;
        case Value::Kind::Real:
            sqlite3_bind_double(m_stmt, index, value.r);
            break;
        case Value::Kind::Text:
            sqlite3_bind_text(
                m_stmt, index, value.bytes.data(), static_cast<int>(value.bytes.size()), SQLITE_TRANSIENT);
            break;
        case Value::Kind::Blob:
            sqlite3_bind_blob(
                m_stmt, index, value.bytes.data(), static_cast<int>(value.bytes.size()), SQLITE_TRANSIENT);
            break;
        }
    }
    void bind(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
    std::int64_t integer(int col) const { return sqlite3_column_int64(m_stmt, col); }
    Value value(int col) const
    {
        Value v;
        switch (sqlite3_column_type(m_stmt, col)) {
        case SQLITE_INTEGER:
            v.kind = Value::Kind::Int;
            v.i = sqlite3_column_int64(m_stmt, col);
            break;
        case SQLITE_FLOAT:
            v.kind = Value::Kind::Real;
            v.r = sqlite3_column_double(m_stmt, col);
            break;
        case SQLITE_TEXT:
        case SQLITE_BLOB: {
            v.kind = sqlite3_column_type(m_stmt, col) == SQLITE_TEXT ? Value::Kind::Text : Value::Kind::Blob;
            const void* data = sqlite3_column_blob(m_stmt, col);
            const auto size = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col));
            if (data != nullptr)
                v.bytes.assign(static_cast<const char*>(data), size);
            break;
        }
        default:
            break;
        }
        return v;
    }

private:
    sqlite3_stmt* m_stmt = nullptr;
};

// Kept with its open database across calls (sqlitemutator.cpp): libFuzzer mutates a mutation's
// output again, so the tables read by load() serve several mutations.
class Mutator {
public:
    Mutator(sqlite3* db, Rng& rng)
        : m_db(db)
        , m_rng(rng)
    { }

    // The tables and their columns; again after a change of the schema (stale()).
    bool load();
    bool stale() const { return m_stale; }
    void setRoom(std::size_t room) { m_room = room; }
    bool mutateOnce();

private:
    std::uint64_t pick(std::uint64_t n) { return n == 0 ? 0 : m_rng() % n; }
    bool chance(int inN) { return pick(static_cast<std::uint64_t>(inN)) == 0; }
    const Table& anyTable() { return m_tables[pick(m_tables.size())]; }
    const Column& anyColumn(const Table& table) { return table.columns[pick(table.columns.size())]; }

    bool exec(const std::string& sql)
    {
        return sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }

    // sqlitemutator.cpp: a table's rows and cells, and its columns by name.
    std::optional<std::int64_t> count(const Table& table);
    std::optional<std::int64_t> anyRow(const Table& table);
    Value cell(const Table& table, const Column& column, std::int64_t rowid);
    bool update(const Table& table, const Column& column, std::int64_t rowid, const Value& value);
    static const Column* find(const Table& table, std::initializer_list<std::string_view> names);

    Value integer(std::int64_t i)
    {
        Value v;
        v.kind = Value::Kind::Int;
        v.i = i;
        return v;
    }
    Value real(double r)
    {
        Value v;
        v.kind = Value::Kind::Real;
        v.r = r;
        return v;
    }
    Value text(std::string s)
    {
        Value v;
        v.kind = Value::Kind::Text;
        v.bytes = std::move(s);
        return v;
    }
    Value blob(std::string s)
    {
        Value v;
        v.kind = Value::Kind::Blob;
        v.bytes = std::move(s);
        return v;
    }

    std::string randomBytes(std::size_t n)
    {
        std::string out(n, '\0');
        for (auto& c : out)
            c = static_cast<char>(pick(256));
        return out;
    }

    // sqlitemutatorvalues.cpp
    Value hostile(const Value& current);
    bool setCell();
    bool endBeforeStart();
    bool danglingId();
    bool bigString();

    // sqlitemutatorblobs.cpp
    bool mutateBlob();
    bool reencodeMetrics(const Table& table, const Column& column, std::int64_t rowid);

    // sqlitemutatortables.cpp
    bool deleteRows();
    bool copyRow();
    bool retypeColumn();
    bool header();
    bool schema();

    // The columns that held a packed blob when first asked, and since written one (update()), as
    // (table, column) indexes; found once per load, not per mutation.
    const std::vector<std::pair<std::size_t, std::size_t>>& blobColumns();

    sqlite3* m_db;
    Rng& m_rng;
    std::size_t m_room = 0; // bytes the input may still grow by
    std::vector<Table> m_tables;
    std::optional<std::vector<std::pair<std::size_t, std::size_t>>> m_blobColumns;
    bool m_stale = false;
};

} // namespace ridgeline::fuzz::sqlitemutator
