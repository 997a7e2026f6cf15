// SPDX-License-Identifier: MIT
// The state behind core::SessionWriter, shared by its two source files: sessionwriter.cpp (the
// file's life: create, meta, batches, devices and processes, finish) and sessionwriterrecords.cpp
// (the bulk records: kernels, metrics, copies, API calls, NVTX ranges, collectives, verdicts).
#pragma once

#include "ridgeline/core/store/kerneltotals.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "ridgeline/core/store/sqlite.h"
#include "statementbind.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ridgeline::core {

using detail::bindAll;
using detail::NewId;
using sqlite::Statement;

// The status of an insertRows() whose row ids nobody needs.
inline Status withoutId(const Result<std::int64_t>& inserted)
{
    if (inserted.hasError())
        return inserted.error();
    return {};
}

inline Error writeError(const Error& error, std::string_view what)
{
    return makeError(error.code, fmt::format("writing {} failed: {}", what, error.message));
}

// Interned strings by value, looked up without copying the key.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>()(text); }
};
using InternCache = std::unordered_map<std::string, std::int64_t, StringHash, std::equal_to<>>;

struct SessionWriter::Impl {
    sqlite::Database db;
    std::string finalPath;
    std::string workPath;
    WriterOptions options;
    int batchDepth = 0;
    bool finished = false;
    std::unordered_map<std::string, Statement> statements; // prepared once per writer, by SQL text
    std::unordered_map<std::string, std::int64_t> kernelNames;
    InternCache strings;
    InternCache metricNames;
    std::unordered_set<std::int64_t> metricsWithUnit;
    std::unordered_set<std::int64_t> kernelsWithMetrics; // kernels with a metric_values row
    std::string blob; // reused by putKernelMetrics
    // The totals of the kernels written, stored by finish(). Unknown once a write of kernels may
    // have been undone (a failed insert or batch): finish() then stores none and readers scan.
    KernelTotalsBuilder kernelTotals;
    bool kernelTotalsKnown = true;
    bool indexed = false; // buildIndexes() made the indexes

    // Empties every table in one transaction (reset()).
    Status deleteAllRows();
    // Writes kernelTotals and names them in stored_summaries (finish()).
    Status storeKernelTotals();
    // Inserts a packed chunk of operators (in the caller's transaction).
    Status insertOperatorChunk(const OperatorChunk& chunk);
    // Writes a kernel's values (merged into what it has); `values` is sorted in place.
    Status putKernelMetrics(std::int64_t kernelId, std::vector<MetricById>& values);
    // Longest op per table, recorded in meta by finish() for time-window queries.
    std::map<std::string, std::int64_t> maxDurations { { "kernels", 0 }, { "memops", 0 }, { "api_calls", 0 },
        { "nvtx_ranges", 0 }, { "comm_ops", 0 }, { "operators", 0 } };

    template <typename Op> void noteDurations(const char* table, std::span<const Op> ops)
    {
        auto& longest = maxDurations[table];
        for (const auto& op : ops) {
            longest = std::max(longest, saturatingSub(op.endNs, op.startNs)); // hostile times saturate
        }
    }

    explicit Impl(sqlite::Database database)
        : db(std::move(database))
    { }

    // Runs `body` inside the current batch, or inside a transaction of its own.
    template <typename Body> auto inTransaction(std::string_view what, Body&& body) -> decltype(body())
    {
        if (batchDepth > 0) {
            auto result = body();
            if (result.hasError())
                return writeError(result.error(), what);
            return result;
        }
        auto transaction = sqlite::Transaction::begin(db);
        if (transaction.hasError())
            return writeError(transaction.error(), what);
        auto result = body();
        if (result.hasError())
            return writeError(result.error(), what);
        auto committed = transaction.value().commit();
        if (committed.hasError())
            return writeError(committed.error(), what);
        return result;
    }

    Result<Statement*> statement(const std::string& sql)
    {
        auto it = statements.find(sql);
        if (it == statements.end()) {
            auto stmt = db.prepare(sql);
            if (stmt.hasError())
                return stmt.error();
            it = statements.emplace(sql, std::move(stmt).value()).first;
        }
        return &it->second;
    }

    // Inserts `rows` with `sql`, binding each with `bindRow(statement, row)` (which may return a
    // Status: a row may intern its strings first). Returns the first row's id, 0 for none.
    template <typename Row, typename BindRow>
    Result<std::int64_t> insertRows(
        std::string_view what, const std::string& sql, std::span<const Row> rows, BindRow&& bindRow)
    {
        return inTransaction(what, [&]() -> Result<std::int64_t> {
            auto cached = statement(sql);
            if (cached.hasError())
                return cached.error();
            Statement& s = *cached.value();
            std::int64_t first = 0;
            for (const auto& row : rows) {
                if constexpr (std::is_void_v<decltype(bindRow(s, row))>)
                    bindRow(s, row);
                else
                    RIDGELINE_TRY(bindRow(s, row));
                RIDGELINE_TRY(s.run());
                if (first == 0)
                    first = db.lastInsertRowid();
            }
            return first;
        });
    }

    // Runs the cached query `sql` with `keys` bound to ?1, ?2, ... and hands its first row, if
    // any, to `read`. Returns whether there was a row.
    template <typename Read, typename... Keys>
    Result<bool> readRow(const std::string& sql, Read&& read, const Keys&... keys)
    {
        auto select = statement(sql);
        if (select.hasError())
            return select.error();
        Statement& s = *select.value();
        bindAll(s, keys...);
        auto row = s.step();
        if (row.hasError()) {
            s.reset();
            return row.error();
        }
        const bool found = row.value() == Statement::Step::Row;
        if (found)
            read(s);
        s.reset();
        return found;
    }

    Result<std::int64_t> intern(InternCache& cache, const char* table, const char* column, std::string_view value)
    {
        if (auto it = cache.find(value); it != cache.end())
            return it->second;
        std::string key(value);
        std::int64_t id = 0;
        auto found = readRow(
            fmt::format("SELECT id FROM {} WHERE {} = ?1", table, column), [&](Statement& s) { id = s.columnInt(0); },
            value);
        if (found.hasError())
            return found.error();
        if (!found.value()) {
            auto insert = statement(fmt::format("INSERT INTO {}({}) VALUES(?1)", table, column));
            if (insert.hasError())
                return insert.error();
            insert.value()->bind(1, value);
            RIDGELINE_TRY(insert.value()->run());
            id = db.lastInsertRowid();
        }
        cache.emplace(std::move(key), id);
        return id;
    }

    Result<std::int64_t> internString(std::string_view value) { return intern(strings, "strings", "value", value); }

    // Binds an API call or NVTX range: its id, process, thread, interned domain and name, then
    // `rest` (its own columns).
    template <typename Record, typename... Rest>
    Status bindThreadRecord(Statement& s, const Record& r, const Rest&... rest)
    {
        auto domainId = internString(r.domain);
        auto nameId = internString(r.name);
        if (domainId.hasError())
            return domainId.error();
        if (nameId.hasError())
            return nameId.error();
        bindAll(s, NewId { r.id }, r.processId, r.threadId, domainId.value(), nameId.value(), rest...);
        return {};
    }
};

} // namespace ridgeline::core
