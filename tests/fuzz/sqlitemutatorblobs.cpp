// SPDX-License-Identifier: MIT
// The SQLite mutator's changes to a packed blob (sqlitemutator.h): metric values and operator
// chunks corrupted, cut, grown, re-encoded with odd values, or given a count that does not match.
#include "sqlitemutator.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::fuzz::sqlitemutator {

namespace {

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

} // namespace

const std::vector<std::pair<std::size_t, std::size_t>>& Mutator::blobColumns()
{
    if (m_blobColumns)
        return *m_blobColumns;
    m_blobColumns.emplace();
    // One scan of each table: which of its columns hold a blob in any row.
    for (std::size_t t = 0; t < m_tables.size(); ++t) {
        const auto& table = m_tables[t];
        std::string sql = "SELECT ";
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            sql += (c == 0 ? "" : ", ") + std::string("max(typeof(") + sqlName(table.columns[c].name) + ") = 'blob')";
        Statement s(m_db, sql + " FROM " + sqlName(table.name));
        if (!s.row())
            continue;
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (s.integer(static_cast<int>(c)) > 0)
                m_blobColumns->emplace_back(t, c);
        }
    }
    return *m_blobColumns;
}

// A packed blob (metric_values.data, operator_chunks.data, or any other) corrupted, re-encoded
// with odd values, or its count changed.
bool Mutator::mutateBlob()
{
    const auto& candidates = blobColumns();
    if (candidates.empty())
        return false;
    const auto [t, c] = candidates[pick(candidates.size())];
    const Table* table = &m_tables[t];
    const Column* column = &table->columns[c];
    std::int64_t rowid = 0;
    std::string bytes;
    // One of its first few blobs; the first when there are fewer.
    bool found = false;
    for (const auto offset : { static_cast<std::int64_t>(pick(4)), std::int64_t { 0 } }) {
        Statement s(m_db,
            "SELECT rowid, " + sqlName(column->name) + " FROM " + sqlName(table->name) + " WHERE typeof("
                + sqlName(column->name) + ") = 'blob' LIMIT 1 OFFSET ?1");
        s.bind(1, offset);
        if (s.row()) {
            rowid = s.integer(0);
            bytes = s.value(1).bytes;
            found = true;
            break;
        }
    }
    if (!found)
        return false;
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
bool Mutator::reencodeMetrics(const Table& table, const Column& column, std::int64_t rowid)
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
            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1e308, -1.0, 0.0, 5e-324,
            1e12 };
        putDouble(data, chance(2) ? kValues[pick(kValues.size())] : static_cast<double>(pick(1000)));
    }
    const Column* count = find(table, { "count" });
    if (!update(table, column, rowid, blob(std::move(data))))
        return false;
    if (count != nullptr)
        update(table, *count, rowid, integer(static_cast<std::int64_t>(chance(4) ? n + 1 : n)));
    return true;
}

} // namespace ridgeline::fuzz::sqlitemutator
