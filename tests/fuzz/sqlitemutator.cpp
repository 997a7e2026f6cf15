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
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <random>
#include <sqlite3.h>
#include <string>
#include <string_view>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

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

// The LEB128 varints and 8-byte doubles of core/src/metricblob.h and operatorchunks.h.
void putVarint(std::string& out, std::uint64_t value)
{
    do {
        auto byte = static_cast<std::uint8_t>(value & 0x7f);
        value >>= 7;
        if (value != 0)
            byte |= 0x80;
        out += static_cast<char>(byte);
    } while (value != 0);
}

void putDouble(std::string& out, double value)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((bits >> (8 * i)) & 0xff);
}

class Mutator {
public:
    Mutator(sqlite3* db, Rng& rng, std::size_t room)
        : m_db(db)
        , m_rng(rng)
        , m_room(room)
    { }

    bool load()
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
    bool mutateOnce()
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

private:
    std::uint64_t pick(std::uint64_t n) { return n == 0 ? 0 : m_rng() % n; }
    bool chance(int inN) { return pick(static_cast<std::uint64_t>(inN)) == 0; }
    const Table& anyTable() { return m_tables[pick(m_tables.size())]; }
    const Column& anyColumn(const Table& table) { return table.columns[pick(table.columns.size())]; }

    bool exec(const std::string& sql)
    {
        return sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }

    std::optional<std::int64_t> count(const Table& table)
    {
        Statement s(m_db, "SELECT count(*) FROM " + quoted(table.name));
        if (!s.row())
            return std::nullopt;
        return s.integer(0);
    }

    // The rowid of a random row of the table, when it has rows (and rowids).
    std::optional<std::int64_t> anyRow(const Table& table)
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

    Value cell(const Table& table, const Column& column, std::int64_t rowid)
    {
        Statement s(m_db, "SELECT " + quoted(column.name) + " FROM " + quoted(table.name) + " WHERE rowid = ?1");
        if (!s.ok())
            return {};
        s.bind(1, rowid);
        return s.row() ? s.value(0) : Value {};
    }

    bool update(const Table& table, const Column& column, std::int64_t rowid, const Value& value)
    {
        Statement s(m_db, "UPDATE " + quoted(table.name) + " SET " + quoted(column.name) + " = ?1 WHERE rowid = ?2");
        if (!s.ok())
            return false;
        s.bind(1, value);
        s.bind(2, rowid);
        return s.run() && sqlite3_changes(m_db) > 0;
    }

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

    // What a hostile or broken writer might put where `current` was.
    Value hostile(const Value& current)
    {
        constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
        constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
        const std::int64_t base = current.kind == Value::Kind::Int ? current.i
            : current.kind == Value::Kind::Real && std::isfinite(current.r) && std::fabs(current.r) < 9e18
            ? static_cast<std::int64_t>(current.r)
            : 0;
        switch (pick(12)) {
        case 0:
            return {}; // NULL
        case 1: {
            static constexpr std::array<std::int64_t, 12> kInts { kMin, kMax, -1, 0, 1, kMin + 1, kMax - 1,
                std::int64_t { 1 } << 31, std::int64_t { 1 } << 32, (std::int64_t { 1 } << 53) + 1,
                -(std::int64_t { 1 } << 62), std::int64_t { 65536 } };
            return integer(kInts[pick(kInts.size())]);
        }
        case 2: // near the current value (wrapping, not overflowing)
            return integer(static_cast<std::int64_t>(static_cast<std::uint64_t>(base) + pick(5) - 2));
        case 3:
            return integer(base == kMin ? kMax : -base);
        case 4:
            return integer(static_cast<std::int64_t>(m_rng()));
        case 5: {
            static constexpr std::array<double, 10> kReals { std::numeric_limits<double>::infinity(),
                -std::numeric_limits<double>::infinity(), 1e308, -1e308, 0.5, -0.0, 5e-324, 9.3e18, -9.3e18, 1e19 };
            return real(kReals[pick(kReals.size())]);
        }
        case 6:
            return real(static_cast<double>(base) + 0.5);
        case 7: {
            static constexpr std::array<std::string_view, 14> kTexts { "", "abc", "NaN", "nan", "inf", "-inf", "1e999",
                "  42", "0x1F", "1,000", "-5", "\xc3\xa9\xe2\x82\xac", "9223372036854775808", "1.5e30" };
            return text(std::string(kTexts[pick(kTexts.size())]));
        }
        case 8: // the same value as text ("123"), which a careless reader may take as a number
            return text(std::to_string(base));
        case 9:
            return text(randomBytes(pick(24)));
        case 10:
            return blob(randomBytes(pick(24)));
        default: { // one byte of a text value changed, or a control character added
            if (current.kind == Value::Kind::Text && !current.bytes.empty()) {
                Value v = current;
                v.bytes[pick(v.bytes.size())] = static_cast<char>(pick(256));
                return v;
            }
            return text(std::string(1, static_cast<char>(pick(32))));
        }
        }
    }

    bool setCell()
    {
        const auto& table = anyTable();
        const auto row = anyRow(table);
        if (!row)
            return false;
        const auto& column = anyColumn(table);
        return update(table, column, *row, hostile(cell(table, column, *row)));
    }

    static const Column* find(const Table& table, std::initializer_list<std::string_view> names)
    {
        for (const auto& column : table.columns) {
            for (auto name : names) {
                if (lower(column.name) == name)
                    return &column;
            }
        }
        return nullptr;
    }

    // An op that ends before it starts, or lasts absurdly long, or starts at an extreme.
    bool endBeforeStart()
    {
        std::vector<const Table*> timed;
        for (const auto& table : m_tables) {
            if (find(table, { "start_ns", "start" }) && find(table, { "end_ns", "end" }))
                timed.push_back(&table);
        }
        if (timed.empty())
            return false;
        const auto& table = *timed[pick(timed.size())];
        const auto* start = find(table, { "start_ns", "start" });
        const auto* end = find(table, { "end_ns", "end" });
        const auto row = anyRow(table);
        if (!row)
            return false;
        const auto t = quoted(table.name), s = quoted(start->name), e = quoted(end->name);
        std::string set;
        switch (pick(5)) {
        case 0:
            set = e + " = " + s + " - " + std::to_string(1 + pick(1000000));
            break;
        case 1:
            set = s + " = " + e + ", " + e + " = " + s; // swapped
            break;
        case 2:
            set = e + " = 9223372036854775807";
            break;
        case 3:
            set = s + " = -9223372036854775808";
            break;
        default:
            set = s + " = " + s + " + 1.5, " + e + " = " + e + " || ''"; // a real and a text
            break;
        }
        return exec("UPDATE " + t + " SET " + set + " WHERE rowid = " + std::to_string(*row))
            && sqlite3_changes(m_db) > 0;
    }

    // An id (a column named *id, *_id, *Id) that points at nothing.
    bool danglingId()
    {
        const auto& table = anyTable();
        std::vector<const Column*> ids;
        for (const auto& column : table.columns) {
            if (endsWith(lower(column.name), "id") || endsWith(column.name, "Name"))
                ids.push_back(&column);
        }
        if (ids.empty())
            return false;
        const auto& column = *ids[pick(ids.size())];
        const auto row = anyRow(table);
        if (!row)
            return false;
        std::int64_t value = 0;
        switch (pick(4)) {
        case 0: {
            Statement s(m_db, "SELECT max(" + quoted(column.name) + ") FROM " + quoted(table.name));
            const auto highest = s.row() ? s.integer(0) : 0;
            value = highest < std::numeric_limits<std::int64_t>::max() - 2000
                ? highest + 1 + static_cast<std::int64_t>(pick(1000))
                : -7;
            break;
        }
        case 1:
            value = -1 - static_cast<std::int64_t>(pick(3));
            break;
        case 2:
            value = 0;
            break;
        default:
            value = static_cast<std::int64_t>(m_rng() >> pick(64));
            break;
        }
        return update(table, column, *row, integer(value));
    }

    // A packed blob (metric_values.data, operator_chunks.data, or any other) corrupted, re-encoded
    // with odd values, or its count changed.
    bool mutateBlob()
    {
        struct Found {
            const Table* table;
            const Column* column;
            std::int64_t rowid;
            std::string bytes;
        };
        std::vector<Found> found;
        for (const auto& table : m_tables) {
            for (const auto& column : table.columns) {
                Statement s(m_db,
                    "SELECT rowid, " + quoted(column.name) + " FROM " + quoted(table.name) + " WHERE typeof("
                        + quoted(column.name) + ") = 'blob' LIMIT 1 OFFSET ?1");
                if (!s.ok())
                    continue;
                s.bind(1, static_cast<std::int64_t>(pick(4)));
                if (s.row())
                    found.push_back({ &table, &column, s.integer(0), s.value(1).bytes });
            }
        }
        if (found.empty())
            return false;
        auto& [table, column, rowid, bytes] = found[pick(found.size())];
        const Column* count = find(*table, { "count" });
        if (count != nullptr && chance(4)) { // a count that does not match the data
            static constexpr std::array<std::int64_t, 6> kCounts { 0, -1, 1, 2, 1 << 20,
                std::numeric_limits<std::int64_t>::max() };
            Value current = cell(*table, *count, rowid);
            const std::int64_t value = chance(2) && current.kind == Value::Kind::Int
                ? static_cast<std::int64_t>(static_cast<std::uint64_t>(current.i) + pick(3) - 1)
                : kCounts[pick(kCounts.size())];
            return update(*table, *count, rowid, integer(value));
        }
        if (table->name == "metric_values" && chance(2)) // values re-encoded: odd ids and odd doubles
            return reencodeMetrics(*table, *column, rowid);
        std::string data = bytes;
        switch (pick(6)) {
        case 0: // a byte changed
            if (data.empty())
                data = randomBytes(1 + pick(16));
            else
                data[pick(data.size())] = static_cast<char>(pick(256));
            break;
        case 1: // cut short
            data.resize(pick(data.size() + 1));
            break;
        case 2: // bytes added
            data += randomBytes(1 + pick(16));
            break;
        case 3: { // an endless varint (every byte with its continuation bit)
            const auto at = pick(data.size() + 1);
            data.insert(at, std::string(1 + pick(12), '\xff'));
            break;
        }
        case 4: { // 8 bytes (a double, if aligned to one) replaced by NaN, infinity or a huge number
            static constexpr std::array<double, 5> kOdd { std::numeric_limits<double>::quiet_NaN(),
                std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1e308, -0.0 };
            std::string odd;
            putDouble(odd, kOdd[pick(kOdd.size())]);
            if (data.size() < 8)
                data += odd;
            else
                data.replace(pick(data.size() - 7), 8, odd);
            break;
        }
        default: // another row's data
            data = randomBytes(pick(64));
            break;
        }
        return update(*table, *column, rowid, blob(std::move(data)));
    }

    // A metric_values row encoded anew (core/src/metricblob.h) with ids and values a hostile writer
    // could choose: a step of 0 (ids not rising), ids with no name, NaN, infinities, huge steps.
    bool reencodeMetrics(const Table& table, const Column& column, std::int64_t rowid)
    {
        const auto n = 1 + pick(8);
        std::string data;
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t step = 1 + pick(3);
            switch (pick(8)) {
            case 0:
                step = 0;
                break;
            case 1:
                step = 1000 + pick(100000);
                break;
            case 2:
                step = std::numeric_limits<std::uint64_t>::max() >> pick(2);
                break;
            default:
                break;
            }
            putVarint(data, step);
            static constexpr std::array<double, 8> kValues { std::numeric_limits<double>::quiet_NaN(),
                std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1e308, -1.0, 0.0,
                5e-324, 1e12 };
            putDouble(data, chance(2) ? kValues[pick(kValues.size())] : static_cast<double>(pick(1000)));
        }
        const Column* count = find(table, { "count" });
        if (!update(table, column, rowid, blob(std::move(data))))
            return false;
        if (count != nullptr)
            update(table, *count, rowid, integer(static_cast<std::int64_t>(chance(4) ? n + 1 : n)));
        return true;
    }

    bool deleteRows()
    {
        const auto& table = anyTable();
        if (chance(5))
            return exec("DELETE FROM " + quoted(table.name)) && sqlite3_changes(m_db) > 0;
        const auto row = anyRow(table);
        return row && exec("DELETE FROM " + quoted(table.name) + " WHERE rowid = " + std::to_string(*row));
    }

    // A row copied (a new id when the key is the rowid), then maybe one of its cells changed.
    bool copyRow()
    {
        const auto& table = anyTable();
        const auto row = anyRow(table);
        if (!row)
            return false;
        std::string columns;
        for (const auto& column : table.columns) {
            if (column.primaryKey && column.type == "INTEGER")
                continue;
            columns += (columns.empty() ? "" : ", ") + quoted(column.name);
        }
        if (columns.empty())
            return false;
        const auto t = quoted(table.name);
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
    bool retypeColumn()
    {
        const auto& table = anyTable();
        const auto& column = anyColumn(table);
        static constexpr std::array<std::string_view, 4> kCasts { "CAST({} AS TEXT)", "CAST({} AS REAL) + 0.25", "NULL",
            "printf('%s ', {})" };
        std::string expression(kCasts[pick(kCasts.size())]);
        const auto c = quoted(column.name);
        if (auto at = expression.find("{}"); at != std::string::npos)
            expression.replace(at, 2, c);
        const std::string where = chance(2) ? " WHERE rowid % 2 = 0" : "";
        return exec("UPDATE " + quoted(table.name) + " SET " + c + " = " + expression + where)
            && sqlite3_changes(m_db) > 0;
    }

    // A long string in a text column: 1 MB where the input's maximum size leaves 8 MB of room (the
    // replay test), else an eighth of the room, so that fuzzing inputs stay small and fast.
    bool bigString()
    {
        const auto& table = anyTable();
        const auto row = anyRow(table);
        if (!row || m_room < 8192)
            return false;
        const auto length = std::min<std::size_t>(std::size_t { 1 } << 20, m_room / 8);
        std::string value(length, static_cast<char>('a' + pick(26)));
        if (chance(2)) // not all one letter: some escapes and quotes, for the writers of JSON, CSV and HTML
            for (int i = 0; i < 64; ++i)
                value[pick(value.size())] = "\"\\<>&,\n\t'"[pick(9)];
        return update(table, anyColumn(table), *row, text(std::move(value)));
    }

    // The header fields a reader checks first: schema version and application id.
    bool header()
    {
        static constexpr std::array<std::int64_t, 8> kVersions { 0, 1, 2, 3, 4, -1, 1000, 0x7fffffff };
        if (chance(3))
            return exec("PRAGMA application_id = "
                + std::to_string(chance(2) ? 0x5244474C : static_cast<std::int64_t>(pick(1u << 31))));
        return exec("PRAGMA user_version = " + std::to_string(kVersions[pick(kVersions.size())]));
    }

    // The schema: a table dropped, renamed or replaced by a view, a column dropped or renamed, an
    // index or a trigger added (which a reader must never run).
    bool schema()
    {
        const auto& table = anyTable();
        const auto t = quoted(table.name);
        const auto& column = anyColumn(table);
        switch (pick(7)) {
        case 0:
            return exec("DROP TABLE " + t);
        case 1:
            return exec("ALTER TABLE " + t + " RENAME TO " + quoted(table.name + "_old"));
        case 2:
            return exec("ALTER TABLE " + t + " DROP COLUMN " + quoted(column.name));
        case 3:
            return exec(
                "ALTER TABLE " + t + " RENAME COLUMN " + quoted(column.name) + " TO " + quoted(column.name + "x"));
        case 4:
            return exec("ALTER TABLE " + t + " RENAME TO " + quoted(table.name + "_real") + "; CREATE VIEW " + t
                + " AS SELECT * FROM " + quoted(table.name + "_real"));
        case 5:
            return exec("CREATE INDEX IF NOT EXISTS " + quoted("fuzz_" + table.name + "_" + column.name) + " ON " + t
                + "(" + quoted(column.name) + ")");
        default:
            return exec("CREATE TRIGGER IF NOT EXISTS " + quoted("fuzz_" + table.name) + " AFTER INSERT ON " + t
                + " BEGIN DELETE FROM " + t + "; END");
        }
    }

    sqlite3* m_db;
    Rng& m_rng;
    std::size_t m_room; // bytes the input may still grow by
    std::vector<Table> m_tables;
};

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
