// SPDX-License-Identifier: MIT
// Structure-aware fuzzing of the SQLite inputs without a database per input. A few valid databases
// (the seeds: real sessions and trimmed real Nsight Systems exports) stay open for the whole run;
// each input is a list of row edits, applied to one of them inside a savepoint, read by the target,
// then rolled back. What an input costs is then the edits and the reading, not copying, opening
// and parsing the schema of a database: the row targets run ten times faster than the image
// targets (fuzz_nsys, fuzz_session), which mutate whole files and so also reach the file format.
//
// An input, byte by byte (a byte past the end reads as 0):
//   [base]                       which database (modulo their number; fuzz_session_rows also
//                                picks how it reads the session with the rest of this byte)
//   then up to kMaxEdits edits:  [op] [table] [row lo] [row hi] [column] [value...]
// op (modulo 8): 0-4 set the cell to a value, 5 delete the row, 6 insert a copy of the row (its
// key columns left to SQLite), 7 add a delta to the cell. Rows and columns are taken modulo what
// the table holds. A value is a kind byte (modulo 12), then what that kind reads:
//   0 NULL   1 a small integer (1 byte)   2 any integer (8 bytes)   3 an edge integer (1 byte)
//   4 any double (8 bytes: NaN, infinities, subnormals)   5 an edge double (1 byte)
//   6 text (a length byte, then up to 63 bytes)   7 an edge text (1 byte)   8 a long text (1 byte:
//   1 MB or 64 KiB for one value in sixteen each, 4 KiB otherwise)   9 a blob (a length byte, then up to 63 bytes)   10
//   the value of a cell of another table (table, row lo, row hi, column: dangling and valid ids)   11 an empty blob
// An edit SQLite refuses (a constraint, a value too large) is skipped; the input goes on.
#pragma once

#include "ridgeline/core/store/sqlite.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::fuzz {

// The bytes of an input, consumed from the front.
class InputBytes {
public:
    explicit InputBytes(std::string_view bytes)
        : m_bytes(bytes)
    { }
    bool empty() const { return m_at >= m_bytes.size(); }
    std::uint8_t byte() { return empty() ? 0 : static_cast<std::uint8_t>(m_bytes[m_at++]); }
    std::uint16_t twoBytes() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
    std::uint64_t eightBytes();
    // Up to `count` bytes (fewer at the end).
    std::string_view take(std::size_t count);

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

class RowEditor {
public:
    static constexpr int kMaxEdits = 24;

    // Learns the tables of `db` (names, columns, keys, row counts); `db` must outlive the editor
    // and its schema must not change.
    explicit RowEditor(core::sqlite::Database& db);

    // Opens a savepoint and applies the edits `input` holds; returns how many SQLite took.
    int apply(InputBytes& input);
    // Undoes every edit since apply().
    void rollBack();

    std::size_t tableCount() const { return m_tables.size(); }

private:
    struct Table {
        std::string name;
        std::vector<std::string> columns;
        std::vector<std::string> keyless; // the columns that are not part of the primary key
        std::int64_t rows = 0;
    };

    bool edit(InputBytes& input);
    // `where` picks the row: "WHERE rowid = (... OFFSET ?9)", with ?9 bound to `row`.
    bool setCell(
        const Table& table, const std::string& column, const std::string& where, std::int64_t row, InputBytes& input);
    bool copyCell(
        const Table& table, const std::string& column, const std::string& where, std::int64_t row, InputBytes& input);
    std::int64_t rowOf(const Table& table, InputBytes& input) const;
    // The statement for `sql`, prepared once and reset for reuse; null when SQLite refuses it.
    core::sqlite::Statement* statement(const std::string& sql);
    bool run(core::sqlite::Statement* statement);

    core::sqlite::Database* m_db;
    std::vector<Table> m_tables;
    std::map<std::string, core::sqlite::Statement> m_statements;
    bool m_open = false; // a savepoint to roll back
};

} // namespace ridgeline::fuzz
