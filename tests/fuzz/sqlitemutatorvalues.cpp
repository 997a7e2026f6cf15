// SPDX-License-Identifier: MIT
// The SQLite mutator's changes to a value in a row (sqlitemutator.h): a hostile value in a cell
// (wrong type, NULL, negative, huge, NaN as text, infinity), an op that ends before it starts, an id
// that points at nothing, a long string.
#include "sqlitemutator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sqlite3.h>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::fuzz::sqlitemutator {

// What a hostile or broken writer might put where `current` was.
Value Mutator::hostile(const Value& current)
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

bool Mutator::setCell()
{
    const auto& table = anyTable();
    const auto row = anyRow(table);
    if (!row)
        return false;
    const auto& column = anyColumn(table);
    return update(table, column, *row, hostile(cell(table, column, *row)));
}

// An op that ends before it starts, or lasts absurdly long, or starts at an extreme.
bool Mutator::endBeforeStart()
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
    const auto t = sqlName(table.name), s = sqlName(start->name), e = sqlName(end->name);
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
    return exec("UPDATE " + t + " SET " + set + " WHERE rowid = " + std::to_string(*row)) && sqlite3_changes(m_db) > 0;
}

// An id (a column named *id, *_id, *Id) that points at nothing.
bool Mutator::danglingId()
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
        Statement s(m_db, "SELECT max(" + sqlName(column.name) + ") FROM " + sqlName(table.name));
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

// A long string in a text column: 1 MB where the input's maximum size leaves 8 MB of room (the
// replay test), else an eighth of the room, so that fuzzing inputs stay small and fast.
bool Mutator::bigString()
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

} // namespace ridgeline::fuzz::sqlitemutator
