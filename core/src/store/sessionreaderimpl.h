// SPDX-License-Identifier: MIT
// Private to the session reader's files (sessionreader.cpp: opening, meta, devices, counts;
// sessionreadergpuops.cpp: kernels, metrics, copies, API calls, NVTX, collectives): the open
// database and the query helpers they share.
#pragma once

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {

namespace detail {

inline Error inFile(const std::string& path, const Error& error)
{
    return makeError(error.code, fmt::format("{}: {}", path, error.message));
}

// WHERE clause for ops overlapping a time window: rows are found through the (device,
// [stream,] start) indexes; `maxDurationNs` bounds how early an overlapping op can start.
struct WindowSql {
    std::string where;
    std::vector<std::int64_t> args;
};

inline WindowSql windowSql(const TimeQuery& q, bool hasDevice, std::int64_t maxDurationNs)
{
    WindowSql out;
    auto add = [&](std::string_view clause, std::int64_t value) {
        out.where += out.where.empty() ? " WHERE " : " AND ";
        out.where += fmt::format(fmt::runtime(clause), out.args.size() + 1);
        out.args.push_back(value);
    };
    if (hasDevice && q.deviceId)
        add("device_id = ?{}", *q.deviceId);
    if (hasDevice && q.streamId)
        add("stream_id = ?{}", *q.streamId);
    if (q.endNs)
        add("start_ns < ?{}", *q.endNs);
    if (q.startNs) {
        // Saturate: a hostile file may claim absurd durations.
        const std::int64_t lowest = *q.startNs > INT64_MIN + maxDurationNs ? *q.startNs - maxDurationNs : INT64_MIN;
        add("start_ns >= ?{}", lowest);
        add("end_ns > ?{}", *q.startNs);
    }
    return out;
}

} // namespace detail

struct SessionReader::Impl {
    using Statement = sqlite::Statement;

    sqlite::Database db;
    std::string path;
    bool fromFile = false; // opened from `path` (not from bytes in memory): reopen() can open it again
    int fileSchemaVersion = 0;
    struct MetricName {
        std::string name;
        std::string unit;
    };
    // What is read once per reader: a session never changes under its reader (forgetCachedRows()
    // for the row-editing fuzz targets, which change one). The small tables are read by every view
    // and report again and again (reading one session every way read the devices 40 times); the
    // copies returned cost a fraction of a query.
    struct RowCache {
        std::map<std::string, std::int64_t> maxDurations; // per table, computed on first windowed query
        std::optional<std::unordered_map<std::int64_t, MetricName>> metricNames; // metric_names by id
        std::optional<std::map<std::string, std::string>> meta;
        std::optional<std::vector<Device>> devices;
        std::optional<std::vector<Ceiling>> ceilings; // every device's
        std::optional<std::vector<Process>> processes;
        std::optional<std::vector<Thread>> threads;
        std::optional<std::vector<KernelName>> kernelNames;
        std::optional<TableCounts> counts;
        std::optional<TimeSpan> gpuTimeSpan;
    };
    RowCache cache;
    std::map<std::string, std::shared_ptr<const void>, std::less<>> derived; // SessionReader::derived

    // `slot`'s value, read with `load` the first time.
    template <typename T, typename Load> Result<T> once(std::optional<T>& slot, Load&& load)
    {
        if (!slot) {
            auto loaded = load();
            if (loaded.hasError())
                return loaded.error();
            slot = std::move(loaded).value();
        }
        return *slot;
    }

    // metric_names by id (a few hundred rows), read once.
    Result<const std::unordered_map<std::int64_t, MetricName>*> metricNames()
    {
        if (!cache.metricNames) {
            std::unordered_map<std::int64_t, MetricName> names;
            auto status = query("SELECT id, name, unit FROM metric_names", {}, [&](Statement& s) {
                names[s.columnInt(0)] = { s.columnText(1), s.columnText(2) };
                return true;
            });
            if (status.hasError())
                return status.error();
            cache.metricNames = std::move(names);
        }
        return &*cache.metricNames;
    }

    explicit Impl(sqlite::Database database)
        : db(std::move(database))
    { }

    // From the finished session's meta when it has it; else (partial or foreign files) one scan.
    Result<std::int64_t> maxDuration(const std::string& table)
    {
        if (auto it = cache.maxDurations.find(table); it != cache.maxDurations.end())
            return it->second;
        auto value
            = db.queryInt(fmt::format("SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{}{}'), "
                                      "(SELECT max(end_ns - start_ns) FROM {}), 0)",
                metakey::MaxDurationPrefix, table, table));
        if (value.hasError())
            return detail::inFile(path, value.error());
        const std::int64_t clamped = std::max<std::int64_t>(value.value(), 0);
        cache.maxDurations[table] = clamped;
        return clamped;
    }

    // The reader's queries are prepared once per session (sqlite::Database::prepareCached): the app
    // and the reports run the same few dozen again and again, and compiling them cost more than
    // running them on a session of a few thousand rows.
    Result<sqlite::CachedStatement> prepare(std::string_view sql)
    {
        auto stmt = db.prepareCached(sql);
        if (stmt.hasError())
            return detail::inFile(path, stmt.error());
        return stmt;
    }

    // Runs `sql` and calls `row` for each result row; `row` returns false to stop.
    template <typename RowFn> Status query(std::string_view sql, const std::vector<std::int64_t>& args, RowFn&& row)
    {
        auto stmt = prepare(sql);
        if (stmt.hasError())
            return stmt.error();
        auto& s = *stmt.value();
        for (std::size_t i = 0; i < args.size(); ++i)
            s.bind(static_cast<int>(i + 1), args[i]);
        for (;;) {
            auto step = s.step();
            if (step.hasError())
                return detail::inFile(path, step.error());
            if (step.value() == Statement::Step::Done)
                return {};
            if (!row(s))
                return {};
        }
    }

    // Runs `sql`, whose one parameter ?1 is an id, once per id of `ids` and calls `row` with the
    // result row of each id that has one.
    template <typename RowFn> Status lookupEach(std::string_view sql, const std::vector<std::int64_t>& ids, RowFn&& row)
    {
        auto stmt = prepare(sql);
        if (stmt.hasError())
            return stmt.error();
        auto& s = *stmt.value();
        for (const auto id : ids) {
            s.reset();
            s.bind(1, id);
            auto step = s.step();
            if (step.hasError())
                return detail::inFile(path, step.error());
            if (step.value() == Statement::Step::Row)
                row(id, s);
        }
        return {};
    }

    template <typename T, typename RowFn>
    Result<std::vector<T>> collect(std::string_view sql, const std::vector<std::int64_t>& args, RowFn&& convert)
    {
        std::vector<T> out;
        auto status = query(sql, args, [&](Statement& s) {
            out.push_back(convert(s));
            return true;
        });
        if (status.hasError())
            return status.error();
        return out;
    }

    template <typename RowFn>
    Status queryWindow(const char* table, std::string_view columns, const TimeQuery& q, bool hasDevice, RowFn&& row)
    {
        std::int64_t maxDur = 0;
        if (q.startNs) {
            auto md = maxDuration(table);
            if (md.hasError())
                return md.error();
            maxDur = md.value();
        }
        const auto window = detail::windowSql(q, hasDevice, maxDur);
        return query(
            fmt::format("SELECT {} FROM {}{} ORDER BY start_ns, id", columns, table, window.where), window.args, row);
    }

    template <typename T, typename RowFn>
    Result<std::vector<T>> collectWindow(
        const char* table, std::string_view columns, const TimeQuery& q, bool hasDevice, RowFn&& convert)
    {
        std::vector<T> out;
        auto status = queryWindow(table, columns, q, hasDevice, [&](Statement& s) {
            out.push_back(convert(s));
            return true;
        });
        if (status.hasError())
            return status.error();
        return out;
    }
};

} // namespace ridgeline::core
