// SPDX-License-Identifier: MIT
#include "rowedits.h"

#include "sqlname.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace ridgeline::fuzz {

namespace {

using core::sqlite::Statement;

constexpr std::array<std::int64_t, 12> kEdgeIntegers { 0, 1, -1, -5, std::numeric_limits<std::int64_t>::min(),
    std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max() - 1, std::int64_t { 1 } << 53,
    std::int64_t { 1 } << 32, 1661203463063943000, 65536, -1661203463063943000 };

constexpr std::array<double, 10> kEdgeDoubles { std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1.5e30, -0.0, 0.5,
    std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), 9.223372036854775807e18, -1e-300 };

constexpr std::array<std::string_view, 12> kEdgeTexts { "abc", "", "1e3", "-5", " 12", "\xff\xfe\xfd", "NaN",
    "Infinity", "9223372036854775808", "0x10", std::string_view("a\0b", 3), "ncclDevKernel_AllReduce_Sum_f32_RING_LL" };

constexpr std::array<std::int64_t, 8> kDeltas { 1, -1, -1000, 1000000000, std::numeric_limits<std::int64_t>::max(),
    std::numeric_limits<std::int64_t>::min(), -1000000000000, 3 };

// A long text: 1 MB or 64 KiB for one choice in sixteen each, 4 KiB otherwise. An input holding a
// 1 MB string took 100-200 ms to read (under the fuzzer's instrumentation), fifty times a typical
// one; when every long text was 1 MB or 64 KiB, the 1 % of the corpus that held one took 60 % of
// the time. A 4 KiB text reaches the same code.
std::string_view longText(std::uint8_t choice)
{
    static const std::string kMegabyte(std::size_t { 1 } << 20, 'x');
    static const std::string kSixtyFourKiB(std::size_t { 64 } << 10, 'y');
    static const std::string kFourKiB(std::size_t { 4 } << 10, 'z');
    switch (choice % 16) {
    case 0:
        return kMegabyte;
    case 1:
        return kSixtyFourKiB;
    default:
        return kFourKiB;
    }
}

bool hasRow(Statement& statement)
{
    auto step = statement.step();
    return step.ok() && step.value() == Statement::Step::Row;
}

} // namespace

std::uint64_t InputBytes::eightBytes()
{
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i)
        value |= std::uint64_t { byte() } << (8 * i);
    return value;
}

std::string_view InputBytes::take(std::size_t count)
{
    const auto out = m_bytes.substr(m_at, std::min(count, m_bytes.size() - m_at)); // m_at <= size
    m_at += out.size();
    return out;
}

RowEditor::RowEditor(core::sqlite::Database& db)
    : m_db(&db)
{
    auto names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                            "ORDER BY name");
    if (names.hasError())
        return;
    while (hasRow(names.value()))
        m_tables.push_back(Table { names.value().columnText(0), {}, {}, 0 });
    for (auto& table : m_tables) {
        auto columns = db.prepare("SELECT name, pk FROM pragma_table_info(?1)");
        if (columns.hasError())
            continue;
        columns.value().bind(1, table.name);
        while (hasRow(columns.value())) {
            table.columns.push_back(columns.value().columnText(0));
            if (columns.value().columnInt(1) == 0)
                table.keyless.push_back(table.columns.back());
        }
        auto rows = db.queryInt(fmt::format("SELECT count(*) FROM {}", sqlName(table.name)));
        table.rows = rows.ok() ? rows.value() : 0;
    }
    std::erase_if(m_tables, [](const Table& table) { return table.columns.empty(); });
}

int RowEditor::apply(InputBytes& input)
{
    if (m_tables.empty() || m_db->exec("SAVEPOINT fuzz").hasError())
        return 0;
    m_open = true;
    int applied = 0;
    for (int i = 0; i < kMaxEdits && !input.empty(); ++i)
        applied += edit(input) ? 1 : 0;
    return applied;
}

void RowEditor::rollBack()
{
    if (!std::exchange(m_open, false))
        return;
    if (m_db->exec("ROLLBACK TO fuzz; RELEASE fuzz").hasError()) {
        std::fprintf(stderr, "cannot roll the edits back: %s\n", m_db->errorMessage().c_str());
        std::abort(); // every later input would read this one's edits
    }
}

std::int64_t RowEditor::rowOf(const Table& table, InputBytes& input) const
{
    const std::int64_t pick = input.twoBytes();
    // One row past the end now and then: the edit then finds no row, which is fine.
    return pick % (table.rows + 1);
}

bool RowEditor::edit(InputBytes& input)
{
    const auto op = input.byte() % 8;
    const Table& table = m_tables[input.byte() % m_tables.size()];
    const std::int64_t row = rowOf(table, input);
    const std::string& column = table.columns[input.byte() % table.columns.size()];
    const std::string where
        = fmt::format(" WHERE rowid = (SELECT rowid FROM {} LIMIT 1 OFFSET ?9)", sqlName(table.name));
    if (op == 5) {
        auto* s = statement(fmt::format("DELETE FROM {}{}", sqlName(table.name), where));
        if (s != nullptr)
            s->bind(9, row);
        return run(s);
    }
    if (op == 6) {
        if (table.keyless.empty())
            return false;
        std::string columns;
        for (const auto& name : table.keyless)
            columns += (columns.empty() ? "" : ", ") + sqlName(name);
        auto* s = statement(
            fmt::format("INSERT INTO {0} ({1}) SELECT {1} FROM {0} LIMIT 1 OFFSET ?9", sqlName(table.name), columns));
        if (s != nullptr)
            s->bind(9, row);
        return run(s);
    }
    if (op == 7) {
        auto* s
            = statement(fmt::format("UPDATE {0} SET {1} = {1} + ?1{2}", sqlName(table.name), sqlName(column), where));
        if (s != nullptr) {
            s->bind(1, kDeltas[input.byte() % kDeltas.size()]);
            s->bind(9, row);
        }
        return run(s);
    }
    return setCell(table, column, where, row, input);
}

bool RowEditor::setCell(
    const Table& table, const std::string& column, const std::string& where, std::int64_t row, InputBytes& input)
{
    const auto kind = input.byte() % 12;
    if (kind == 10)
        return copyCell(table, column, where, row, input);
    auto* s = statement(fmt::format("UPDATE {} SET {} = ?1{}", sqlName(table.name), sqlName(column), where));
    if (s == nullptr)
        return false;
    s->bind(9, row);
    switch (kind) {
    case 0:
        s->bindNull(1);
        break;
    case 1:
        s->bind(1, std::int64_t { static_cast<std::int8_t>(input.byte()) });
        break;
    case 2:
        s->bind(1, static_cast<std::int64_t>(input.eightBytes()));
        break;
    case 3:
        s->bind(1, kEdgeIntegers[input.byte() % kEdgeIntegers.size()]);
        break;
    case 4: {
        const std::uint64_t bits = input.eightBytes();
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        s->bind(1, value);
        break;
    }
    case 5:
        s->bind(1, kEdgeDoubles[input.byte() % kEdgeDoubles.size()]);
        break;
    case 6:
        s->bind(1, input.take(input.byte() % 64));
        break;
    case 7:
        s->bind(1, kEdgeTexts[input.byte() % kEdgeTexts.size()]);
        break;
    case 8:
        s->bind(1, longText(input.byte()));
        break;
    case 9:
        s->bindBlob(1, input.take(input.byte() % 64));
        break;
    default:
        s->bindBlob(1, std::string_view());
        break;
    }
    return run(s);
}

bool RowEditor::copyCell(
    const Table& table, const std::string& column, const std::string& where, std::int64_t row, InputBytes& input)
{
    const Table& from = m_tables[input.byte() % m_tables.size()];
    const std::int64_t fromRow = rowOf(from, input);
    const std::string& fromColumn = from.columns[input.byte() % from.columns.size()];
    auto* s = statement(fmt::format("UPDATE {} SET {} = (SELECT {} FROM {} LIMIT 1 OFFSET ?1){}", sqlName(table.name),
        sqlName(column), sqlName(fromColumn), sqlName(from.name), where));
    if (s != nullptr) {
        s->bind(1, fromRow);
        s->bind(9, row);
    }
    return run(s);
}

Statement* RowEditor::statement(const std::string& sql)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        auto prepared = m_db->prepare(sql);
        if (prepared.hasError())
            return nullptr; // e.g. a table without rowid: this edit is never made
        it = m_statements.emplace(sql, std::move(prepared).value()).first;
    }
    return &it->second;
}

bool RowEditor::run(Statement* statement)
{
    if (statement == nullptr)
        return false;
    const bool ok = statement->run().ok();
    statement->reset();
    return ok;
}

} // namespace ridgeline::fuzz
