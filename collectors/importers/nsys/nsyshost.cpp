// SPDX-License-Identifier: MIT
// Host side of an Nsight Systems export: CUDA runtime and driver calls, NVTX events, process and
// thread names, and the export's own metadata. Text is kept as bytes (it may not be UTF-8).
#include "nsysinternal.h"
#include "ridgeline/collectors/importers/nsysimporter.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::collectors::nsys {

core::Status readApiCalls(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    const std::pair<const char*, const char*> tables[]
        = { { "CUPTI_ACTIVITY_KIND_RUNTIME", "runtime" }, { "CUPTI_ACTIVITY_KIND_DRIVER", "driver" } };
    for (const auto& entry : tables) {
        // Plain variables, not structured bindings: clang 14 cannot capture those in lambdas.
        const char* table = entry.first;
        const char* domain = entry.second;
        if (!schema.has(table, "start") || !schema.has(table, "end"))
            continue;
        auto col = [&](std::string_view name, std::string_view fallback = "0") {
            return schema.column(table, name, fallback);
        };
        const auto sql = fmt::format("SELECT start, end, {}, {}, {}, {} FROM {} ORDER BY start", col("globalTid"),
            col("correlationId"), stringOf(schema, col("nameId", "NULL")), col("returnValue"), table);
        RIDGELINE_TRY(forEachRow(db, sql, table, [&](const core::sqlite::Statement& row) {
            core::ApiCall call;
            call.startNs = timeOf(row.columnInt(0));
            call.endNs = std::max(call.startNs, timeOf(row.columnInt(1)));
            const std::int64_t globalTid = row.columnInt(2);
            call.processId = pidOf(globalTid);
            call.threadId = tidOf(globalTid);
            call.correlationId = row.columnInt(3);
            call.domain = domain;
            call.name = row.columnIsNull(4) ? std::string("unnamed call") : row.columnText(4);
            call.returnCode = row.columnInt(5);
            activity.apiCalls.push_back(std::move(call));
        }));
    }
    return {};
}

core::Status readNvtx(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    constexpr const char* kTable = "NVTX_EVENTS";
    if (!schema.has(kTable, "start") || !schema.has(kTable, "eventType"))
        return {};
    auto col = [&](std::string_view name, std::string_view fallback = "NULL") {
        return schema.column(kTable, name, fallback);
    };
    const auto text = fmt::format("COALESCE({}, {})", col("text"), stringOf(schema, col("textId")));
    // Domain names first: a domain is created once, before its events.
    std::map<std::int64_t, std::string> domains;
    if (schema.has(kTable, "domainId")) {
        RIDGELINE_TRY(forEachRow(db,
            fmt::format("SELECT domainId, {} FROM {} WHERE eventType = {}", text, kTable, kNvtxDomainCreate), kTable,
            [&](const core::sqlite::Statement& row) { domains[row.columnInt(0)] = row.columnText(1); }));
    }
    const auto sql = fmt::format("SELECT start, {}, eventType, {}, {}, {}, {}, {} FROM {} WHERE eventType IN ({}, {}, "
                                 "{}) ORDER BY start",
        col("end"), text, col("globalTid", "0"), col("domainId", "0"), col("color", "0"), col("category", "0"), kTable,
        kNvtxMark, kNvtxPushPopRange, kNvtxStartEndRange);
    return forEachRow(db, sql, kTable, [&](const core::sqlite::Statement& row) {
        core::NvtxRange r;
        r.startNs = timeOf(row.columnInt(0));
        // Marks have no end; a range that never ended is kept as an instant.
        r.endNs = row.columnIsNull(1) || row.columnInt(2) == kNvtxMark ? r.startNs
                                                                       : std::max(r.startNs, timeOf(row.columnInt(1)));
        r.name = row.columnText(3);
        const std::int64_t globalTid = row.columnInt(4);
        r.processId = pidOf(globalTid);
        r.threadId = tidOf(globalTid);
        if (auto it = domains.find(row.columnInt(5)); it != domains.end())
            r.domain = it->second;
        r.color = static_cast<std::uint32_t>(row.columnInt(6));
        r.category = row.columnInt(7);
        activity.nvtxRanges.push_back(std::move(r));
    });
}

core::Status readProcessInfo(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    if (schema.has("PROCESSES", "globalPid")) {
        const auto sql = fmt::format("SELECT globalPid, {} FROM PROCESSES", schema.column("PROCESSES", "name", "NULL"));
        RIDGELINE_TRY(forEachRow(db, sql, "PROCESSES", [&](const core::sqlite::Statement& row) {
            activity.processNames[pidOf(row.columnInt(0))] = row.columnText(1);
        }));
    }
    if (schema.has("ThreadNames", "globalTid") && schema.has("ThreadNames", "nameId")) {
        const auto sql = fmt::format("SELECT globalTid, {} FROM ThreadNames", stringOf(schema, "nameId"));
        RIDGELINE_TRY(forEachRow(db, sql, "ThreadNames", [&](const core::sqlite::Statement& row) {
            const std::int64_t globalTid = row.columnInt(0);
            activity.threadNames[{ pidOf(globalTid), tidOf(globalTid) }] = row.columnText(1);
        }));
    }
    // The export's own name/value rows: EXPORT_META_DATA in schemas 2.x, META_DATA_EXPORT in 3.x
    // (EXPORT_PRODUCT_VERSION "2026.2.1.210", EXPORT_SCHEMA_VERSION "3.25.0", ...).
    for (const char* table : { "EXPORT_META_DATA", "META_DATA_EXPORT" }) {
        if (!schema.has(table, "name") || !schema.has(table, "value"))
            continue;
        RIDGELINE_TRY(forEachRow(db, fmt::format("SELECT name, value FROM {}", table), table,
            [&](const core::sqlite::Statement& row) { activity.exportMeta[row.columnText(0)] = row.columnText(1); }));
    }
    return {};
}

} // namespace ridgeline::collectors::nsys
